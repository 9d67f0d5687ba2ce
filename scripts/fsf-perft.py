#!/usr/bin/env python3
"""Perft counts from Fairy-Stockfish beside fairybridge's, position by position.

Usage: scripts/fsf-perft.py VARIANT FSF_VARIANT DEPTH FEN[|ID] [FEN[|ID] ...]
       [--variants FILE] [--fsf-ini FILE] [--binary PATH] [--fsf PATH] [--suite]

Prints, for each FEN and depth 1..DEPTH, both counts; on a difference, the root moves whose
subtree counts differ (by move text, which both print in UCI-like coordinates). Exit 1 on any
difference. With --suite, prints the agreed counts as a fixtures/perft entry instead (`ID` names
it). Exit 2, with a line on stderr saying what happened, when either program cannot answer: it is
missing, it crashes or times out, it gives no count, or Fairy-Stockfish does not know FSF_VARIANT
(it would play chess instead without a word).
Fairy-Stockfish: /usr/games/fairy-stockfish (scripts/install-deps.sh fairy-stockfish).
"""
import argparse
import signal
import subprocess
import sys

FSF = "/usr/games/fairy-stockfish"
TIMEOUT = 600


class NoAnswer(Exception):
    """A program that was to count gave no count: the message says what happened."""


def run(args, what, missing, stdin=None):
    """Runs a counting program to its end; a missing program (`missing` says where to get it), a
    timeout, a crash or a failure is NoAnswer."""
    try:
        res = subprocess.run(args, input=stdin, capture_output=True, text=True, timeout=TIMEOUT)
    except FileNotFoundError:
        raise NoAnswer(f"{what}: {args[0]} not found ({missing})")
    except PermissionError:
        raise NoAnswer(f"{what}: {args[0]} is not executable")
    except subprocess.TimeoutExpired:
        raise NoAnswer(f"{what}: no answer within {TIMEOUT} s")
    said = (res.stderr.strip().splitlines() or ["nothing on stderr"])[-1]
    if res.returncode < 0:
        try:
            name = signal.Signals(-res.returncode).name
        except ValueError:
            name = f"signal {-res.returncode}"
        raise NoAnswer(f"{what}: crashed ({name}): {said}")
    if res.returncode > 0:
        raise NoAnswer(f"{what}: failed (exit status {res.returncode}): {said}")
    return res.stdout


def offered_variants(out):
    """The UCI_Variant values of the last `option name UCI_Variant` line (None if there is none)."""
    offered = None
    for line in out.splitlines():
        if line.startswith("option name UCI_Variant "):
            words = line.split()
            offered = {words[i + 1] for i, w in enumerate(words[:-1]) if w == "var"}
    return offered


def fsf_divide(fsf, variant, fen, depth, variants_ini=None):
    cmds = ["uci"]
    if variants_ini:
        # A second `uci` lists the variants as the file has extended them.
        cmds += [f"setoption name VariantPath value {variants_ini}", "uci"]
    cmds += [f"setoption name UCI_Variant value {variant}", f"position fen {fen}", f"go perft {depth}", "quit"]
    what = f"Fairy-Stockfish on {variant} {fen!r} depth {depth}"
    out = run([fsf], what, "scripts/install-deps.sh fairy-stockfish installs it", "\n".join(cmds) + "\n")
    offered = offered_variants(out)
    if offered is None:
        raise NoAnswer(f"{what}: no UCI_Variant option in its answer to `uci`")
    if variant not in offered:
        raise NoAnswer(f"{what}: it does not know the variant {variant!r} (its UCI_Variant lists {len(offered)} variants)")
    moves, total = {}, None
    for line in out.splitlines():
        if line.startswith("Nodes searched:"):
            total = int(line.split()[2])
        elif ": " in line and not line.startswith(("info", "option", "id", "Fen", "Key", "Checkers", "Sfen")):
            m, n = line.split(": ", 1)
            if n.strip().isdigit():
                moves[m.strip()] = int(n)
    if total is None:
        raise NoAnswer(f"{what}: no count (no `Nodes searched:` line)")
    return total, moves


def ours_divide(binary, variant, fen, depth, extra):
    args = [binary, *extra, "perft", "--variant", variant, "--fen", fen, "--depth", str(depth), "--divide"]
    what = f"fairybridge on {variant} {fen!r} depth {depth}"
    moves, total = {}, None
    for line in run(args, what, "cargo build --release builds it; --binary names another").splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].isdigit():
            if parts[0] == "nodes":
                total = int(parts[1])
            else:
                moves[parts[0]] = int(parts[1])
    if total is None:
        raise NoAnswer(f"{what}: no count (no `nodes N` line)")
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
    ap.add_argument("--fsf", default=FSF, help="the Fairy-Stockfish binary")
    ap.add_argument("--suite", action="store_true", help="print fixtures/perft entries")
    a = ap.parse_args()
    extra = ["--variants", a.variants] if a.variants else []
    bad = 0
    for n, fen in enumerate(a.fens):
        fen_fsf, _, ident = fen.partition("|")
        if a.suite:
            print(f"id {ident or 'position-' + str(n + 1)}\nepd {fen_fsf}")
        for d in range(1, a.depth + 1):
            try:
                ft, fm = fsf_divide(a.fsf, a.fsf_variant, fen_fsf, d, a.fsf_ini)
                ot, om = ours_divide(a.binary, a.variant, fen_fsf, d, extra)
            except NoAnswer as e:
                print(f"fsf-perft: {e}", file=sys.stderr)
                sys.exit(2)
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
