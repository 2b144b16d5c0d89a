#!/usr/bin/env python3
"""Hoeven's Syzygy tablebase probes and endgame play against python-chess.

Two checks, python-chess's `chess.syzygy` (which reads the same files) as
the reference:

probe  Random legal positions of every material in the tables folder (both
       sides to move, some with an en passant capture), set with
       `position fen` and shown with `d`, whose `Tablebases WDL:` and
       `Tablebases DTZ:` lines must equal python-chess's probe_wdl and
       probe_dtz. Fails on any difference or missing line.

play   Won endings played out by Hoeven on both sides with SyzygyPath set,
       python-chess as the referee: every move legal, every move of the
       winner in a position held by the tables keeps the win and is
       DTZ-optimal (no legal move reaches the next capture or pawn move
       sooner), and the game ends in checkmate before the fifty-move rule
       or a repetition could draw it. A 5-piece ending (not in the tables)
       must reach them and be won the same way.

Exits 0 when everything agrees; 1 otherwise; 2 without python-chess. The
last line is a one-line summary, `ok: ...` on success.

usage: syzygy_check.py /path/to/hoeven TABLES_DIR [--positions N] [--seed S]
                       [--only probe|play]
"""

import argparse
import os
import random
import subprocess
import sys

try:
    import chess
    import chess.engine
    import chess.syzygy
except ImportError:  # pragma: no cover - reported to the caller
    print("error: python-chess is not installed (pip install chess)", file=sys.stderr)
    sys.exit(2)

#: Nodes per move in the played endings: enough for the search to see the
#: mates near the end, little enough that a game takes seconds.
NODES_PER_MOVE = 20000
#: Won endings to play out: three pieces, the hardest four-piece mate
#: (king, bishop and knight), a four-piece ending with a defending rook, and
#: five pieces (queen and pawn against a rook) that only a capture brings
#: into the 4-piece tables.
ENDINGS = [
    "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
    "8/8/8/3k4/8/8/8/1NB1K3 w - - 0 1",
    "7k/8/8/8/8/8/8/KBN5 b - - 0 1",
    "8/8/8/8/2kr4/K7/8/Q7 w - - 0 1",
    "8/8/1k6/8/5r2/8/3P4/2Q1K3 w - - 0 1",
]
#: A game longer than this has failed to make progress.
MAX_PLIES = 300


def materials(folder):
    """The material names (e.g. KRvKP) that have both WDL and DTZ files."""
    names = {f[:-5] for f in os.listdir(folder) if f.endswith(".rtbw")}
    return sorted(n for n in names if os.path.exists(os.path.join(folder, n + ".rtbz")))


def random_position(rng, material):
    """A random legal position of `material` (white's pieces before the v)."""
    white, black = material.split("v")
    while True:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, len(white) + len(black))
        ok = True
        for color, pieces in ((chess.WHITE, white), (chess.BLACK, black)):
            for letter in pieces:
                sq = squares.pop()
                piece = chess.Piece.from_symbol(letter if color else letter.lower())
                if piece.piece_type == chess.PAWN and chess.square_rank(sq) in (0, 7):
                    ok = False
                board.set_piece_at(sq, piece)
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if not ok or not board.is_valid():
            continue
        if "P" in white and "P" in black and rng.random() < 0.5:
            with_ep = just_double_stepped(rng, board)
            if with_ep is None:
                continue
            board = with_ep
        return board


def just_double_stepped(rng, board):
    """`board` with the opponent's pawn moved to where it stands after a
    double step beside one of the mover's pawns, en passant square set;
    None when that is not a legal position with a legal en passant capture."""
    us = board.turn
    mine = list(board.pieces(chess.PAWN, us))
    theirs = list(board.pieces(chess.PAWN, not us))
    pawn, victim = rng.choice(mine), rng.choice(theirs)
    rank = 4 if us == chess.WHITE else 3
    file = chess.square_file(pawn) + rng.choice([-1, 1])
    if not 0 <= file <= 7:
        return None
    target = chess.square(file, rank)
    behind = chess.square(file, rank + (1 if us == chess.WHITE else -1))
    start = chess.square(file, rank + (2 if us == chess.WHITE else -2))
    board = board.copy()
    mover = board.remove_piece_at(pawn)
    board.remove_piece_at(victim)
    placed = chess.square(chess.square_file(pawn), rank)
    if any(board.piece_at(sq) for sq in (target, behind, start, placed)):
        return None
    board.set_piece_at(placed, mover)
    board.set_piece_at(target, chess.Piece(chess.PAWN, not us))
    board.ep_square = behind
    if not board.is_valid() or not board.has_legal_en_passant():
        return None
    return board


class Uci:
    """A bare UCI pipe: python-chess's engine client hides `d`."""

    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def read_until_ready(self):
        self.send("isready")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the engine closed its output")
            line = line.rstrip("\n")
            if line == "readyok":
                return lines
            lines.append(line)

    def close(self):
        try:
            self.send("quit")
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass
        self.proc.wait(timeout=10)


