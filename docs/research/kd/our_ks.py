#!/usr/bin/env python3
"""Our king danger (src/search/eval/king.rs + pieces.rs, weights of fixtures/variants/normal.toml
as main-pawns has them), re-implemented for chess to compare with FSF's at the study positions.

king_safety(color = attacker): zone = 3x3 around the defending king (its square too);
units = sum over the attacker's N/B/R/Q of (squares of the zone it attacks) * king_attack
(N 13, B 16, R 13, Q 10) + base (-6) + no-queen (-35) + 14 per weak zone square + per safe
check square (N 44, B 26, R 54, Q 29); counts only with >= 2 zone attackers (>= 1 with a queen);
mg = min(units^2 * 29 / 2048, 362), eg = units * -28 / 64, none when units <= 0.
Phase = non-pawn material (N 320, B 330, R 500, Q 950) / 6500.
Shelter (mg, the defender's, king on its first two ranks): per file of the king and beside it,
own pawn 1 rank ahead +9, else 2 ranks ahead 0, else no own pawn on the file -21; storm by the
nearest enemy pawn 1..4 ranks ahead not blocked: +27, -20, -3, +3.
Validation: ours ~ FSF terms (King safety left out) + this danger + this shelter on the broad
sample; the danger's coefficient should come out near 1 if the re-implementation is right.
Usage: our_ks.py evals.json all.json
"""
import json
import sys

import chess
import numpy as np

from fsf_kingdanger import rook_att, bishop_att, pawn_att, pc  # noqa: E402
from analyse import TERMS, ols, x_of  # noqa: E402

B = chess
KA = {chess.KNIGHT: 13, chess.BISHOP: 16, chess.ROOK: 13, chess.QUEEN: 10}
SC = {chess.KNIGHT: 44, chess.BISHOP: 26, chess.ROOK: 54, chess.QUEEN: 29}
VAL = {chess.KNIGHT: 320, chess.BISHOP: 330, chess.ROOK: 500, chess.QUEEN: 950}


def piece_att(board, pt, s):
    occ = board.occupied
    if pt == chess.KNIGHT:
        return B.BB_KNIGHT_ATTACKS[s]
    if pt == chess.BISHOP:
        return bishop_att(s, occ)
    if pt == chess.ROOK:
        return rook_att(s, occ)
    return rook_att(s, occ) | bishop_att(s, occ)


def maps(board, c):
    att = pawn_att(board.pieces_mask(chess.PAWN, c), c)
    pawns = board.pieces_mask(chess.PAWN, c)
    if c:
        att2 = ((pawns & ~B.BB_FILE_A) << 7) & ((pawns & ~B.BB_FILE_H) << 9) & B.BB_ALL
    else:
        att2 = ((pawns & ~B.BB_FILE_A) >> 9) & ((pawns & ~B.BB_FILE_H) >> 7)
    k = B.BB_KING_ATTACKS[board.king(c)]
    att2 |= att & k
    att |= k
    royal = k
    heavy = 0
    by = {}
    for pt in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN):
        by[pt] = 0
        for s in board.pieces(pt, c):
            a = piece_att(board, pt, s)
            att2 |= att & a
            att |= a
            by[pt] |= a
            if pt == chess.QUEEN:
                heavy |= a
    return dict(att=att, att2=att2, royal=royal, heavy=heavy, by=by)


