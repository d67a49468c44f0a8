# Undo takes back moves to any depth, captures and passes included.

boardsize 9
clear_board
play b E5
play w D5
10 undo
#? []

11 color D5
#? [empty]

12 play w D5
#? []

13 undo
#? []

14 undo
#? []

# Nothing left to undo: the board stays empty.
undo
15 color E5
#? [empty]

# Undoing a capture brings the captured stone back.
play w E5
play b D5
play b F5
play b E6
play b E4
20 color E5
#? [empty]

21 undo
#? []

22 color E5
#? [white]

23 color E4
#? [empty]

# Passes are moves for undo too.
play w pass
30 undo
#? []

31 play b pass
#? []
