#!/bin/sh
# Opt-in strength check (not run by CI): tengen against GNU Go 3.8 at level 10 on 9x9,
# komi 7.5, colours alternating, from the openings in openings/9x9, GNU Go as referee.
# SIZE=19 (or any other size) plays on that board instead, without openings.
# Needs `apt-get install gnugo`. Records and a results file go to target/gnugo-match-DATE/.
# Both engines are seeded with the game number (GNU Go otherwise seeds from the clock), so
# at a fixed number of playouts a game replays move for move: a change that only matters
# late in a game (resigning, counting) can be measured on the same games.
#
# Scoring is tengen match's default (`--cleanup disagree`): when tengen, GNU Go and the
# referee do not all give the same final_score after two passes, the game goes on with
# kgs-genmove_cleanup (both engines know it) and is counted with every stone alive, so the
# referee's misjudged seki (issue #47) no longer decide games. Keep it that way: do not pass
# `--cleanup never` here.
#
# SEED_OFFSET=N seeds game g with N + g instead of g: new games at the same settings, to add
# to a run (the match numbers its games from 1 all the same).
#
# LEVEL=N plays GNU Go at level N (0-10; default 10, the issue's yardstick). Level 1 moves
# about three times as fast on 19x19: a quicker, weaker opponent for comparing two settings
# in more games than level 10 allows.
#
# PLAYOUTS may also be a time, e.g. 1s: that many seconds a move on two threads, one game
# at a time (the strength issue's time-limited setting). The script sets --playouts or
# --time, --threads and --seed; the extra options must not repeat them.
#
#   tools/gnugo-match.sh GAMES PLAYOUTS [more tengen gtp options, e.g. --policy light]
#   SIZE=19 tools/gnugo-match.sh 30 3000
#   tools/gnugo-match.sh 100 1s
#   SEED_OFFSET=100 SIZE=19 tools/gnugo-match.sh 24 3000
set -eu
cd "$(dirname "$0")/.."
games=${1:-30}
playouts=${2:-10000}
size=${SIZE:-9}
openings=""
if [ "$size" = 9 ]; then openings="--openings openings/9x9"; fi
if [ $# -ge 2 ]; then shift 2; else shift $#; fi
. tools/budget.sh
budget=$(budget_option gnugo-match.sh "$playouts") || exit 2
case "$budget" in
--time*) budget="$budget --threads 2"; parallel=1 ;;
*) budget="$budget --threads 1"; parallel=2 ;;
esac
offset=${SEED_OFFSET:-0}
case "$offset" in
'' | *[!0-9]*) echo "gnugo-match.sh: SEED_OFFSET must be a number" >&2; exit 2 ;;
esac
level=${LEVEL:-10}
case "$level" in
[0-9] | 10) ;;
*) echo "gnugo-match.sh: LEVEL must be a GNU Go level from 0 to 10" >&2; exit 2 ;;
esac
# The command line of an engine seeded for game `{game}` (the match fills in the number).
seeded() {
    if [ "$offset" = 0 ]; then
        echo "$1 --seed {game} ${2:-}"
    else
        echo "sh -c 'exec $1 --seed \$(($offset + {game})) ${2:-}'"
    fi
}
cargo build --release --quiet
out=target/gnugo-match-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
# Every game starts the engine afresh: play a copy, so that a rebuild during the match
# cannot change the engine halfway through.
cp target/release/tengen "$out/tengen"
exec "$out/tengen" match \
    --black "$(seeded "$out/tengen gtp $budget" "$*")" \
    --white "$(seeded "/usr/games/gnugo --mode gtp --chinese-rules --level $level")" \
    --referee "$(seeded "/usr/games/gnugo --mode gtp --chinese-rules")" \
    --size "$size" --komi 7.5 --games "$games" --alternate $openings \
    --parallel "$parallel" --sgf-dir "$out" --results "$out/results.jsonl"
