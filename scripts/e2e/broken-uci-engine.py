#!/usr/bin/env python3
"""A deliberately broken UCI engine for the match runner's UCI forfeit tests (orthodox chess only).

Usage: broken-uci-engine.py MODE [--at N] [--early] [--child PIDFILE]

It plays random legal moves (python-chess keeps the board from `position`) until its N-th `go`
of a game (default 3), then misbehaves according to MODE:

  illegal      sends a well-formed `bestmove` that is not legal (`bestmove e1e5`-like)
  crash        exits with status 3 instead of answering `go`
  silent       never answers that `go` nor the `stop` after it (reads on, says nothing)
  garbage      prints junk lines (including bytes that are not UTF-8), then `bestmove ?!%zz`
  none         sends `bestmove (none)` although it has legal moves
  crash-start  exits with status 3 before saying anything
  hang-start   reads on but never answers `uci`
  good         never misbehaves (a random mover)

With --child it starts, on `uci`, a child process that sleeps 60 s holding the engine's output
open, and appends the child's pid to PIDFILE: the match runner must kill it with the engine.

With --early it also sends a legal `bestmove` in reply to `ucinewgame`, before any `go`: the
referee must not take it as the engine's move.

Options announced: UCI_Variant (combo: chess only), Ponder. `id name Broken UCI (MODE)`.
"""

import os
import random
import sys
import time

from misbehaviour import command_line, garbage, illegal_move, out

# python-chess is imported only after `uciok`: importing it can take seconds on a loaded machine.
chess = None

MODES = ("illegal", "crash", "silent", "garbage", "none", "crash-start", "hang-start", "good")


def board_of(rest):
    """The board a `position` command's arguments describe."""
    words = rest.split()
    if words and words[0] == "startpos":
        board, words = chess.Board(), words[1:]
    elif words and words[0] == "fen":
        end = words.index("moves") if "moves" in words else len(words)
        board, words = chess.Board(" ".join(words[1:end])), words[end:]
    else:
        board = chess.Board()
    if words and words[0] == "moves":
        for mv in words[1:]:
            board.push_uci(mv)
    return board


def main():
    global chess
    parsed = command_line(MODES, __doc__)
    if parsed is None:
        return 2
    mode, at, early = parsed
    pidfile = sys.argv[sys.argv.index("--child") + 1] if "--child" in sys.argv[1:] else None
    if mode == "crash-start":
        return 3
    rng = random.Random(1)
    board = None
    goes = 0
    silent = False
    for raw in sys.stdin:
        line = raw.strip()
        word, _, rest = line.partition(" ")
        if word == "quit":
            return 0
        if silent or mode == "hang-start":
            continue
        if word == "uci":
            if pidfile:
                child = os.fork()
                if child == 0:
                    time.sleep(60)
                    os._exit(0)
                with open(pidfile, "a") as f:
                    f.write("%d\n" % child)
            out("id name Broken UCI (%s)" % mode)
            out("id author nobody")
            out("option name Ponder type check default false")
            out("option name UCI_Variant type combo default chess var chess")
            out("uciok")
            import chess as loaded

            chess = loaded
            board = chess.Board()
        elif word == "isready":
            out("readyok")
        elif word == "ucinewgame":
            goes = 0
            board = chess.Board()
            if early:
                out("bestmove " + next(iter(board.legal_moves)).uci())
        elif word == "position":
            board = board_of(rest)
        elif word == "go":
            goes += 1
            if goes >= at and mode != "good":
                if mode == "illegal":
                    out("bestmove " + illegal_move(board))
                elif mode == "crash":
                    return 3
                elif mode == "silent":
                    silent = True
                elif mode == "garbage":
                    garbage("bestmove")
                elif mode == "none":
                    out("bestmove (none)")
                continue
            out("info depth 1 score cp 0 nodes 1 pv")
            out("bestmove " + rng.choice(list(board.legal_moves)).uci())
        # everything else (setoption, stop, ponderhit, debug...) is ignored
    return 0


if __name__ == "__main__":
    sys.exit(main())
