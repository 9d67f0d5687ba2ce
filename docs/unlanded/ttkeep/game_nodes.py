"""Mean completed depth at equal nodes with the TT carried over between moves, as in a game.

usage: game_nodes.py ENGINE NODES PGN [fresh]
Takes games 6, 18 and 30 of PGN, every second ply from 20 to 38; one `ucinewgame` per game
(or before every position with `fresh`); `go nodes NODES`; prints the last completed depth
(the last `info depth` line with a `pv` that is not an upperbound/lowerbound) per position.
"""
import subprocess, sys, chess, chess.pgn

engine, nodes, pgn = sys.argv[1], int(sys.argv[2]), sys.argv[3]
fresh = len(sys.argv) > 4
games = []
with open(pgn) as f:
    while True:
        g = chess.pgn.read_game(f)
        if g is None:
            break
        games.append(g)
p = subprocess.Popen([engine, "uci"] if False else [engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
def until(prefix):
    lines = []
    while True:
        l = p.stdout.readline()
        if not l:
            raise SystemExit("engine died")
        lines.append(l.strip())
        if l.startswith(prefix):
            return lines
send("uci"); until("uciok")
send("setoption name Hash value 16"); send("isready"); until("readyok")
depths = []
for gi in (6, 18, 30):
    g = games[gi - 1]
    board = g.board()
    start_fen = board.fen()
    moves = [m for m in g.mainline_moves()]
    send("ucinewgame"); send("isready"); until("readyok")
    for ply in range(20, 39, 2):
        if ply > len(moves):
            break
        if fresh:
            send("ucinewgame"); send("isready"); until("readyok")
        ms = " ".join(m.uci() for m in moves[:ply])
        send(f"position fen {start_fen} moves {ms}")
        send(f"go nodes {nodes}")
        out = until("bestmove")
        d = 0
        for l in out:
            t = l.split()
            if t[:2] == ["info", "depth"] and " pv " in l and "bound" not in l:
                d = int(t[2])
        depths.append(d)
send("quit")
print(" ".join(map(str, depths)))
print(f"mean {sum(depths)/len(depths):.2f} over {len(depths)}")
