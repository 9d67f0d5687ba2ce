#!/usr/bin/env python3
"""King-safety probes: pairs of positions differing in one king-safety feature.

For each pair (base, changed), all from White's view (White to move, White is the attacker;
Black's king is the one probed): the change of FSF's total static eval, of its trace's
King safety term (MG/EG, Black's own entry, sign flipped to White's view), and of our static
eval (main-pawns, batch1).  Material is kept equal inside a pair (a removed shelter pawn is
balanced by removing a far pawn in the base too).
Usage: probes.py
"""
import sys

import chess

from eval_positions import fsf, ours, OURS  # noqa: E402

BASE = "r1bq1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10"


def edit(fen, remove=(), put=()):
    b = chess.Board(fen)
    for sq in remove:
        b.remove_piece_at(chess.parse_square(sq))
    for sq, sym in put:
        b.set_piece_at(chess.parse_square(sq), chess.Piece.from_symbol(sym))
    return b.fen()


PAIRS = [
    ("g7-g6 (hole on f6/h6)", BASE, edit(BASE, ["g7"], [("g6", "p")])),
    ("h7-h6", BASE, edit(BASE, ["h7"], [("h6", "p")])),
    ("g7-g5 (far advanced shelter pawn)", BASE, edit(BASE, ["g7"], [("g5", "p")])),
    ("h7 missing (vs a7 missing)", edit(BASE, ["a7"]), edit(BASE, ["h7"])),
    ("g7 missing (vs a7 missing)", edit(BASE, ["a7"]), edit(BASE, ["g7"])),
    ("f7,g7,h7 -> a6? no: g7,h7 missing (vs a7,b7)", edit(BASE, ["a7", "b7"]), edit(BASE, ["g7", "h7"])),
    ("white pawn storm g2-g4-g5 (vs g2-g3)", edit(BASE, ["g2"], [("g3", "P")]), edit(BASE, ["g2", "f6"], [("g5", "P"), ("e8", "n")])),
    ("white h-pawn on h5 (storm, vs h3)", edit(BASE, ["h2"], [("h3", "P")]), edit(BASE, ["h2"], [("h5", "P")])),
    ("white queen d1 -> h5 (vs e2)", edit(BASE, ["d1"], [("e2", "Q")]), edit(BASE, ["d1", "f6"], [("h5", "Q"), ("e8", "n")])),
    ("white knight f3 -> g5 (no f6 knight)", edit(BASE, ["f6"], [("e8", "n")]), edit(BASE, ["f6", "f3"], [("e8", "n"), ("g5", "N")])),
    ("Q h5 + N g5 (vs Q e2, N f3)", edit(BASE, ["d1", "f6"], [("e2", "Q"), ("e8", "n")]),
     edit(BASE, ["d1", "f6", "f3"], [("h5", "Q"), ("e8", "n"), ("g5", "N")])),
    ("black king g8 -> h8? no: black king in centre e8, no castling (vs g8)",
     "r1bq1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
     "r1bqk2r/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10"),
    ("black king g8, pawn-less king flank (f,g,h pawns moved to a-c files? -> removed f7 g7 h7 vs a7 b7 c?)",
     edit(BASE, ["a7", "b7"], []), edit(BASE, ["f7", "g7"], [])),
    ("white rook on open g-file facing the king (g-pawns off, R g1 vs R f1... )",
     edit(BASE, ["g2", "g7"], []), edit(BASE, ["g2", "g7", "f1", "g1"], [("g3", "R"), ("h1", "K")])),
]


def fsf_change(fs, i):
    """FSF's change over pair i (`fsf`'s results, two a pair), in cp: its total, and its King
    safety of Black's king (MG, EG) from White's view; None when either position is in check."""
    ta, tb = fs[2 * i], fs[2 * i + 1]
    if ta[0] is None or tb[0] is None:
        return None
    dt = (tb[0] - ta[0]) * 100
    ks = [-(tb[2]["King safety"][1][j] - ta[2]["King safety"][1][j]) * 100 for j in (0, 1)]
    return dt, ks


def main():
    fens = []
    for _, a, b in PAIRS:
        fens += [a, b]
    ev = {n: ours(c, fens) for n, c in OURS.items()}
    fs = fsf(fens)
    print("| probe | FSF total | FSF king safety (Black's king, MG/EG, White's view) | ours main-pawns | ours batch1 |")
    print("|---|---|---|---|---|")
    for i, (name, a, b) in enumerate(PAIRS):
        change = fsf_change(fs, i)
        if change is None:
            print(f"| {name} | in check |")
            continue
        dt, ks = change
        do = ev["main-pawns"][2 * i + 1] - ev["main-pawns"][2 * i]
        db = ev["batch1"][2 * i + 1] - ev["batch1"][2 * i]
        print(f"| {name} | {dt:+.0f} | {ks[0]:+.0f} / {ks[1]:+.0f} | {do:+d} | {db:+d} |")
        print(f"|  `{b}` |||||", file=sys.stderr)


if __name__ == "__main__":
    main()
