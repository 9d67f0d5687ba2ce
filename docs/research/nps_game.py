"""Usage: nps_game.py MS PGN GAMES PLIES ENGINE...

Nodes a second and depth at a fixed movetime along the positions of PGN games, table and helpers carried between moves (UCI)."""
import os, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'vote'))
from uci import Engine
import chess, chess.pgn
ms, pgn, ngames, plies = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
engines = sys.argv[5:]
games = []
with open(pgn) as f:
    while len(games) < ngames:
        g = chess.pgn.read_game(f)
        if g is None: break
        games.append(g)
def run(eng, threads):
    e = Engine(eng, {"Threads": threads, "Hash": 64})
    send, wait = e.send, e.wait
    depths = []; nodes = 0; t = 0.0
    for g in games:
        send("ucinewgame")
        b = g.board(); fen = b.fen(); moves = []
        for mv in list(g.mainline_moves())[:plies]:
            send(f"position fen {fen} moves {' '.join(moves)}" if moves else f"position fen {fen}")
            t0 = time.perf_counter()
            send(f"go movetime {ms}")
            out = wait("bestmove")
            t += time.perf_counter() - t0
            d = [int(l.split()[2]) for l in out if l.startswith("info depth") and " pv " in l]
            nd = [int(l.split()[l.split().index("nodes")+1]) for l in out if l.startswith("info") and " nodes " in l]
            if d: depths.append(d[-1])
            if nd: nodes += nd[-1]
            moves.append(mv.uci())
    e.quit()
    return sum(depths) / max(1, len(depths)), nodes / t / 1000, len(depths)
for rep in range(2):
    for eng in engines:
        for th in (1, 2):
            d, knps, n = run(eng, th)
            print(f"{eng.split('/')[-1]:12s} threads {th}: depth {d:.2f}, {knps:.0f} knps over {n}", flush=True)
