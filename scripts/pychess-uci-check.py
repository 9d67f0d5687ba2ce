#!/usr/bin/env python3
"""End-to-end check of the engine's UCI door with python-chess (chess.engine.SimpleEngine.popen_uci).

Usage: scripts/pychess-uci-check.py [ENGINE_PATH] [--out DIR] [--ply-cap N]

ENGINE_PATH defaults to target/release/fairybridge. Checks, each a line of its own in the output:

  handshake   id name, the options python-chess manages (UCI_Variant with "chess", UCI_Chess960,
              Ponder, MultiPV) and the others we announce (Hash, Move Overhead, VariantPath)
  games       complete games between two engine processes in orthodox chess: fixed move time,
              clocks with increment (wtime/btime/winc/binc), clocks with moves to go, fixed depth,
              fixed nodes, pondering on (go ponder / ponderhit / stop), and from set-up positions
  wildcastle  complete games of Wild Castle through UCI_Variant (a chess.Board subclass whose
              uci_variant is "wildcastle", from shuffled starts): python-chess judges every move
  analysis    analyse() with depth and time limits, analysis() until stopped, a mate in one
              (score Mate(+1)), a position with no legal move (no best move: bestmove (none))

A failure is an EngineError (a move python-chess cannot read as legal, a crash, an engine that
does not answer), a move that is not legal on python-chess's board, a lost time-control game
(the clock measured here went below zero), or a missing/odd search report. Games end on
board.is_game_over(claim_draw=True) or the ply cap (adjudicated as a draw). Every wire line
is kept in OUT (default target/pychess-uci-check/) with the games as PGN.
Exit status 0 = all good, 1 = at least one failure, 2 = python-chess missing (scripts/install-deps.sh).
"""

import argparse
import logging
import random
import sys
import time
from pathlib import Path

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:
    print("python-chess is missing: run scripts/install-deps.sh", file=sys.stderr)
    sys.exit(2)

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_ENGINE = ROOT / "target" / "release" / "fairybridge"

failures = []


def fail(what):
    failures.append(what)
    print(f"FAIL {what}", flush=True)


