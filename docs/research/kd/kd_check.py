#!/usr/bin/env python3
"""Does our eval with Stockfish 11's king danger (branch kd) react like 0.75 x FSF's king safety?

Regresses ours (batch1, and the binary given) on FSF's terms with King safety split into
shelter/danger/flank (ks_split.py's parts) over the broad sample (all.json), and prints at the
study sets the mean gap 0.75*FSF static - ours and the b of each king-safety part.
Usage: kd_check.py BIN evals.json all.json   (nice -n 19; a few seconds)
"""
import json
import sys

import numpy as np

from analyse import ols  # noqa: E402
from eval_positions import ours  # noqa: E402
from ks_split import rows_x, OTHER, PARTS  # noqa: E402


def main():
    binary = sys.argv[1]
    ev = [r for r in json.load(open(sys.argv[2])) if r["fsf_total"] is not None]
    al = [r for r in json.load(open(sys.argv[3])) if r["fsf_total"] is not None]
    for rows in (ev, al):
        vals = ours(binary, [r["fen"] for r in rows])
        for r, v in zip(rows, vals):
            r["ours"]["kd"] = v
    names = OTHER + PARTS
    Xa = rows_x(al)
    A = np.column_stack([np.ones(len(al)), Xa])
    print(f"broad sample {len(al)} positions; b = our units per FSF cp (0.75 = fully seen at our scale)")
    print("| engine | R^2 | " + " | ".join(f"b {p}" for p in PARTS[:3]) + " | b Material |")
    print("|---|---|---|---|---|---|")
    for eng in ("batch1", "kd"):
        y = np.array([r["ours"][eng] for r in al], float)
        b, se, res = ols(A, y)
        cells = [f"{b[names.index(p) + 1]:+.2f} ({se[names.index(p) + 1]:.2f})" for p in PARTS[:3]]
        print(f"| {eng} | {1 - res.var() / y.var():.3f} | " + " | ".join(cells) + f" | {b[names.index('Material') + 1]:+.2f} |")
    print("\n| set | n | mean 0.75*FSF static | batch1 | kd | gap batch1 | gap kd | ours >= +100 batch1/kd | 0.75*FSF >= +100 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for s in ("first", "any2", "early"):
        rows = [r for r in ev if r["set"] == s]
        f = np.array([0.75 * r["fsf_total"] for r in rows])
        o1 = np.array([r["ours"]["batch1"] for r in rows], float)
        o2 = np.array([r["ours"]["kd"] for r in rows], float)
        print(f"| {s} | {len(rows)} | {f.mean():+.0f} | {o1.mean():+.0f} | {o2.mean():+.0f} | {(f - o1).mean():+.0f} | "
              f"{(f - o2).mean():+.0f} | {(o1 >= 100).sum()}/{(o2 >= 100).sum()} | {(f >= 100).sum()} |")
    # eval change against FSF's king-safety parts at first (FSF's side's view)
    rows = [r for r in ev if r["set"] == "first"]
    Xs = rows_x(rows)
    d = np.array([r["ours"]["kd"] - r["ours"]["batch1"] for r in rows], float)
    kd_parts = Xs[:, len(OTHER) + 1] + Xs[:, len(OTHER) + 2]
    print(f"\nat first: our eval change kd - batch1 mean {d.mean():+.1f}; 0.75 x FSF (danger + flank) mean "
          f"{0.75 * kd_parts.mean():+.1f}; corr {np.corrcoef(d, kd_parts)[0, 1]:.2f}")


if __name__ == "__main__":
    main()
