#!/usr/bin/env python3
"""qs.py in.tsv out.tsv : keep positions whose material-only quiescence value (captures and
promotions, stand pat, values 100/300/300/500/900) equals the static material (stm gains nothing)."""
import sys, chess
V = {1: 100, 2: 300, 3: 300, 4: 500, 5: 900, 6: 0}
def mat(b):
    s = 0
    for sq, p in b.piece_map().items():
        s += V[p.piece_type] if p.color == b.turn else -V[p.piece_type]
    return s
def qs(b, a, be, d=0):
    sp = mat(b)
    if sp >= be: return sp
    a = max(a, sp)
    if d > 8: return sp
    ms = [m for m in b.generate_legal_captures()] + [m for m in b.generate_legal_moves() if m.promotion and not b.is_capture(m)]
    ms.sort(key=lambda m: -(V[b.piece_at(m.to_square).piece_type] if b.piece_at(m.to_square) else 100) * 10 + V[b.piece_at(m.from_square).piece_type] // 100)
    for m in ms:
        b.push(m); v = -qs(b, -be, -a, d + 1); b.pop()
        if v >= be: return v
        a = max(a, v)
    return a
n = k = 0
with open(sys.argv[2], 'w') as f:
    for l in open(sys.argv[1]):
        fen = l.rstrip('\n').split('\t')[3]
        b = chess.Board(fen); n += 1
        if b.is_check(): continue
        m = mat(b)
        if qs(b, m - 1, m + 1) <= m:
            f.write(l); k += 1
print(n, k)
