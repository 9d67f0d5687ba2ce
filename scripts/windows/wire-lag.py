#!/usr/bin/env python3
"""What the match runner charged each engine beyond its own thinking, from `fairybridge match
--debug` transcripts (lines `SECONDS NAME > SENT` and `SECONDS NAME < RECEIVED`).

    wire-lag.py TRANSCRIPT... [--engine NAME]...

For every move of each engine: the runner's charge (from the last line it sent before the move to
the `move` line's arrival, as its clock counts), the engine's own search time (its `# searched ...
in N ms` line, sent when the runner accepted `feature debug`) and the clock the runner reported to
it before the move (`time CS`). Prints one line per engine: moves, the charge beyond the search
(median, 99th percentile, largest), the lowest clock reported, and how far a move went past its
clock at worst (a positive value is a flag, forgiven only within the runner's time margin; the
clock is reported in centiseconds, so the figure is good to 10 ms).
Exit 2 when a transcript cannot be read or holds no move of a named engine.
"""

import re
import statistics
import sys

LINE = re.compile(r"^\s*(\d+\.\d+) (\S+) ([<>]) ?(.*)$")
SEARCHED = re.compile(r"^# searched .* in (\d+) ms")


def moves(paths, engine):
    """(charge ms, searched ms or None, clock ms before the move or None) for each move."""
    rows = []
    for path in paths:
        last_sent = None
        searched = None
        clock = None
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = LINE.match(line.rstrip("\n"))
                if not m or m.group(2) != engine:
                    continue
                at, direction, text = float(m.group(1)), m.group(3), m.group(4)
                if direction == ">":
                    last_sent = at
                    if text.startswith("time "):
                        try:
                            clock = int(text.split()[1]) * 10
                        except (IndexError, ValueError):
                            clock = None
                    elif text == "new":
                        clock = None
                    continue
                s = SEARCHED.match(text)
                if s:
                    searched = int(s.group(1))
                elif text.startswith("move ") and last_sent is not None:
                    rows.append(((at - last_sent) * 1000.0, searched, clock))
                    searched = None
                    clock = None
    return rows


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def main(argv):
    paths, engines = [], []
    args = iter(argv)
    for a in args:
        if a == "--engine":
            engines.append(next(args, ""))
        else:
            paths.append(a)
    if not paths or not engines or "" in engines:
        print("usage: wire-lag.py TRANSCRIPT... --engine NAME [--engine NAME]...", file=sys.stderr)
        return 2
    for engine in engines:
        try:
            rows = moves(paths, engine)
        except OSError as e:
            print(f"wire-lag: {e}", file=sys.stderr)
            return 2
        if not rows:
            print(f"wire-lag: no move of {engine} in {' '.join(paths)}", file=sys.stderr)
            return 2
        beyond = [charge - searched for charge, searched, _ in rows if searched is not None]
        clocks = [clock for _, _, clock in rows if clock is not None]
        over = [charge - clock for charge, _, clock in rows if clock is not None]
        text = f"{engine}: {len(rows)} moves"
        if beyond:
            text += (
                f"; charged beyond its search: median {statistics.median(beyond):.0f} ms,"
                f" 99th percentile {percentile(beyond, 0.99):.0f} ms, largest {max(beyond):.0f} ms"
            )
        if clocks:
            text += f"; lowest clock reported {min(clocks)} ms; worst move {max(over):+.0f} ms against its clock"
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
