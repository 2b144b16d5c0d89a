#!/usr/bin/env python3
"""Soak matches: Hoeven against itself under fastchess, then every game
replayed by python-chess. Prints, per part, the games played and the count
of each way a game can go wrong: illegal moves, crashes and disconnects,
stalls, time losses, and games python-chess cannot replay.

    scripts/soak.py ./hoeven [--out DIR] [--parts chess960,dfrc,threads2,threads16]
                  [--chess960-games 5000] [--dfrc-games 2000] [--threads2-games 500]
                  [--threads16-games 200] [--concurrency 1] [--seed 1] [--check-only]

Parts: `chess960` (1+0.01, the 960 start positions), `dfrc` (1+0.01, random
Double Fischer Random pairs), `threads2` and `threads16` (10+0.1, Threads 2
or 16, Chess960). The default counts are the reliability record's.
Needs fastchess on PATH and python-chess (pip install chess).
"""

import argparse
import os
import random
import re
import subprocess
import sys

import chess
import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))
BOOK = os.path.join(HERE, "books", "frc960.epd")

# fastchess's words for a game that did not end on the board.
PROBLEMS = {
    "illegal move": re.compile(r"illegal move", re.I),
    "crash or disconnect": re.compile(r"disconnect|crash|abandon|terminated", re.I),
    "stall": re.compile(r"stall", re.I),
    "time loss": re.compile(r"loses on time|time forfeit", re.I),
}


def dfrc_book(path, count, seed):
    """An EPD of `count` Double Fischer Random starts (white and black back
    ranks from two independent Chess960 numbers, never equal)."""
    rng = random.Random(seed)
    with open(path, "w") as f:
        for _ in range(count):
            w, b = rng.sample(range(960), 2)
            white = chess.Board.from_chess960_pos(w)
            black = chess.Board.from_chess960_pos(b)
            board = chess.Board(None, chess960=True)
            for sq in chess.SQUARES:
                rank = chess.square_rank(sq)
                source = white if rank < 2 else black if rank > 5 else None
                if source is not None and source.piece_at(sq):
                    board.set_piece_at(sq, source.piece_at(sq))
            board.castling_rights = board.rooks
            board.turn = chess.WHITE
            assert board.is_valid(), board.fen()
            f.write(board.shredder_fen().rsplit(" ", 2)[0] + "\n")


def play(args, name, book, games, tc, threads):
    pgn = os.path.join(args.out, f"{name}.pgn")
    log = os.path.join(args.out, f"{name}.log")
    for path in (pgn, log):
        if os.path.exists(path):
            os.remove(path)
    engine = os.path.abspath(args.engine)
    cmd = [
        "fastchess",
        "-engine", f"cmd={engine}", "name=hoeven-a",
        "-engine", f"cmd={engine}", "name=hoeven-b",
        "-each", f"tc={tc}", "proto=uci", "option.Hash=16", f"option.Threads={threads}",
        "-variant", "fischerandom",
        "-openings", f"file={book}", "format=epd", "order=random",
        "-srand", str(args.seed),
        "-rounds", str((games + 1) // 2), "-repeat",
        "-concurrency", str(args.concurrency),
        "-recover",
        "-pgnout", f"file={pgn}",
        "-autosaveinterval", "0",
        "-ratinginterval", "0",
    ]
    print(f"[{name}] {' '.join(cmd)}", flush=True)
    with open(log, "w") as out:
        subprocess.run(cmd, cwd=args.out, stdout=out, stderr=subprocess.STDOUT, check=False)
    return pgn, log


def check(name, pgn, log):
    counts = {k: 0 for k in PROBLEMS}
    with open(log, errors="replace") as f:
        for line in f:
            if not line.startswith("Finished game"):
                continue
            for kind, pattern in PROBLEMS.items():
                if pattern.search(line):
                    counts[kind] += 1
    games = unreplayable = plies = 0
    terminations = {}
    with open(pgn, errors="replace") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            games += 1
            term = game.headers.get("Termination", "?")
            terminations[term] = terminations.get(term, 0) + 1
            board = game.board()
            try:
                for move in game.mainline_moves():
                    if not board.is_legal(move):
                        raise ValueError(f"illegal {move} in {board.fen()}")
                    board.push(move)
                    plies += 1
            except ValueError as e:
                unreplayable += 1
                print(f"[{name}] game {games}: {e}")
            if game.errors:
                unreplayable += 1
                print(f"[{name}] game {games}: {game.errors[0]}")
    summary = ", ".join(f"{k} {v}" for k, v in counts.items())
    print(f"[{name}] {games} games, {plies} plies replayed by python-chess; "
          f"{summary}; not replayable {unreplayable}; terminations {terminations}", flush=True)
    return sum(counts.values()) + unreplayable


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("engine")
    p.add_argument("--out", default="soak")
    p.add_argument("--parts", default="chess960,dfrc,threads2,threads16")
    p.add_argument("--chess960-games", type=int, default=5000)
    p.add_argument("--dfrc-games", type=int, default=2000)
    p.add_argument("--threads2-games", type=int, default=500)
    p.add_argument("--threads16-games", type=int, default=200)
    p.add_argument("--concurrency", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--check-only", action="store_true",
                   help="only check the PGN and log files already in --out (of a run cut short, say)")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    book = os.path.abspath(BOOK)
    dfrc = os.path.join(os.path.abspath(args.out), "dfrc.epd")
    dfrc_book(dfrc, 1000, args.seed)
    parts = {
        "chess960": (book, args.chess960_games, "1+0.01", 1),
        "dfrc": (dfrc, args.dfrc_games, "1+0.01", 1),
        "threads2": (book, args.threads2_games, "10+0.1", 2),
        "threads16": (book, args.threads16_games, "10+0.1", 16),
    }
    problems = 0
    for name in args.parts.split(","):
        if args.check_only:
            pgn, log = (os.path.join(args.out, f"{name}.{ext}") for ext in ("pgn", "log"))
        else:
            pgn, log = play(args, name, *parts[name])
        problems += check(name, pgn, log)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
