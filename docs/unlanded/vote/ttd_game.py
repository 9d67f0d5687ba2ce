#!/usr/bin/env python3
"""From a `match --debug` log: per engine, for each depth, the mean time (cs) at which the
iteration's post line came, over moves that reached that depth, and the moves' last depth."""
import re, sys, collections
post = re.compile(r"^\s*[\d.]+ (\S+) < (\d+) (-?\d+) (\d+) (\d+) ")
done = re.compile(r"^\s*[\d.]+ (\S+) < # searched depth")
cur = collections.defaultdict(dict)
acc = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1], errors="replace"):
    m = post.match(line)
    if m:
        name, d, t = m[1], int(m[2]), int(m[4])
        cur[name][d] = t
        continue
    m = done.match(line)
    if m:
        for d, t in cur[m[1]].items():
            acc[m[1]][d].append(t)
        cur[m[1]] = {}
for name in sorted(acc):
    row = " ".join(f"d{d}:{sum(v)/len(v):.1f}cs/{len(v)}" for d, v in sorted(acc[name].items()) if d >= 8)
    print(name, row)
