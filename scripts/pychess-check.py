#!/usr/bin/env python3
"""End-to-end protocol check of the engine with python-chess as a strict CECP client.

Usage: scripts/pychess-check.py [ENGINE_PATH] [--out DIR] [--ply-cap N] [--quick]

Plays complete engine-vs-engine games between two processes of ENGINE_PATH (default:
target/release/fairybridge) through chess.engine.SimpleEngine.popen_xboard, each game with
a different way of limiting the search (what python-chess puts on the wire in brackets):

  st          Limit(time=...)                       [st 0.05]
  clock+inc   clocks with increment, one clock_id    [level 0 0:04 0.1, then time/otim before every go]
  moves/tc    clocks, 20 moves per control           [level 20 0:04 0]
  nodes       Limit(nodes=...)                        [nps 1 + st NODES]
  FEN games   non-start positions                     [new, force, setboard FEN ...]; also sd, Black to move
  crazyhouse  chess.variant.CrazyhouseBoard games     [variant crazyhouse, drops P@e4]: st and clock+inc

followed by analysis checks (analyze mode: `analysis(..., Limit(time=1))`, `analyse(..., Limit(depth=8))`,
and a take-back that makes python-chess send `remove`/`undo`).

A failure is: any chess.engine.EngineError (an `Error`/`Illegal move` line from the engine, a move
python-chess cannot parse as legal, a crash), a hang (watchdog), a lost time-control game (the
side's clock measured here went below zero), a move in `st` mode far above the limit, a deeper search
than `sd` or far more nodes than `nps 1`+`st N` (checked on the thinking output where post is on), a
result claim that does not match the position, a `move` without a pending `go` (stale/double move,
or one in analyze mode), an illegal move inside a thinking-output PV, an engine that does not exit
with status 0 after `quit`, or an initialisation that needs python-chess's 2 s timeout. Games end on board.is_game_over(claim_draw=True), resignation, agreed draw, or the ply cap
(adjudicated as a draw). Both engines always get `result` and `quit`.

The full wire transcript of every engine process is written to OUT (default
target/pychess-check/), with the games as PGN. Exit status 0 = all good, 1 = at least one failure.
"""

import argparse
import logging
import re
import sys
import threading
import time
from pathlib import Path

import chess
import chess.engine
import chess.pgn
import chess.variant

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_ENGINE = ROOT / "target" / "release" / "fairybridge"

RESULT_RE = re.compile(r"^\s*(1-0|0-1|1/2-1/2)(\s+\{(.*)\})?")
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
# Black to move, with an en-passant field in the FEN (python-chess always writes it).
BLACK_TO_MOVE = "rnbqkbnr/ppp1pppp/8/8/3pP3/5N2/PPPP1PPP/RNBQKB1R b KQkq e3 0 3"
# Both sides promote soon (promotion suffix on the wire).
PROMOTION = "8/2P3k1/8/8/8/8/1p4K1/8 w - - 0 1"


# --------------------------------------------------------------------------------------------
# Wire capture: every line python-chess sends/receives is logged at DEBUG by chess.engine.

class Wire(logging.Handler):
    """Collects the protocol lines per engine process (keyed by the Protocol object)."""

    def __init__(self):
        super().__init__(level=logging.DEBUG)
        self.lines = {}   # id(protocol) -> list of (t, kind, text); kind in '<', '>', '!' (warning)
        self.mu = threading.Lock()
        self.t0 = time.monotonic()

    def emit(self, record):
        try:
            proto = record.args[0] if isinstance(record.args, tuple) and record.args else None
            msg = record.getMessage()
        except Exception:  # never let logging break the run
            return
        m = re.match(r"^.*?: (<<|>>) (.*)$", msg, re.S)
        if m and record.levelno == logging.DEBUG:
            kind, text = ("<" if m.group(1) == "<<" else ">"), m.group(2)
        elif record.levelno >= logging.WARNING:
            kind, text = "!", msg
        else:
            return
        with self.mu:
            self.lines.setdefault(id(proto), []).append((time.monotonic() - self.t0, kind, text))


WIRE = Wire()
log = logging.getLogger("chess.engine")
log.setLevel(logging.DEBUG)
log.addHandler(WIRE)
log.propagate = False


