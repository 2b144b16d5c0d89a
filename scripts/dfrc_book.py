#!/usr/bin/env python3
"""Writes distinct random Double Fischer Random start positions as EPD.

    scripts/dfrc_book.py COUNT SEED > book.epd

Each line pairs two different Chess960 back ranks (White's and Black's),
with Shredder-FEN castling rights. Fixed-node games are deterministic, so a
self-play match longer than twice its book replays games it has already
played; this gives a book of up to 920,640 openings (see scripts/sprt.sh).
The positions come from the engine itself (`position dfrc <white> <black>`
and `d`), so run `make` first; HOEVEN names another binary.
"""
import os
import random
import subprocess
import sys


def main() -> None:
    if len(sys.argv) != 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0 if sys.argv[1:2] in (["-h"], ["--help"]) else 2)
    count, seed = int(sys.argv[1]), int(sys.argv[2])
    if not 0 < count <= 960 * 959:
        sys.exit("COUNT must be between 1 and 920640")
    rng = random.Random(seed)
    pairs = []
    seen = set()
    while len(pairs) < count:
        pair = (rng.randrange(960), rng.randrange(960))
        if pair[0] != pair[1] and pair not in seen:
            seen.add(pair)
            pairs.append(pair)
    commands = "".join(f"position dfrc {w} {b}\nd\n" for w, b in pairs) + "quit\n"
    engine = os.environ.get("HOEVEN", os.path.join(os.path.dirname(__file__), "..", "hoeven"))
    out = subprocess.run([engine], input=commands, capture_output=True, text=True, check=True)
    fens = [line.split(": ", 1)[1] for line in out.stdout.splitlines() if line.startswith("Shredder-FEN: ")]
    if len(fens) != count:
        sys.exit(f"{engine} gave {len(fens)} positions for {count} pairs")
    for fen in fens:
        # EPD: the FEN without its move counters.
        print(" ".join(fen.split()[:4]))


if __name__ == "__main__":
    main()
