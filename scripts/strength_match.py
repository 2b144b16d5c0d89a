#!/usr/bin/env python3
"""Calibration match for UCI_LimitStrength: Hoeven at UCI_Elo E against
Stockfish at UCI_Elo E (or --sf-elo), under a clock, and the Elo difference
with its 95% margin from Hoeven's point of view.

Each opening (the classical start plus --plies random plies, or a random
Chess960 start) is played twice with colours swapped.

By default each side searches exactly as far as its strength setting lets
it, without a clock, so that the load of a shared machine changes nothing:
Hoeven its node budget (it is sent `go nodes` above the budget), and
Stockfish 15.1 the depth at which its UCI_Elo picks the move. Stockfish at
UCI_Elo E picks when its iterative deepening completes depth 1 + int(level),
level = ((E - 1346.6) / 143.4) ^ (1 / 0.806) (its search.cpp, `Skill`), and
deeper iterations do not change the pick, so `go depth` to that depth plays
as it would with time enough. With --clock both play under --tc instead,
the clock kept here from the wall time of each move.

Games are adjudicated as fastchess's `-resign movecount=3 score=1000
twosided=true` and `-draw movenumber=40 movecount=8 score=10` do: a win
when both engines' best lines have scored the same side at least 1000 cp
(or a mate) on each of the last 6 plies, a draw when both have scored
within 10 cp of equal on each of the last 16 plies after move 40.
--no-adjudication plays every game out.

    nice -n 10 scripts/strength_match.py --elo 2000 --games 40 --pgn e2000.pgn

Needs python-chess (pip install chess) and Stockfish (/usr/games/stockfish).
"""

import argparse
import queue
import random
import sys
import threading
import time

import chess
import chess.engine
import chess.pgn

import elo

MAX_PLIES = 400
RESIGN_PLIES, RESIGN_CP = 6, 1000
DRAW_PLIES, DRAW_CP, DRAW_FROM_PLY = 16, 10, 80


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hoeven", default="./target/release/hoeven")
    p.add_argument("--stockfish", default="/usr/games/stockfish")
    p.add_argument("--elo", type=int, required=True, help="Hoeven's UCI_Elo")
    p.add_argument("--sf-elo", type=int, help="Stockfish's UCI_Elo (default: --elo)")
    p.add_argument("--games", type=int, default=40, help="rounded up to an even number")
    p.add_argument("--tc", default="10+0.1", help="seconds+increment per game, with --clock")
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--variant", choices=["classical", "chess960"], default="classical")
    p.add_argument("--plies", type=int, default=4, help="random plies after the start")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pgn", help="append the games to this file")
    p.add_argument(
        "--no-adjudication",
        action="store_true",
        help="play every game to its end (mate, draw or the move limit)",
    )
    p.add_argument(
        "--clock",
        action="store_true",
        help="play under --tc instead of at each side's strength limit",
    )
    return p.parse_args()


