#!/usr/bin/env python3
"""Sample positions from normal-fsf-scored.raw.xz.
all.tsv: every 70th line, not in check, 'quiet' (no capture of an undefended piece or of a more valuable piece).
cand.tsv: candidates for the disagreement set: FSF search (stm view) >= +150, not in check, quiet, phase-any.
Columns: idx, result, fsf_cp_white, fen"""
import os
import lzma, chess
V = {1: 1, 2: 3, 3: 3, 4: 5, 5: 9, 6: 0}
def quiet(b):
    if b.is_check():
        return False
    for m in b.generate_legal_captures():
        a = b.piece_at(m.from_square); v = b.piece_at(m.to_square)
        if v is None:  # ep
            continue
        if V[v.piece_type] > V[a.piece_type] or not b.is_attacked_by(not b.turn, m.to_square):
            return False
    return True
lines = lzma.open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'fixtures', 'tune', 'normal-fsf-scored.raw.xz'), 'rt').read().splitlines()
fa = open('all.tsv', 'w'); fc = open('cand.tsv', 'w')
na = nc = 0
for i, l in enumerate(lines):
    res, cp, fen = l.split(';', 2)
    cp = int(cp)
    if i % 70 == 0:
        b = chess.Board(fen)
        if quiet(b):
            fa.write(f"{i}\t{res}\t{cp}\t{fen}\n"); na += 1
    stm = cp if ' w ' in fen else -cp
    if stm >= 150 and stm < 1000:
        b = chess.Board(fen)
        if quiet(b):
            fc.write(f"{i}\t{res}\t{cp}\t{fen}\n"); nc += 1
print(na, nc)
