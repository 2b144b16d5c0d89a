#!/usr/bin/env python3
"""Writes distinct random Double Fischer Random start positions as EPD.

    tools/dfrc_book.py COUNT SEED > book.epd

Each line pairs two different Chess960 back ranks (White's and Black's),
with Shredder-FEN castling rights. Fixed-node games are deterministic, so a
self-play match longer than twice its book replays games it has already
played; this gives a book of up to 920,640 openings (see tools/sprt.sh).
Needs python-chess.
"""
import random
import sys

import chess

FILES = "abcdefgh"


def castling(rank: str) -> str:
    """Shredder letters of the two rooks (the king stands between them):
    the h-side one first."""
    rooks = [i for i, c in enumerate(rank) if c == "r"]
    return FILES[max(rooks)] + FILES[min(rooks)]


def main() -> None:
    count, seed = int(sys.argv[1]), int(sys.argv[2])
    if not 0 < count <= 960 * 959:
        sys.exit("COUNT must be between 1 and 920640")
    rng = random.Random(seed)
    seen = set()
    while len(seen) < count:
        white, black = rng.randrange(960), rng.randrange(960)
        if white == black or (white, black) in seen:
            continue
        seen.add((white, black))
        w = chess.Board.from_chess960_pos(white).board_fen().split("/")[7].lower()
        b = chess.Board.from_chess960_pos(black).board_fen().split("/")[0]
        fen = f"{b}/pppppppp/8/8/8/8/PPPPPPPP/{w.upper()} w {castling(w).upper()}{castling(b)} -"
        chess.Board(fen + " 0 1", chess960=True)
        print(fen)


if __name__ == "__main__":
    main()
