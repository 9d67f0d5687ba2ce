"""Points of several UCI engines on one theme of the Strategic Test Suite at equal nodes.

usage: python3 theme.py STS.epd THEME NODES ENGINE... (THEME: part of the theme's name, e.g.
"King Activity"; docs/chess-gap.md, section 1.6)."""
import sys

import chess.engine

from sts_suite import positions

epd, theme_wanted, nodes, paths = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
engines = [chess.engine.SimpleEngine.popen_uci([path]) for path in paths]
for engine in engines:
    engine.configure({"Hash": 16})
totals = [0] * len(engines)
for board, theme, value in positions(epd):
    if theme_wanted not in theme:
        continue
    for i, engine in enumerate(engines):
        result = engine.play(board, chess.engine.Limit(nodes=nodes), game=object())
        totals[i] += value.get(result.move.uci(), 0)
print(theme_wanted, nodes, list(zip(paths, totals)))
for engine in engines:
    engine.quit()
