#!/usr/bin/env python3
"""Hoeven against itself through python-chess, a real UCI client.

Plays complete games between two Hoeven processes: one classical game, two
Chess960 games from random Scharnagl numbers and one Double Fischer Random
game, at about 20 ms a move (the classical game on a clock with increment,
one Chess960 game with pondering). python-chess sets UCI_Chess960 itself for Chess960 boards and
parses every bestmove, ponder move and info line against the board.

A game ends by the rules (mate, stalemate, insufficient material, a draw
that can be claimed) or is adjudicated a draw at the move cap.

Exits 0 when every game finished cleanly; 1 on an illegal move, a malformed
info line, a crash, a stall (timeout) or an engine ignoring its clock (an
overrun of more than a second; a smaller one, which a loaded machine can
cause, ends that game as a time forfeit). The last line of output is a
one-line summary, `ok: N games, M plies` on success.

usage: selfplay_games.py /path/to/hoeven [--seed N] [--max-plies N]
"""

import argparse
import logging
import random
import signal
import sys
import time

try:
    import chess
    import chess.engine
except ImportError:  # pragma: no cover - reported to the caller
    print("error: python-chess is not installed (pip install chess)", file=sys.stderr)
    sys.exit(2)

MOVE_TIME = 0.02
#: Seconds python-chess waits for an answer beyond the search time.
ENGINE_TIMEOUT = 15.0
#: A clock game: seconds on each clock and increment per move.
CLOCK, INCREMENT = 1.0, 0.02
#: How far past zero a measured clock may go before it counts as a loss on
#: time (the measurement includes python-chess's own overhead).
FLAG_TOLERANCE = 0.1
#: A move that overruns the clock by more than this means the engine ignored
#: its clock, and fails the run. A smaller overrun ends the game as a loss on
#: time but is not a failure: on a heavily loaded machine the scheduler alone
#: can delay an answer by a few tenths of a second.
GROSS_OVERRUN = 1.0
#: The whole run must finish within this many seconds.
WATCHDOG = 420


class Failure(Exception):
    pass


class ErrorLog(logging.Handler):
    """Collects errors python-chess logs (for example a pv it cannot parse)."""

    def __init__(self):
        super().__init__(level=logging.ERROR)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def dfrc_board(white, black):
    """The Double Fischer Random start with White's back rank from Scharnagl
    number `white` and Black's from `black`."""
    w = chess.Board.from_chess960_pos(white)
    b = chess.Board.from_chess960_pos(black)
    ranks = w.board_fen().split("/")
    ranks[0] = b.board_fen().split("/")[0]
    castling = "".join(c for c in w.shredder_fen().split()[2] if c.isupper())
    castling += "".join(c for c in b.shredder_fen().split()[2] if c.islower())
    return chess.Board("/".join(ranks) + " w " + castling + " - 0 1", chess960=True)


def check_result(board, result, engine_name):
    """Checks a PlayResult against the board before the move."""
    if result.resigned or result.draw_offered:
        raise Failure(f"{engine_name} resigned or offered a draw, which it should not do")
    move = result.move
    if move is None:
        raise Failure(f"{engine_name} gave no move in {board.fen()}")
    if move not in board.legal_moves:
        raise Failure(f"{engine_name} played the illegal move {move.uci()} in {board.fen()}")
    if result.ponder is not None:
        after = board.copy()
        after.push(move)
        if result.ponder not in after.legal_moves:
            raise Failure(
                f"{engine_name}: ponder move {result.ponder.uci()} is illegal after "
                f"{move.uci()} in {board.fen()}"
            )
    pv = result.info.get("pv")
    if pv:
        if pv[0] != move:
            raise Failure(f"{engine_name}: pv {[m.uci() for m in pv]} does not start with {move.uci()}")
        replay = board.copy()
        for m in pv:
            if m not in replay.legal_moves:
                raise Failure(f"{engine_name}: illegal pv {[m.uci() for m in pv]} in {board.fen()}")
            replay.push(m)


