#!/usr/bin/env python3
"""Hoeven mates with bishop and knight against the best defence.

From random won KBN v K positions (White to move, Hoeven playing White),
Hoeven must deliver mate before the fifty-move rule against a defender that
plays the tablebase's most stubborn move: a capture of a hanging piece when
it has one (that draws), else the move that leaves White the longest
distance to zeroing (DTZ; in KBN v K every win ends in mate, so this is the
longest mate). The positions come from a fixed seed; each must be a win
with a DTZ the fifty-move rule allows.

Exits 0 when every game ends in mate within the rule, 1 otherwise. The last
line is `ok: N mates, longest M moves` on success.

usage: kbnk_mate.py /path/to/hoeven TABLES_DIR [--games N] [--seed S] [--nodes N]
"""

import argparse
import random
import sys

try:
    import chess
    import chess.engine
    import chess.syzygy
except ImportError:  # pragma: no cover - reported to the caller
    print("error: python-chess is not installed (pip install chess)", file=sys.stderr)
    sys.exit(2)


def random_won_position(rng, tables):
    """A legal KBN v K position, White to move, that White wins."""
    while True:
        squares = rng.sample(chess.SQUARES, 4)
        board = chess.Board(None)
        for square, piece in zip(squares, "KBNk"):
            board.set_piece_at(square, chess.Piece.from_symbol(piece))
        board.turn = chess.WHITE
        if not board.is_valid() or board.is_game_over():
            continue
        dtz = tables.probe_dtz(board)
        # Leave the engine at least the twenty moves of slack a sure win
        # in KBN v K never needs: the longest mate takes 33 moves.
        if 0 < dtz <= 60:
            return board


def defend(board, tables):
    """The defender's most stubborn legal move."""
    best, best_key = None, None
    for move in board.legal_moves:
        board.push(move)
        if board.is_insufficient_material():
            key = (1, 0)
        else:
            key = (0, tables.probe_dtz(board))
        board.pop()
        if best_key is None or key > best_key:
            best, best_key = move, key
    return best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("engine")
    parser.add_argument("tables")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--nodes", type=int, default=100000)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    failures, longest = 0, 0
    with chess.syzygy.open_tablebase(args.tables) as tables, \
            chess.engine.SimpleEngine.popen_uci(args.engine) as engine:
        for game in range(1, args.games + 1):
            board = random_won_position(rng, tables)
            start = board.fen()
            engine.configure({"Hash": 16})
            while not board.is_game_over() and board.halfmove_clock < 100:
                if board.turn == chess.WHITE:
                    result = engine.play(board, chess.engine.Limit(nodes=args.nodes), game=game)
                    board.push(result.move)
                else:
                    board.push(defend(board, tables))
            moves = (len(board.move_stack) + 1) // 2
            if board.is_checkmate():
                longest = max(longest, moves)
                print(f"game {game}: {start}: mate after {moves} moves")
            else:
                failures += 1
                print(f"game {game}: {start}: NO MATE, ended at {board.fen()} "
                      f"({board.outcome(claim_draw=True)}, halfmove clock {board.halfmove_clock})")
    if failures:
        print(f"failed: {failures} of {args.games} games without mate")
        return 1
    print(f"ok: {args.games} mates, longest {longest} moves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
