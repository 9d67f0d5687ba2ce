#!/usr/bin/env python3
"""Independent reference for the pentanomial (normalized-Elo) SPRT, from the published formulas
(M. Van den Bergh, "Normalized Elo: a practical guide", section 4.1; fishtest's LLR_normalized).
Plain Python floats, plain bisection: no code shared with the Rust implementation.

stdin, one case per line, answers one line each on stdout:
  counts LL LD DD WD WW NELO0 NELO1     ->  LLR
  games NELO0 NELO1 PAIR:R PAIR:R ...   ->  LL LD DD WD WW LLR
where R is the first engine's result of one game (w, d or l); a pair with fewer than two games
is unfinished and left out of the counts.
"""
import math
import sys

NELO_PER_T = 800 / math.log(10)


def moments(values, probs):
    mu = sum(a * p for a, p in zip(values, probs))
    return mu, sum(p * (a - mu) ** 2 for a, p in zip(values, probs))


def secular_root(probs, b):
    # sum p*b/(1+x*b) decreases from +inf to -inf between the poles -1/max(b) and -1/min(b).
    lo, hi = -1 / max(b), -1 / min(b)
    g = lambda x: sum(p * bi / (1 + x * bi) for p, bi in zip(probs, b))
    for _ in range(300):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if g(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mle_with_t(values, probs, ref, t):
    q = [1 / len(values)] * len(values)
    for _ in range(200):
        mu, var = moments(values, q)
        sigma = math.sqrt(var)
        b = [a - ref - t * sigma * (1 + ((mu - a) / sigma) ** 2) / 2 for a in values]
        x = secular_root(probs, b)
        new = [p / (1 + x * bi) for p, bi in zip(probs, b)]
        done = max(abs(u - v) for u, v in zip(new, q)) < 1e-14
        q = new
        if done:
            break
    return q


def llr(counts, nelo0, nelo1):
    if sum(counts) == 0:
        return 0.0  # no complete pair: no data (the convention of the Rust side)
    c = [x if x > 0 else 1e-3 for x in counts]
    n = sum(c)
    values = [i / 4 for i in range(5)]
    probs = [x / n for x in c]
    t0, t1 = (nelo / NELO_PER_T * math.sqrt(2) for nelo in (nelo0, nelo1))
    q0 = mle_with_t(values, probs, 0.5, t0)
    q1 = mle_with_t(values, probs, 0.5, t1)
    return n * sum(p * math.log(b / a) for p, a, b in zip(probs, q0, q1))


def counts_of(games):
    by_pair = {}
    for word in games:
        pair, result = word.split(":")
        by_pair.setdefault(pair, []).append({"w": 1.0, "d": 0.5, "l": 0.0}[result])
    counts = [0] * 5
    for scores in by_pair.values():
        if len(scores) == 2:
            counts[int(round(2 * sum(scores)))] += 1
    return counts


for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "counts":
        counts = [int(w) for w in words[1:6]]
        print(repr(llr(counts, float(words[6]), float(words[7]))))
    elif words[0] == "games":
        counts = counts_of(words[3:])
        print(" ".join(str(c) for c in counts), repr(llr(counts, float(words[1]), float(words[2]))))
    else:
        sys.exit("bad line: " + line)
