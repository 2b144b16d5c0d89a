#!/usr/bin/env python3
"""How each engine spent its clock, from fastchess PGNs.

    scripts/time_use.py --tc 60+0.6 PGN [PGN ...]
    scripts/time_use.py --tc 40/120 PGN ...     (40 moves in 120 s, repeating)

fastchess writes each move's time in its comment (`{+0.25/12 0.532s}`);
the clock before every move is rebuilt from the time control. For each
engine, one row per phase of the game (by its own move number): moves,
mean seconds a move, mean share of the clock before the move, the largest
share any one move took; then the clock left at the end of its games (mean
and least), the moves that took longer than the clock before them (a game
that fastchess's time margin alone saved) and its losses on time.
"""
import argparse
import re
import sys
from collections import defaultdict

PHASES = [(1, 10), (11, 20), (21, 40), (41, 60), (61, 80), (81, 10_000)]
MOVE_TIME = re.compile(r"\{[^}]*?(\d+(?:\.\d+)?)s\}")


def parse_tc(tc):
    """(moves per period or None, seconds per period, increment)."""
    moves = None
    if "/" in tc:
        moves, tc = tc.split("/", 1)
        moves = int(moves)
    base, _, inc = tc.partition("+")
    return moves, float(base), float(inc or 0)


def games(paths):
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for chunk in re.split(r"\n(?=\[Event )", text):
            tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', chunk, re.M))
            if "White" not in tags:
                continue
            body = chunk[chunk.rfind("]") + 1:]
            yield tags, [float(t) for t in MOVE_TIME.findall(body)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tc", required=True, help="fastchess form: 60+0.6 or 40/120")
    ap.add_argument("pgn", nargs="+")
    args = ap.parse_args()
    period, base, inc = parse_tc(args.tc)

    spent = defaultdict(lambda: defaultdict(list))  # engine -> phase -> [(s, share)]
    left = defaultdict(list)
    time_losses = defaultdict(int)
    overruns = defaultdict(int)
    count = 0
    for tags, times in games(args.pgn):
        count += 1
        sides = [tags["White"], tags["Black"]]
        if tags.get("FEN") and tags["FEN"].split()[1] == "b":
            sides.reverse()
        clocks = [base, base]
        for ply, seconds in enumerate(times):
            side = ply % 2
            move = ply // 2 + 1
            before = clocks[side]
            phase = next(p for p in PHASES if p[0] <= move <= p[1])
            spent[sides[side]][phase].append((seconds, seconds / before if before > 0 else 1.0))
            if seconds > before:
                overruns[sides[side]] += 1
            clocks[side] = before - seconds + inc
            if period and move % period == 0:
                clocks[side] += base
        for side in (0, 1):
            left[sides[side]].append(clocks[side])
        if "time" in tags.get("Termination", "").lower():
            loser = tags["White"] if tags.get("Result") == "0-1" else tags["Black"]
            time_losses[loser] += 1
    if not count:
        sys.exit("no games")
    print(f"{count} games at {args.tc}")
    for engine in sorted(spent):
        print(f"\n{engine}")
        print("| moves | count | mean s | mean share of clock | largest share |")
        print("| --- | --- | --- | --- | --- |")
        for phase in PHASES:
            rows = spent[engine].get(phase)
            if not rows:
                continue
            label = f"{phase[0]}-{phase[1]}" if phase[1] < 10_000 else f"{phase[0]}+"
            mean = sum(s for s, _ in rows) / len(rows)
            share = sum(sh for _, sh in rows) / len(rows)
            print(f"| {label} | {len(rows)} | {mean:.2f} | {share:.1%} | {max(sh for _, sh in rows):.1%} |")
        ends = left[engine]
        print(f"clock left at the end: mean {sum(ends) / len(ends):.1f} s, least {min(ends):.1f} s; "
              f"moves longer than the clock: {overruns[engine]}; losses on time: {time_losses[engine]}")


if __name__ == "__main__":
    main()
