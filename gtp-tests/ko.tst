# Ko and positional superko (the Chinese rule): the immediate retake is illegal, and so is any
# move that recreates an earlier whole-board position, passes in between included.
# gnugo-known-failures: 14 15 22 31
#   14, 15, 22: GNU Go enforces only simple ko, so it allows both repetitions.
#   31: GNU Go has no kata-set-rules (32 passes for it all the same, under simple ko).

boardsize 5
clear_board
play b B5
play b A4
play b B3
play w C5
play w B4
play w D4
play w C3

10 play b C4
#? []

11 is_legal w B4
#? [0]

12 play w pass
#? []

13 play b pass
#? []

# The passes lifted the simple-ko ban, but the retake recreates the position before C4.
14 is_legal w B4
#? [0]

play w B4
15 color C4
#? [black]

# Sending two, returning one: black throws in at A1, white takes two at C1, and black's
# recapture at B1 would recreate the position before the throw-in.
boardsize 5
clear_board
play w A3
play w B3
play w A2
play w B2
play b C3
play b C2
play b B1
play b D1
20 play b A1
#? []

21 play w C1
#? []

22 is_legal b B1
#? [0]

# Under situational superko the same recapture is legal: the earlier position arose after a
# white move, this one after a black move.
boardsize 5
clear_board
31 kata-set-rules {"ko":"SITUATIONAL"}
#? []

play b C3
play b C2
play b B1
play b D1
play w A3
play w B3
play w A2
play w B2
play b A1
play w C1
32 play b B1
#? []
