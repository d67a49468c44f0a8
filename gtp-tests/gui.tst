# What GUIs and servers send in a game: time_left before each genmove, undo after a genmove,
# kgs-genmove_cleanup then final_status_list, and genmove w and final_score in a handicap
# game (Chinese rules: white receives one point per handicap stone).
# gnugo-known-failures: 22 23 31 40 50
#   22-23: GNU Go 3.8 scores the empty 9x9 board as B+5.5 under komi 7.5 (its estimate
#   gives the whole board to black; by area it is W+7.5).  31: GNU Go's cleanup plays B7,
#   inside black's own area, not at the dead stone.  40: GNU Go lists the fixed handicap of
#   2 on 9x9 as "G7 C3".  50: GNU Go's cleanup plays Q9, black's own eye, leaving Q1.

# A small playout budget keeps the script fast; GNU Go knows no kata-set-param.
kata-set-param playouts 400

# A clock as Sabaki and GoGui keep it: time_left before every genmove.
boardsize 9
clear_board
komi 7.5
time_settings 10 0 0
10 time_left b 10 0
#? []
11 genmove b
#? [[A-HJ][1-9]]
12 time_left w 9 0
#? []
13 genmove w
#? [[A-HJ][1-9]]
14 time_left b 2 0
#? []
15 genmove b
#? [[A-HJ][1-9]|pass]

# Undo after genmove takes back the generated move: the board is empty again, and a second
# undo (refused: nothing left to take back) leaves it so.
boardsize 9
clear_board
time_settings 0 1 0
20 genmove b
#? [[A-HJ][1-9]]
21 undo
#? []
22 final_score
#? [W\+7\.5]
undo
23 final_score
#? [W\+7\.5]

# Cleanup: black walls off columns A-D, white walls off F-J, a white stone at B5 is dead.
# kgs-genmove_cleanup plays at a liberty of the dead stone (not in its own area elsewhere
# and not a pass), and final_status_list still calls it dead afterwards.
boardsize 9
clear_board
komi 7.5
play b E1
play w F1
play b E2
play w F2
play b E3
play w F3
play b E4
play w F4
play b E5
play w F5
play b E6
play w F6
play b E7
play w F7
play b E8
play w F8
play b E9
play w F9
play w B5
30 final_status_list dead
#? [B5]
31 kgs-genmove_cleanup b
#? [A5|B4|B6|C5]
32 final_status_list dead
#? [B5]

# A handicap game on 9x9: two black stones, white moves first and the score gives white
# the two points. Black walls off A-D, white E-J; the handicap stone at G7 is dead.
boardsize 9
clear_board
komi 0.5
40 fixed_handicap 2
#? [C3 G7]
41 genmove w
#? [[A-HJ][1-9]]
42 undo
#? []
43 color C3
#? [black]
play w E1
play b D1
play w E2
play b D2
play w E3
play b D3
play w E4
play b D4
play w E5
play b D5
play w E6
play b D6
play w E7
play b D7
play w E8
play b D8
play w E9
play b D9
44 final_status_list dead
#? [G7]
45 final_score
#? [W\+11\.5]

# A cleanup after a seki both opponents called dead, which white then broke by filling a
# shared liberty (R2): both chains are in atari on Q1, and black takes it rather than
# resigning (a 19x19 game against Pachi was lost so).
loadsgf sgf/seki-broken-in-cleanup-19x19.sgf
50 kgs-genmove_cleanup b
#? [Q1]
