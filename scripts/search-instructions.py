#!/usr/bin/env python3
"""Instructions of a fixed-depth search in each game, for two builds side by side, as ratios.

    scripts/search-instructions.py [--depth N] NEW OLD [GAME ...]

Each build searches the start position of each game (all six built-in games unless named) to
depth N (default 9) over CECP under `valgrind --tool=callgrind`, which counts instructions: the
same count for the same binary and input whatever else the machine is doing, unlike seconds.
It prints each build's count and nodes and the ratio NEW/OLD; the node counts must agree for the
ratio to be a measure of speed alone (different nodes mean the search itself changed). The count
includes start-up (loading the game definitions), the same for both unless the change is there.
Needs valgrind.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

GAMES = ["normal", "crazyhouse", "wildcastle", "pillage", "wreckage", "wildrose"]


def measure(binary, game, depth):
    """(instructions, nodes of the last thinking line) of one search."""
    fd, out = tempfile.mkstemp(prefix="callgrind.")
    os.close(fd)
    p = subprocess.Popen(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    start = "new" if game == "normal" else f"variant {game}"
    # A long clock, so that the depth alone ends the search.
    for line in ["xboard", "protover 2", "post", start, "level 0 600 0", "time 3600000",
                 "otim 3600000", f"sd {depth}", "go"]:
        p.stdin.write(line + "\n")
    p.stdin.flush()
    nodes = None
    for line in p.stdout:
        m = re.match(r"\s*\d+\s+-?\d+\s+\d+\s+(\d+)\s", line)
        if m:
            nodes = int(m.group(1))
        if line.startswith("move "):
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    _, err = p.communicate()
    os.unlink(out)
    found = re.search(r"Collected : (\d+)", err)
    if p.returncode != 0 or not found or nodes is None:
        sys.exit(f"search-instructions: {binary} in {game}: no count (exit {p.returncode})\n{err[-2000:]}")
    return int(found.group(1)), nodes


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--depth", type=int, default=9)
    ap.add_argument("new")
    ap.add_argument("old")
    ap.add_argument("games", nargs="*")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("search-instructions: valgrind is not installed (Debian: apt-get install valgrind)")
    games = args.games or GAMES
    print(f"{'game':<12} {'new instructions':>17} {'old instructions':>17} {'new/old':>8}  nodes (new, old)")
    for game in games:
        new_i, new_n = measure(args.new, game, args.depth)
        old_i, old_n = measure(args.old, game, args.depth)
        flag = "" if new_n == old_n else "  (nodes differ: not speed alone)"
        print(f"{game:<12} {new_i:>17,} {old_i:>17,} {new_i / old_i:>8.3f}  {new_n}, {old_n}{flag}", flush=True)


if __name__ == "__main__":
    main()
