#!/usr/bin/env python3
"""Perft counts from Fairy-Stockfish beside fairybridge's, position by position.

Usage: scripts/fsf-perft.py VARIANT FSF_VARIANT DEPTH FEN [FEN ...]
       [--variants FILE] [--write ID=FEN ...]

Prints, for each FEN and depth 1..DEPTH, both counts; on a difference, the root moves whose
subtree counts differ (by move text, which both print in UCI-like coordinates). Exit 1 on any
difference. With --suite, prints the agreed counts as a fixtures/perft entry instead.
Fairy-Stockfish: /usr/games/fairy-stockfish (scripts/install-deps.sh fairy-stockfish).
"""
import argparse
import subprocess
import sys

FSF = "/usr/games/fairy-stockfish"


def fsf_divide(variant, fen, depth, variants_ini=None):
    cmds = ["uci"]
    if variants_ini:
        cmds.append(f"setoption name VariantPath value {variants_ini}")
    cmds += [f"setoption name UCI_Variant value {variant}", f"position fen {fen}", f"go perft {depth}", "quit"]
    out = subprocess.run([FSF], input="\n".join(cmds) + "\n", capture_output=True, text=True, timeout=600).stdout
    moves, total = {}, None
    for line in out.splitlines():
        if line.startswith("Nodes searched:"):
            total = int(line.split()[2])
        elif ": " in line and not line.startswith(("info", "option", "id", "Fen", "Key", "Checkers", "Sfen")):
            m, n = line.split(": ", 1)
            if n.strip().isdigit():
                moves[m.strip()] = int(n)
    return total, moves


def ours_divide(binary, variant, fen, depth, extra):
    args = [binary, *extra, "perft", "--variant", variant, "--fen", fen, "--depth", str(depth), "--divide"]
    res = subprocess.run(args, capture_output=True, text=True, timeout=600)
    if res.returncode != 0:
        raise SystemExit(f"fairybridge failed on {fen}: {res.stderr.strip()}")
    moves, total = {}, None
    for line in res.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].isdigit():
            if parts[0] == "nodes":
                total = int(parts[1])
            else:
                moves[parts[0]] = int(parts[1])
    if total is None:
        total = sum(moves.values())
    return total, moves


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("variant")
    ap.add_argument("fsf_variant")
    ap.add_argument("depth", type=int)
    ap.add_argument("fens", nargs="+")
    ap.add_argument("--variants", help="our definition file")
    ap.add_argument("--fsf-ini", help="Fairy-Stockfish variants.ini")
    ap.add_argument("--binary", default="target/release/fairybridge")
    ap.add_argument("--suite", action="store_true", help="print fixtures/perft entries")
    a = ap.parse_args()
    extra = ["--variants", a.variants] if a.variants else []
    bad = 0
    for n, fen in enumerate(a.fens):
        fen_fsf, _, ident = fen.partition("|")
        if a.suite:
            print(f"id {ident or 'position-' + str(n + 1)}\nepd {fen_fsf}")
        for d in range(1, a.depth + 1):
            ft, fm = fsf_divide(a.fsf_variant, fen_fsf, d, a.fsf_ini)
            ot, om = ours_divide(a.binary, a.variant, fen_fsf, d, extra)
            if ft != ot:
                bad += 1
                print(f"DIFF {fen_fsf} depth {d}: fsf {ft} ours {ot}", file=sys.stderr)
                for m in sorted(set(fm) | set(om)):
                    if fm.get(m) != om.get(m):
                        print(f"   {m}: fsf {fm.get(m)} ours {om.get(m)}", file=sys.stderr)
                break
            if a.suite:
                print(f"perft {d} {ot}")
            else:
                print(f"{fen_fsf} depth {d}: {ot} (both)")
        if a.suite:
            print()
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
