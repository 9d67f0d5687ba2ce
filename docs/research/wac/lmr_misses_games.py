"""lmr_misses.py in game conditions: the first NGAMES games of a PGN, every position of the first
side up to ply 100 searched to DEPTH in one game (no `ucinewgame` between moves, so the
histories are warm as in play). Totals by move kind and history.

usage: K32=1 python3 lmr_misses_games.py ENGINE GAMES.pgn DEPTH NGAMES (docs/chess-gap.md 1.6)"""
import sys
import tempfile

import chess
import chess.engine
import chess.pgn

path, pgn, depth, ngames = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
err = tempfile.NamedTemporaryFile("w+", suffix=".txt")
e = chess.engine.SimpleEngine.popen_uci([path], stderr=err)
e.configure({"Hash": 16})
f = open(pgn)
for g in range(ngames):
    game = chess.pgn.read_game(f)
    tag = object()
    board = game.board()
    for k, mv in enumerate(game.mainline_moves()):
        if k % 2 == 0 and k < 100:
            e.play(board, chess.engine.Limit(depth=depth), game=tag)
        board.push(mv)
e.play(chess.Board(), chess.engine.Limit(nodes=100))
e.quit()
err.seek(0)
last = [line for line in err if line.startswith("lmrstats")][-1]
v = [int(x) for x in last.split(" ", 1)[1].strip("[]\n ").split(",")]
hist = ["< -4000", "-4000..0", "0..4000", ">= 4000"]
print("move     history   reduced-low  missed  miss%   caught")


def total(quiet, h, what):
    return sum(v[(((quiet * 2 + cut) * 4 + r) * 4 + h) * 3 + what] for cut in (0, 1) for r in range(4))


for quiet in (1, 0):
    for h in range(4):
        low, miss, caught = (total(quiet, h, what) for what in range(3))
        kind = "quiet" if quiet else "capture"
        print(f"{kind:8s} {hist[h]:9s} {low:11d} {miss:7d} {100 * miss / max(1, low):6.1f} {caught:8d}")
