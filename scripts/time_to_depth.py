#!/usr/bin/env python3
"""Time to depth of Hoeven with N threads against 1 thread, on the bench positions.

    scripts/time_to_depth.py ./hoeven [--depth 12] [--threads 2] [--hash 64]

For every bench position (read from `hoeven bench 1`), searches `go depth D`
with 1 thread and with N threads (table cleared before each search) and
prints the time each needed; the ratio is total time with 1 thread divided by
total time with N threads. Lazy SMP is not deterministic, so run it on an idle
machine and more than once.
"""
import argparse
import subprocess
import sys
import time


def bench_fens(engine):
    out = subprocess.run([engine, "bench", "1"], capture_output=True, text=True, check=True).stdout
    return [line.split("nodes", 1)[1].strip() for line in out.splitlines() if line.startswith("position")]


def time_to_depth(proc, fen, depth):
    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    send("ucinewgame")
    send(f"position fen {fen}")
    send("isready")
    while proc.stdout.readline().strip() != "readyok":
        pass
    start = time.monotonic()
    send(f"go depth {depth}")
    while True:
        line = proc.stdout.readline()
        if not line:
            sys.exit("engine exited")
        if line.startswith("bestmove"):
            return time.monotonic() - start


def run(engine, threads, hash_mb, fens, depth):
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    proc.stdin.write(f"setoption name Threads value {threads}\nsetoption name Hash value {hash_mb}\n")
    proc.stdin.flush()
    times = [time_to_depth(proc, fen, depth) for fen in fens]
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait()
    return times


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("engine")
    p.add_argument("--depth", type=int, default=12)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--hash", type=int, default=64)
    a = p.parse_args()
    fens = bench_fens(a.engine)
    one = run(a.engine, 1, a.hash, fens, a.depth)
    many = run(a.engine, a.threads, a.hash, fens, a.depth)
    for fen, t1, tn in zip(fens, one, many):
        print(f"{t1:8.3f} s {tn:8.3f} s  {fen}")
    print(f"\ntotal: 1 thread {sum(one):.2f} s, {a.threads} threads {sum(many):.2f} s, "
          f"time-to-depth ratio {sum(one) / sum(many):.2f}")


if __name__ == "__main__":
    main()