class Engine:
    """One engine process plus its captured transcript."""

    counter = 0

    def __init__(self, path, label, out_dir):
        Engine.counter += 1
        self.label = f"{label}{Engine.counter}"
        self.path = path
        self.out_dir = out_dir
        self.se = chess.engine.SimpleEngine.popen_xboard([str(path)], timeout=10.0)
        self.key = id(self.se.protocol)
        self.closed = False
        self.name = self.se.id.get("name", "?")

    def lines(self):
        with WIRE.mu:
            return list(WIRE.lines.get(self.key, []))

    def mark(self):
        return len(self.lines())

    def since(self, mark, kind=">"):
        return [text for (_, k, text) in self.lines()[mark:] if k == kind]

    def tail(self, n=25):
        return [f"  {self.label} {t:8.3f} {k} {text}" for (t, k, text) in self.lines()[-n:]]

    def alive(self):
        return not self.closed and not self.se.returncode.done()

    def call(self, seconds, fn, *args, **kwargs):
        """Runs fn with a watchdog: past `seconds` the engine is killed and TimeoutError raised."""
        fired = threading.Event()

        def kill():
            fired.set()
            self.se.close()

        timer = threading.Timer(seconds, kill)
        timer.start()
        try:
            return fn(*args, **kwargs)
        except Exception:
            if fired.is_set():
                raise TimeoutError(f"{self.label}: no answer within {seconds:.1f} s (engine killed)")
            raise
        finally:
            timer.cancel()

    def quit(self):
        """quit + wait for the exit; returns a problem string or None."""
        if self.closed:
            return None
        self.closed = True
        problem = None
        try:
            if not self.se.returncode.done():
                self.call(10, self.se.quit)
            rc = self.se.returncode.result(timeout=10)
            if rc != 0:
                problem = f"{self.label} exited with status {rc} after quit"
        except Exception as exc:  # noqa: BLE001
            problem = f"{self.label}: quit failed: {type(exc).__name__}: {exc}"
        finally:
            self.se.close()
            self.dump()
        return problem

    def dump(self):
        path = self.out_dir / f"wire-{self.label}.log"
        with open(path, "w") as f:
            for (t, k, text) in self.lines():
                f.write(f"{t:9.3f} {k} {text}\n")


# --------------------------------------------------------------------------------------------
# Checks on raw engine output.

def pv_problems(lines, root):
    """Every thinking line's PV must be a legal sequence from `root` (coordinate moves)."""
    problems = []
    for line in lines:
        toks = line.split()
        if len(toks) < 5 or not line.lstrip()[:1].isdigit():
            continue
        i = 0
        while i < len(toks) and re.fullmatch(r"-?\d+", toks[i]):
            i += 1
        if i < 4:
            continue
        board = root.copy(stack=False)
        for tok in toks[i:]:
            if tok.rstrip(".").isdigit():
                continue
            bare = tok.rstrip("?!")
            if not bare:
                continue
            try:
                board.push_xboard(bare)
            except ValueError:
                problems.append(f"illegal PV move {tok!r} (from {root.fen()}): {line!r}")
                break
    return problems


def transcript_problems(eng):
    """Whole-transcript check: exactly one `move` per `go`, and none in analyze/force mode.
    (python-chess silently drops engine lines that arrive outside a command.)"""
    problems = []
    thinking = False
    context = []
    for (t, kind, text) in eng.lines():
        context = (context + [f"{kind} {text}"])[-6:]
        if kind == "<":
            word = text.split(" ", 1)[0]
            if word == "go":
                thinking = True
            elif word in ("force", "new", "analyze", "setboard", "usermove", "result", "quit", "exit"):
                thinking = False
        elif kind == ">" and text.startswith("move "):
            if not thinking:
                problems.append(f"{eng.label}: unexpected {text!r} at {t:.3f} s (no `go` pending); "
                                f"last lines: {context}")
            thinking = False
    return problems


def thinking(lines):
    """(depth, nodes) of every thinking-output line."""
    out = []
    for line in lines:
        toks = line.split()
        if len(toks) >= 4 and all(re.fullmatch(r"-?\d+", t) for t in toks[:4]):
            out.append((int(toks[0]), int(toks[3])))
    return out


