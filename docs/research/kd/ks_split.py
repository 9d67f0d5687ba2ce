#!/usr/bin/env python3
"""Which parts of FSF's king safety does our eval reproduce?

Splits FSF's "King safety" term (recomputed by fsf_kingdanger.py, checked against the trace)
into shelter/storm (mg), king danger (mg and eg), flank attacks (mg) and the rest (pawnless
flank, king-pawn distance), each as (FSF's side's king minus the other's, from the side to
move's view, phase-weighted, in cp = internal*100/213).  Then ours(main-pawns) ~ c + b . x on
the broad sample, with the other FSF terms as in analyse.py; b per part, and (1-b)*mean x at
the study positions.  Also the parts of kingDanger for the king of the side not to move.
Usage: ks_split.py evals.json all.json
"""
import json
import sys

import chess
import numpy as np

from analyse import TERMS, ols, x_of  # noqa: E402
from fsf_kingdanger import king_safety  # noqa: E402

OTHER = [t for t in TERMS if t != "King safety"]
PARTS = ["KS shelter+storm", "KS danger", "KS flank attacks", "KS other (pawnless, pawn distance)"]


def ks_parts(r):
    b = chess.Board(r["fen"])
    stm = b.turn
    mob = {stm: r["sides"]["Mobility"][0][0] * 2.13, (not stm): r["sides"]["Mobility"][1][0] * 2.13}
    p = r["phase"] / 128
    out = np.zeros(4)
    kd = {}
    for col, sgn in ((stm, 1), (not stm, -1)):
        k = king_safety(b, col, mob)
        kd[col] = k
        sh = k["shelter"] * p
        dg = -(k["danger_mg"] * p + k["danger_eg"] * (1 - p))
        fl = -8 * k["flank_attack"] * p
        tot = k["mg"] * p + k["eg"] * (1 - p)
        out += sgn * np.array([sh, dg, fl, tot - sh - dg - fl]) * 100 / 213
    return out, kd


def rows_x(rows):
    X = []
    for r in rows:
        parts, _ = ks_parts(r)
        X.append(np.concatenate([[x_of(r, t) for t in OTHER], parts]))
    return np.array(X)


def main():
    ev = [r for r in json.load(open(sys.argv[1])) if r["fsf_total"] is not None]
    al = [r for r in json.load(open(sys.argv[2])) if r["fsf_total"] is not None]
    names = OTHER + PARTS
    Xa = rows_x(al)
    y = np.array([r["ours"]["main-pawns"] for r in al], float)
    A = np.column_stack([np.ones(len(y)), Xa])
    b, se, res = ols(A, y)
    print(f"fit on {len(y)} broad-sample positions (side to move's view): R^2 {1 - res.var() / y.var():.3f}, c {b[0]:+.0f}")
    # batch1 too
    yb = np.array([r["ours"]["batch1"] for r in al], float)
    bb = ols(A, yb)[0]
    for s in ("first", "any2", "early"):
        rows = [r for r in ev if r["set"] == s]
        Xs = rows_x(rows)
        print(f"\n### at {s} ({len(rows)}), FSF's side's view")
        print("| FSF part | b main-pawns (se) | b batch1 | mean x | (1-b)*mean x, main-pawns |")
        print("|---|---|---|---|---|")
        order = sorted(range(len(names)), key=lambda i: -abs((1 - b[i + 1]) * Xs[:, i].mean()))
        for i in order:
            print(f"| {names[i]} | {b[i+1]:+.2f} ({se[i+1]:.2f}) | {bb[i+1]:+.2f} | {Xs[:, i].mean():+.0f} | {(1 - b[i+1]) * Xs[:, i].mean():+.0f} |")
    # sanity: the broad sample's mean parts in FSF's view
    sg = np.array([1 if r["stm_is_fsf"] else -1 for r in al])
    Xf = Xa * sg[:, None]
    print("\nbroad sample in FSF's view, mean x: " + ", ".join(f"{n} {Xf[:, i].mean():+.0f}" for i, n in enumerate(names)))


if __name__ == "__main__":
    main()