def play_game(number, label, board, engines, max_plies, clock=False, ponder=False):
    names = ["white", "black"]
    clocks = [CLOCK, CLOCK]
    start_fen = board.fen()
    plies = 0
    # A new game key per game: python-chess sends ucinewgame when it changes.
    game_key = object()
    while not board.is_game_over(claim_draw=True) and plies < max_plies:
        side = 0 if board.turn == chess.WHITE else 1
        engine = engines[side]
        if clock:
            limit = chess.engine.Limit(
                white_clock=clocks[0], black_clock=clocks[1],
                white_inc=INCREMENT, black_inc=INCREMENT,
            )
        else:
            limit = chess.engine.Limit(time=MOVE_TIME)
        started = time.perf_counter()
        result = engine.play(board, limit, game=game_key, ponder=ponder, info=chess.engine.INFO_ALL)
        spent = time.perf_counter() - started
        check_result(board, result, f"{names[side]} (game {number}, ply {plies + 1})")
        if clock:
            clocks[side] -= spent
            if clocks[side] < -GROSS_OVERRUN:
                raise Failure(
                    f"game {number}: {names[side]} ignored its clock at ply {plies + 1}: "
                    f"{spent:.3f} s spent with {clocks[side] + spent:.3f} s left"
                )
            if clocks[side] < -FLAG_TOLERANCE:
                over = -clocks[side]
                print(
                    f"game {number} {label}: {'0-1' if side == 0 else '1-0'} (time forfeit, "
                    f"{names[side]} {over * 1000:.0f} ms over at ply {plies + 1}: a loaded machine?) "
                    f"after {plies} plies, from {start_fen}",
                    flush=True,
                )
                return plies
            clocks[side] += INCREMENT
        elif spent > MOVE_TIME + 2.0:
            raise Failure(f"game {number}: {names[side]} took {spent:.2f} s for a {MOVE_TIME} s move")
        board.push(result.move)
        plies += 1
    if board.is_game_over(claim_draw=True):
        outcome = board.outcome(claim_draw=True)
        how = f"{outcome.result()} ({outcome.termination.name.lower()})"
    else:
        how = "1/2-1/2 (adjudicated at the move cap)"
    print(f"game {number} {label}: {how} after {plies} plies, from {start_fen}", flush=True)
    return plies


def watchdog(*_):
    raise Failure(f"watchdog: the run took over {WATCHDOG} s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine", help="path to the hoeven binary")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--max-plies", type=int, default=200)
    args = parser.parse_args()

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    rng = random.Random(seed)
    print(f"seed {seed} (rerun with --seed {seed})", flush=True)

    errors = ErrorLog()
    logging.getLogger("chess.engine").addHandler(errors)
    if hasattr(signal, "alarm"):
        signal.signal(signal.SIGALRM, watchdog)
        signal.alarm(WATCHDOG)

    n960 = rng.sample(range(960), 2)
    dfrc = (rng.randrange(960), rng.randrange(960))
    games = [
        (f"classical, {CLOCK:g} s + {INCREMENT:g} s clock", chess.Board(), dict(clock=True)),
        (f"Chess960 #{n960[0]}, 20 ms a move, pondering", chess.Board.from_chess960_pos(n960[0]), dict(ponder=True)),
        (f"Chess960 #{n960[1]}, 20 ms a move", chess.Board.from_chess960_pos(n960[1]), dict()),
        (f"DFRC #{dfrc[0]}/#{dfrc[1]}, 20 ms a move", dfrc_board(*dfrc), dict()),
    ]

    engines = []
    total = 0
    try:
        for _ in range(2):
            engines.append(chess.engine.SimpleEngine.popen_uci([args.engine], timeout=ENGINE_TIMEOUT))
        engines[1].configure({"UCI_ShowWDL": True})
        for i, (label, board, options) in enumerate(games, 1):
            total += play_game(i, label, board, engines, args.max_plies, **options)
            if errors.messages:
                raise Failure("python-chess reported: " + "; ".join(errors.messages[:5]))
        for e in engines:
            e.quit()
        engines = []
    except Failure as f:
        print(f"FAILED: {f}", flush=True)
        return 1
    except chess.engine.EngineTerminatedError as e:
        print(f"FAILED: the engine died: {e!r}", flush=True)
        return 1
    except (chess.engine.EngineError, TimeoutError) as e:
        print(f"FAILED: {type(e).__name__}: {e!r} (an illegal move, a protocol error or a stall)", flush=True)
        return 1
    except Exception as e:  # noqa: BLE001 - any other problem fails the run too
        print(f"FAILED: unexpected {type(e).__name__}: {e!r}", flush=True)
        return 1
    finally:
        for e in engines:
            try:
                e.close()
            except Exception:  # noqa: BLE001
                pass
        if hasattr(signal, "alarm"):
            signal.alarm(0)
    print(f"ok: {len(games)} games, {total} plies", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
