#!/usr/bin/env python3
"""collect.py in.tsv out.json NAME=BIN ... : FSF 11.1 trace + our static evals (stm view).
Reuses fsf()/phase() of docs/research/kd/eval_positions.py (FSF pawns x100, stm view)."""
import os
import json, sys, chess
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'kd'))
import eval_positions as ep
inp, outp = sys.argv[1:3]
bins = dict(a.split('=', 1) for a in sys.argv[3:])
rows = [l.rstrip('\n').split('\t') for l in open(inp)]
fens = [r[3] for r in rows]
ours = {n: ep.ours(b, fens) for n, b in bins.items()}
fs = []
for k in range(0, len(fens), 500):
    fs += ep.fsf(fens[k:k+500])
out = []
for i, r in enumerate(rows):
    b = chess.Board(r[3]); sgn = 1 if b.turn == chess.WHITE else -1
    tot, terms, sides = fs[i]
    conv = lambda v: [None if x is None else x * 100 for x in v]
    ph, npm = ep.phase(b)
    out.append(dict(idx=int(r[0]), result=float(r[1]), fen=r[3], fsf_search=sgn * int(r[2]),
        ours={n: ours[n][i] for n in bins},
        fsf_total=None if tot is None else sgn * tot * 100,
        terms={k: [None if x is None else sgn * x * 100 for x in v] for k, v in terms.items()},
        sides={k: ([conv(v[0]), conv(v[1])] if sgn == 1 else [conv(v[1]), conv(v[0])]) for k, v in sides.items()},
        phase=ph, npm=npm,
        queens=len(b.pieces(chess.QUEEN, True)) + len(b.pieces(chess.QUEEN, False))))
json.dump(out, open(outp, 'w'))
