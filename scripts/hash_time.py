#!/usr/bin/env python3
"""Seconds from `setoption name Hash` (and then `ucinewgame`) to `readyok`.

Sets `Threads` first, so that the table is allocated and cleared by that
many threads, as on a big machine; with `--hash-first`, `Hash` and then
`Threads` before one `isready`, the order in which a GUI may send them. The
table's size must fit in memory.

usage: scripts/hash_time.py ./hoeven [--threads 1 2] [--hash 16384] [--hash-first]
"""

import argparse
import subprocess
import time


def until_ready(engine, commands):
    """Sends `commands` and `isready`; seconds until `readyok`, other lines."""
    start = time.monotonic()
    for command in commands + ["isready"]:
        engine.stdin.write(command + "\n")
    engine.stdin.flush()
    lines = []
    while True:
        line = engine.stdout.readline()
        if not line:
            raise RuntimeError("the engine exited")
        if line.strip() == "readyok":
            return time.monotonic() - start, lines
        lines.append(line.strip())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--hash", type=int, default=16384, help="MB")
    parser.add_argument("--hash-first", action="store_true",
                        help="send Hash, then Threads, then isready")
    args = parser.parse_args()
    for threads in args.threads:
        engine = subprocess.Popen([args.engine], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        threads_option = f"setoption name Threads value {threads}"
        hash_option = f"setoption name Hash value {args.hash}"
        if args.hash_first:
            until_ready(engine, ["uci"])
            alloc, said = until_ready(engine, [hash_option, threads_option])
        else:
            until_ready(engine, ["uci", threads_option])
            alloc, said = until_ready(engine, [hash_option])
        clear, _ = until_ready(engine, ["ucinewgame"])
        print(f"Threads {threads}: Hash {args.hash} to readyok {alloc:.2f} s, "
              f"ucinewgame to readyok {clear:.2f} s {' '.join(said)}".rstrip())
        engine.stdin.write("quit\n")
        engine.stdin.flush()
        engine.wait()


if __name__ == "__main__":
    main()
