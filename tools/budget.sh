# Sourced by the match scripts (`. tools/budget.sh`), not run: the one reading of a
# thinking budget that they all take, so that `1000`, `0.5s` and `1s` mean the same in each
# and a malformed one is refused the same way. tests/match_tool.rs checks it.
#
#   budget_option SCRIPT BUDGET
#
# prints the tengen gtp option for BUDGET: `--playouts N` for a number of playouts a move,
# `--time T` for a time a move written with an s (0.5s, 1s, 2.5s). Anything else is refused
# with a message naming SCRIPT on stderr and status 2; callers run it in $(...) and exit with
# its status, `budget=$(budget_option name "$2") || exit 2`.
budget_option() {
    case "$2" in
    *s)
        time=${2%s}
        case "$time" in
        '' | .* | *. | *[!0-9.]* | *.*.*)
            echo "$1: a time a move must read like 0.5s or 1s, not '$2'" >&2
            return 2
            ;;
        esac
        echo "--time $time"
        ;;
    '' | *[!0-9]*)
        echo "$1: the budget must be a number of playouts or a time such as 0.5s, not '$2'" >&2
        return 2
        ;;
    *) echo "--playouts $2" ;;
    esac
}
