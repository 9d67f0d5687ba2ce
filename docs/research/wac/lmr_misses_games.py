"""lmr_misses.py in game conditions: the first NGAMES games of a PGN, every position of the first
side up to ply 100 searched to DEPTH in one game (no `ucinewgame` between moves, so the
histories are warm as in play). Totals by move kind and history.

usage: K32=1 python3 lmr_misses_games.py ENGINE GAMES.pgn DEPTH NGAMES (docs/chess-gap.md 1.6)"""
import sys

import chess
import chess.engine
import chess.pgn

from engine_counters import read_counters


def game_positions(pgn, ngames):
    """The first side's positions up to ply 100 of the first NGAMES games, each game's as one."""
    with open(pgn) as f:
        for _ in range(ngames):
            game = chess.pgn.read_game(f)
            tag = object()
            board = game.board()
            for ply, move in enumerate(game.mainline_moves()):
                if ply % 2 == 0 and ply < 100:
                    yield board.copy(), tag
                board.push(move)


path, pgn, depth, ngames = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
v = read_counters(path, game_positions(pgn, ngames), chess.engine.Limit(depth=depth), "lmrstats")
hist = ["< -4000", "-4000..0", "0..4000", ">= 4000"]
print("move     history   reduced-low  missed  miss%   caught")


def total(quiet, h, what):
    return sum(v[(((quiet * 2 + cut) * 4 + r) * 4 + h) * 3 + what] for cut in (0, 1) for r in range(4))


for quiet in (1, 0):
    for h in range(4):
        low, miss, caught = (total(quiet, h, what) for what in range(3))
        kind = "quiet" if quiet else "capture"
        print(f"{kind:8s} {hist[h]:9s} {low:11d} {miss:7d} {100 * miss / max(1, low):6.1f} {caught:8d}")
