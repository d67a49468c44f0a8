# Bad input is refused and leaves the game as it was. Under gogui-regress semantics an error
# answer fails a numbered test, so each bad command is sent unnumbered and the numbered
# commands after it check that nothing changed (the exact error texts are pinned by the
# Rust tests in tests/gtp_protocol.rs).
# gnugo-known-failures: 10 11 20 21 22 30 31
#   GNU Go is lax here: it accepts boardsize 4294967305 and 1, and komi 7.5x and nan; on
#   the 1x1 board it is left with, 22, 30 and 31 fail too.

boardsize 9
clear_board
komi 6.5
play b E5

boardsize 4294967305
boardsize 1
boardsize 26
boardsize nine
10 query_boardsize
#? [9]

11 color E5
#? [black]

komi 7.5x
komi nan
komi
20 get_komi
#? [6\.5]

play b A1.5
play b Z99
play b I5
play purple D4
play b
genmove
fixed_handicap x
undo extra
frobnicate
21 color E5
#? [black]

22 is_legal b A1
#? [1]

23 color A1
#? [empty]

# The stone on E5 is still there and the board is still 9x9.
30 is_legal w E5
#? [0]

31 play w J9
#? []
