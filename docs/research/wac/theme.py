"""Points of several UCI engines on one theme of the Strategic Test Suite at equal nodes.

usage: python3 theme.py STS.epd THEME NODES ENGINE... (THEME: part of the theme's name, e.g.
"King Activity"; docs/chess-gap.md, section 1.6)."""
import re
import sys

import chess
import chess.engine

epd, theme_want, nodes, paths = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
E = [chess.engine.SimpleEngine.popen_uci([p]) for p in paths]
for e in E: e.configure({"Hash": 16})
tot = [0]*len(E)
for line in open(epd):
    board, ops = chess.Board.from_epd(line.strip())
    theme = re.sub(r"\.\d+$", "", ops["id"]).split(") ", 1)[-1]
    if theme_want not in theme: continue
    value = dict(zip(ops["c9"].split(), (int(x) for x in ops["c8"].split())))
    for i, e in enumerate(E):
        r = e.play(board, chess.engine.Limit(nodes=nodes), game=object())
        tot[i] += value.get(r.move.uci(), 0)
print(theme_want, nodes, list(zip(paths, tot)))
for e in E: e.quit()
