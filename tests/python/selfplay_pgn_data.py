#!/usr/bin/env python3
"""Checks the output of `hoeven selfplay` with python-chess.

usage: selfplay_pgn_data.py GAMES.pgn DATA.txt [--expect-games N]

Every game must read without errors, carry the Chess960 tags when its
start needs them, replay move by move legally, and end as its closing
comment says (mate, stalemate, repetition, fifty moves, insufficient
material, adjudication). Every engine move has a {score/depth} comment.

The data file must hold exactly the records those games call for, in the
same order: for each engine move that is not made in check, neither
captures nor promotes, and is not scored as a mate, the line
`<X-FEN> | <score, cp> | <result>`, score and result (1.0/0.5/0.0) from the
side to move.

Exits 0 and prints `ok: N games, M moves, R records` when all holds; exits
1 naming the first game and move that does not.
"""

import argparse
import re
import sys

try:
    import chess
    import chess.pgn
except ImportError:
    print("error: python-chess is not installed (pip install chess)", file=sys.stderr)
    sys.exit(2)

SCORE = re.compile(r"^([+-]\d+\.\d\d|[+-]M\d+)/(\d+)$")
#: The closing comment; python-chess joins it to the last move's comment.
REASON = re.compile(r"\s*((?:White|Black) (?:mates|wins by adjudication|wins on time)|Draw by [a-z -]+)$")
RESULT_POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


class Failure(Exception):
    pass


def check_ending(board, reason, result, where):
    """The closing comment must agree with the final position and result."""
    if reason.endswith("mates"):
        winner = "White" if result == "1-0" else "Black"
        if not board.is_checkmate() or not reason.startswith(winner):
            raise Failure(f"{where}: '{reason}' but the final position is not that mate")
    elif reason == "Draw by stalemate":
        ok = board.is_stalemate()
    elif reason == "Draw by threefold repetition":
        ok = board.is_repetition(3)
    elif reason == "Draw by fifty-move rule":
        ok = board.halfmove_clock >= 100
    elif reason == "Draw by insufficient material":
        ok = board.is_insufficient_material()
    elif reason in ("Draw by draw adjudicated", "Draw by time forfeit"):
        ok = result == "1/2-1/2"
    elif reason.endswith("wins by adjudication") or reason.endswith("wins on time"):
        ok = result == ("1-0" if reason.startswith("White") else "0-1")
    else:
        raise Failure(f"{where}: unknown ending '{reason}'")
    if not reason.endswith("mates") and not ok:
        raise Failure(f"{where}: '{reason}' does not hold for {board.fen()} ({result})")
    if board.is_checkmate() and not reason.endswith("mates"):
        raise Failure(f"{where}: the game ends in mate but says '{reason}'")
    if reason.startswith("Draw") != (result == "1/2-1/2"):
        raise Failure(f"{where}: '{reason}' with result {result}")


def check_game(game, number):
    """Replays one game; returns (engine moves, expected data records)."""
    where = f"game {number}"
    if game.errors:
        raise Failure(f"{where}: python-chess could not read it: {game.errors[0]}")
    headers = game.headers
    result = headers.get("Result", "?")
    if result not in RESULT_POINTS:
        raise Failure(f"{where}: result '{result}'")
    board = game.board()
    chess960 = headers.get("Variant") == "Chess960"
    if chess960 and (headers.get("SetUp") != "1" or "FEN" not in headers):
        raise Failure(f"{where}: a Chess960 game without [SetUp \"1\"] and [FEN]")
    if not chess960 and board.has_chess960_castling_rights():
        raise Failure(f"{where}: Chess960 castling rights without the Chess960 variant tag")
    if headers.get("Termination") not in ("normal", "adjudication", "time forfeit"):
        raise Failure(f"{where}: Termination '{headers.get('Termination')}'")

    records = []
    moves = 0
    node = game
    last = game.end()
    reason = REASON.search(last.comment)
    if reason is None:
        raise Failure(f"{where}: no closing comment saying how the game ended")
    while node.variations:
        child = node.variations[0]
        move = child.move
        if move not in board.legal_moves:
            raise Failure(f"{where}: illegal {move.uci()} in {board.fen()}")
        comment = child.comment
        if child is last:
            comment = comment[: reason.start()]
        comment = comment.strip()
        if comment != "book":
            match = SCORE.match(comment)
            if not match and comment:
                raise Failure(f"{where}: move {board.san(move)} has comment '{comment}'")
            moves += 1
            quiet = (
                not board.is_check()
                and not board.is_capture(move)
                and move.promotion is None
            )
            if match and quiet and "M" not in match.group(1):
                cp = round(float(match.group(1)) * 100)
                stm_result = RESULT_POINTS[result]
                if board.turn == chess.BLACK:
                    stm_result = 1.0 - stm_result
                records.append(f"{board.fen()} | {cp} | {stm_result:.1f}")
        board.push(move)
        node = child
    reason = reason.group(1)
    check_ending(board, reason, result, where)
    return moves, records


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pgn")
    parser.add_argument("data")
    parser.add_argument("--expect-games", type=int)
    args = parser.parse_args()
    expected = []
    games = moves = 0
    try:
        with open(args.pgn, encoding="utf-8") as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                games += 1
                n, records = check_game(game, games)
                moves += n
                expected.extend(records)
        if args.expect_games is not None and games != args.expect_games:
            raise Failure(f"{games} games, expected {args.expect_games}")
        with open(args.data, encoding="utf-8") as f:
            lines = f.read().splitlines()
        if not expected:
            raise Failure("the games call for no data record at all")
        for i, (got, want) in enumerate(zip(lines, expected)):
            if got != want:
                raise Failure(f"data line {i + 1}: '{got}', expected '{want}'")
        if len(lines) != len(expected):
            raise Failure(f"{len(lines)} data lines, the games call for {len(expected)}")
    except Failure as e:
        print(f"FAIL: {e}")
        sys.exit(1)
    print(f"ok: {games} games, {moves} moves, {len(expected)} records")


if __name__ == "__main__":
    main()
