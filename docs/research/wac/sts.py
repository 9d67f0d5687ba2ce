"""The Strategic Test Suite at equal nodes: points a UCI engine scores on quiet positions.

usage: python3 sts.py ENGINE NODES|dDEPTH EPD [EVERY [OFFSET]]
EPD: STS1-STS15_LAN_v3.epd (public: fsmosca/STS-Rating), whose `c9` lists the moves that earn
points (UCI) and `c8` their points (10 for the best). EVERY: take every EVERY-th position
(from the OFFSET-th, 0 first). Prints the points per theme, the total and the nodes searched
(docs/chess-gap.md, section 1.5)."""
import sys
from collections import defaultdict

import chess.engine

from sts_suite import limit_of, positions

engine_path, budget, epd = sys.argv[1], sys.argv[2], sys.argv[3]
limit = limit_of(budget)
every = int(sys.argv[4]) if len(sys.argv) > 4 else 1
offset = int(sys.argv[5]) if len(sys.argv) > 5 else 0
engine = chess.engine.SimpleEngine.popen_uci([engine_path])
engine.configure({"Hash": 16})
points = defaultdict(int)
count = defaultdict(int)
nodes_used = 0
for board, theme, value in positions(epd, every, offset):
    result = engine.play(board, limit, info=chess.engine.INFO_BASIC, game=object())
    nodes_used += result.info.get("nodes", 0)
    points[theme] += value.get(result.move.uci(), 0)
    count[theme] += 1
engine.quit()
for theme in points:
    print(f"{theme:40s} {points[theme]:5d} / {10 * count[theme]}")
print(f"TOTAL {sum(points.values())} / {10 * sum(count.values())} nodes {nodes_used}")
