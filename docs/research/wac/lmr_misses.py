"""How often a late-move reduction hides a move that beats alpha: the knob build's K32 counters.

usage: K32=1 python3 lmr_misses.py ENGINE STS.epd dDEPTH|NODES EVERY
(ENGINE: a build with knobs.diff. Where a reduced search of a move ends at or below alpha, K32
searches it again at full depth, outside the counters, and counts whether that beats alpha: a
miss. Printed by move kind, node kind, reduction and history; docs/chess-gap.md, section 1.6.)"""
import sys

from engine_counters import read_counters, sts_positions
from sts_suite import limit_of

path, epd, budget, every = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
v = read_counters(path, sts_positions(epd, every), limit_of(budget), "lmrstats")
history = ["< -4000", "-4000..0", "0..4000", ">= 4000"]
print("move     node  r   history   reduced-low  missed  miss%   caught")
for quiet in (1, 0):
    for cut in (1, 0):
        for r in range(4):
            for h in range(4):
                i = (((quiet * 2 + cut) * 4 + r) * 4 + h) * 3
                low, miss, caught = v[i], v[i + 1], v[i + 2]
                if low + caught == 0:
                    continue
                share = 100 * miss / low if low else 0
                print(f"{'quiet' if quiet else 'capture':8s} {'cut' if cut else 'all':4s} {r + 1 if r < 3 else '4+':3} "
                      f"{history[h]:9s} {low:11d} {miss:7d} {share:6.1f} {caught:8d}")
