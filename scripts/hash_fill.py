#!/usr/bin/env python3
"""One long search per table size: does a full table make the search collapse?

    scripts/hash_fill.py ./hoeven [--nodes 300000000] [--hash 16 1024] [--fen FEN]

Searches the position (by default a Chess960 start, where nothing is decided) for
`go nodes N` once per `Hash` size, on one thread after `ucinewgame`, and
prints every iteration's depth, nodes, `hashfull`, score and best move, then
one summary row per size. With a node limit the result does not depend on
the machine's load; 300 million nodes are about five minutes of one core.
A small table that fills early should reach about the depth and the best
move of a table that never fills.
"""
import argparse
import subprocess
import sys

START_FEN = "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1"


def search(engine, hash_mb, fen, nodes):
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def until(prefix):
        while True:
            line = proc.stdout.readline()
            if not line:
                sys.exit("the engine exited")
            if line.startswith(prefix):
                return line.split()

    send("uci")
    until("uciok")
    send("setoption name UCI_Chess960 value true")
    send(f"setoption name Hash value {hash_mb}")
    send("ucinewgame")
    send(f"position fen {fen}")
    send("isready")
    until("readyok")
    send(f"go nodes {nodes}")
    rows = []
    while True:
        words = until("")
        if words and words[0] == "bestmove":
            best = words[1]
            break
        if "pv" not in words or "upperbound" in words or "lowerbound" in words:
            continue

        def field(name):
            return words[words.index(name) + 1] if name in words else "-"

        score = field("score")
        score = f"{score} {field(score)}" if score != "-" else score
        rows.append((int(field("depth")), field("seldepth"), int(field("nodes")),
                     field("hashfull"), score, words[words.index("pv") + 1]))
    send("quit")
    proc.wait()
    return rows, best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine")
    ap.add_argument("--nodes", type=int, default=300_000_000)
    ap.add_argument("--hash", type=int, nargs="+", default=[16, 1024])
    ap.add_argument("--fen", default=START_FEN)
    args = ap.parse_args()
    summary = []
    for hash_mb in args.hash:
        rows, best = search(args.engine, hash_mb, args.fen, args.nodes)
        print(f"Hash {hash_mb} MB: depth seldepth nodes hashfull score best")
        for row in rows:
            print("  " + " ".join(str(x) for x in row))
        last = rows[-1] if rows else (0, "-", 0, "-", "-", "-")
        summary.append((hash_mb, last[0], last[3], last[4], best))
    print("| Hash (MB) | depth | hashfull | score | best move |")
    print("| --- | --- | --- | --- | --- |")
    for hash_mb, depth, full, score, best in summary:
        print(f"| {hash_mb} | {depth} | {full} | {score} | {best} |")


if __name__ == "__main__":
    main()
