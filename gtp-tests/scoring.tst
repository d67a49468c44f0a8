# Area scoring (Chinese rules) of finished positions, with and without dead stones.
# Black walls off columns A-D, white E-J: black 36 points, white 45, komi 7.5.
# Also territory scoring (Japanese rules) of a seki.
# gnugo-known-failures: 30 31 60 61 62 64 67 68 69 70 71 72 73 85 86 87 90 91 92
#   30/31: tengen-count is tengen's own command.
#   64: GNU Go ignores kata-set-rules and counts by area: W+12.5.
#   67/68: GNU Go calls the white chain of a seki dead (B+19.5, no seki).
#   69/70: GNU Go calls the white chain of a seki dead (B+15.5, no seki); 71: it enforces only
#   simple ko, so the retake that repeats the board is legal for it.
#   72/73: GNU Go calls the black corner chain of a seki dead (W+18.5, no seki).
#   60-62: GNU Go's count calls a chain dead by a five-stone sacrifice a seki (W+66.5).
#   85-87, 90-92: GNU Go calls the enclosed white chain of a seki dead (issue #47).

boardsize 9
clear_board
komi 7.5
play b D1
play b D2
play b D3
play b D4
play b D5
play b D6
play b D7
play b D8
play b D9
play w E1
play w E2
play w E3
play w E4
play w E5
play w E6
play w E7
play w E8
play w E9
10 final_score
#? [W\+16\.5]

11 final_status_list dead
#? []

# A dead white stone inside black's area changes nothing.
play w B5
20 final_score
#? [W\+16\.5]

21 final_status_list dead
#? [B5]

# The same count in the Chinese convention: 36 stones against 40.5 + 3.75.
30 tengen-count
#? [黑 36 子，负 8 又 1/2 子\nBlack 36 stones, loses by 8 1/2 stones]

# With komi -9.5 black wins by half a point.
komi -9.5
31 final_score
#? [B\+0\.5]

# A finished game (tengen against GNU Go, 2026-11-29): white's G7-G6 is in atari inside
# black's area. Whoever moves first decides it, so random continuations are split on it;
# but the capture is there, and no chain in seki is in atari: it is dead, as GNU Go says.
loadsgf sgf/atari-at-the-end.sgf
40 final_score
#? [W\+0\.5]

41 final_status_list dead
#? [H8\nG7 G6\nG3]

42 final_status_list seki
#? []

# A finished game (GNU Go against tengen, 2026-11-29): white's top-left group and black's
# B9 share the liberties A9 and C9. It looks like seki, but black kills by sacrificing two
# stones at A9 (white must take them at C9 and is left a two-point eye). Playouts that
# never put two stones in atari counted it as seki, and tengen said W+14.5.
loadsgf sgf/shortage-of-liberties.sgf
50 final_score
#? [B\+1\.5]

51 final_status_list dead
#? [D9 E9 A8 B8 C8 D8 B7\nB5\nE2 F2]

52 final_status_list seki
#? []

# A finished game (Pachi against tengen at 0.5 s a move, 2026-12-07): white's fourteen
# stones top left and black's A8-B8-A7 share the liberties A9 and B7. It looks like seki,
# but black kills by giving up four stones: at B7 white must take a square four, at A9 a
# pyramid four, and neither makes two eyes. Playouts that never put four stones in atari
# counted it as seki, and tengen said W+4.5.
loadsgf sgf/square-four-sacrifice.sgf
93 final_score
#? [B\+25\.5]

94 final_status_list dead
#? [B9 C9 D9 E9 C8 C7 E7 A6 B6 C6 D6 E6 C5 D5\nG2 H2\nE1]

95 final_status_list seki
#? []

# A finished 19x19 game (tengen against GNU Go level 10, 2026-12-07): bottom left, black's
# fifteen stones D7-D1, with an eye at C4, and white's A2-B2-B1, with an eye at A1, share
# the liberty C2: a seki, whoever fills C2 is captured. White at C2 gives up four stones
# and leaves black in atari, but black keeps C4: the capture gives black two eyes, not a
# dead shape. Playouts that made the sacrifice anyway counted white dead and tengen said
# B+3.5.
loadsgf sgf/seki-eye-and-shared-liberty-19x19.sgf
96 final_score
#? [W\+5\.5]

97 final_status_list seki
#? [D7 D6 C5 D5 B4 D4 E4 F4 A3 B3 C3 D3 D2 C1 D1\nA2 B2 B1]

# A finished game (GNU Go against tengen, 2026-11-30): black's corner chain G3-H1 has two
# liberties, J2 and J1, and white's E3-D2 and G2-F1 share one, F2. If white throws in at
# J1, taking that stone at J2 leaves black one liberty and white takes all back at J1; the
# answer is F2, capturing both white chains. Settling playouts that took the stone counted
# black's corner dead, and tengen said W+18.5.
loadsgf sgf/snapback-capture.sgf
55 final_score
#? [W\+0\.5]

