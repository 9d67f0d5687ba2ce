#!/usr/bin/env python3
"""analysis2.py allq.json disq.json [ENGINE]: as analysis.py with FSF's Threats split in its
SF11 sub-terms (fsf_threats.py) and King safety in danger/flank/shelter/other, plus per-piece-count
controls (N, B, R, Q, P differences x phase, x (1-phase)) to separate mobility from material."""
import json, os, sys
import numpy as np, chess
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'kd'))
from analyse import TERMS, x_of
def ols(A, y):
    b = np.linalg.lstsq(A, y, rcond=None)[0]
    res = y - A @ b
    s2 = res @ res / (len(y) - A.shape[1])
    se = np.sqrt(np.abs(np.diag(s2 * np.linalg.pinv(A.T @ A))))
    return b, se, res
from ks_split import ks_parts, PARTS
from fsf_threats import threats, SUB
from fsf_kingdanger import king_safety
PMIN = int(os.environ.get('PMIN', '0'))
eng = sys.argv[3] if len(sys.argv) > 3 else 'kd'
OTHER = [t for t in TERMS if t not in ('King safety', 'Threats')]
def feats(r):
    b = chess.Board(r['fen']); p = r['phase'] / 128
    t = threats(b)
    th = [((t[b.turn][k][0] - t[not b.turn][k][0]) * p + (t[b.turn][k][1] - t[not b.turn][k][1]) * (1 - p)) * 100 / 213 for k in SUB]
    kp = list(ks_parts(r)[0])
    oth = []
    for c, sg in ((b.turn, 1), (not b.turn, -1)):
        k = king_safety(b, c, {True: 0, False: 0})
        oth.append(sg * (-(17 * p + 95 * (1 - p)) * k['pawnless']) * 100 / 213)
    pl = oth[0] + oth[1]
    return [x_of(r, t_) for t_ in OTHER] + kp[:3] + [pl, kp[3] - pl] + th
def ok(r):
    return r['fsf_total'] is not None and 'King safety' in r['terms'] and abs(r['terms']['Total'][1] or 0) > 0
def load(f): return [r for r in json.load(open(f)) if ok(r) and r['phase'] >= PMIN]
NAMES = OTHER + PARTS[:3] + ['KS pawnless flank', 'KS king-pawn distance'] + ['Thr ' + k for k in SUB]
al, ds = load(sys.argv[1]), load(sys.argv[2])
Xa = np.array([feats(r) for r in al]); Xd = np.array([feats(r) for r in ds])
np.save(f'Xa.npy', Xa); np.save(f'Xd.npy', Xd)
y = np.array([r['ours'][eng] for r in al], float); yd = np.array([r['ours'][eng] for r in ds], float)
A = np.column_stack([np.ones(len(y)), Xa])
b, se, res = ols(A, y)
print(f"engine {eng}: {len(y)} quiet positions, R^2 {1 - res.var() / y.var():.3f}, resid sd {res.std():.0f}; dis set {len(ds)}")
fd = np.array([r['fsf_total'] for r in ds])
print(f"dis set: mean FSF static {fd.mean():+.0f}, ours {yd.mean():+.0f}, gap 0.75*FSF-ours {(0.75*fd-yd).mean():+.1f}; FSF search {np.mean([r['fsf_search'] for r in ds]):+.0f}")
print("| FSF term (phased, cp) | b (se) | sd x broad | (0.75-b)*sd broad | mean x dis | (0.75-b)*x dis |\n|---|---|---|---|---|---|")
for i in sorted(range(len(NAMES)), key=lambda i: -abs((0.75 - b[i+1]) * Xa[:, i].std())):
    print(f"| {NAMES[i]} | {b[i+1]:+.2f} ({se[i+1]:.2f}) | {Xa[:, i].std():.1f} | {(0.75-b[i+1])*Xa[:, i].std():+.1f} | {Xd[:, i].mean():+.1f} | {(0.75-b[i+1])*Xd[:, i].mean():+.1f} |")
# with piece-count controls
def ctrl(rows):
    out = []
    for r in rows:
        bd = chess.Board(r['fen']); p = r['phase'] / 128
        d = [len(bd.pieces(pt, bd.turn)) - len(bd.pieces(pt, not bd.turn)) for pt in range(1, 6)]
        out.append([x * p for x in d] + [x * (1 - p) for x in d])
    return np.array(out)
A2 = np.column_stack([A, ctrl(al)])
b2, se2, _ = ols(A2, y)
mi = NAMES.index('Mobility')
print(f"\nwith piece-count controls: Mobility b {b2[mi+1]:+.2f} ({se2[mi+1]:.2f}) (was {b[mi+1]:+.2f});",
      ", ".join(f"{NAMES[i]} {b2[i+1]:+.2f}" for i in range(len(NAMES)) if NAMES[i].startswith('Thr') or NAMES[i] in ('Material','Imbalance')))
