"""Runs searches on a knob build (knobs.diff) and reads the counters it prints on stderr.

The build prints its cumulative counters at each `go` (K31: a `stats` line, K32: `lmrstats`);
the last line after all searches holds them all. Used by cuts.py, lmr_misses.py and
lmr_misses_games.py."""
import tempfile

import chess
import chess.engine

from sts_suite import positions


def sts_positions(epd, every):
    """Every EVERY-th position of the suite, each searched as a game of its own."""
    for board, _, _ in positions(epd, every):
        yield board, object()


def read_counters(path, searches, limit, prefix):
    """Searches each (board, game) of SEARCHES (the same game object: no `ucinewgame` between
    them) and returns the counters of the last PREFIX line."""
    with tempfile.NamedTemporaryFile("w+", suffix=".txt") as err:
        engine = chess.engine.SimpleEngine.popen_uci([path], stderr=err)
        engine.configure({"Hash": 16})
        for board, game in searches:
            engine.play(board, limit, game=game)
        # One more `go`, so that the counters of the last search are printed too.
        engine.play(chess.Board(), chess.engine.Limit(nodes=100))
        engine.quit()
        err.seek(0)
        last = [line for line in err if line.startswith(prefix + " ")][-1]
    return [int(x) for x in last.split(" ", 1)[1].strip("[]\n ").split(",")]
