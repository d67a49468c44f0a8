# Fixed handicap placement as the GTP specification lists it, free placement, and the errors.
# gnugo-known-failures: 10 12 20 30 40 42 70 71 72
#   10-42: GNU Go places the same points but lists them in another order than the GTP
#   specification's table.  70-72: GNU Go accepts a repeated vertex in set_free_handicap.

boardsize 19
clear_board
10 fixed_handicap 9
#? [D4 Q16 D16 Q4 D10 Q10 K4 K16 K10]

# A second placement on a board with stones is refused.
fixed_handicap 2
11 color C3
#? [empty]

boardsize 19
clear_board
12 fixed_handicap 3
#? [D4 Q16 D16]

boardsize 13
clear_board
20 fixed_handicap 5
#? [D4 K10 D10 K4 G7]

boardsize 9
clear_board
30 fixed_handicap 5
#? [C3 G7 C7 G3 E5]

# Too many or too few stones for 9x9 place nothing.
boardsize 9
clear_board
fixed_handicap 10
fixed_handicap 1
31 color C3
#? [empty]

boardsize 7
clear_board
40 fixed_handicap 4
#? [C3 E5 C5 E3]

boardsize 7
clear_board
fixed_handicap 5
41 color C3
#? [empty]

boardsize 8
clear_board
42 fixed_handicap 4
#? [C3 F6 C6 F3]

# No fixed handicap below 7x7.
boardsize 6
clear_board
fixed_handicap 2
60 color C3
#? [empty]

# Free placement by list: repeated points, passes and single stones are refused.
boardsize 9
clear_board
set_free_handicap C3 C3
set_free_handicap C3 pass
set_free_handicap C3
70 color C3
#? [empty]

71 set_free_handicap C3 G7
#? []

72 color G7
#? [black]

73 is_legal w C3
#? [0]

boardsize 9
clear_board
80 place_free_handicap 3
#? [[A-HJ][1-9]( [A-HJ][1-9]){2}]
