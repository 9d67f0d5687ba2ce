#!/usr/bin/env python3
"""Per engine of a `match --debug` log: moves, mean depth, mean ms, nodes/s from the
'# searched depth D, N nodes in T ms' notes (moves of at least MIN ms)."""
import re, sys, collections
MIN = int(sys.argv[2]) if len(sys.argv) > 2 else 30
pat = re.compile(r"^\s*[\d.]+ (\S+) < # searched depth (\d+), (\d+) nodes in (\d+) ms")
d = collections.defaultdict(list)
for line in open(sys.argv[1], errors="replace"):
    m = pat.match(line)
    if m:
        d[m[1]].append((int(m[2]), int(m[3]), int(m[4])))
for name, rows in sorted(d.items()):
    rows = [r for r in rows if r[2] >= MIN]
    if not rows:
        continue
    n = len(rows)
    dep = sum(r[0] for r in rows) / n
    ms = sum(r[2] for r in rows) / n
    nps = sum(r[1] for r in rows) / max(1, sum(r[2] for r in rows)) * 1000
    print(f"{name}: {n} moves >= {MIN} ms, depth {dep:.2f}, {ms:.0f} ms, {nps/1000:.0f} knps")
