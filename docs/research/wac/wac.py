"""A tactical suite at equal nodes: how many of an EPD's `bm` moves a UCI engine finds.

usage: python3 wac.py ENGINE NODES EPD
prints one line per position (id, the move played, ok or -, the depth reported) and the total.
Node limits make the figure the same under any load (docs/chess-gap.md, section 1.4)."""
import sys

import chess
import chess.engine

engine_path, nodes, epd = sys.argv[1], int(sys.argv[2]), sys.argv[3]
engine = chess.engine.SimpleEngine.popen_uci([engine_path])
engine.configure({"Hash": 16})
found = 0
depths = []
for line in open(epd):
    try:
        board, ops = chess.Board.from_epd(line.strip())
    except ValueError:
        continue  # a few lines of published suites carry broken SAN
    best = ops.get("bm", [])
    if not best:
        continue
    result = engine.play(board, chess.engine.Limit(nodes=nodes), info=chess.engine.INFO_BASIC, game=object())
    hit = result.move in best
    found += hit
    depths.append(result.info.get("depth", 0))
    print(ops.get("id"), board.san(result.move), "ok" if hit else "-", result.info.get("depth"), flush=True)
engine.quit()
print(f"TOTAL {found}/{len(depths)} mean depth {sum(depths) / len(depths):.2f}")