def limit_problems(spec, received):
    """With post on: `sd N` must cap the reported depth, `nps 1`+`st N` the reported nodes."""
    problems = []
    think = thinking(received)
    depth = spec.kw.get("depth")
    if depth and think and max(d for d, _ in think) > depth:
        problems.append(f"searched to depth {max(d for d, _ in think)} despite `sd {depth}`")
    nodes = spec.kw.get("nodes")
    if nodes and think and max(n for _, n in think) > 2 * nodes + 1000:
        problems.append(f"searched {max(n for _, n in think)} nodes despite `nps 1` + `st {nodes}`")
    return problems


def claim_problem(claim, board_after, mover):
    """Checks a `1-0 {...}` style claim the mover sent right after its move."""
    m = RESULT_RE.match(claim)
    result, comment = m.group(1), (m.group(3) or "")
    if "resign" in comment.lower():
        loser_ok = (result == "1-0" and mover == chess.BLACK) or (result == "0-1" and mover == chess.WHITE)
        return None if loser_ok else f"resignation claim with the wrong winner: {claim!r}"
    if result in ("1-0", "0-1"):
        winner = chess.WHITE if result == "1-0" else chess.BLACK
        if board_after.is_checkmate() and board_after.turn != winner:
            return None
        return f"false win claim {claim!r} in {board_after.fen()}"
    ok = (board_after.is_stalemate() or board_after.is_insufficient_material()
          or board_after.halfmove_clock >= 100 or board_after.is_repetition(3))
    return None if ok else f"false draw claim {claim!r} in {board_after.fen()}"


# --------------------------------------------------------------------------------------------
# Games.

class Spec:
    def __init__(self, name, kind, fen=None, board=chess.Board, **kw):
        # board: the python-chess board class, which decides the variant python-chess asks for
        # (chess.variant.CrazyhouseBoard: `variant crazyhouse`, drops as P@e4).
        self.name, self.kind, self.fen, self.board, self.kw = name, kind, fen, board, kw


def limit_for(spec, board, clocks, moves_done, game_id):
    kw = spec.kw
    if spec.kind == "st":
        return chess.engine.Limit(time=kw["st"], depth=kw.get("depth"))
    if spec.kind == "nodes":
        return chess.engine.Limit(nodes=kw["nodes"])
    if spec.kind == "depth":
        return chess.engine.Limit(depth=kw["depth"])
    if spec.kind == "clock":
        mps = kw.get("mps")
        remaining = None
        if mps:
            remaining = mps - (moves_done[board.turn] % mps)
        return chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                  white_inc=kw.get("inc") or None, black_inc=kw.get("inc") or None,
                                  remaining_moves=remaining, clock_id=game_id)
    raise ValueError(spec.kind)


def deadline_for(spec, clocks, turn):
    """Watchdog per move (well above anything legitimate)."""
    kw = spec.kw
    if spec.kind == "st":
        return kw["st"] + 10
    if spec.kind == "clock":
        return max(clocks[turn], 0) + 10
    return 20


def move_time_limit(spec):
    """Max accepted wall time for one play() in st/nodes/depth games (includes the ping round trip)."""
    if spec.kind == "st":
        return spec.kw["st"] + 0.5
    return 5.0


