#!/usr/bin/env python3
"""Single-thread perft speed of Hoeven against Stockfish's `go perft`.

Usage: scripts/perft_bench.py [./hoeven] [--stockfish PATH] [--reps N]

Both engines run every position in the same run, alternately, several times;
the best time of each counts. Times are CPU times, so that other work on a
shared machine distorts them less than it would wall-clock times: Hoeven runs
as `hoeven perft <depth> <fen>` and its process's CPU time counts, less that
of a depth-1 run (start-up and reading the FEN); Stockfish's CPU time is read
from /proc around its `go perft`. Node counts must agree, or the script fails.
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

POSITIONS = [
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, False),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, False),
    ("bqnb1rkr", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 5, True),
]


def hoeven_perft(exe, fen, depth):
    """(nodes, CPU seconds of the whole process)."""
    proc = subprocess.Popen([exe, "perft", str(depth), fen], stdout=subprocess.PIPE, text=True)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise RuntimeError(f"{exe} perft {depth} '{fen}' failed:\n{out}")
    nodes = re.search(r"^Nodes searched: (\d+)$", out, re.M)
    if not nodes:
        raise RuntimeError(f"unexpected output from {exe} perft:\n{out}")
    return int(nodes.group(1)), usage.ru_utime + usage.ru_stime


def cpu_seconds(pid):
    """CPU time so far of every thread of a running process."""
    total = 0
    for path in glob.glob(f"/proc/{pid}/task/*/schedstat"):
        with open(path) as f:
            total += int(f.read().split()[0])
    return total / 1e9


class Stockfish:
    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name Threads value 1")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("stockfish exited")
            if line.startswith(prefix):
                return line.strip()

    def perft(self, fen, depth, chess960):
        """(nodes, CPU seconds) of one `go perft`."""
        self.send(f"setoption name UCI_Chess960 value {'true' if chess960 else 'false'}")
        self.send(f"position fen {fen}")
        self.send("isready")
        self.wait_for("readyok")
        start = cpu_seconds(self.proc.pid)
        self.send(f"go perft {depth}")
        line = self.wait_for("Nodes searched")
        seconds = cpu_seconds(self.proc.pid) - start
        return int(line.split(":")[1]), seconds

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("hoeven", nargs="?", default="./hoeven")
    parser.add_argument("--stockfish", default="stockfish")
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    stockfish_path = shutil.which(args.stockfish)
    if stockfish_path is None:
        sys.exit(f"perft_bench: {args.stockfish} not found")

    sf = Stockfish(stockfish_path)
    best = {name: [None, None, float("inf"), float("inf")] for name, *_ in POSITIONS}
    overhead = {fen: min(hoeven_perft(args.hoeven, fen, 1)[1] for _ in range(5)) for _, fen, _, _ in POSITIONS}
    try:
        for rep in range(args.reps):
            for name, fen, depth, chess960 in POSITIONS:
                h_nodes, h_secs = hoeven_perft(args.hoeven, fen, depth)
                h_secs -= overhead[fen]
                s_nodes, s_secs = sf.perft(fen, depth, chess960)
                entry = best[name]
                entry[0], entry[1] = h_nodes, s_nodes
                entry[2] = min(entry[2], h_secs)
                entry[3] = min(entry[3], s_secs)
    finally:
        sf.close()

    print(f"best of {args.reps}, single thread, CPU time")
    print(f"{'position':<10} {'depth':>5} {'nodes':>12} {'Hoeven Mnps':>12} {'SF Mnps':>9} {'ratio':>6}")
    failed = False
    total_nodes = total_h = total_s = 0
    for name, fen, depth, _ in POSITIONS:
        h_nodes, s_nodes, h_secs, s_secs = best[name]
        if h_nodes != s_nodes:
            print(f"{name}: node counts differ: Hoeven {h_nodes}, Stockfish {s_nodes} ({fen}, depth {depth})")
            failed = True
            continue
        h_mnps = h_nodes / h_secs / 1e6
        s_mnps = s_nodes / s_secs / 1e6
        print(f"{name:<10} {depth:>5} {h_nodes:>12} {h_mnps:>12.1f} {s_mnps:>9.1f} {h_mnps / s_mnps:>6.2f}")
        total_nodes += h_nodes
        total_h += h_secs
        total_s += s_secs
    if failed:
        sys.exit(1)
    h_mnps = total_nodes / total_h / 1e6
    s_mnps = total_nodes / total_s / 1e6
    print(f"{'overall':<10} {'':>5} {total_nodes:>12} {h_mnps:>12.1f} {s_mnps:>9.1f} {h_mnps / s_mnps:>6.2f}")


if __name__ == "__main__":
    main()
