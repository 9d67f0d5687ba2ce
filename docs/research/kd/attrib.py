#!/usr/bin/env python3
"""Attribution of FSF's king-safety gap to the parts of kingDanger, and FSF's minor-piece terms.

1. For each position, each king: D(kd) = phased (min(kd^2/4096, 3000) mg, kd/16 eg) when
   kd > 100.  Part i's share: D(kd) - D(kd - part_i) (how much less danger there would be
   without that part, all else equal).  Reported as our king's share minus FSF's king's share
   (FSF's side's view, cp = internal*100/213), mean over the set.  Shares of the other parts
   of the king-safety score (flank attacks' linear -8 each, shelter/storm) alongside.
2. FSF's Bishops and Knights sub-terms (SF11 pieces(): outpost, reachable outpost, minor
   behind pawn, king protector, bishop pawns, long diagonal), FSF's side minus ours, phased cp,
   with their correlation with the gap (fsf_total - ours) across the set.
Usage: attrib.py evals.json
"""
import json
import sys

import chess
import numpy as np

from fsf_kingdanger import king_safety, attack_maps, pc  # noqa: E402

B = chess


def D(kd, p):
    if kd <= 100:
        return 0.0
    return min(kd * kd // 4096, 3000) * p + (kd // 16) * (1 - p)


def minors(board, us, att):
    """SF11 pieces() extras for knights and bishops of colour us (mg, eg) by sub-term."""
    them = not us
    outpost_ranks = (B.BB_RANK_4 | B.BB_RANK_5 | B.BB_RANK_6) if us else (B.BB_RANK_5 | B.BB_RANK_4 | B.BB_RANK_3)
    # pawn_attacks_span(Them): squares their pawns could ever attack (ahead of them on adjacent files)
    span = 0
    for s in board.pieces(chess.PAWN, them):
        f, r = chess.square_file(s), chess.square_rank(s)
        ranks = range(0, r) if them == chess.BLACK else range(r + 1, 8)
        for rr in ranks:
            for ff in (f - 1, f + 1):
                if 0 <= ff < 8:
                    span |= B.BB_SQUARES[chess.square(ff, rr)]
    op = outpost_ranks & att[us][chess.PAWN] & ~span
    occ = board.occupied
    pawns = board.pieces_mask(chess.PAWN, True) | board.pieces_mask(chess.PAWN, False)
    down = (pawns >> 8) if us else (pawns << 8) & B.BB_ALL  # squares just behind a pawn (from us)
    ksq = board.king(us)
    center = B.BB_D4 | B.BB_E4 | B.BB_D5 | B.BB_E5
    cfiles = B.BB_FILE_C | B.BB_FILE_D | B.BB_FILE_E | B.BB_FILE_F
    own_pawns = board.pieces_mask(chess.PAWN, us)
    blocked = own_pawns & ((occ >> 8) if us else (occ << 8) & B.BB_ALL)
    acc = {k: np.zeros(2) for k in ("outpost", "reachable outpost", "minor behind pawn",
                                    "king protector", "bishop pawns", "long diagonal")}
    for pt in (chess.KNIGHT, chess.BISHOP):
        for s in board.pieces(pt, us):
            bs = B.BB_SQUARES[s]
            if pt == chess.KNIGHT:
                b = B.BB_KNIGHT_ATTACKS[s]
            else:
                from fsf_kingdanger import bishop_att
                queens = board.pieces_mask(chess.QUEEN, True) | board.pieces_mask(chess.QUEEN, False)
                b = bishop_att(s, occ ^ queens)
            if op & bs:
                acc["outpost"] += np.array([30, 21]) * (2 if pt == chess.KNIGHT else 1)
            elif pt == chess.KNIGHT and op & b & ~board.occupied_co[us]:
                acc["reachable outpost"] += np.array([32, 10])
            if down & bs:
                acc["minor behind pawn"] += np.array([18, 3])
            acc["king protector"] -= np.array([7, 8]) * chess.square_distance(s, ksq)
            if pt == chess.BISHOP:
                light = bool(B.BB_LIGHT_SQUARES & bs)
                same = pc(own_pawns & (B.BB_LIGHT_SQUARES if light else B.BB_DARK_SQUARES))
                acc["bishop pawns"] -= np.array([3, 7]) * same * (1 + pc(blocked & cfiles))
                from fsf_kingdanger import bishop_att
                if pc(bishop_att(s, pawns) & center) > 1:
                    acc["long diagonal"] += np.array([45, 0])
    return acc


def main():
    rows = [r for r in json.load(open(sys.argv[1])) if r["fsf_total"] is not None]
    for st in ("first", "any2", "early"):
        lst = [r for r in rows if r["set"] == st]
        shares = {}
        minor_d = {}
        gaps = []
        for r in lst:
            b = chess.Board(r["fen"])
            fs = b.turn  # FSF's side is to move in these sets
            mob = {fs: r["sides"]["Mobility"][0][0] * 2.13, (not fs): r["sides"]["Mobility"][1][0] * 2.13}
            p = r["phase"] / 128
            k_our = king_safety(b, not fs, mob)
            k_fsf = king_safety(b, fs, mob)
            for name in k_our["parts"]:
                a = D(k_our["kd"], p) - D(k_our["kd"] - k_our["parts"][name], p)
                c = D(k_fsf["kd"], p) - D(k_fsf["kd"] - k_fsf["parts"][name], p)
                shares.setdefault(name, []).append((a - c) * 100 / 213)
            shares.setdefault("= danger total", []).append((D(k_our["kd"], p) - D(k_fsf["kd"], p)) * 100 / 213)
            shares.setdefault("flank attacks (-8 each, mg)", []).append(
                8 * (k_our["flank_attack"] - k_fsf["flank_attack"]) * p * 100 / 213)
            shares.setdefault("shelter/storm (mg)", []).append((k_fsf["shelter"] - k_our["shelter"]) * p * 100 / 213)
            att = attack_maps(b)[0]
            mf, mo = minors(b, fs, att), minors(b, not fs, att)
            for k in mf:
                d = mf[k] - mo[k]
                minor_d.setdefault(k, []).append((d[0] * p + d[1] * (1 - p)) * 100 / 213)
            gaps.append(r["fsf_total"] - r["ours"]["main-pawns"])
        gaps = np.array(gaps)
        print(f"\n## {st}: {len(lst)} positions; FSF's side's view, cp")
        print("| part of FSF's king safety | mean share (our king's minus FSF's king's) | corr with gap |")
        print("|---|---|---|")
        for k, v in sorted(shares.items(), key=lambda kv: -abs(np.mean(kv[1]))):
            v = np.array(v)
            c = np.corrcoef(v, gaps)[0, 1] if v.std() > 0 else 0
            print(f"| {k} | {v.mean():+.1f} | {c:+.2f} |")
        print("| FSF minor-piece sub-term | mean (FSF's side minus ours) | corr with gap |")
        print("|---|---|---|")
        for k, v in minor_d.items():
            v = np.array(v)
            c = np.corrcoef(v, gaps)[0, 1] if v.std() > 0 else 0
            print(f"| {k} | {v.mean():+.1f} | {c:+.2f} |")


if __name__ == "__main__":
    main()
