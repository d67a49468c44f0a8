# Captures: single stones, on the edge and in the corner, and the points they free.

boardsize 9
clear_board

# Single stone in the middle: white E5 surrounded.
play w E5
play b D5
play b F5
play b E6
10 play b E4
#? []

11 color E5
#? [empty]

# Filling the hole again would be suicide for white.
12 is_legal w E5
#? [0]

# Corner: white A1 taken with two stones.
play w A1
play b A2
20 play b B1
#? []

21 color A1
#? [empty]

# Edge: black J2 taken by white J3; the edge stones hold.
clear_board
play b H1
play w G1
play w J1
play w H2
30 color H1
#? [empty]

31 play b J2
#? []

32 play w J3
#? []

33 color J2
#? [empty]

34 play w J2
#? []

# H1 is surrounded by one white chain with liberties elsewhere: suicide for black.
35 is_legal b H1
#? [0]
