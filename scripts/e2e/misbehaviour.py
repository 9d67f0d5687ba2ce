"""What the deliberately broken engines (broken-engine.py over CECP, broken-uci-engine.py over
UCI) share: their command line's common part, and what they write: a line out at once, a
well-formed move that is not legal, and garbage.

python-chess is imported only when a move is wanted: the engines put off that import until their
start-up lines are out (it can take seconds on a loaded machine).
"""

import sys


def command_line(modes, usage):
    """MODE [--at N] [--early] from sys.argv: (mode, N, early), N 3 by default; None, after the
    usage on stderr, if MODE is not one of `modes`."""
    args = sys.argv[1:]
    if not args or args[0] not in modes:
        sys.stderr.write(usage)
        return None
    at = int(args[args.index("--at") + 1]) if "--at" in args else 3
    return args[0], at, "--early" in args


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def illegal_move(board):
    """A coordinate move of one of our pieces that is well-formed but not legal."""
    import chess

    legal = set(board.legal_moves)
    for frm in chess.SQUARES:
        piece = board.piece_at(frm)
        if piece is None or piece.color != board.turn:
            continue
        for to in chess.SQUARES:
            mv = chess.Move(frm, to)
            if to != frm and mv not in legal and chess.square_distance(frm, to) >= 3:
                return mv.uci()
    return "a1a1"


def garbage(move_word):
    """Junk lines (one of bytes that are not UTF-8), then `MOVE_WORD ?!%zz`."""
    out("@#!? what is a move")
    sys.stdout.buffer.write(b"\xff\xfe\x00junk\x80\n")
    sys.stdout.flush()
    out(move_word + " ?!%zz")