def openings(args):
    """Distinct opening positions, one per pair of games."""
    rng = random.Random(args.seed)
    seen, result = set(), []
    while len(result) < (args.games + 1) // 2:
        if args.variant == "chess960":
            board = chess.Board.from_chess960_pos(rng.randrange(960))
        else:
            board = chess.Board()
        for _ in range(args.plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.is_game_over() or board.fen() in seen:
            continue
        seen.add(board.fen())
        result.append(board)
    return result


def stockfish_pick_depth(elo):
    """The iteration at which Stockfish 15.1 at UCI_Elo `elo` picks its move."""
    level = min(max(((elo - 1346.6) / 143.4) ** (1 / 0.806), 0.0), 20.0)
    return 1 + int(level)


def start_engines(args):
    hoeven = chess.engine.SimpleEngine.popen_uci(args.hoeven)
    hoeven.configure({"UCI_LimitStrength": True, "UCI_Elo": args.elo})
    stockfish = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    stockfish.configure(
        {"UCI_LimitStrength": True, "UCI_Elo": args.sf_elo or args.elo, "Threads": 1, "Hash": 16}
    )
    return hoeven, stockfish


def think(engine, board, limit, game_id):
    """The engine's move and its first line's score for White in centipawns
    (mates as +-100000), or None for either when the engine gave none. The
    first line is read as such: Stockfish at a limited strength reports four."""
    with engine.analysis(board, limit, game=game_id, info=chess.engine.INFO_SCORE) as analysis:
        best = analysis.wait()
        score = analysis.multipv[0].get("score")
    white = None if score is None else score.white().score(mate_score=100000)
    return best.move, white


def adjudicated(scores, ply):
    """The result that the last plies' scores (for White) adjudicate, or None."""
    recent = scores[-RESIGN_PLIES:]
    if len(recent) == RESIGN_PLIES and None not in recent:
        if all(s >= RESIGN_CP for s in recent):
            return "1-0", "adjudicated win"
        if all(s <= -RESIGN_CP for s in recent):
            return "0-1", "adjudicated win"
    recent = scores[-DRAW_PLIES:]
    if ply >= DRAW_FROM_PLY and len(recent) == DRAW_PLIES and None not in recent:
        if all(abs(s) <= DRAW_CP for s in recent):
            return "1/2-1/2", "adjudicated draw"
    return None


def play(opening, hoeven_white, engines, tc, game_id, unclocked, adjudicate):
    """One game; returns (result from Hoeven's side 1/0.5/0, how it ended, PGN game)."""
    base, inc = tc
    board = opening.copy()
    names = {True: "Hoeven", False: "Stockfish"} if hoeven_white else {True: "Stockfish", False: "Hoeven"}
    by_colour = {
        chess.WHITE: engines[0] if hoeven_white else engines[1],
        chess.BLACK: engines[1] if hoeven_white else engines[0],
    }
    clock = {chess.WHITE: base, chess.BLACK: base}
    scores = []
    ending = None
    while ending is None:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            ending = outcome.result(), outcome.termination.name.lower()
            break
        if board.ply() >= MAX_PLIES:
            ending = "1/2-1/2", "move limit"
            break
        side = board.turn
        limit = chess.engine.Limit(
            white_clock=clock[chess.WHITE],
            black_clock=clock[chess.BLACK],
            white_inc=inc,
            black_inc=inc,
        )
        if unclocked:
            limit = unclocked[names[side]]
        started = time.monotonic()
        move, score = think(by_colour[side], board, limit, game_id)
        clock[side] -= time.monotonic() - started
        if clock[side] < 0 and not unclocked:
            ending = ("0-1" if side == chess.WHITE else "1-0"), f"{names[side]} lost on time"
            break
        clock[side] += inc
        if move is None:
            ending = ("0-1" if side == chess.WHITE else "1-0"), f"{names[side]} resigned"
            break
        board.push(move)
        scores.append(score)
        if adjudicate:
            ending = adjudicated(scores, board.ply())
    text, how = ending
    points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[text]
    hoeven_points = points if hoeven_white else 1.0 - points
    game = chess.pgn.Game.from_board(board)
    game.headers["White"], game.headers["Black"] = names[True], names[False]
    game.headers["Result"] = text
    game.headers["Termination"] = how
    return hoeven_points, how, game


def main():
    args = parse_args()
    base, _, inc = args.tc.partition("+")
    tc = (float(base), float(inc or 0))
    sf_elo = args.sf_elo or args.elo
    sf_depth = stockfish_pick_depth(sf_elo)
    unclocked = None
    if not args.clock:
        unclocked = {
            "Hoeven": chess.engine.Limit(nodes=10**9),
            "Stockfish": chess.engine.Limit(depth=sf_depth),
        }
    jobs = queue.Queue()
    for i, opening in enumerate(openings(args)):
        jobs.put((2 * i, opening, True))
        jobs.put((2 * i + 1, opening, False))
    results, lock = [], threading.Lock()

    def worker():
        engines = start_engines(args)
        try:
            while True:
                try:
                    number, opening, hoeven_white = jobs.get_nowait()
                except queue.Empty:
                    return
                points, how, game = play(
                    opening, hoeven_white, engines, tc, number, unclocked, not args.no_adjudication
                )
                game.headers["Round"] = str(number + 1)
                game.headers["Event"] = f"Hoeven UCI_Elo {args.elo} vs Stockfish UCI_Elo {args.sf_elo or args.elo}"
                with lock:
                    results.append((points, how))
                    colour = "white" if hoeven_white else "black"
                    print(f"game {number + 1}: Hoeven ({colour}) {points} ({how})", flush=True)
                    if args.pgn:
                        with open(args.pgn, "a") as f:
                            print(game, file=f, end="\n\n")
        finally:
            for e in engines:
                e.quit()

    threads = [threading.Thread(target=worker) for _ in range(args.concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wins = sum(1 for p, _ in results if p == 1.0)
    draws = sum(1 for p, _ in results if p == 0.5)
    losses = sum(1 for p, _ in results if p == 0.0)
    forfeits = sum(1 for _, how in results if "on time" in how)
    if not results:
        sys.exit("no game finished")
    r = elo.from_results(wins, draws, losses)
    rating = f"Elo {r[0]:+.1f} +/- {r[1]:.1f}" if r else "no finite Elo"
    print(
        f"UCI_Elo {args.elo} vs Stockfish {sf_elo}"
        f", {args.tc if args.clock else 'unclocked, Stockfish at depth ' + str(sf_depth)},"
        f" {len(results)} games: "
        f"Hoeven +{wins} ={draws} -{losses} ({forfeits} lost on time by either side), "
        f"{rating}"
    )


if __name__ == "__main__":
    main()
