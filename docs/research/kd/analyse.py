#!/usr/bin/env python3
"""Summaries and regressions for the eval-gap study.

Usage: analyse.py evals.json all.json
Everything in "cp" from the side to move's view (at first/any2/early: FSF's side).
x_t = phase-weighted FSF term: (mg*phase + eg*(128-phase))/128 (the scale factor is ignored).
"""
import json
import sys

import numpy as np

TERMS = ["Material", "Imbalance", "Pawns", "Knights", "Bishops", "Rooks", "Queens",
         "Mobility", "King safety", "Threats", "Passed", "Space", "Initiative"]


def x_of(r, t):
    mg, eg = r["terms"][t]
    p = r["phase"]
    return (mg * p + eg * (128 - p)) / 128


def ols(A, y):
    """Least squares of y on the columns of A (a slight ridge for conditioning): the coefficients,
    their standard errors and the residuals."""
    b = np.linalg.solve(A.T @ A + 1e-3 * np.eye(A.shape[1]), A.T @ y)
    res = y - A @ b
    s2 = res @ res / (len(y) - A.shape[1])
    se = np.sqrt(np.diag(s2 * np.linalg.inv(A.T @ A)))
    return b, se, res


def med(a):
    return float(np.median(a)) if len(a) else float("nan")


def summary(rows, name):
    rows = [r for r in rows if r["fsf_total"] is not None]
    n = len(rows)
    print(f"\n## set {name}: {n} positions (FSF in check excluded)")
    fs = [r["fsf_search"] for r in rows]
    ft = [r["fsf_total"] for r in rows]
    om = [r["ours"]["main-pawns"] for r in rows]
    ob = [r["ours"]["batch1"] for r in rows]
    print(f"median FSF search {med(fs):.0f}, FSF static {med(ft):.0f}, main-pawns static {med(om):.0f}, batch1 static {med(ob):.0f}")
    print(f"mean   FSF search {np.mean(fs):.0f}, FSF static {np.mean(ft):.0f}, main-pawns static {np.mean(om):.0f}, batch1 static {np.mean(ob):.0f}")
    print(f"static >= +100: FSF {sum(v >= 100 for v in ft)}/{n}, main-pawns {sum(v >= 100 for v in om)}/{n}, batch1 {sum(v >= 100 for v in ob)}/{n}")
    print(f"static <= -100: FSF {sum(v <= -100 for v in ft)}/{n}, main-pawns {sum(v <= -100 for v in om)}/{n}, batch1 {sum(v <= -100 for v in ob)}/{n}")
    gap = np.array(ft) - np.array(om)
    print(f"gap FSF-ours (main-pawns): median {med(gap):.0f}, mean {gap.mean():.0f}; batch1 median {med(np.array(ft)-np.array(ob)):.0f}")
    ph = [r["phase"] for r in rows]
    q = [r["queens"] for r in rows]
    print(f"phase (0 eg .. 128 mg): median {med(ph):.0f}, quartiles {np.percentile(ph,25):.0f}/{np.percentile(ph,75):.0f};"
          f" both queens {sum(v == 2 for v in q)}, one {sum(v == 1 for v in q)}, none {sum(v == 0 for v in q)};"
          f" phase>=64 {sum(p >= 64 for p in ph)}, phase<32 {sum(p < 32 for p in ph)}")
    print(f"plies: median {med([r['ply'] for r in rows]):.0f}")
    print(f"simple material (1/3/3/5/9) for FSF's side: median {med([r['material_cp'] for r in rows]):.0f}, "
          f"down material {sum(r['material_cp'] < 0 for r in rows)}, level {sum(r['material_cp'] == 0 for r in rows)}, up {sum(r['material_cp'] > 0 for r in rows)}")
    print("| term | mean MG | mean EG | mean phased | median phased |")
    print("|---|---|---|---|---|")
    for t in TERMS:
        mg = np.mean([r["terms"][t][0] for r in rows])
        eg = np.mean([r["terms"][t][1] for r in rows])
        xs = [x_of(r, t) for r in rows]
        print(f"| {t} | {mg:+.0f} | {eg:+.0f} | {np.mean(xs):+.0f} | {med(xs):+.0f} |")
    # per side king safety
    ks_own = np.mean([r["sides"]["King safety"][0][0] for r in rows])
    ks_opp = np.mean([r["sides"]["King safety"][1][0] for r in rows])
    print(f"King safety MG per side: stm side {ks_own:+.0f}, other side {ks_opp:+.0f}")
    th_own = np.mean([r["sides"]["Threats"][0][0] for r in rows])
    th_opp = np.mean([r["sides"]["Threats"][1][0] for r in rows])
    print(f"Threats MG per side: stm side {th_own:+.0f}, other side {th_opp:+.0f}")
    return rows


