#!/usr/bin/env python3
"""Independent perft for Wild Castle (shared/rules/wildcastle.md), used to verify
fixtures/perft/wildcastle.perft. Not run by `cargo test`.

Everything except castling is python-chess (pip `chess`) with its castling rights cleared; castling
is re-implemented here from the spec, section 4: the king (on any file) moves two squares towards a
corner rook that still has its right, the rook lands on the square the king passed; every square
strictly between king and rook is empty; the king is not in check, the passed square is not
attacked, and the king is not attacked after the move.

    python3 tests/support/wildcastle_perft.py 'FEN' DEPTH [--native]

`--native` counts with python-chess's own (orthodox) castling instead, as a cross-check of this
script for positions with the king on the e-file and rooks on a/h.

`--mirror` first reflects the position file for file (a<->h, K<->Q rights). A position with both
kings on the d-file and rooks in the corners mirrors to one with both kings on the e-file, and the
spec's d-file castling (d1f1 with R h1-e1; d1b1 with R a1-c1; same squares empty / not attacked)
mirrors exactly to orthodox castling (e1c1 with R a1-d1; e1g1 with R h1-f1). So
`--mirror --native` counts a d-file position with python-chess alone, a second independent count.
"""
import re
import sys

import chess


def mirror(fen):
    """Reflects a FEN across the d/e line: files a<->h, castling K<->Q, e.p. file mirrored."""
    p = fen.split()
    expand = lambda r: re.sub(r"\d", lambda m: "." * int(m.group()), r)
    compress = lambda r: re.sub(r"\.+", lambda m: str(len(m.group())), r)
    p[0] = "/".join(compress(expand(r)[::-1]) for r in p[0].split("/"))
    swap = {"K": "Q", "Q": "K", "k": "q", "q": "k"}
    if p[2] != "-":
        p[2] = "".join(sorted((swap.get(c, c) for c in p[2]), key=lambda c: "KQkq".find(c)))
    if p[3] != "-":
        p[3] = chr(ord("h") - (ord(p[3][0]) - ord("a"))) + p[3][1:]
    return " ".join(p)


def parse_rights(board, castling):
    """Castling field -> {(color, rook_square)}: K/Q = outermost rook on that side, A-H = file."""
    rights = set()
    if castling == "-":
        return rights
    for c in castling:
        color = chess.WHITE if c.isupper() else chess.BLACK
        king = board.king(color)
        if king is None:
            continue
        rank = chess.square_rank(king)
        kf = chess.square_file(king)
        rooks = [f for f in range(8) if board.piece_at(chess.square(f, rank)) == chess.Piece(chess.ROOK, color)]
        up = c.upper()
        if up == "K":
            cand = [f for f in rooks if f > kf]
            f = max(cand) if cand else None
        elif up == "Q":
            cand = [f for f in rooks if f < kf]
            f = min(cand) if cand else None
        else:
            f = ord(up) - ord("A")
            f = f if f in rooks else None
        if f is not None:
            rights.add((color, chess.square(f, rank)))
    return rights


class Wild:
    def __init__(self, fen):
        parts = fen.split()
        castling = parts[2]
        parts[2] = "-"
        self.board = chess.Board(" ".join(parts))
        self.rights = frozenset(parse_rights(self.board, castling))
        self.origin = {c: self.board.king(c) for c in (chess.WHITE, chess.BLACK)}

    def child(self, board, rights):
        w = Wild.__new__(Wild)
        w.board, w.rights, w.origin = board, rights, self.origin
        return w

    def castlings(self):
        b = self.board
        us = b.turn
        k = b.king(us)
        if k != self.origin[us] or b.is_check():
            return
        for color, r in self.rights:
            if color != us:
                continue
            kf, rf, rank = chess.square_file(k), chess.square_file(r), chess.square_rank(k)
            d = 1 if rf > kf else -1
            if abs(rf - kf) < 2:
                continue
            between = [chess.square(f, rank) for f in range(kf + d, rf, d)]
            if any(b.piece_at(s) for s in between):
                continue
            passed, kto = chess.square(kf + d, rank), chess.square(kf + 2 * d, rank)
            if b.is_attacked_by(not us, passed):
                continue
            n = b.copy(stack=False)
            n.remove_piece_at(k)
            n.remove_piece_at(r)
            n.set_piece_at(kto, chess.Piece(chess.KING, us))
            n.set_piece_at(passed, chess.Piece(chess.ROOK, us))
            if n.is_attacked_by(not us, kto):
                continue
            n.turn = not us
            n.ep_square = None
            yield ("%s%s" % (chess.square_name(k), chess.square_name(kto)), n,
                   frozenset(x for x in self.rights if x[0] != us))

    def children(self):
        for mv in self.board.legal_moves:
            n = self.board.copy(stack=False)
            n.push(mv)
            touched = {mv.from_square, mv.to_square}
            rights = frozenset(
                (c, r) for (c, r) in self.rights
                if r not in touched and not (mv.from_square == self.origin[c] and self.board.turn == c)
            )
            yield mv.uci(), self.child(n, rights)
        for text, n, rights in self.castlings():
            yield text, self.child(n, rights)


def perft(w, depth):
    if depth == 0:
        return 1
    if depth == 1:
        return sum(1 for _ in w.children())
    return sum(perft(c, depth - 1) for _, c in w.children())


def native(b, depth):
    if depth == 0:
        return 1
    if depth == 1:
        return b.legal_moves.count()
    n = 0
    for mv in b.legal_moves:
        b.push(mv)
        n += native(b, depth - 1)
        b.pop()
    return n


if __name__ == "__main__":
    fen, depth = sys.argv[1], int(sys.argv[2])
    if "--mirror" in sys.argv:
        fen = mirror(fen)
    if "--native" in sys.argv:
        print(native(chess.Board(fen), depth))
    elif "--divide" in sys.argv:
        for text, c in sorted(Wild(fen).children(), key=lambda x: x[0]):
            print(text, perft(c, depth - 1))
    else:
        print(perft(Wild(fen), depth))