def danger(board, attacker):
    own, enemy = attacker, not attacker
    ksq = board.king(enemy)
    zone = B.BB_KING_ATTACKS[ksq] | B.BB_SQUARES[ksq]
    mo, me = maps(board, own), maps(board, enemy)
    units = 0
    attackers = 0
    for pt in KA:
        for s in board.pieces(pt, own):
            h = pc(piece_att(board, pt, s) & zone)
            if h:
                units += h * KA[pt]
                attackers += 1
    heavies = len(board.pieces(chess.QUEEN, own))
    need = 1 if heavies else 2
    if attackers < need:
        return 0, 0, None
    safety = units - 6 + (0 if heavies else -35)
    guarded = me["att"] & ~(me["royal"] | me["heavy"])
    weak = mo["att"] & ~me["att2"] & ~guarded
    safety += 14 * pc(weak & zone)
    unsafe = (me["att"] & ~(weak & mo["att2"])) | board.occupied_co[own]
    occ = board.occupied
    checks = {chess.KNIGHT: B.BB_KNIGHT_ATTACKS[ksq], chess.BISHOP: bishop_att(ksq, occ),
              chess.ROOK: rook_att(ksq, occ)}
    checks[chess.QUEEN] = checks[chess.BISHOP] | checks[chess.ROOK]
    for pt in SC:
        if not board.pieces_mask(pt, own):
            continue
        # kind_dest: attacks and quiet moves; for N/B/R/Q in chess quiet moves are attacks on empty squares
        dest = mo["by"][pt]
        safety += pc(checks[pt] & ~unsafe & dest) * SC[pt]
    if safety <= 0:
        return 0, 0, safety
    mg = min(safety * safety * 29 // 2048, 362)
    eg = safety * -28 // 64
    return mg, eg, safety


def phase(board):
    npm = sum(VAL[pt] * len(board.pieces(pt, c)) for pt in VAL for c in (True, False))
    return min(npm, 6500) / 6500


def our_danger_stm(board):
    """Phased danger the side to move makes minus the other's (our units, side to move's view)."""
    p = phase(board)
    out = 0.0
    raw = {}
    for col, sgn in ((board.turn, 1), (not board.turn, -1)):
        mg, eg, s = danger(board, col)
        out += sgn * (mg * p + eg * (1 - p))
        raw[col] = (mg, eg, s)
    return out, raw


def main():
    ev = [r for r in json.load(open(sys.argv[1])) if r["fsf_total"] is not None]
    al = [r for r in json.load(open(sys.argv[2])) if r["fsf_total"] is not None]
    other = [t for t in TERMS if t != "King safety"]

    def X(rows):
        out = []
        for r in rows:
            b = chess.Board(r["fen"])
            d, _ = our_danger_stm(b)
            out.append([x_of(r, t) for t in other] + [x_of(r, "King safety"), d])
        return np.array(out)

    Xa = X(al)
    y = np.array([r["ours"]["main-pawns"] for r in al], float)
    A = np.column_stack([np.ones(len(y)), Xa])
    b, se, res = ols(A, y)
    names = other + ["FSF King safety", "our danger (python)"]
    print(f"validation fit, ours ~ FSF terms + our danger (python): R^2 {1 - res.var() / y.var():.3f}")
    for i in (len(names) - 2, len(names) - 1):
        print(f"  b[{names[i]}] = {b[i+1]:+.2f} ({se[i+1]:.2f})")
    for st in ("first", "any2", "early"):
        lst = [r for r in ev if r["set"] == st]
        ours_on_ours, ours_on_fsf, units_o, units_f, active_o = [], [], [], [], 0
        for r in lst:
            bd = chess.Board(r["fen"])
            p = phase(bd)
            fs = bd.turn
            mg, eg, s = danger(bd, fs)       # FSF attacking our king
            ours_on_ours.append(mg * p + eg * (1 - p))
            units_o.append(s if s is not None else 0)
            active_o += s is not None and s > 0
            mg2, eg2, s2_ = danger(bd, not fs)
            ours_on_fsf.append(mg2 * p + eg2 * (1 - p))
            units_f.append(s2_ if s2_ is not None else 0)
        print(f"\n## {st} ({len(lst)}): our eval's danger term (our units ~ cp)")
        print(f"  on our king (FSF attacking): mean {np.mean(ours_on_ours):.0f}, median {np.median(ours_on_ours):.0f}, "
              f"counted (threshold met, units > 0) in {active_o}/{len(lst)}; units median {np.median(units_o):.0f}, 90% {np.percentile(units_o, 90):.0f}")
        print(f"  on FSF's king (we attack): mean {np.mean(ours_on_fsf):.0f}, median {np.median(ours_on_fsf):.0f}")
        print(f"  difference (FSF's view): {np.mean(ours_on_ours) - np.mean(ours_on_fsf):+.0f}")


if __name__ == "__main__":
    main()
