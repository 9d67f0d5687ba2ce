#!/usr/bin/env python3
"""Time to depth at 1 and 2 threads (UCI), on EPD positions."""
import sys, time
from uci import Engine
eng, variant, depth, epd, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
fens = [l.split(' ce ')[0].strip().rstrip(';') for l in open(epd) if l.strip() and not l.startswith('#')][:n]
def run(threads):
    e = Engine(eng, {"UCI_Variant": variant, "Hash": 64, "Threads": threads})
    send, wait = e.send, e.wait
    tot = 0; nodes = 0
    for f in fens:
        send("ucinewgame"); send("isready"); wait("readyok")
        send("position fen " + f); t0 = time.perf_counter(); send(f"go depth {depth}")
        out = wait("bestmove"); tot += time.perf_counter() - t0
        nd = [int(l.split()[l.split().index("nodes")+1]) for l in out if l.startswith("info") and " nodes " in l]
        nodes += nd[-1] if nd else 0
    e.quit()
    return tot, nodes
for t in (1, 2, 1, 2):
    el, nd = run(t)
    print(f"threads {t}: {el:.2f} s, {nd} nodes, {nd/el/1000:.0f} knps", flush=True)
