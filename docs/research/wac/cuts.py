"""Where beta cutoffs happen: the knob build's K31 counters over STS positions at equal nodes.

usage: K31=1 python3 cuts.py ENGINE STS.epd NODES EVERY (ENGINE: a build with knobs.diff;
docs/chess-gap.md, section 1.6)."""
import sys

from engine_counters import read_counters, sts_positions
from sts_suite import limit_of

path, epd, nodes, every = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
v = read_counters(path, sts_positions(epd, every), limit_of(nodes), "stats")
total = sum(v[1:5])


def shares(xs):
    return " ".join(f"{x / total:.3f}" for x in xs)


print(f"cuts {total}: by the move's place (1st, 2nd, 3rd-5th, later) {shares(v[1:5])}")
print(f"by kind (table move, capture, killer or countermove, other quiet) {shares(v[5:9])}")
print(f"by node (expected cut, expected all; the rest PV) {shares(v[9:11])}")
