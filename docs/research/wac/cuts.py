"""Where beta cutoffs happen: the knob build's K31 counters over STS positions at equal nodes.

usage: K31=1 python3 cuts.py ENGINE STS.epd NODES EVERY (ENGINE: a build with knobs.diff; it
prints its cumulative counters on stderr at each `go`; docs/chess-gap.md, section 1.6)."""
import sys
import tempfile

import chess
import chess.engine

path, epd, nodes, every = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
err = tempfile.NamedTemporaryFile("w+", suffix=".txt")
e = chess.engine.SimpleEngine.popen_uci([path], stderr=err)
e.configure({"Hash": 16})
for i, line in enumerate(open(epd)):
    if i % every:
        continue
    board, ops = chess.Board.from_epd(line.strip())
    e.play(board, chess.engine.Limit(nodes=nodes), game=object())
e.play(chess.Board(), chess.engine.Limit(nodes=100))
e.quit()
err.seek(0)
last = [line for line in err if line.startswith("stats")][-1]
v = [int(x) for x in last.split(" ", 1)[1].strip("[]\n ").split(",")]
total = sum(v[1:5])


def shares(xs):
    return " ".join(f"{x / total:.3f}" for x in xs)


print(f"cuts {total}: by the move's place (1st, 2nd, 3rd-5th, later) {shares(v[1:5])}")
print(f"by kind (table move, capture, killer or countermove, other quiet) {shares(v[5:9])}")
print(f"by node (expected cut, expected all; the rest PV) {shares(v[9:11])}")
