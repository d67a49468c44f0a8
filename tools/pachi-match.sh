#!/bin/sh
# Opt-in strength check (not run by CI): tengen against Pachi 12.90 (built without its neural
# network from ../shared/peers, the first time into $PACHI_DIR, default $HOME/pachi) at equal
# time, one thread each, komi 7.5, colours alternating, GNU Go 3.8 as referee (matches are
# scored with the cleanup phase where the counts differ; see the README's Matches section).
# 9x9 starts from the openings in openings/9x9; SIZE=19 plays on 19x19 without openings.
#
# Pachi under a clock stops far short of its time, so it gets a fixed number of simulations
# a move that take about as long as tengen's moves: PACHI_SIMS, default 12500 on 9x9 (0.52 s
# a move on this machine class on 2026-12-07, where 13000 took 0.52-0.57 s and 7500 0.35 s)
# and 4000 on 19x19 (0.94-1.07 s in three runs, where 4500 took 0.93-1.18 s and 3500
# 0.75-0.95 s). Check both engines' mean seconds per move in the summary (within 10 % of
# each other) and adjust PACHI_SIMS.
#
# TENGEN is a time such as 0.5s (seconds a move) or a number of playouts a move. Both engines
# are seeded with the game number, or with SEED_OFFSET plus it (new games at the same
# settings). Records and a results file go to target/pachi-match-DATE/; run the printed match
# command again to resume.
#
#   tools/pachi-match.sh GAMES TENGEN [more tengen gtp options]
#   tools/pachi-match.sh 100 0.5s
#   SIZE=19 tools/pachi-match.sh 40 1s
#   SIZE=19 PACHI_SIMS=3000 tools/pachi-match.sh 8 3000    (equal simulations)
set -eu
cd "$(dirname "$0")/.."
games=${1:-20}
tengen_budget=${2:-0.5s}
size=${SIZE:-9}
if [ $# -ge 2 ]; then shift 2; else shift $#; fi
case "$size" in
9) openings="--openings openings/9x9"; default_sims=12500 ;;
19) openings=""; default_sims=4000 ;;
*) openings=""; default_sims=5000 ;;
esac
sims=${PACHI_SIMS:-$default_sims}
case "$sims" in
'' | *[!0-9]*) echo "pachi-match.sh: PACHI_SIMS must be a number" >&2; exit 2 ;;
esac
. tools/budget.sh
budget=$(budget_option pachi-match.sh "$tengen_budget") || exit 2
offset=${SEED_OFFSET:-0}
case "$offset" in
'' | *[!0-9]*) echo "pachi-match.sh: SEED_OFFSET must be a number" >&2; exit 2 ;;
esac
pachi_dir=${PACHI_DIR:-$HOME/pachi}
if ! [ -x "$pachi_dir/pachi" ]; then
    if ! [ -x ../shared/peers/build-pachi.sh ] && ! [ -f ../shared/peers/build-pachi.sh ]; then
        echo "pachi-match.sh: no Pachi in $pachi_dir and no ../shared/peers/build-pachi.sh to build it" >&2
        exit 2
    fi
    bash ../shared/peers/build-pachi.sh "$pachi_dir"
fi
[ -x /usr/games/gnugo ] || { echo "pachi-match.sh: needs GNU Go as referee (apt-get install gnugo)" >&2; exit 2; }
cargo build --release --quiet
out=target/pachi-match-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
# Every game starts the engine afresh: play a copy, so that a rebuild during the match
# cannot change the engine halfway through.
cp target/release/tengen "$out/tengen"
set -x
exec "$out/tengen" match \
    --black "sh -c 'exec $out/tengen gtp $budget --threads 1 --seed \$(($offset + {game})) $*'" \
    --white "bash -c 'cd $pachi_dir && exec ./pachi -D -t =$sims threads=1 -s \$(($offset + {game}))'" \
    --referee "/usr/games/gnugo --mode gtp --chinese-rules" \
    --size "$size" --komi 7.5 --games "$games" --alternate $openings \
    --parallel 2 --sgf-dir "$out" --results "$out/results.jsonl"