def play_game(spec, white, black, ply_cap, failures):
    board = spec.board(spec.fen) if spec.fen else spec.board()
    start_fen = board.fen()
    start_ply = board.ply()
    game_id = object()
    base = spec.kw.get("base", 0.0)
    clocks = {chess.WHITE: base, chess.BLACK: base}
    moves_done = {chess.WHITE: 0, chess.BLACK: 0}
    draw_offer_pending = False
    termination, winner = None, None
    times = []
    started = time.monotonic()
    info_sel = chess.engine.INFO_ALL if spec.kw.get("post") else chess.engine.INFO_NONE

    def fail(msg):
        failures.append(f"[{spec.name}] {msg}")

    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            termination, winner = outcome.termination.name.lower(), outcome.winner
            break
        if board.ply() - start_ply >= ply_cap:
            termination, winner = f"ply cap {ply_cap} (adjudicated draw)", None
            break
        side = board.turn
        eng = white if side == chess.WHITE else black
        limit = limit_for(spec, board, clocks, moves_done, game_id)
        mark = eng.mark()
        root = board.copy()
        t0 = time.monotonic()
        res = eng.call(deadline_for(spec, clocks, side), eng.se.play, board, limit, game=game_id,
                       info=info_sel, draw_offered=draw_offer_pending)
        elapsed = time.monotonic() - t0
        times.append(elapsed)
        received = eng.since(mark)

        # Time accounting.
        if spec.kind == "clock":
            clocks[side] -= elapsed
            if clocks[side] < 0:
                fail(f"{eng.label} ({'White' if side else 'Black'}) lost on time at ply {board.ply()}: "
                     f"clock {clocks[side]:.3f} s after a {elapsed:.3f} s move")
                termination, winner = "time forfeit", not side
                break
            clocks[side] += spec.kw.get("inc", 0.0)
            moves_done[side] += 1
            if spec.kw.get("mps") and moves_done[side] % spec.kw["mps"] == 0:
                clocks[side] += base
        elif elapsed > move_time_limit(spec):
            fail(f"{eng.label} took {elapsed:.3f} s for one move (limit {limit}) at ply {board.ply()}")

        failures.extend(f"[{spec.name}] {eng.label}: {p}" for p in pv_problems(received, root))
        for p in limit_problems(spec, received):
            fail(f"{eng.label} at ply {board.ply()}: {p}")

        if res.resigned:
            termination, winner = f"{'White' if side else 'Black'} resigns", not side
            break
        if res.move is None:
            claims = [l for l in received if RESULT_RE.match(l)]
            fail(f"{eng.label} sent no move in a position that is not over ({board.fen()}); "
                 f"claims: {claims}")
            termination, winner = "engine refused to move", None
            break
        if res.move not in board.legal_moves:  # python-chess checked this already; belt and braces
            fail(f"{eng.label} illegal move {res.move} in {board.fen()}")
            break
        board.push(res.move)
        for claim in (l for l in received if RESULT_RE.match(l)):
            p = claim_problem(claim, board, side)
            if p:
                fail(f"{eng.label}: {p}")
        if res.draw_offered and draw_offer_pending:
            termination, winner = "draw agreed", None
            break
        draw_offer_pending = bool(res.draw_offered)

    # Tell both engines (python-chess sends the outstanding moves, then `result ...`).
    ending = None if termination in (None,) or termination in [t.name.lower() for t in chess.Termination] else termination
    for eng in (white, black):
        if eng.alive():
            eng.call(15, eng.se.send_game_result, board, winner, ending)
            eng.call(15, eng.se.ping)  # the engine must still answer after `result`

    result = "1-0" if winner == chess.WHITE else "0-1" if winner == chess.BLACK else "1/2-1/2"
    return {
        "board": board, "start_fen": start_fen, "result": result, "termination": termination,
        "plies": board.ply() - start_ply, "seconds": time.monotonic() - started,
        "max_move": max(times) if times else 0.0, "avg_move": sum(times) / len(times) if times else 0.0,
    }


def write_pgn(path, records):
    with open(path, "w") as f:
        for i, r in enumerate(records, 1):
            game = chess.pgn.Game.from_board(r["board"])
            game.headers["Event"] = f"pychess-check {r['spec'].name}"
            game.headers["Round"] = str(i)
            game.headers["White"] = r["white"]
            game.headers["Black"] = r["black"]
            game.headers["Result"] = r["result"]
            game.headers["Termination"] = r["termination"]
            print(game, file=f, end="\n\n")


# --------------------------------------------------------------------------------------------
# Analysis.