56 final_status_list dead
#? [E3 F3 D2 E2\nG2 F1 G1]

# A finished game (tengen against GNU Go at one second a move, 2026-11-30): black's last
# stone, J5, is in atari with white to move. Taking it at J4 starts a ko, which the taker
# wins once both have passed: J5 is dead, and J5 and J4 are white's. tengen's playouts,
# retaking at random, kept the stone; it counted B+3.5, passed, and lost W+0.5.
loadsgf sgf/stone-in-atari-at-the-end.sgf
57 final_score
#? [W\+0\.5]

58 final_status_list dead
#? [J5\nD3 E3]

# Not a seki, though it looks like one: black's eyeless chain inside white's wall shares
# its two liberties, C1 and D2, with the white stones inside it, but white kills by giving
# up five at D2. Black must take them at C1 and is left a bulky five (C3 D3 C2 D2 D1),
# whose vital point D2 white takes again: no two eyes. So black's ten stones are dead and
# the board is white's, W+88.5. (GNU Go's count calls it seki, W+66.5, but its reading
# agrees: after D2, C1, D2 its dragon_status of B4 is dead.) tengen called it seki until
# its playouts gave up four to six stones for a dead shape.
boardsize 9
clear_board
komi 7.5
play b B4
play b C4
play b D4
play b E4
play b B3
play b E3
play b B2
play b E2
play b B1
play b E1
play w A5
play w B5
play w C5
play w D5
play w E5
play w F5
play w A4
play w F4
play w A3
play w F3
play w A2
play w F2
play w A1
play w F1
play w C3
play w D3
play w C2
play w D1
60 final_score
#? [W\+88\.5]

61 final_status_list dead
#? [B4 C4 D4 E4 B3 E3 B2 E2 B1 E1]

62 final_status_list seki
#? []

# Seki with eyes: black's chain has the eye A4, white's the eye D4, and they share B1;
# whoever plays B1 is captured. Both chains live: under territory scoring (Japanese rules)
# only komi counts, W+6.5 (the eyes, one point each, count for nobody; src/score/tests.rs
# pins that), where calling the black chain dead would give W+25.5. Under area scoring the
# stones and eyes count: black 8 stones and A4, white 14 stones and D4, W+12.5.
boardsize 5
clear_board
kata-set-rules japanese
komi 6.5
play b A5
play b B5
play b B4
play b A3
play b B3
play b A2
play b B2
play b A1
play w C5
play w D5
play w E5
play w C4
play w E4
play w C3
play w D3
play w E3
play w C2
play w D2
play w E2
play w C1
play w D1
play w E1
63 final_status_list seki
#? [A5 B5 B4 A3 B3 A2 B2 A1\nC5 D5 E5 C4 E4 C3 D3 E3 C2 D2 E2 C1 D1 E1]

64 final_score
#? [W\+6\.5]

kata-set-rules chinese
66 final_score
#? [W\+12\.5]

# A seki from a 19x19 game against GNU Go: white's ten stones A5-E1 and black's three A1 A2
# B1 share their only liberties, A3 and C1, and whoever plays on one is captured first.
# Both chains live; the count gives the game to white by 2.5 (the referee scored B+19.5).
loadsgf sgf/seki-19x19.sgf
67 final_status_list seki
#? [A5 A4 B4 B3 C3 B2 C2 D2 D1 E1\nA2 A1 B1]

68 final_score
#? [W\+2\.5]

# A seki under positional superko, from a 9x9 game at one second per move against GNU Go
# (game 98 of the 41b1204 run, tengen white): white's eight stones F9-J6 and black's H9 and
# J8 share the liberties G9 and J7. White cannot fill either (J9 is suicide, G9 or J7 gets
# the whole chain captured). When black throws in at G9, white takes two stones at J9, and
# black's retake at H9 would recreate the whole board: superko forbids it, and white then
# takes J8 at J7. So both sides live; the count gives white the game by 2.5 (the referee
# called white dead and scored B+15.5).
loadsgf sgf/seki-superko-9x9.sgf
69 final_status_list seki
#? [F9 F8 G8 H8 G7 H7 H6 J6\nH9\nJ8]

70 final_score
#? [W\+2\.5]

play b G9
play w J9
71 is_legal b H9
#? [0]