def check_probes(engine_path, folder, count, rng):
    tables = chess.syzygy.open_tablebase(folder)
    names = materials(folder)
    if not names:
        print(f"error: no tables in {folder}")
        return False
    boards = [random_position(rng, names[i % len(names)]) for i in range(count)]
    uci = Uci(engine_path)
    uci.send(f"setoption name SyzygyPath value {folder}")
    setup = uci.read_until_ready()
    if not any("found" in line and "WDL" in line for line in setup):
        print(f"error: SyzygyPath was not taken: {setup}")
        uci.close()
        return False
    for board in boards:
        uci.send(f"position fen {board.fen()}")
        uci.send("d")
    out = uci.read_until_ready()
    uci.close()

    shown = []
    for line in out:
        if line.startswith("Fen: "):
            shown.append({"fen": line[5:]})
        elif line.startswith("Tablebases WDL: ") and shown:
            shown[-1]["wdl"] = line.split(": ", 1)[1]
        elif line.startswith("Tablebases DTZ: ") and shown:
            shown[-1]["dtz"] = line.split(": ", 1)[1]
    if len(shown) != len(boards):
        print(f"error: {len(boards)} positions sent, {len(shown)} shown by d")
        return False
    bad = 0
    en_passant = 0
    for board, got in zip(boards, shown):
        want = (str(tables.probe_wdl(board)), str(tables.probe_dtz(board)))
        have = (got.get("wdl"), got.get("dtz"))
        en_passant += board.ep_square is not None and board.has_legal_en_passant()
        if want != have:
            bad += 1
            if bad <= 10:
                print(f"mismatch: {board.fen()}: python-chess wdl/dtz {want}, hoeven {have}")
    tables.close()
    print(f"probe: {len(boards)} positions of {len(names)} materials "
          f"({en_passant} with en passant), {bad} mismatches")
    return bad == 0


def dtz_after(tables, board, move):
    """DTZ from the mover's side after `move`, as the root ranking counts it."""
    board.push(move)
    try:
        if board.is_checkmate():
            return 1
        if board.halfmove_clock == 0:
            return {2: 1, 1: 101, 0: 0, -1: -101, -2: -1}[-tables.probe_wdl(board)]
        d = -tables.probe_dtz(board)
        return d + (d > 0) - (d < 0)
    finally:
        board.pop()


def play_ending(engine, tables, fen, max_pieces):
    """Plays `fen` out, won by white; returns (plies, None) or (plies, why
    it failed)."""
    board = chess.Board(fen)
    if not board.is_valid():
        return 0, f"{fen} is not a legal position"
    # White has the extra material in every ending here.
    winner = chess.WHITE
    if len(board.piece_map()) <= max_pieces \
            and tables.probe_wdl(board) != (2 if board.turn == winner else -2):
        return 0, f"{fen} is not a table win for white"
    while not board.is_game_over(claim_draw=True):
        if board.ply() > MAX_PLIES:
            return board.ply(), "no mate within the move cap"
        result = engine.play(board, chess.engine.Limit(nodes=NODES_PER_MOVE))
        move = result.move
        if move is None or move not in board.legal_moves:
            return board.ply(), f"illegal move {move} in {board.fen()}"
        if board.turn == winner and len(board.piece_map()) <= max_pieces:
            best = min(dtz_after(tables, board, m) for m in board.legal_moves
                       if dtz_after(tables, board, m) > 0)
            got = dtz_after(tables, board, move)
            if got != best:
                return board.ply(), (f"{move.uci()} in {board.fen()} has DTZ {got}, "
                                     f"the best move {best}")
        board.push(move)
    outcome = board.outcome(claim_draw=True)
    if outcome is None or outcome.termination != chess.Termination.CHECKMATE \
            or outcome.winner != winner:
        return board.ply(), f"the game ended {outcome} in {board.fen()}"
    return board.ply(), None


def check_play(engine_path, folder):
    tables = chess.syzygy.open_tablebase(folder)
    max_pieces = max(len(n) - 1 for n in materials(folder))
    engine = chess.engine.SimpleEngine.popen_uci(engine_path)
    engine.configure({"SyzygyPath": folder})
    ok = True
    total = 0
    try:
        for fen in ENDINGS:
            engine.configure({"Clear Hash": None})
            plies, failure = play_ending(engine, tables, fen, max_pieces)
            total += plies
            status = "mate" if failure is None else f"FAILED: {failure}"
            print(f"play: {fen}: {plies} plies, {status}")
            ok &= failure is None
    finally:
        engine.quit()
        tables.close()
    print(f"play: {len(ENDINGS)} endings, {total} plies")
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine")
    parser.add_argument("tables")
    parser.add_argument("--positions", type=int, default=1200)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--only", choices=["probe", "play"])
    args = parser.parse_args()
    folder = os.path.abspath(args.tables)
    rng = random.Random(args.seed)
    ok = True
    if args.only in (None, "probe"):
        ok &= check_probes(args.engine, folder, args.positions, rng)
    if args.only in (None, "play"):
        ok &= check_play(args.engine, folder)
    print("ok: probes and endings agree with python-chess" if ok else "failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
