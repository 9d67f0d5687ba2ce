#!/usr/bin/env python3
"""A deliberately broken CECP engine for the match runner's forfeit tests (orthodox chess only).

Usage: broken-engine.py MODE [--at N] [--early]

It plays random legal moves (python-chess keeps the board) until its N-th move of a game
(default 3), then misbehaves according to MODE:

  illegal        sends a well-formed move that is not legal (`move e1e5`-like)
  crash          exits with status 3 instead of moving
  orphan         exits with status 3 instead of moving, leaving a child that keeps stdout open
                 for 5 s (the end of output comes late; the exit must count)
  silent         never answers: reads on, sends nothing (not even to ping)
  false-claim    claims its own win (`1-0 {White mates}` / `0-1 {Black mates}`) instead of moving
  false-draw     claims a draw (`1/2-1/2 {Draw by repetition}`) instead of moving
  garbage        prints junk (including bytes that are not UTF-8) and `move` with junk text
  bare-move      sends `move` with nothing after it
  flood          sends 1 MB of junk lines, then `move ` followed by 8 MB of `x` on one line
  wrong-notation sends its legal move with a dash (`move e2-e4`)
  crash-start    exits with status 3 before saying anything
  hang-start     never says anything and never answers (not even its features)
  good           never misbehaves (a random mover)

With --early it also sends, while in force mode before the game (before answering the ping that
ends the set-up), a legal `move` and a draw claim: the referee must not take them as
game moves or claims.

Features: ping, setboard, usermove, myname="Broken (MODE)".
"""

import os
import random
import sys
import time

from misbehaviour import command_line, garbage, illegal_move, out

# python-chess is imported only after the features are out: importing it can take seconds on a
# loaded machine, longer than a GUI waits for the features of a protocol-2 engine.
chess = None


def load_chess():
    global chess
    if chess is None:
        import chess as loaded

        chess = loaded

MODES = (
    "illegal",
    "crash",
    "orphan",
    "silent",
    "false-claim",
    "false-draw",
    "garbage",
    "bare-move",
    "flood",
    "wrong-notation",
    "crash-start",
    "hang-start",
    "good",
)


def main():
    parsed = command_line(MODES, __doc__)
    if parsed is None:
        return 2
    mode, at, early = parsed
    if mode == "crash-start":
        return 3
    features_sent = False
    for raw in sys.stdin:
        if mode == "hang-start":
            continue
        if raw.startswith("protover"):
            out('feature ping=1 setboard=1 usermove=1 sigint=0 sigterm=0 myname="Broken (%s)" done=1' % mode)
            features_sent = True
            break
    if not features_sent:
        return 0
    load_chess()
    rng = random.Random(1)
    board = chess.Board()
    force = True
    moves_made = 0
    silent = False

    def think():
        nonlocal moves_made, silent
        moves_made += 1
        if moves_made >= at and mode != "good":
            if mode == "illegal":
                out("move " + illegal_move(board))
            elif mode == "crash":
                sys.exit(3)
            elif mode == "orphan":
                if os.fork() == 0:
                    time.sleep(5)
                    os._exit(0)
                os._exit(3)
            elif mode == "silent":
                silent = True
            elif mode == "false-claim":
                out("1-0 {White mates}" if board.turn == chess.WHITE else "0-1 {Black mates}")
            elif mode == "false-draw":
                out("1/2-1/2 {Draw by repetition}")
            elif mode == "bare-move":
                out("move")
            elif mode == "flood":
                for i in range(20000):
                    out("junk line %d of a flood of output ........................" % i)
                sys.stdout.write("move " + "x" * (8 << 20) + "\n")
                sys.stdout.flush()
            elif mode == "wrong-notation":
                mv = rng.choice(list(board.legal_moves)).uci()
                out("move %s-%s" % (mv[:2], mv[2:]))
            elif mode == "garbage":
                garbage("move")
            return
        mv = rng.choice(list(board.legal_moves))
        board.push(mv)
        out("move " + mv.uci())

    for raw in sys.stdin:
        line = raw.strip()
        if silent:
            if line == "quit":
                return 0
            continue
        if not line:
            continue
        word, _, rest = line.partition(" ")
        if word == "new":
            board = chess.Board()
            force = False
            moves_made = 0
        elif word == "setboard":
            board = chess.Board(rest)
        elif word == "force":
            force = True
        elif word == "go":
            force = False
            if not board.is_game_over():
                think()
        elif word == "usermove":
            board.push_uci(rest)
            if not force and not board.is_game_over():
                think()
        elif word == "ping":
            if early and force and moves_made == 0:
                out("move " + next(iter(board.legal_moves)).uci())
                out("1/2-1/2 {Draw claimed before the game}")
            out("pong " + rest)
        elif word == "quit":
            return 0
        # everything else (xboard, accepted, level, time, otim, post, easy, result...) is ignored
    return 0


if __name__ == "__main__":
    sys.exit(main())
