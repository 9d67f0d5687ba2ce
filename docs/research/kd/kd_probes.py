#!/usr/bin/env python3
"""probes.py's pairs: FSF's total and King safety change, 0.75 x FSF's King safety (phased by
SF11's phase), and our eval change for batch1 and the binary given (branch kd).
Usage: kd_probes.py BIN"""
import sys

import chess

from eval_positions import fsf, ours, phase  # noqa: E402
from probes import PAIRS, fsf_change  # noqa: E402


def main():
    fens = []
    for _, a, b in PAIRS:
        fens += [a, b]
    before = ours("/work/keep/bin/batch1", fens)
    after = ours(sys.argv[1], fens)
    fs = fsf(fens)
    print("| probe | FSF total | FSF KS mg / eg | 0.75 x FSF KS (phased) | ours batch1 | ours kd |")
    print("|---|---|---|---|---|---|")
    for i, (name, a, b) in enumerate(PAIRS):
        change = fsf_change(fs, i)
        if change is None:
            print(f"| {name} | in check |")
            continue
        dt, ks = change
        p = phase(chess.Board(b))[0]
        ph = (ks[0] * p + ks[1] * (128 - p)) / 128
        print(f"| {name[:60]} | {dt:+.0f} | {ks[0]:+.0f} / {ks[1]:+.0f} | {0.75 * ph:+.0f} | "
              f"{before[2 * i + 1] - before[2 * i]:+d} | {after[2 * i + 1] - after[2 * i]:+d} |")


if __name__ == "__main__":
    main()
