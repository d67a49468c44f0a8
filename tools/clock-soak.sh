#!/bin/sh
# Opt-in clock soak (not run by CI): tengen against tengen on 9×9 under a real clock, many
# games, to show that it never loses on time. The match runner keeps both clocks, sends
# `time_settings` and a `time_left` before every move, and calls a move that runs over by
# more than LAG seconds a loss on time. The first engine (A) thinks on two threads and
# ponders on the opponent's time, so with two games at a time on two cores the engines
# compete for the CPU: the clock has to hold under load too. Colours alternate.
#
#   tools/clock-soak.sh [GAMES]            (default 200)
#   CLOCK="10 0 0" tools/clock-soak.sh 100 (absolute time: 10 s a game each)
#
# CLOCK: GTP time settings "MAIN BYO STONES" (default "3 2 5": 3 s of main time, then 5
# stones in every 2 s, Canadian overtime). LAG: seconds a move may run over (default 0.1).
# RESULTS: the results file (a run started again with it resumes); without it the records
# go to target/clock-soak-DATE/. Prints the match summary (each engine's mean and longest
# move among it), then the time losses and the longest move of all; exits 1 if any game was
# lost on time.
set -eu
cd "$(dirname "$0")/.."
games=${1:-200}
case "$games" in
'' | *[!0-9]*) echo "clock-soak.sh: GAMES must be a number" >&2; exit 2 ;;
esac
clock=${CLOCK:-3 2 5}
lag=${LAG:-0.1}
if [ -n "${RESULTS:-}" ]; then
    out=$(dirname "$RESULTS")
    results=$RESULTS
else
    out=target/clock-soak-$(date +%Y%m%d-%H%M%S)
    results=$out/results.jsonl
fi
mkdir -p "$out"
cargo build --release --quiet
engine=$out/tengen
cp target/release/tengen "$engine"
"$engine" match \
    --black "$engine gtp --threads 2 --ponder --seed {game}" \
    --white "$engine gtp --threads 1 --seed {game}" \
    --size 9 --komi 7.5 --games "$games" --alternate --openings openings/9x9 \
    --time-settings "$clock" --lag "$lag" --parallel 2 --results "$results"
losses=$(grep -c 'lost on time' "$results" || true)
echo "clock soak: $(wc -l <"$results") games under time_settings $clock, lag $lag s"
echo "time losses: $losses"
longest=$(grep -o '"[a-z]*_max_seconds":[0-9.]*' "$results" | cut -d: -f2 | sort -g | tail -1)
echo "longest move: $longest s"
[ "$losses" = 0 ]
