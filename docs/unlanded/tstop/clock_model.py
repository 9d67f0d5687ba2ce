#!/usr/bin/env python3
"""A model of search::time::allocate (sudden death, a measured overhead of 10 ms, no GUI floor) over
one game at 10 s + 0.1 s: each move thinks FACTOR times its soft limit (at most the hard one).
Usage: clock_model.py [BASE_SHARE=0.017] [FACTOR=1.45] [HORIZON=50]; prints the mean thinking
time by blocks of five moves and the clock left after move 35."""
import sys
BASE = float(sys.argv[1]) if len(sys.argv) > 1 else 0.017
FACTOR = float(sys.argv[2]) if len(sys.argv) > 2 else 1.45
HORIZON = int(sys.argv[3]) if len(sys.argv) > 3 else 50
base_ms, inc, overhead, lag = 10000, 100, 10, 5
def alloc(remaining, played):
    remaining = max(0, remaining)
    horizon = HORIZON
    beyond = max(0, max(140 - played // 2, 60) - horizon)
    cushion = min(inc * 4 + 100, remaining // 2)
    usable = remaining - cushion
    tl = usable + inc * (horizon - 1) - overhead * (horizon + 2) - max(0, overhead - inc) * beyond
    tl = max(tl, usable // 20, 1)
    ply = 2.0 * played
    share = min(BASE + (ply + 3.0) ** 0.45 * 0.0035, 0.2 * usable / tl)
    opt = int(share * tl)
    cap = max(0, min(remaining * 4 // 5, usable + inc * 3 // 4) - overhead - 5)
    hard = min(int(min(4.0 + ply / 12, 7.0) * opt), cap)
    soft = min(max(opt, (inc - overhead) // 2), cap)
    return soft, max(hard, soft)
clock = base_ms
spent = []
for mv in range(1, 121):
    soft, hard = alloc(clock, mv - 1)
    t = min(FACTOR * soft, hard)
    spent.append(t)
    clock = clock - t - lag + inc
for a in range(0, 100, 5):
    blk = spent[a:a + 5]
    print(f"{a+1:3d}-{a+5:<3d} {sum(blk)/len(blk)/1000:.3f}s", end="   ")
    if a % 20 == 15: print()
print("clock at move 35:", round(base_ms + 35*inc - sum(spent[:35]) - 35*lag))
