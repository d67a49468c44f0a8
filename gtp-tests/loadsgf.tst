# loadsgf: size, komi, handicap and setup stones from the file; with a move number, the
# position before that move. Paths are relative to this folder.
# gnugo-known-failures: 10 13 16 20 23 24 26 30 31
#   10, 13, 20, 24: GNU Go answers loadsgf with the colour to move, not an empty response.
#   26: GNU Go gives white no points for a loaded record's handicap stones (W+9.5).
#   16, 23: GNU Go writes get_komi's answer with a leading space.
#   30, 31: GNU Go exits on the truncated file sgf/broken.sgf.

10 loadsgf sgf/opening.sgf
#? []

# All six moves are on the board.
11 color E5
#? [black]

12 color C7
#? [white]

13 loadsgf sgf/opening.sgf 3
#? []

# Before move 3: E5 and C7 are played, G7 is not.
14 color G7
#? [empty]

15 color C7
#? [white]

16 get_komi
#? [7\.5]

# Handicap record: stones from AB, then white G5 and black E3.
20 loadsgf sgf/handicap.sgf
#? []

21 color C7
#? [black]

22 color G5
#? [white]

23 get_komi
#? [0\.5]

# A handicap record played out: final_score gives white the two handicap points on top of
# komi (black 36, white 45 with the dead G7 removed: 36 - 45 - 0.5 - 2).
24 loadsgf sgf/handicap-walls.sgf
#? []

25 final_status_list dead
#? [G7]

26 final_score
#? [W\+11\.5]

# A failed load leaves the game as it was (the handicap record loaded again first).
loadsgf sgf/handicap.sgf
loadsgf sgf/missing.sgf
loadsgf sgf/broken.sgf
30 color G5
#? [white]

31 query_boardsize
#? [9]