def check_analysis(eng, failures):
    notes = []

    def fail(msg):
        failures.append(f"[analysis] {msg}")

    # 1. analysis() generator, 1 s, on Kiwipete.
    board = chess.Board(KIWIPETE)
    mark = eng.mark()
    t0 = time.monotonic()
    infos = []

    def run_stream():
        with eng.se.analysis(board, chess.engine.Limit(time=1)) as an:
            for info in an:
                infos.append(info)
            return an.wait()
    best = eng.call(15, run_stream)
    dt = time.monotonic() - t0
    received = eng.since(mark)
    scored = [i for i in infos if "score" in i and i.get("pv")]
    if not scored:
        fail(f"analysis(Limit(time=1)) on Kiwipete: no info with score+pv ({len(infos)} infos)")
    else:
        last = scored[-1]
        notes.append(f"analysis 1 s Kiwipete: {len(infos)} infos, depth {last.get('depth')}, "
                     f"score {last['score'].white()}, pv {board.variation_san(last['pv'][:6])}, "
                     f"best {best.move}, {dt:.2f} s")
    if dt > 3.0:
        fail(f"analysis(Limit(time=1)) took {dt:.2f} s to stop")
    for l in received:
        if l.startswith("move ") or RESULT_RE.match(l) or l.strip() == "resign":
            fail(f"{eng.label} sent {l!r} in analyze mode")
    failures.extend(f"[analysis] {eng.label}: {p}" for p in pv_problems(received, board))

    # 2. analyse() to depth 8 after 1.e4 e5 2.Nf3.
    board = chess.Board()
    for san in ("e4", "e5", "Nf3"):
        board.push_san(san)
    mark = eng.mark()
    t0 = time.monotonic()
    info = eng.call(60, eng.se.analyse, board, chess.engine.Limit(depth=8))
    dt = time.monotonic() - t0
    received = eng.since(mark)
    if "score" not in info or not info.get("pv") or info.get("depth", 0) < 8:
        fail(f"analyse(Limit(depth=8)): incomplete info {info}")
    else:
        notes.append(f"analyse depth 8 after 1.e4 e5 2.Nf3: depth {info['depth']}, score {info['score'].white()}, "
                     f"pv {board.variation_san(info['pv'][:6])}, {dt:.2f} s")
    for l in received:
        if l.startswith("move ") or RESULT_RE.match(l):
            fail(f"{eng.label} sent {l!r} in analyze mode")
    failures.extend(f"[analysis] {eng.label}: {p}" for p in pv_problems(received, board))

    # 3. Take-back: play 6 plies (same game object), then analyse 3 plies earlier
    #    -> python-chess sends force, remove, undo instead of a new setboard.
    game = object()
    board = chess.Board()
    for _ in range(6):
        res = eng.call(15, eng.se.play, board, chess.engine.Limit(time=0.02), game=game)
        if res.move is None:
            fail(f"take-back test: no move from {board.fen()}")
            return notes
        board.push(res.move)
    played = board.move_stack[:]
    back = chess.Board()
    for mv in played[:3]:
        back.push(mv)
    mark = eng.mark()
    info = eng.call(30, eng.se.analyse, back, chess.engine.Limit(depth=5), game=game)
    sent = eng.since(mark, "<")
    received = eng.since(mark)
    if not any(s in ("remove", "undo") for s in sent):
        notes.append(f"take-back test: python-chess sent no remove/undo ({sent[:6]})")
    if "score" not in info or not info.get("pv"):
        fail(f"after {sent[:4]}: analysis info without score/pv: {info}")
    else:
        notes.append(f"take-back ({', '.join(s for s in sent if s in ('remove', 'undo'))}) then analyse "
                     f"depth 5: pv {back.variation_san(info['pv'][:4])}")
    failures.extend(f"[analysis after remove/undo] {eng.label}: {p}" for p in pv_problems(received, back))
    return notes


