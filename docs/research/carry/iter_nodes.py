"""Like game_nodes.py, but records cumulative nodes at each completed depth.
usage: iter_nodes.py ENGINE NODES PGN MODE(carried|fresh) [HASH] [extra setoption lines separated by ;]
prints JSON list per position: {depth: nodes}
"""
import subprocess, sys, json, chess, chess.pgn
engine, nodes, pgn, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
hashmb = int(sys.argv[5]) if len(sys.argv) > 5 else 16
extra = sys.argv[6].split(";") if len(sys.argv) > 6 and sys.argv[6] else []
fresh = mode == "fresh"
games = []
with open(pgn) as f:
    while len(games) < 200:
        g = chess.pgn.read_game(f)
        if g is None: break
        games.append(g)
p = subprocess.Popen(["nice", "-n", "19", engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
def until(prefix):
    lines = []
    while True:
        l = p.stdout.readline()
        if not l: raise SystemExit("engine died")
        lines.append(l.strip())
        if l.startswith(prefix): return lines
send("uci"); until("uciok")
send(f"setoption name Hash value {hashmb}")
for e in extra: send(e)
send("isready"); until("readyok")
res = []
import os
GL = [int(x) for x in os.environ.get('GAMES', '6,18,30').split(',')]
for gi in GL:
    g = games[gi - 1]
    board = g.board(); start_fen = board.fen()
    moves = list(g.mainline_moves())
    send("ucinewgame"); send("isready"); until("readyok")
    for ply in range(20, 39, 2):
        if ply > len(moves): break
        if fresh:
            send("ucinewgame"); send("isready"); until("readyok")
        ms = " ".join(m.uci() for m in moves[:ply])
        send(f"position fen {start_fen} moves {ms}")
        send(f"go nodes {nodes}")
        out = until("bestmove")
        d = {}
        hf = 0
        for l in out:
            t = l.split()
            if t[:2] == ["info", "depth"] and " pv " in l and "bound" not in l and "multipv 2" not in l:
                d[int(t[2])] = int(t[t.index("nodes") + 1])
            if "hashfull" in t:
                hf = int(t[t.index("hashfull") + 1])
        d["hf"] = hf
        res.append(d)
send("quit")
print(json.dumps(res))
