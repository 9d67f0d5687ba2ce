"""Depth reached at a fixed movetime along the positions of one game, TT and helpers carried between moves (UCI)."""
import sys
from uci import Engine
eng, ms, pgn = sys.argv[1], int(sys.argv[2]), sys.argv[3]
import chess, chess.pgn
games = []
with open(pgn) as f:
    while len(games) < 3:
        g = chess.pgn.read_game(f)
        if g is None: break
        games.append(g)
def run(threads):
    e = Engine(eng, {"Threads": threads})
    send, wait = e.send, e.wait
    depths = []
    for g in games:
        send("ucinewgame")
        b = g.board(); fen = b.fen(); moves = []
        for mv in list(g.mainline_moves())[:80]:
            send(f"position fen {fen} moves {' '.join(moves)}" if moves else f"position fen {fen}")
            send(f"go movetime {ms}")
            out = wait("bestmove")
            d = [int(l.split()[2]) for l in out if l.startswith("info depth") and " pv " in l]
            if d: depths.append(d[-1])
            moves.append(mv.uci())
    e.quit()
    return sum(depths) / len(depths), len(depths)
for t in (1, 2, 1, 2):
    print(t, "threads: mean depth %.2f over %d" % run(t), flush=True)