# --------------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("engine", nargs="?", default=str(DEFAULT_ENGINE))
    ap.add_argument("--out", default=str(ROOT / "target" / "pychess-check"))
    ap.add_argument("--ply-cap", type=int, default=300)
    ap.add_argument("--quick", action="store_true", help="only the first 4 games (then the analysis checks)")
    args = ap.parse_args()

    engine_path = Path(args.engine).resolve()
    if not engine_path.is_file():
        print(f"engine not found: {engine_path} (build it with cargo build --release)")
        return 1
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("wire-*.log"):
        old.unlink()

    specs = [
        Spec("st 0.05", "st", st=0.05),
        Spec("level 0 0:04 +0.1 (post)", "clock", base=4.0, inc=0.1, post=True),
        Spec("level 20 0:04 (moves/tc)", "clock", base=4.0, mps=20),
        Spec("nodes 3000 (post)", "nodes", nodes=3000, post=True),
        Spec("FEN Kiwipete, st 0.05 + sd 6 (post)", "st", fen=KIWIPETE, st=0.05, depth=6, post=True),
        Spec("FEN Black to move + ep field, st 0.03", "st", fen=BLACK_TO_MOVE, st=0.03),
        Spec("FEN promotions, sd 6 (post)", "depth", fen=PROMOTION, depth=6, post=True),
        Spec("crazyhouse, st 0.05", "st", st=0.05, board=chess.variant.CrazyhouseBoard),
        Spec("crazyhouse, level 0 0:04 +0.1 (post)", "clock", base=4.0, inc=0.1, post=True,
             board=chess.variant.CrazyhouseBoard),
        # Not from a FEN: python-chess 1.11.2 then sends `setboard` with hands that grow by every
        # capture of the game (its root position's pockets; measured), a position that never was.
    ]
    if args.quick:
        specs = specs[:4]

    failures, records, problems_at_exit = [], [], []
    t_start = time.monotonic()
    engines = []

    def open_pair():
        a = Engine(engine_path, "A", out)
        engines.append(a)
        b = Engine(engine_path, "B", out)
        engines.append(b)
        return a, b

    def close(e):
        p = e.quit()
        if p:
            problems_at_exit.append(p)

    a = b = None
    try:
        a, b = open_pair()
        print(f"engine: {engine_path} ({a.name})")
        for gi, spec in enumerate(specs):
            if not (a.alive() and b.alive()):
                close(a)
                close(b)
                a, b = open_pair()
            white, black = (a, b) if gi % 2 == 0 else (b, a)
            before = len(failures)
            try:
                r = play_game(spec, white, black, args.ply_cap, failures)
            except Exception as exc:  # noqa: BLE001
                failures.append(f"[{spec.name}] {type(exc).__name__}: {exc}")
                print(f"FAIL  {spec.name}: {type(exc).__name__}: {exc}")
                print("\n".join(white.tail(12) + black.tail(12)))
                close(a)
                close(b)
                a, b = open_pair()
                continue
            r.update(spec=spec, white=white.label, black=black.label)
            records.append(r)
            status = "ok  " if len(failures) == before else "FAIL"
            print(f"{status}  game {gi + 1} {spec.name:40s} {white.label}-{black.label} {r['result']:7s} "
                  f"{r['termination']:28s} {r['plies']:3d} plies {r['seconds']:6.1f} s "
                  f"(move avg {r['avg_move'] * 1000:.0f} ms, max {r['max_move'] * 1000:.0f} ms)")
            if len(failures) != before:
                for f in failures[before:]:
                    print(f"      {f}")
                print("\n".join(white.tail(8) + black.tail(8)))

        # Analysis with engine A (restart if it died).
        if not a.alive():
            close(a)
            a = Engine(engine_path, "A", out)
            engines.append(a)
        before = len(failures)
        try:
            for note in check_analysis(a, failures):
                print(f"      {note}")
        except Exception as exc:  # noqa: BLE001
            failures.append(f"[analysis] {type(exc).__name__}: {exc}")
            print("\n".join(a.tail(15)))
        print(f"{'ok  ' if len(failures) == before else 'FAIL'}  analysis checks")
        for f in failures[before:]:
            print(f"      {f}")
    finally:
        for e in engines:
            close(e)

    write_pgn(out / "games.pgn", records)
    # Warnings python-chess logged (unexpected output, stderr, init timeout).
    warn = [(e.label, text) for e in engines for (_, k, text) in e.lines() if k == "!"
            and "Rejecting feature sigterm" not in text and "output: 'stat01:" not in text]
    for label, text in warn:
        if "Timeout during initialization" in text or "Exception playing unexpected move" in text:
            failures.append(f"{label}: {text}")
    for e in engines:
        failures.extend(transcript_problems(e))
    failures.extend(problems_at_exit)

    wall = time.monotonic() - t_start
    if warn:
        print(f"python-chess warnings ({len(warn)}; unexpected output, stderr), first ones:")
        for label, text in warn[:10]:
            print(f"  {label}: {text}")
    print(f"games: {len(records)}/{len(specs)}, wall time {wall:.1f} s, transcripts + games.pgn in {out}")
    if failures:
        print(f"FAILED: {len(failures)} problem(s)")
        for f in failures:
            print(f"  - {f}")
        return 1
    print("PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
