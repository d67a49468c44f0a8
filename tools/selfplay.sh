#!/bin/sh
# Opt-in self-play test (not run by CI): tengen with one set of options (A) against tengen
# with another (B), colours alternating, a fixed number of playouts (or a time) a move on
# one thread, two games at a time, stopping when SPRT(0, 30) decides: the way the recent
# rows of the self-play ladder in docs/strength.md were measured.
#
#   tools/selfplay.sh GAMES PLAYOUTS "A's options" ["B's options"]
#   tools/selfplay.sh 500 1000 "--param criticality=0.1"
#   SIZE=19 tools/selfplay.sh 400 1000 "--param criticality=0.3" "--param criticality=0.2"
#   A_ENV="EXP_KNOB=1" tools/selfplay.sh 500 1000 ""
#       (an experiment's temporary knob that a work-tree build reads from the environment;
#       the committed engine reads none)
#   tools/selfplay.sh 400 0.5s "--param exploration=0.03"
#
# PLAYOUTS may also be a time a move, e.g. 0.5s or 1s: each side thinks that long
# (`--time`), the strength issue's time controls (at least 0.5 s on 9×9, 1 s on 19×19).
# Two games still run at a time, one thread an engine: in each game one engine thinks while
# the other waits, so two cores give each thinking engine a core. Timed games do not replay.
#
# SIZE: board size (default 9; 9×9 games start from the openings in openings/9x9, other
# sizes from the empty board). RESULTS: the results file; a match started again with the
# same file resumes where it stopped (the seeds go on with the game numbers). Without it the
# records go to target/selfplay-DATE/. BIN: the engine binary (default: a copy of
# target/release/tengen, built first, so that a rebuild cannot change the engine halfway).
# B_BIN: another binary for B, to compare a code change with the commit before it (build
# the old commit, copy its binary aside, pass it here; A plays BIN).
# Both sides get `--seed {game}`: with one thread and fixed playouts a game replays exactly.
set -eu
cd "$(dirname "$0")/.."
if [ $# -lt 3 ]; then
    echo "usage: tools/selfplay.sh GAMES PLAYOUTS \"A's options\" [\"B's options\"]" >&2
    exit 2
fi
games=$1
playouts=$2
a_options=$3
b_options=${4:-}
size=${SIZE:-9}
openings=""
if [ "$size" = 9 ]; then openings="--openings openings/9x9"; fi
case "$games" in
'' | *[!0-9]*) echo "selfplay.sh: GAMES must be a number" >&2; exit 2 ;;
esac
. tools/budget.sh
budget=$(budget_option selfplay.sh "$playouts") || exit 2
if [ -n "${RESULTS:-}" ]; then
    out=$(dirname "$RESULTS")
    results=$RESULTS
else
    out=target/selfplay-$(date +%Y%m%d-%H%M%S)
    results=$out/results.jsonl
fi
mkdir -p "$out"
if [ -n "${BIN:-}" ]; then
    engine=$BIN
else
    cargo build --release --quiet
    engine=$out/tengen
    cp target/release/tengen "$engine"
fi
b_engine=${B_BIN:-$engine}
side() {
    echo "env ${1:-} $2 gtp $budget --threads 1 --seed {game} $3"
}
exec "$engine" match \
    --black "$(side "${A_ENV:-}" "$engine" "$a_options")" \
    --white "$(side "${B_ENV:-}" "$b_engine" "$b_options")" \
    --size "$size" --komi 7.5 --games "$games" --alternate $openings \
    --parallel 2 --results "$results" --sprt 0,30