def design(rows, split=False):
    cols = []
    names = []
    for t in TERMS:
        if split:
            p = np.array([r["phase"] for r in rows]) / 128
            cols.append(np.array([r["terms"][t][0] for r in rows]) * p)
            cols.append(np.array([r["terms"][t][1] for r in rows]) * (1 - p))
            names += [t + " MG", t + " EG"]
        else:
            cols.append(np.array([x_of(r, t) for r in rows]))
            names.append(t)
    return np.column_stack(cols), names


def regress(fit_rows, at_rows, label, split=False, ridge=0.0):
    fit_rows = [r for r in fit_rows if r["fsf_total"] is not None]
    at_rows = [r for r in at_rows if r["fsf_total"] is not None]
    X, names = design(fit_rows, split)
    y = np.array([r["ours"]["main-pawns"] for r in fit_rows], float)
    # ours ~ c + sum b_t x_t  (b_t = how much of FSF's term t our eval reproduces)
    A = np.column_stack([np.ones(len(y)), X])
    reg = max(ridge, 1e-3) * np.eye(A.shape[1])
    reg[0, 0] = 0
    # ridge pulls toward b = 1 (ours reproduces the term), not toward 0
    prior = np.concatenate([[0], np.ones(X.shape[1])])
    b = np.linalg.solve(A.T @ A + reg, A.T @ y + reg @ prior)
    res = y - A @ b
    r2 = 1 - res.var() / y.var()
    # standard errors (OLS)
    s2 = res @ res / max(1, len(y) - A.shape[1])
    cov = s2 * np.linalg.inv(A.T @ A + reg)
    se = np.sqrt(np.diag(cov))
    Xa, _ = design(at_rows, split)
    gap = np.array([r["fsf_total"] - r["ours"]["main-pawns"] for r in at_rows])
    print(f"\n### {label}: ours(main-pawns) ~ c + sum b_t * FSF term_t, fit on {len(y)} positions, R^2 {r2:.3f}, "
          f"resid sd {res.std():.0f}, c {b[0]:+.0f}")
    print(f"gap at the {len(at_rows)} study positions: mean {gap.mean():+.0f}; "
          f"contribution of term t = (1-b_t)*mean x_t there (sums with c and residual to the gap)")
    rows_out = []
    for i, nme in enumerate(names):
        mx = Xa[:, i].mean()
        rows_out.append((nme, b[i + 1], se[i + 1], mx, (1 - b[i + 1]) * mx, Xa[:, i].std()))
    rows_out.sort(key=lambda z: -abs(z[4]))
    print("| FSF term | b (ours per FSF cp) | se | mean x at study pos | (1-b)*mean x | sd of x |")
    print("|---|---|---|---|---|---|")
    for nme, bb, ss, mx, c, sd in rows_out:
        print(f"| {nme} | {bb:+.2f} | {ss:.2f} | {mx:+.0f} | {c:+.0f} | {sd:.0f} |")
    tempo_etc = gap.mean() - sum(z[4] for z in rows_out)
    print(f"remainder (c, FSF tempo/scale, residual): {tempo_etc:+.0f}")


