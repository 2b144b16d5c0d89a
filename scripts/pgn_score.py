#!/usr/bin/env python3
"""One engine's score over PGN files, from fastchess gauntlets or
`hoeven selfplay --pgn`: wins, draws and losses, the pentanomial count of
game pairs, and the Elo difference with its 95% interval from the pairs.

Pooling several runs, or reading a run that was cut off, is what this is
for: fastchess and selfplay print these figures only for a whole run.

A pair is two finished games of the engine from the same start position
(the FEN tag, or the standard start without one) in the same file, in the
order they were written; a game whose partner never finished counts in
the wins, draws and losses but in no pair.

    scripts/pgn_score.py NAME FILE.pgn [FILE.pgn ...]

NAME is a part of the engine's White or Black tag ("hoeven-f3",
"Hoeven A ("); games where it is on neither or both sides are skipped.
Standard library only; the Elo comes from elo.py beside it.
"""
import argparse
import re
import sys
from collections import defaultdict

import elo

SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
TAG = re.compile(r'^\[(\w+) "(.*)"\]\s*$')


def games(path):
    """The tag sets of a PGN file's games, in order."""
    tags = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = TAG.match(line)
            if not m:
                continue
            if m.group(1) == "Event" and tags:
                yield tags
                tags = {}
            tags[m.group(1)] = m.group(2)
    if tags:
        yield tags


def engine_scores(paths, name):
    """(file, start position, the engine's score) for each finished game."""
    for path in paths:
        for tags in games(path):
            result = SCORES.get(tags.get("Result"))
            white, black = name in tags.get("White", ""), name in tags.get("Black", "")
            if result is None or white == black:
                continue
            yield path, tags.get("FEN", "startpos"), result if white else 1.0 - result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("name", help="a part of the engine's name in the White and Black tags")
    ap.add_argument("pgn", nargs="+")
    args = ap.parse_args()

    scores = list(engine_scores(args.pgn, args.name))
    if not scores:
        sys.exit(f"pgn_score: no finished game of '{args.name}'")
    wins = sum(s == 1.0 for *_, s in scores)
    losses = sum(s == 0.0 for *_, s in scores)
    draws = len(scores) - wins - losses
    print(f"games {len(scores)}: {wins} W {draws} D {losses} L, "
          f"score {(wins + draws / 2) / len(scores):.4f}")

    by_start = defaultdict(list)
    for path, start, s in scores:
        by_start[(path, start)].append(s)
    penta = [0] * 5
    pairs = []
    for results in by_start.values():
        for a, b in zip(results[0::2], results[1::2]):
            penta[int(2 * (a + b))] += 1
            pairs.append((a + b) / 2)
    print(f"pairs {len(pairs)}: pentanomial {penta}")
    if len(pairs) < 2:
        return
    r = elo.from_pairs(pairs)
    if r is None:
        print(f"Elo: no finite value (mean pair score {sum(pairs) / len(pairs):.3f})")
        return
    value, margin, low, high, nelo = r
    print(f"Elo {value:+.1f} +/- {margin:.1f} "
          f"(95% {low:+.1f} to {high:+.1f}), nElo {nelo:+.1f}")

if __name__ == "__main__":
    main()
