#!/usr/bin/env python3
"""What if our eval had FSF 11's king safety (scaled by 0.75, our material scale relative to
FSF's, from the regressions) in place of its own danger term?  Counts of static >= thresholds
at the study positions.  Usage: whatif.py evals.json
"""
import json, sys
import chess
import numpy as np
from ks_split import ks_parts
from our_ks import our_danger_stm

rows = [r for r in json.load(open(sys.argv[1])) if r["fsf_total"] is not None]
for st in ("first", "any2", "early"):
    lst = [r for r in rows if r["set"] == st]
    o, w, f = [], [], []
    for r in lst:
        parts, _ = ks_parts(r)           # FSF KS parts, side to move (FSF) view, cp
        d, _ = our_danger_stm(chess.Board(r["fen"]))
        ours = r["ours"]["main-pawns"]
        o.append(ours); f.append(r["fsf_total"])
        w.append(ours - d + 0.75 * parts[:3].sum())
    o, w, f = map(np.array, (o, w, f))
    print(f"{st} ({len(lst)}): median ours {np.median(o):.0f} -> with FSF-style king safety {np.median(w):.0f} (FSF {np.median(f):.0f}, x0.75 {np.median(f)*0.75:.0f}); "
          f">= +75: ours {int((o>=75).sum())}, what-if {int((w>=75).sum())}, FSF*0.75 {int((0.75*f>=75).sum())}; "
          f">= +100: ours {int((o>=100).sum())}, what-if {int((w>=100).sum())}, FSF {int((f>=100).sum())}; "
          f"mean gap FSF*0.75-ours {np.mean(0.75*f-o):+.0f} -> {np.mean(0.75*f-w):+.0f}")
