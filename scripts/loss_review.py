#!/usr/bin/env python3
"""Where Hoeven's lost games went wrong, judged by a stronger engine.

From a gauntlet PGN (fastchess or cutechess, move comments starting with
the mover's score, `{+0.35/12 0.210s}`), takes every game Hoeven lost to
OPPONENT and, in it, Hoeven's move just before the opponent's score first
reached --threshold pawns. For that position it prints the referee's score
(Stockfish by default) before the move, the referee's score after Hoeven's
move (so what the move cost), and Hoeven's own score and choice at
--hoeven-nodes. Then the medians: a referee score well below Hoeven's
means the game was lost to the evaluation before that move; a large cost
means a move lost it.

    scripts/loss_review.py games.pgn fairy-stockfish --hoeven ./hoeven
"""

import argparse
import re
import statistics
import sys

import chess
import chess.engine
import chess.pgn

SCORE = re.compile(r"^([-+]?(?:\d+\.\d+|M\d+))/\d+")


def comment_score(comment):
    """The mover's score in pawns from a move comment (mates as +-100)."""
    m = SCORE.match(comment.strip())
    if not m:
        return None
    s = m.group(1)
    if "M" in s:
        return -100.0 if s.startswith("-") else 100.0
    return float(s)


def turning_points(pgn_path, name, opponent, threshold):
    """(game number, board before Hoeven's move, that move, Hoeven's score,
    the opponent's score) for each game Hoeven (the player whose name
    starts with `name`) lost to `opponent`; games between other engines of
    a round robin are passed over."""
    with open(pgn_path, encoding="utf-8") as f:
        number = 0
        while (game := chess.pgn.read_game(f)) is not None:
            number += 1
            white, black = game.headers["White"], game.headers["Black"]
            if opponent not in (white, black):
                continue
            hoeven = chess.BLACK if white == opponent else chess.WHITE
            if not (black if hoeven == chess.BLACK else white).startswith(name):
                continue
            lost = game.headers["Result"] == ("0-1" if hoeven == chess.WHITE else "1-0")
            if not lost:
                continue
            board = game.board()
            last = None
            for node in game.mainline():
                score = comment_score(node.comment)
                if board.turn == hoeven and score is not None:
                    last = (board.copy(), node.move, score)
                elif score is not None and score >= threshold and last:
                    yield (number, *last, score)
                    break
                board.push(node.move)


def cp(score, turn):
    return score.pov(turn).score(mate_score=10000)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn")
    ap.add_argument("opponent", help="the opponent's name as the PGN's White/Black tags give it")
    ap.add_argument("--hoeven", default="./hoeven", help="the Hoeven binary (./hoeven)")
    ap.add_argument("--name", default="hoeven", help="how Hoeven's name starts in the PGN (hoeven)")
    ap.add_argument("--referee", default="stockfish", help="the judging engine (stockfish)")
    ap.add_argument("--threshold", type=float, default=1.5, help="the opponent's score, pawns (1.5)")
    ap.add_argument("--referee-nodes", type=int, default=1_500_000)
    ap.add_argument("--hoeven-nodes", type=int, default=2_000_000)
    args = ap.parse_args()

    referee = chess.engine.SimpleEngine.popen_uci(args.referee)
    referee.configure({"Threads": 1, "Hash": 64})
    hoeven = chess.engine.SimpleEngine.popen_uci(args.hoeven)
    rows = []
    try:
        for number, board, move, h_game, o_game in turning_points(args.pgn, args.name, args.opponent, args.threshold):
            before = referee.analyse(board, chess.engine.Limit(nodes=args.referee_nodes))
            after_board = board.copy()
            after_board.push(move)
            after = referee.analyse(after_board, chess.engine.Limit(nodes=args.referee_nodes))
            own = hoeven.analyse(board, chess.engine.Limit(nodes=args.hoeven_nodes))
            r_before = cp(before["score"], board.turn)
            r_after = cp(after["score"], board.turn)
            h_own = cp(own["score"], board.turn)
            rows.append((r_before, r_before - r_after, h_own))
            print(
                f"game {number:4} move {board.fullmove_number:3}: referee {r_before:6} cp (best {before['pv'][0].uci()}), "
                f"Hoeven's {move.uci()} costs {r_before - r_after:5}; Hoeven {h_own:6} cp (best {own['pv'][0].uci()}); "
                f"in the game Hoeven {h_game:+.2f}, {args.opponent} {o_game:+.2f}",
                flush=True,
            )
    finally:
        referee.quit()
        hoeven.quit()
    if not rows:
        print(f"no lost game against {args.opponent} reaches {args.threshold} pawns")
        return 1
    ref, cost, own = zip(*rows)
    print(
        f"{len(rows)} lost games: referee median {statistics.median(ref)} cp, Hoeven median "
        f"{statistics.median(own)} cp, median cost of the move {statistics.median(cost)} cp, "
        f"moves costing over 100 cp: {sum(c > 100 for c in cost)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
