#!/usr/bin/env python3
"""A deterministic CECP engine for normal chess (python-chess): the same position always gets the
same answer, so a match replays exactly — what the resume, shard and merge tests compare.

Usage: hash-engine.py SALT
It mates in one when it can, else takes the most valuable piece it can, else plays the legal move
a CRC of (SALT, position) picks; it resigns when it is ten points of material down. Engines with
different salts play different games; the results are mixed (mates, resignations, draws).
"""
import sys
import zlib

chess = None  # imported after `feature done=0`: the import takes seconds on a loaded machine
VALUE = {}


def material(board, color):
    return sum(VALUE[p.piece_type] * (1 if p.color == color else -1) for p in board.piece_map().values())


def choose(board, salt):
    moves = sorted(board.legal_moves, key=lambda m: m.uci())
    for m in moves:
        board.push(m)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return m
    captures = [m for m in moves if board.is_capture(m) and board.piece_at(m.to_square)]
    if captures:
        return max(captures, key=lambda m: VALUE[board.piece_at(m.to_square).piece_type])
    key = (salt + " " + board.fen()).encode()
    return moves[zlib.crc32(key) % len(moves)]


def main():
    global chess
    salt = sys.argv[1] if len(sys.argv) > 1 else ""
    board = None
    forced = False

    def send(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def move():
        if board.is_game_over():
            return
        if material(board, board.turn) <= -10:
            send("resign")
            return
        m = choose(board, salt)
        board.push(m)
        send("move " + m.uci())

    for raw in sys.stdin:
        word, _, rest = raw.strip().partition(" ")
        if word == "protover":
            send("feature done=0")
            import chess as module

            chess = module
            VALUE.update({chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0})
            board = chess.Board()
            send('feature myname="hash-' + salt + '" usermove=1 setboard=1 ping=1 sigint=0 sigterm=0 '
                 'variants="normal" done=1')
        elif word == "ping":
            send("pong " + rest)
        elif word == "new":
            board = chess.Board()
            forced = False
        elif word == "setboard":
            board = chess.Board(rest)
        elif word == "force":
            forced = True
        elif word == "usermove":
            board.push_uci(rest)
            if not forced:
                move()
        elif word == "go":
            forced = False
            move()
        elif word == "quit":
            return


if __name__ == "__main__":
    main()
