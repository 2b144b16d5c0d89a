#!/usr/bin/env python3
"""Checks the output of `hoeven analyse` with python-chess and xml.etree.

usage: analyse_check.py ANNOTATED.pgn [--svg GRAPH.svg] [--expect-games N]

Every game must read without errors and replay legally (Chess960 games
through their Variant tag), carry an Annotator tag, and give every main-line
move a lichess-style `[%eval 0.35]` / `[%eval #-2]` comment, except a move
that mates. A move with a NAG must have exactly one of $6 (?!), $2 (?) or
$4 (??), a comment naming that judgement and the best move, and at least
one variation, the first of which starts with that best move; moves without
a NAG have no variations. The evaluation after each move is also that of the
next position before it (one search serves both), so nothing else is
checked about the numbers.

With --svg the graph must parse as XML, be an SVG document, hold one panel
per game and one marked dot per judged move.

Exits 0 and prints `ok: N games, M moves, J judged` when all holds; exits 1
naming the first game and move that does not.
"""

import argparse
import re
import sys
import xml.etree.ElementTree as ET

try:
    import chess
    import chess.pgn
except ImportError:
    print("error: python-chess is not installed (pip install chess)", file=sys.stderr)
    sys.exit(2)

EVAL = re.compile(r"^\[%eval (-?\d+\.\d\d|#-?[1-9]\d*)\]")
JUDGEMENTS = {6: "Inaccuracy", 2: "Mistake", 4: "Blunder"}
GLYPHS = {6: "?!", 2: "?", 4: "??"}
SVG = "{http://www.w3.org/2000/svg}"


class Failure(Exception):
    pass


def check_move(node, where):
    """One main-line move: its evaluation, judgement and variations."""
    board = node.board()
    comment = node.comment.strip()
    if board.is_checkmate():
        if comment.startswith("[%eval"):
            raise Failure(f"{where}: a mate carries an evaluation: {comment!r}")
    elif not EVAL.match(comment):
        raise Failure(f"{where}: no [%eval] comment as lichess writes it: {comment!r}")
    siblings = node.parent.variations[1:]
    nags = set(node.nags)
    if not nags:
        if siblings:
            raise Failure(f"{where}: a variation without a judgement")
        return 0
    if len(nags) != 1 or not nags <= set(JUDGEMENTS):
        raise Failure(f"{where}: NAGs {sorted(nags)} are not one of $6, $2, $4")
    nag = nags.pop()
    if not siblings:
        raise Failure(f"{where}: judged {GLYPHS[nag]} without the better line")
    best = node.parent.board().san(siblings[0].move)
    expected = f"{JUDGEMENTS[nag]}. {best} was best."
    if expected not in comment:
        raise Failure(f"{where}: comment {comment!r} lacks {expected!r}")
    for variation in siblings:
        if variation.move == node.move:
            raise Failure(f"{where}: a variation repeats the move played")
    return 1


def check_pgn(path, expect_games):
    games = moves = judged = 0
    with open(path, encoding="utf-8") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            games += 1
            if game.errors:
                raise Failure(f"game {games}: python-chess could not read it: {game.errors}")
            variant = game.headers.get("Variant", "")
            if (variant == "Chess960") != game.board().chess960:
                raise Failure(f"game {games}: Variant {variant!r} disagrees with the board")
            if "Hoeven" not in game.headers.get("Annotator", ""):
                raise Failure(f"game {games}: no Annotator tag")
            if not EVAL.match(game.comment.strip()):
                raise Failure(f"game {games}: the start position has no evaluation")
            for node in game.mainline():
                moves += 1
                where = f"game {games}, move {node.parent.board().fullmove_number} {node.san()}"
                judged += check_move(node, where)
    if expect_games is not None and games != expect_games:
        raise Failure(f"{games} games, expected {expect_games}")
    return games, moves, judged


def check_svg(path, games, judged):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        raise Failure(f"{path} is not well-formed XML: {e}")
    if root.tag != SVG + "svg":
        raise Failure(f"{path}: the root element is {root.tag}, not svg")
    panels = root.findall(SVG + "g")
    if len(panels) != games:
        raise Failure(f"{path}: {len(panels)} panels for {games} games")
    dots = [c for g in panels for c in g.iter(SVG + "circle") if c.find(SVG + "title") is not None]
    if len(dots) != judged:
        raise Failure(f"{path}: {len(dots)} marked moves, the PGN judges {judged}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pgn")
    parser.add_argument("--svg")
    parser.add_argument("--expect-games", type=int)
    args = parser.parse_args()
    try:
        games, moves, judged = check_pgn(args.pgn, args.expect_games)
        if args.svg:
            check_svg(args.svg, games, judged)
    except Failure as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(1)
    print(f"ok: {games} games, {moves} moves, {judged} judged")


if __name__ == "__main__":
    main()
