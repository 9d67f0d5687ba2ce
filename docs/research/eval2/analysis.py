#!/usr/bin/env python3
"""analysis.py all.json dis.json [ENGINE] : regress our eval on FSF 11.1's per-term trace.
x_t = phased FSF term (cp = internal*100/213, stm view); King safety split into danger/flank/shelter/
other by docs/research/kd/fsf_kingdanger.py.  ours = c + sum b_t x_t (OLS on the broad sample);
0.75 = reproduced fully.  Gap share per term at the disagreement set = (0.75 - b_t) * mean x_t."""
import os
import json, sys
import numpy as np
import chess
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'kd'))
from analyse import TERMS, ols, x_of
from ks_split import ks_parts, PARTS
OTHER = [t for t in TERMS if t != "King safety"]
NAMES = OTHER + PARTS
eng = sys.argv[3] if len(sys.argv) > 3 else 'kd'

def X(rows):
    return np.array([np.concatenate([[x_of(r, t) for t in OTHER], ks_parts(r)[0]]) for r in rows])

def load(f):
    return [r for r in json.load(open(f)) if r['fsf_total'] is not None and 'King safety' in r['terms']]

al, ds = load(sys.argv[1]), load(sys.argv[2])
dsm = [r for r in ds if r['phase'] >= 64]
Xa = X(al); Xd = X(ds); Xm = X(dsm)
y = np.array([r['ours'][eng] for r in al], float)
A = np.column_stack([np.ones(len(y)), Xa])
b, se, res = ols(A, y)
print(f"engine {eng}: fit on {len(y)} quiet positions: R^2 {1 - res.var() / y.var():.3f}, resid sd {res.std():.0f}, c {b[0]:+.1f}")
yd = np.array([r['ours'][eng] for r in ds], float); ym = np.array([r['ours'][eng] for r in dsm], float)
ft = np.array([r['fsf_total'] for r in ds]); fm = np.array([r['fsf_total'] for r in dsm])
fsd = np.array([r['fsf_search'] for r in ds])
print(f"disagreement set {len(ds)} (phase>=64: {len(dsm)}): FSF search mean {fsd.mean():+.0f}, FSF static mean {ft.mean():+.0f} (median {np.median(ft):+.0f}),"
      f" ours mean {yd.mean():+.0f} (median {np.median(yd):+.0f}); gap 0.75*FSF static - ours: mean {(0.75*ft-yd).mean():+.0f}, mg subset {(0.75*fm-ym).mean():+.0f}")
print(f"model-predicted ours at dis set: {(np.column_stack([np.ones(len(yd)), Xd]) @ b).mean():+.0f}; residual mean {(yd - np.column_stack([np.ones(len(yd)), Xd]) @ b).mean():+.0f}")
print("\n| FSF term (phased) | b (se) | mean x broad | sd x broad | mean x dis | (0.75-b)*x dis | mean x dis mg | (0.75-b)*x dis mg |")
print("|---|---|---|---|---|---|---|---|")
order = sorted(range(len(NAMES)), key=lambda i: -abs((0.75 - b[i+1]) * Xd[:, i].mean()))
for i in order:
    print(f"| {NAMES[i]} | {b[i+1]:+.2f} ({se[i+1]:.2f}) | {Xa[:, i].mean():+.1f} | {Xa[:, i].std():.0f} | {Xd[:, i].mean():+.1f} | {(0.75-b[i+1])*Xd[:, i].mean():+.1f} | {Xm[:, i].mean():+.1f} | {(0.75-b[i+1])*Xm[:, i].mean():+.1f} |")
# per-term mg/eg split regression
cols = []; nm = []
for t in TERMS:
    p = np.array([r['phase'] / 128 for r in al])
    cols.append(np.array([r['terms'][t][0] for r in al]) * p); nm.append(t + ' mg')
    cols.append(np.array([r['terms'][t][1] for r in al]) * (1 - p)); nm.append(t + ' eg')
keepc = [k for k in range(len(cols)) if np.abs(cols[k]).sum() > 0]; cols = [cols[k] for k in keepc]; nm = [nm[k] for k in keepc]
A2 = np.column_stack([np.ones(len(y))] + cols)
b2, se2, res2 = ols(A2, y)
print(f"\nMG/EG split (each column = mg*p or eg*(1-p)): R^2 {1 - res2.var() / y.var():.3f}")
print("| term | b (se) |\n|---|---|")
for k, t in enumerate(nm):
    print(f"| {t} | {b2[1+k]:+.2f} ({se2[1+k]:.2f}) |")
np.save('coef_%s.npy' % eng, b)
