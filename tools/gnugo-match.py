#!/usr/bin/env python3
"""Plays tengen against GNU Go 3.8 on 9x9 (komi 7.5, colours alternating, GNU Go as referee)
and prints each game and the total. A stopgap until `tengen match` exists; not run by CI.

    cargo build --release
    python3 tools/gnugo-match.py GAMES PLAYOUTS [POLICY] [TENGEN_BINARY]

e.g. `python3 tools/gnugo-match.py 30 10000 tactical` (needs `apt-get install gnugo`).
"""
import subprocess
import sys


def start(command):
    return subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)


def send(engine, command):
    engine.stdin.write(command + "\n")
    engine.stdin.flush()
    lines = []
    while True:
        line = engine.stdout.readline()
        if line == "":
            raise RuntimeError("engine exited")
        line = line.rstrip("\n")
        if line == "" and lines:
            break
        if line:
            lines.append(line)
    text = "\n".join(lines)
    return text[0] == "=", text[1:].strip()


def main():
    games, playouts = int(sys.argv[1]), sys.argv[2]
    policy = sys.argv[3] if len(sys.argv) > 3 else "tactical"
    binary = sys.argv[4] if len(sys.argv) > 4 else "target/release/tengen"
    wins = 0
    for game in range(games):
        tengen = start([binary, "gtp", "--playouts", playouts, "--threads", "1",
                        "--policy", policy, "--seed", str(game)])
        gnugo = start(["/usr/games/gnugo", "--mode", "gtp", "--chinese-rules", "--level", "10"])
        tengen_black = game % 2 == 0
        for engine in (tengen, gnugo):
            for command in ("boardsize 9", "clear_board", "komi 7.5"):
                send(engine, command)
        players = {"b": tengen if tengen_black else gnugo, "w": gnugo if tengen_black else tengen}
        color, passes, moves, winner, note = "b", 0, 0, None, ""
        while passes < 2 and moves < 200:
            _, move = send(players[color], "genmove " + color)
            other = "w" if color == "b" else "b"
            if move.lower() == "resign":
                winner, note = other, "resignation"
                break
            ok, _ = send(players[other], "play %s %s" % (color, move))
            if not ok:
                winner, note = other, "illegal move " + move
                break
            passes = passes + 1 if move.lower() == "pass" else 0
            color, moves = other, moves + 1
        if winner is None:
            _, referee = send(gnugo, "final_score")
            _, own = send(tengen, "final_score")
            winner, note = referee[0].lower(), "referee %s, tengen says %s" % (referee, own)
        won = (winner == "b") == tengen_black
        wins += won
        print("game %d: tengen %s %s after %d moves (%s)" % (
            game, "black" if tengen_black else "white", "won" if won else "lost", moves, note),
            flush=True)
        tengen.kill()
        gnugo.kill()
    print("tengen won %d of %d" % (wins, games))


if __name__ == "__main__":
    main()
