"""The Strategic Test Suite's EPD (STS1-STS15_LAN_v3.epd of fsmosca/STS-Rating) as the scripts
here read it, and their search budgets."""
import re

import chess
import chess.engine


def positions(epd, every=1, offset=0):
    """Every EVERY-th position from the OFFSET-th (0 first): (board, theme, points), points the
    moves that earn some (UCI, from `c9`) with theirs (`c8`, 10 for the best)."""
    for i, line in enumerate(open(epd)):
        if i % every != offset:
            continue
        board, ops = chess.Board.from_epd(line.strip())
        theme = re.sub(r"\.\d+$", "", ops["id"]).split(") ", 1)[-1]
        points = dict(zip(ops["c9"].split(), (int(x) for x in ops["c8"].split())))
        yield board, theme, points


def limit_of(budget):
    """`dN`: depth N; a number: nodes."""
    if budget.startswith("d"):
        return chess.engine.Limit(depth=int(budget[1:]))
    return chess.engine.Limit(nodes=int(budget))