def gap_regress(rows, label):
    """Direct: (fsf_total - ours) ~ sum g_t x_t at the study positions (no intercept term forced)."""
    rows = [r for r in rows if r["fsf_total"] is not None]
    X, names = design(rows)
    y = np.array([r["fsf_total"] - r["ours"]["main-pawns"] for r in rows], float)
    A = np.column_stack([np.ones(len(y)), X])
    lam = 2.0 * len(y)
    reg = lam * np.eye(A.shape[1]); reg[0, 0] = 0
    g = np.linalg.solve(A.T @ A + reg, A.T @ y)
    print(f"\n### {label}: ridge (lambda {lam:.0f}) of gap on FSF phased terms, {len(y)} positions")
    order = sorted(range(len(names)), key=lambda i: -abs(g[i + 1] * X[:, i].mean()))
    print("| term | g | mean x | g*mean x | corr(gap, x) |")
    print("|---|---|---|---|---|")
    for i in order:
        c = np.corrcoef(y, X[:, i])[0, 1] if X[:, i].std() > 0 else 0
        print(f"| {names[i]} | {g[i+1]:+.2f} | {X[:, i].mean():+.0f} | {g[i+1]*X[:, i].mean():+.0f} | {c:+.2f} |")


def top_gap(rows, label, frac=0.33):
    rows = [r for r in rows if r["fsf_total"] is not None]
    rows = sorted(rows, key=lambda r: -(r["fsf_total"] - r["ours"]["main-pawns"]))
    k = max(1, int(len(rows) * frac))
    top, rest = rows[:k], rows[k:]
    print(f"\n### {label}: mean FSF phased term, top third by gap ({k}) vs the rest ({len(rest)})")
    print("| term | top MG | top EG | top phased | rest phased | diff |")
    print("|---|---|---|---|---|---|")
    for t in TERMS:
        a = np.mean([x_of(r, t) for r in top]); b = np.mean([x_of(r, t) for r in rest])
        print(f"| {t} | {np.mean([r['terms'][t][0] for r in top]):+.0f} | {np.mean([r['terms'][t][1] for r in top]):+.0f} | {a:+.0f} | {b:+.0f} | {a-b:+.0f} |")
    print(f"gap: top mean {np.mean([r['fsf_total']-r['ours']['main-pawns'] for r in top]):+.0f}, rest {np.mean([r['fsf_total']-r['ours']['main-pawns'] for r in rest]):+.0f}")


def fsf_view(r):
    """The row seen from Fairy-Stockfish's side (flip when we are to move)."""
    if r["stm_is_fsf"] or r["fsf_total"] is None:
        return r
    n = lambda v: None if v is None else -v
    q = dict(r)
    q["fsf_total"] = -r["fsf_total"]
    q["fsf_search"] = -r["fsf_search"]  # the mover's (our) score, flipped
    q["ours"] = {k: -v for k, v in r["ours"].items()}
    q["terms"] = {k: [n(x) for x in v] for k, v in r["terms"].items()}
    q["sides"] = {k: [v[1], v[0]] for k, v in r["sides"].items()}
    q["material_cp"] = -r["material_cp"]
    return q


def main():
    ev = json.load(open(sys.argv[1]))
    al = [fsf_view(r) for r in json.load(open(sys.argv[2]))]
    sets = {}
    for r in ev:
        sets.setdefault(r["set"], []).append(r)
    for s in ["first", "any2", "early"]:
        summary(sets[s], s)
    summary(al, "all (broad sample, FSF's view; search = the mover's score in FSF's view)")
    for s in ["first", "any2", "early"]:
        regress(al, sets[s], f"fit on all, applied at {s}")
    regress(al, sets["first"], "fit on all, MG/EG split, applied at first", split=True)
    uniq = {r["fen"]: r for r in sets["first"] + sets["any2"]}
    regress(list(uniq.values()), sets["first"], "fit on first+any2 only (ridge to b=1, 20/pos)", ridge=20.0 * len(uniq))
    gap_regress(list(uniq.values()), "first+any2")
    top_gap(al, "all")
    top_gap(list(uniq.values()), "first+any2")


if __name__ == "__main__":
    main()
