"""How often a late-move reduction hides a move that beats alpha: the knob build's K32 counters.

usage: K32=1 python3 lmr_misses.py ENGINE STS.epd dDEPTH|NODES EVERY
(ENGINE: a build with knobs.diff. Where a reduced search of a move ends at or below alpha, K32
searches it again at full depth, outside the counters, and counts whether that beats alpha: a
miss. Printed by move kind, node kind, reduction and history; docs/chess-gap.md, section 1.6.)"""
import sys
import tempfile

import chess
import chess.engine

path, epd, budget, every = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
limit = chess.engine.Limit(depth=int(budget[1:])) if budget.startswith("d") else chess.engine.Limit(nodes=int(budget))
err = tempfile.NamedTemporaryFile("w+", suffix=".txt")
engine = chess.engine.SimpleEngine.popen_uci([path], stderr=err)
engine.configure({"Hash": 16})
for i, line in enumerate(open(epd)):
    if i % every:
        continue
    board, _ = chess.Board.from_epd(line.strip())
    engine.play(board, limit, game=object())
engine.play(chess.Board(), chess.engine.Limit(nodes=100))
engine.quit()
err.seek(0)
last = [line for line in err if line.startswith("lmrstats")][-1]
v = [int(x) for x in last.split(" ", 1)[1].strip("[]\n ").split(",")]
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