class Wire(logging.Handler):
    """Every line python-chess sends and receives (chess.engine logs them at DEBUG)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


WIRE = Wire()
logging.getLogger("chess.engine").addHandler(WIRE)
logging.getLogger("chess.engine").setLevel(logging.DEBUG)


class WildCastleBoard(chess.Board):
    """Wild Castle from a start with the king on e: python-chess's own rules are the game's there
    (castling moves the king two squares towards a corner rook)."""

    uci_variant = "wildcastle"
    xboard_variant = "wildcastle"
    starting_fen = chess.STARTING_FEN


def shuffled_start(rng):
    """A Wild Castle start with the king on e1/e8, rooks in the corners, bishops on opposite colours."""
    while True:
        middle = list("NNBBQ")
        rng.shuffle(middle)
        rank = ["R"] + middle[:3] + ["K"] + middle[3:] + ["R"]
        bishops = [i for i, p in enumerate(rank) if p == "B"]
        if (bishops[0] + bishops[1]) % 2 == 1:
            break
    white = "".join(rank)
    return f"{white.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1"


def play_game(name, board, limit_for, engines, ply_cap, ponder=False, clocks=None):
    """Plays one game between the two engines; returns the PGN game. `clocks` = [white, black]
    seconds with `limit_for` given them; each side's clock is charged here by the wall clock (and
    filled again by the starting time after the last move of a session with moves to go)."""
    session_seconds = clocks[0] if clocks else 0
    game = chess.pgn.Game()
    game.setup(board)
    game.headers["Event"] = f"pychess-uci-check {name}"
    node = game
    ok = True
    while not board.is_game_over(claim_draw=True) and board.ply() < ply_cap:
        side = 0 if board.turn == chess.WHITE else 1
        engine = engines[side]
        limit = limit_for(board, clocks)
        started = time.monotonic()
        try:
            result = engine.play(board, limit, ponder=ponder)
        except chess.engine.EngineError as e:
            fail(f"{name}: engine error at ply {board.ply()}: {e}")
            return game, False
        spent = time.monotonic() - started
        if clocks is not None:
            clocks[side] -= spent
            if clocks[side] < 0:
                fail(f"{name}: lost on time at ply {board.ply()} ({clocks[side]:.3f} s)")
                ok = False
                break
            clocks[side] += getattr(limit, "white_inc" if side == 0 else "black_inc") or 0
            # A session of N moves: its time comes again after the N-th move.
            if limit.remaining_moves == 1:
                clocks[side] += session_seconds
        if result.move is None or result.move not in board.legal_moves:
            fail(f"{name}: not a legal move at ply {board.ply()}: {result.move}")
            return game, False
        board.push(result.move)
        node = node.add_variation(result.move)
    outcome = board.outcome(claim_draw=True)
    game.headers["Result"] = outcome.result() if outcome else "1/2-1/2"
    game.headers["PlyCount"] = str(len(board.move_stack))
    return game, ok


def check_handshake(engine):
    if not engine.id.get("name", "").startswith("fairybridge"):
        fail(f"handshake: id name {engine.id}")
    for option in ["Hash", "Ponder", "MultiPV", "Move Overhead", "UCI_Variant", "UCI_Chess960", "VariantPath"]:
        if option not in engine.options:
            fail(f"handshake: option {option} missing")
    variants = engine.options["UCI_Variant"].var if "UCI_Variant" in engine.options else []
    for v in ["chess", "wildcastle", "pillage", "wildrose", "wreckage"]:
        if v not in variants:
            fail(f"handshake: UCI_Variant lacks {v}: {variants}")
    engine.configure({"Hash": 16, "Move Overhead": 40})
    print(f"ok handshake: {engine.id['name']}, {len(engine.options)} options", flush=True)


def check_games(engines, out, ply_cap):
    pgn = []
    runs = [
        ("movetime", chess.Board(), lambda b, c: chess.engine.Limit(time=0.05), False, None),
        (
            "clock+inc",
            chess.Board(),
            lambda b, c: chess.engine.Limit(white_clock=c[0], black_clock=c[1], white_inc=0.05, black_inc=0.05),
            False,
            [3.0, 3.0],
        ),
        (
            "moves-to-go",
            chess.Board(),
            lambda b, c: chess.engine.Limit(white_clock=c[0], black_clock=c[1], remaining_moves=20 - (b.fullmove_number - 1) % 20),
            False,
            [3.0, 3.0],
        ),
        ("depth", chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"), lambda b, c: chess.engine.Limit(depth=3), False, None),
        ("nodes", chess.Board("rnbqkbnr/ppp1pppp/8/8/3pP3/5N2/PPPP1PPP/RNBQKB1R b KQkq e3 0 3"), lambda b, c: chess.engine.Limit(nodes=3000), False, None),
        (
            "ponder",
            chess.Board(),
            lambda b, c: chess.engine.Limit(white_clock=c[0], black_clock=c[1], white_inc=0.05, black_inc=0.05),
            True,
            [3.0, 3.0],
        ),
        ("promotion", chess.Board("8/2P3k1/8/8/8/8/1p4K1/8 w - - 0 1"), lambda b, c: chess.engine.Limit(time=0.03), False, None),
    ]
    for name, board, limit_for, ponder, clocks in runs:
        game, ok = play_game(name, board, limit_for, engines, ply_cap, ponder=ponder, clocks=clocks)
        pgn.append(game)
        if ok:
            print(f"ok game {name}: {game.headers['Result']} in {game.headers['PlyCount']} plies", flush=True)
    return pgn


def check_wildcastle(engines, ply_cap, rng):
    pgn = []
    for i in range(2):
        start = shuffled_start(rng)
        board = WildCastleBoard(start)
        game, ok = play_game(f"wildcastle {i + 1}", board, lambda b, c: chess.engine.Limit(time=0.03), engines, ply_cap)
        # Not a Variant tag: python-chess's PGN reader would refuse a variant it does not know.
        game.headers["Event"] += " (Wild Castle)"
        pgn.append(game)
        if ok:
            print(f"ok wildcastle {i + 1} from {start.split()[0]}: {game.headers['Result']} in {game.headers['PlyCount']} plies", flush=True)
    if not any("setoption name UCI_Variant value wildcastle" in line for line in WIRE.lines):
        fail("wildcastle: python-chess never chose UCI_Variant wildcastle")
    return pgn


def check_analysis(engine):
    board = chess.Board()
    board.push_san("e4")
    info = engine.analyse(board, chess.engine.Limit(depth=8))
    for key in ["depth", "seldepth", "score", "nodes", "time", "pv", "nps"]:
        if key not in info:
            fail(f"analysis: analyse(depth=8) lacks {key}: {info}")
    if info.get("depth") != 8:
        fail(f"analysis: depth {info.get('depth')} instead of 8")
    replay = board.copy()
    for mv in info.get("pv", []):
        if mv not in replay.legal_moves:
            fail(f"analysis: illegal move {mv} in the PV {info.get('pv')}")
            break
        replay.push(mv)
    info = engine.analyse(board, chess.engine.Limit(time=0.3))
    if "score" not in info:
        fail(f"analysis: analyse(time=0.3) without score: {info}")
    # Infinite analysis until we stop it.
    seen = 0
    with engine.analysis(board) as analysis:
        started = time.monotonic()
        for info in analysis:
            if "depth" in info:
                seen += 1
            if seen >= 5 or time.monotonic() - started > 3:
                break
        analysis.stop()
        best = analysis.wait()
    if best.move is None or best.move not in board.legal_moves:
        fail(f"analysis: infinite analysis ended with {best.move}")
    # Mate in one.
    mate = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    info = engine.analyse(mate, chess.engine.Limit(depth=4))
    if info.get("score") is None or info["score"].white() != chess.engine.Mate(1):
        fail(f"analysis: mate in one scored {info.get('score')}")
    result = engine.play(mate, chess.engine.Limit(depth=4))
    if result.move != chess.Move.from_uci("a1a8"):
        fail(f"analysis: mate in one played {result.move}")
    # No legal move: python-chess reads `bestmove (none)` as no move.
    mate.push_uci("a1a8")
    result = engine.play(mate, chess.engine.Limit(time=0.1))
    if result.move is not None:
        fail(f"analysis: a mated side played {result.move}")
    # MultiPV: python-chess asks for 3 lines and gets three different first moves, best first.
    try:
        lines = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
        firsts = [l["pv"][0] for l in lines if l.get("pv")]
        if len(lines) != 3 or len(set(firsts)) != 3 or any(m not in board.legal_moves for m in firsts):
            fail(f"analysis: multipv=3 gave {lines}")
    except chess.engine.EngineError as e:
        fail(f"analysis: multipv=3 refused: {e}")
    print("ok analysis: depth, time, infinite, mate in one, no move, multipv 3", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("engine", nargs="?", default=str(DEFAULT_ENGINE))
    parser.add_argument("--out", default=str(ROOT / "target" / "pychess-uci-check"))
    parser.add_argument("--ply-cap", type=int, default=160)
    args = parser.parse_args()
    engine_path = Path(args.engine).resolve()
    if not engine_path.exists():
        print(f"no engine at {engine_path} (cargo build --release)", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(5)
    engines = []
    pgn = []
    try:
        engines = [chess.engine.SimpleEngine.popen_uci([str(engine_path)], timeout=10) for _ in range(2)]
        check_handshake(engines[0])
        check_handshake(engines[1])
        pgn += check_games(engines, out, args.ply_cap)
        pgn += check_wildcastle(engines, args.ply_cap, rng)
        check_analysis(engines[0])
    except (chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError) as e:
        fail(f"engine failure: {type(e).__name__}: {e}")
    finally:
        for e in engines:
            try:
                e.quit()
            except Exception as err:  # noqa: BLE001 - a dead engine is reported, not fatal here
                fail(f"quit: {err}")
        with open(out / "games.pgn", "w") as f:
            for g in pgn:
                print(g, file=f, end="\n\n")
        (out / "wire.log").write_text("\n".join(WIRE.lines) + "\n")
    for e in engines:
        code = e.transport.get_returncode() if hasattr(e, "transport") else 0
        if code not in (0, None):
            fail(f"engine exited with {code}")
    print(f"{len(failures)} failure(s); wire log and games in {out}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
