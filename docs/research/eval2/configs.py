#!/usr/bin/env python3
"""configs.py allq.json [ENGINE]: importance of each phased mg/eg term ((0.75-b)*sd, b from the
mg/eg-split regression) and the model residual / raw ratio by material configuration (stm view)."""
import os
import json, sys
import numpy as np, chess
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'kd'))
from analyse import TERMS, ols, x_of
eng = sys.argv[2] if len(sys.argv) > 2 else 'kd'
al = [r for r in json.load(open(sys.argv[1])) if r["fsf_total"] is not None and "King safety" in r["terms"] and abs(r["terms"]["Total"][1] or 0) > 0]
y = np.array([r['ours'][eng] for r in al], float)
p = np.array([r['phase'] / 128 for r in al])
cols, nm = [], []
for t in TERMS:
    for j, w in ((0, p), (1, 1 - p)):
        c = np.array([r['terms'][t][j] for r in al]) * w
        if np.abs(c).sum() > 0:
            cols.append(c); nm.append(t + (' mg' if j == 0 else ' eg'))
A = np.column_stack([np.ones(len(y))] + cols)
b, se, res = ols(A, y)
print("| term | b | sd x | (0.75-b)*sd |\n|---|---|---|---|")
for k in sorted(range(len(nm)), key=lambda k: -abs((0.75 - b[k+1]) * cols[k].std())):
    print(f"| {nm[k]} | {b[k+1]:+.2f} | {cols[k].std():.0f} | {(0.75-b[k+1])*cols[k].std():+.1f} |")
def cnt(bd, pt, c): return len(bd.pieces(pt, c))
groups = {}
for i, r in enumerate(al):
    bd = chess.Board(r['fen']); us = bd.turn; th = not us
    d = {pt: cnt(bd, pt, us) - cnt(bd, pt, th) for pt in range(1, 6)}
    minor = d[2] + d[3]
    g = []
    bp = (cnt(bd, 3, us) >= 2) - (cnt(bd, 3, th) >= 2)
    if bp: g.append('bishop pair only one side')
    if d[5] == 0 and d[4] == 0 and minor == 0 and d[1] == 0: g.append('material level (piece counts equal)')
    if d[5] == 0 and d[4] == 0 and abs(minor) == 1: g.append('minor vs pawns (R,Q level, one minor up)')
    if d[5] == 0 and d[4] * minor == -1 and abs(d[4]) == 1: g.append('exchange (R vs minor)')
    if d[5] == 0 and d[4] == 0 and minor == 0 and abs(d[1]) == 1: g.append('one pawn up/down only')
    if d[5] == 0 and d[4] == 0 and minor == 0 and abs(d[1]) >= 2: g.append('2+ pawns up/down only')
    if d[5] != 0: g.append('queen imbalance')
    if d[2] == -d[3] and d[2] != 0 and d[4] == d[5] == 0: g.append('N vs B')
    for x in g: groups.setdefault(x, []).append(i)
fsf = np.array([r['fsf_total'] for r in al])
mi = np.array([x_of(r, 'Material') + x_of(r, 'Imbalance') for r in al])
print("\n| configuration (stm view) | n | mean ours | mean 0.75*FSF(Mat+Imb) | ratio ours/FSF(Mat+Imb), signed by material | mean model residual (signed by FSF Mat+Imb) |\n|---|---|---|---|---|---|")
for g, ix in groups.items():
    ix = np.array(ix); s = np.sign(mi[ix]); s[s == 0] = 1
    fit = np.linalg.lstsq(mi[ix, None], y[ix], rcond=None)[0][0] if np.abs(mi[ix]).sum() > 0 else float('nan')
    print(f"| {g} | {len(ix)} | {(s*y[ix]).mean():+.0f} | {(s*0.75*mi[ix]).mean():+.0f} | {fit:.2f} | {(s*res[ix]).mean():+.1f} |")
