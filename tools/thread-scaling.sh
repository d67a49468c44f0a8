#!/bin/sh
# Opt-in measurement (not run by CI): simulations a second of the full search at 1, 2, 4, 8
# and 16 threads (THREADS to change the list), on 9x9 and 19x19, empty board and middle
# game, one fresh process per figure. Meant for a machine with many cores; see
# docs/performance.md, "Thread scaling".
#
#   tools/thread-scaling.sh
#   THREADS="1 2" tools/thread-scaling.sh
set -eu
cd "$(dirname "$0")/.."
cargo build --release --quiet --example search_speed
speed=target/release/examples/search_speed
for position in "" middle; do
    for threads in ${THREADS:-1 2 4 8 16}; do
        echo "9x9 threads $threads: $($speed 9 300000 "$threads" $position)"
    done
    for threads in ${THREADS:-1 2 4 8 16}; do
        echo "19x19 threads $threads: $($speed 19 80000 "$threads" $position)"
    done
done
