#!/usr/bin/env python3
"""W/D/L, pentanomial and the runner's pentanomial LLR from a gate's PGN, optionally adding the
pair counts of an earlier run of the same test whose PGN is gone (the first 391 games of `kd-g1`,
7 Dec, first session: --add 19,28,61,61,26):

    penta.py PGN CANDIDATE_NAME_PART [ELO0 ELO1] [--add LL,LD,WL+DD,WD,WW]

The LLR is src/tournament/pentanomial.rs's, written again in Python (it gives the runner's 0.40
at the 273 games where both were read); pairs are the games sharing a `Pair` tag."""
import math, re, sys
from collections import defaultdict

NELO_PER_T = 800 / math.log(10)

def mean_var(q, a):
    mu = sum(x * p for x, p in zip(a, q)); return mu, sum(p * (x - mu) ** 2 for x, p in zip(a, q))

def secular(p, b):
    lo_b, hi_b = min(b), max(b)
    if not (lo_b < 0 < hi_b): return None
    f = lambda x: sum(pi * bi / (1 + x * bi) for pi, bi in zip(p, b))
    fs = lambda x: sum(-pi * bi * bi / (1 + x * bi) ** 2 for pi, bi in zip(p, b))
    lo, hi, x = -1 / hi_b, -1 / lo_b, 0.0
    for _ in range(200):
        fx = f(x)
        if fx == 0: return x
        if fx > 0: lo = x
        else: hi = x
        step = x - fx / fs(x)
        nxt = step if lo < step < hi else 0.5 * (lo + hi)
        if abs(nxt - x) <= 1e-15 * max(abs(x), 1e-300) or nxt in (lo, hi): return nxt
        x = nxt
    return x

def mle(a, p, ref, t):
    q = [1 / len(a)] * len(a)
    for _ in range(100):
        mu, var = mean_var(q, a); s = math.sqrt(var)
        b = [x - ref - t * s * (1 + ((mu - x) / s) ** 2) / 2 for x in a]
        x = secular(p, b)
        if x is None: return None
        nxt = [pi / (1 + x * bi) for pi, bi in zip(p, b)]
        ch = max(abs(u - v) for u, v in zip(nxt, q)); q = nxt
        if ch < 1e-13: break
    return q

def llr(counts, e0, e1):
    reg = [c if c else 1e-3 for c in counts]; n = sum(reg)
    a = [i / 4 for i in range(5)]; p = [c / n for c in reg]
    t = lambda e: e / NELO_PER_T * math.sqrt(2)
    q0, q1 = mle(a, p, 0.5, t(e0)), mle(a, p, 0.5, t(e1))
    if q0 is None or q1 is None: return 0.0
    return n * sum(pi * (math.log(b) - math.log(c)) for pi, b, c in zip(p, q1, q0))

def main():
    args = [x for x in sys.argv[1:]]
    add = [0] * 5
    if "--add" in args:
        i = args.index("--add"); add = [int(x) for x in args[i + 1].split(",")]; del args[i:i + 2]
    path, cand = args[0], args[1]
    e0, e1 = (float(args[2]), float(args[3])) if len(args) > 3 else (0.0, 10.0)
    text = open(path, encoding="utf-8").read()
    pairs = defaultdict(list); w = d = l = 0
    for g in re.split(r"\n\n(?=\[)", text):
        tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]', g, re.M))
        res = tags.get("Result")
        if res not in ("1-0", "0-1", "1/2-1/2"): continue
        white = cand in tags.get("White", "")
        pts = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[res]
        pts = pts if white else 1 - pts
        w += pts == 1; d += pts == 0.5; l += pts == 0
        pairs[tags.get("Pair")].append(pts)
    penta = [0] * 5
    for v in pairs.values():
        if len(v) == 2: penta[int(round(2 * sum(v)))] += 1
    tot = [a + b for a, b in zip(penta, add)]
    n = sum(tot) * 2
    score = sum(i * c for i, c in enumerate(tot)) / 4 / sum(tot)
    elo = -400 * math.log10(1 / score - 1)
    print(f"games {w + d + l}: W {w} D {d} L {l}; pentanomial {penta}" + (f" + {add} = {tot}" if any(add) else ""))
    print(f"pairs' score {score:.4f} (~{elo:+.1f} Elo over {n} paired games), LLR [{e0:g}, {e1:g}] {llr(tot, e0, e1):.2f}")

main()