# A corner seki from a 19x19 game at 3,000 playouts against GNU Go (seed 127, tengen black):
# black's nine stones Q19-T15 and white's S19 T19 T18 share their only liberties, R19 and
# T17; whoever fills one is captured first. Both chains live, and the count gives black the
# game by 1.5 (the referee called black's corner dead and scored W+18.5).
loadsgf sgf/seki-corner-19x19.sgf
72 final_status_list seki
#? [Q19 Q18 R18 S18 R17 S17 S16 T16 T15\nS19 T19 T18]

73 final_score
#? [B\+1\.5]

# The first game of issue #47 (lower right), taken there for a seki, which it is not:
# white's nine stones H5-H1 are enclosed by black and share their last two liberties, J4
# and H3, with black's eyeless J3 H2 J2 J1. Black kills by giving up five at H3: white
# must take them at J4 and is left a bulky five, whose vital point J2 black takes. GNU Go
# was right to call white's chain dead: black 43 (24 stones, 19 points) gains 9 + 9 + 2,
# B+19.5. Counted as a seki it would be W+0.5 (white 36: 18 stones, 18 points).
#
#   . . O X . . . . .
#   . . O X . . . . .
#   . . O X . . . . .
#   . . O X . . X X X
#   . . O X . X X O O
#   . . O X . X O O .
#   . . O X X X O . X
#   . . O X X O O X X
#   . . O X X X O O X
boardsize 9
clear_board
komi 7.5
play b D9
play b D8
play b D7
play b D6
play b G6
play b H6
play b J6
play b D5
play b F5
play b G5
play b D4
play b F4
play b D3
play b E3
play b F3
play b J3
play b D2
play b E2
play b H2
play b J2
play b D1
play b E1
play b F1
play b J1
play w C9
play w C8
play w C7
play w C6
play w C5
play w H5
play w J5
play w C4
play w G4
play w H4
play w C3
play w G3
play w C2
play w F2
play w G2
play w C1
play w G1
play w H1
play b pass
play w pass
80 final_score
#? [B\+19\.5]

81 final_status_list seki
#? []

82 final_status_list dead
#? [H5 J5 G4 H4 G3 F2 G2 G1 H1]

# Seki of issue #47, second game (lower right): white's eight stones H4-F1 are enclosed and
# share their last two liberties, J3 and G1, with black's J2 H1 J1. Black 35 (18 stones, 17
# points), white 44 (17 stones, 27 points), W+16.5; GNU Go calls white dead, B+1.5.
#
#   . . . O X . . . .
#   . . . O X . . . .
#   . . . O X . . . .
#   . . . O X . . . .
#   . . . O X . X X X
#   . . . O X X X O O
#   . . . O X X O O .
#   . . . O X O O O X
#   . . . O X O . X X
boardsize 9
clear_board
komi 7.5
play b E9
play b E8
play b E7
play b E6
play b E5
play b G5
play b H5
play b J5
play b E4
play b F4
play b G4
play b E3
play b F3
play b E2
play b J2
play b E1
play b H1
play b J1
play w D9
play w D8
play w D7
play w D6
play w D5
play w D4
play w H4
play w J4
play w D3
play w G3
play w H3
play w D2
play w F2
play w G2
play w H2
play w D1
play w F1
play b pass
play w pass
85 final_score
#? [W\+16\.5]

86 final_status_list seki
#? [H4 J4 G3 H3 F2 G2 H2 F1\nJ2 H1 J1]

87 final_status_list dead
#? []

# Seki of issue #47, third game (lower left): white's eleven stones D4-F1 are enclosed and
# share their last two liberties, A2 and C2, with black's A1 B1 C1. Black 41 (25 stones, 16
# points), white 38 (20 stones, 18 points), W+4.5; GNU Go calls white dead, B+19.5.
#
#   . . . . . . . . .
#   . . . . . . . . .
#   O O O O O O O O O
#   X X X X X X X X X
#   . . X X X . . . .
#   X X X O X X . . .
#   O O O O O X . . .
#   . O . O X X X . .
#   X X X O O O X . .
boardsize 9
clear_board
komi 7.5
play b A6
play b B6
play b C6
play b D6
play b E6
play b F6
play b G6
play b H6
play b J6
play b C5
play b D5
play b E5
play b A4
play b B4
play b C4
play b E4
play b F4
play b F3
play b E2
play b F2
play b G2
play b A1
play b B1
play b C1
play b G1
play w A7
play w B7
play w C7
play w D7
play w E7
play w F7
play w G7
play w H7
play w J7
play w D4
play w A3
play w B3
play w C3
play w D3
play w E3
play w B2
play w D2
play w D1
play w E1
play w F1
play b pass
play w pass
90 final_score
#? [W\+4\.5]

91 final_status_list seki
#? [D4 A3 B3 C3 D3 E3 B2 D2 D1 E1 F1\nA1 B1 C1]

92 final_status_list dead
#? []
