#!/usr/bin/env python3
"""Replaces the search score of training positions with a reference engine's.

    scripts/relabel.py IN OUT [--engine stockfish] [--nodes 3000] [--jobs 2]

IN and OUT use the self-play data format, `<fen> | <score> | <result>`, the
score in centipawns and the result from the side to move's view. Each
position is searched by the engine (any UCI engine, Chess960 on) to a fixed
node count and its score replaces the one in the line; the game result is
kept. A mate score becomes +/-MATE_CP. Lines that do not parse are dropped.
Work is split over `--jobs` engine processes; OUT keeps the order of IN.
"""

import argparse
import subprocess
import sys
from multiprocessing import Pool

MATE_CP = 3000


class Engine:
    def __init__(self, command, hash_mb):
        self.p = subprocess.Popen(
            [command],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name UCI_Chess960 value true")
        self.send(f"setoption name Hash value {hash_mb}")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait_for(self, token):
        for line in self.p.stdout:
            if line.startswith(token):
                return line
        raise RuntimeError("engine exited")

    def score(self, fen, nodes):
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        score = None
        for line in self.p.stdout:
            if line.startswith("bestmove"):
                return score
            if not line.startswith("info") or " score " not in line:
                continue
            words = line.split()
            i = words.index("score")
            kind, value = words[i + 1], int(words[i + 2])
            if kind == "cp":
                score = value
            elif kind == "mate":
                score = MATE_CP if value > 0 else -MATE_CP
        raise RuntimeError("engine exited")

    def close(self):
        self.send("quit")
        self.p.wait()


ENGINE = None
ARGS = None


def start(args):
    global ENGINE, ARGS
    ARGS = args
    ENGINE = Engine(args.engine, args.hash)


def relabel(chunk):
    out = []
    for line in chunk:
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 3:
            continue
        score = ENGINE.score(parts[0], ARGS.nodes)
        if score is not None:
            out.append(f"{parts[0]} | {score} | {parts[2]}\n")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--engine", default="stockfish")
    ap.add_argument("--nodes", type=int, default=3000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--hash", type=int, default=16)
    args = ap.parse_args()
    with open(args.input) as f:
        lines = f.readlines()
    chunks = [lines[i : i + 1000] for i in range(0, len(lines), 1000)]
    done = 0
    with Pool(args.jobs, initializer=start, initargs=(args,)) as pool, open(
        args.output, "w"
    ) as out:
        for result in pool.imap(relabel, chunks):
            out.writelines(result)
            out.flush()
            done += 1
            if done % 20 == 0:
                print(f"{done * 1000} / {len(lines)}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
