# Area scoring (Chinese rules) of finished positions, with and without dead stones.
# Black walls off columns A-D, white E-J: black 36 points, white 45, komi 7.5.
# Also territory scoring (Japanese rules) of a seki.
# gnugo-known-failures: 30 31 64 67 68 69 70 71 72 73
#   30/31: tengen-count is tengen's own command.
#   64: GNU Go ignores kata-set-rules and counts by area: W+12.5.
#   67/68: GNU Go calls the white chain of a seki dead (B+19.5, no seki).
#   69/70: GNU Go calls the white chain of a seki dead (B+15.5, no seki); 71: it enforces only
#   simple ko, so the retake that repeats the board is legal for it.
#   72/73: GNU Go calls the black corner chain of a seki dead (W+18.5, no seki).

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

# A real seki: black's eyeless chain inside white's wall shares its two liberties, C1 and
# D2, with the white stones inside it. Whoever plays there first is captured, so all of
# them live and C1 and D2 count for nobody: white 69 (18 stones and 51 points), black 10.
# The settling playouts' sacrifices must not break it (GNU Go agrees).
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
#? [W\+66\.5]

61 final_status_list dead
#? []

62 final_status_list seki
#? [B4 C4 D4 E4 B3 E3 B2 E2 B1 E1\nC3 D3 C2\nD1]

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
