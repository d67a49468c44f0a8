# A seeded search with a playout budget in the deterministic mode gives the same moves on any
# number of threads: this script passes whatever --threads the engine runs with
# (`tengen regress --engine "tengen gtp --threads 8" gtp-tests/deterministic.tst`;
# tests/gtp_scripts.rs replays it on 1, 2 and 4 threads). The moves are tengen's own, so
# any change to the search's play changes them: regenerate them then with the commands
# below and any thread count. GNU Go plays other moves, and knows no kata-set-param.
# gnugo-known-failures: 10 11 12 13 20 21

boardsize 9
clear_board
komi 7
set_random_seed 11
kata-set-param deterministic true
kata-set-param playouts 2000
10 genmove b
#? [E3]
11 genmove w
#? [E6]
play b C3
12 genmove w
#? [G5]
13 genmove b
#? [E8]

boardsize 19
clear_board
kata-set-param playouts 1000
20 genmove b
#? [R3]
21 genmove w
#? [C16]
