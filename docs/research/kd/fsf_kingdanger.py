#!/usr/bin/env python3
"""Fairy-Stockfish 11.1's king safety for standard chess, re-implemented term by term.

Follows src/evaluate.cpp (Evaluation::initialize, ::pieces attack maps, ::king) and
src/pawns.cpp (evaluate_shelter, do_king_safety) at tag fairy_sf_11_1.  The one input it
does not compute is the middlegame mobility of each side (it is read from FSF's trace and
passed in, in FSF internal units).  Returns, for the king of colour `us`, the parts of
kingDanger (internal units) and the king-safety Score (mg, eg) they make, so it can be
checked against the trace's "King safety" entry for that side.

Usage as a script: fsf_kingdanger.py evals.json  (checks against the trace and prints the
mean of each part of kingDanger for our king and FSF's king at each set).
"""
import json
import sys

import chess

B = chess
KAW = {chess.KNIGHT: 81, chess.BISHOP: 52, chess.ROOK: 44, chess.QUEEN: 10}
SHELTER = [[-6, 81, 93, 58, 39, 18, 25], [-43, 61, 35, -49, -29, -11, -63],
           [-10, 75, 23, -2, 32, 3, -45], [-39, -13, -29, -52, -48, -67, -166]]
STORM = [[85, -289, -166, 97, 50, 45, 50], [46, -25, 122, 45, 37, -10, 20],
         [-6, 51, 168, 34, -2, -22, -14], [-15, -11, 101, 4, 11, -15, -29]]
QUEENSIDE = B.BB_FILE_A | B.BB_FILE_B | B.BB_FILE_C | B.BB_FILE_D
CENTERFILES = B.BB_FILE_C | B.BB_FILE_D | B.BB_FILE_E | B.BB_FILE_F
KINGSIDE = B.BB_FILE_E | B.BB_FILE_F | B.BB_FILE_G | B.BB_FILE_H
KINGFLANK = [QUEENSIDE ^ B.BB_FILE_D, QUEENSIDE, QUEENSIDE, CENTERFILES, CENTERFILES,
             KINGSIDE, KINGSIDE, KINGSIDE ^ B.BB_FILE_E]


def pc(b):
    return bin(b).count("1")


def rook_att(sq, occ):
    return (B.BB_RANK_ATTACKS[sq][B.BB_RANK_MASKS[sq] & occ]
            | B.BB_FILE_ATTACKS[sq][B.BB_FILE_MASKS[sq] & occ])


def bishop_att(sq, occ):
    return B.BB_DIAG_ATTACKS[sq][B.BB_DIAG_MASKS[sq] & occ]


def pawn_att(bb, color):
    if color == chess.WHITE:
        return ((bb & ~B.BB_FILE_A) << 7 | (bb & ~B.BB_FILE_H) << 9) & B.BB_ALL
    return ((bb & ~B.BB_FILE_A) >> 9 | (bb & ~B.BB_FILE_H) >> 7)


def pawn_double_att(bb, color):
    if color == chess.WHITE:
        return ((bb & ~B.BB_FILE_A) << 7) & ((bb & ~B.BB_FILE_H) << 9) & B.BB_ALL
    return ((bb & ~B.BB_FILE_A) >> 9) & ((bb & ~B.BB_FILE_H) >> 7)


def blockers_for_king(board, c):
    """Pieces of either colour that alone stand between c's king and an enemy slider."""
    k = board.king(c)
    if k is None:
        return 0
    them = not c
    occ = board.occupied
    rq = board.pieces_mask(chess.ROOK, them) | board.pieces_mask(chess.QUEEN, them)
    bq = board.pieces_mask(chess.BISHOP, them) | board.pieces_mask(chess.QUEEN, them)
    snipers = (rook_att(k, 0) & rq) | (bishop_att(k, 0) & bq)
    snipers &= ~((rook_att(k, occ) & rq) | (bishop_att(k, occ) & bq))
    occ2 = occ ^ snipers
    out = 0
    for s in chess.scan_forward(snipers):
        b = B.between(k, s) & occ2
        if b and pc(b) == 1:
            out |= b
    return out


def attack_maps(board):
    """attackedBy[c][pt] (pt 0 = all), attackedBy2[c], per-side king-ring bookkeeping."""
    occ = board.occupied
    queens = board.pieces_mask(chess.QUEEN, True) | board.pieces_mask(chess.QUEEN, False)
    att = {c: {} for c in (True, False)}
    att2 = {}
    ring = {}
    ring_info = {}
    blockers = {c: blockers_for_king(board, c) for c in (True, False)}
    for c in (True, False):
        k = board.king(c)
        pawns = board.pieces_mask(chess.PAWN, c)
        att[c][chess.KING] = B.BB_KING_ATTACKS[k]
        att[c][chess.PAWN] = pawn_att(pawns, c)
        att[c][0] = att[c][chess.KING] | att[c][chess.PAWN]
        att2[c] = (att[c][chess.KING] & att[c][chess.PAWN]) | pawn_double_att(pawns, c)
    for c in (True, False):
        k = board.king(c)
        f = min(max(chess.square_file(k), 1), 6)
        r = min(max(chess.square_rank(k), 1), 6)
        s = chess.square(f, r)
        ring[c] = (B.BB_KING_ATTACKS[s] | B.BB_SQUARES[s]) & ~pawn_double_att(board.pieces_mask(chess.PAWN, c), c)
        # kingAttackersCount[Them] starts from their pawn attacks on our ring (before the removal)
        ring_full = B.BB_KING_ATTACKS[s] | B.BB_SQUARES[s]
        ring_info[not c] = {"count": pc(ring_full & att[not c][chess.PAWN]), "weight": 0, "attacks": 0}
    for pt in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN):
        for c in (True, False):
            att[c][pt] = 0
            for s in board.pieces(pt, c):
                if pt == chess.BISHOP:
                    b = bishop_att(s, occ ^ queens)
                elif pt == chess.ROOK:
                    b = rook_att(s, occ ^ queens ^ board.pieces_mask(chess.ROOK, c))
                elif pt == chess.KNIGHT:
                    b = B.BB_KNIGHT_ATTACKS[s]
                else:
                    b = rook_att(s, occ) | bishop_att(s, occ)
                if blockers[c] & B.BB_SQUARES[s]:
                    b &= B.ray(board.king(c), s)
                att2[c] |= att[c][0] & b
                att[c][pt] |= b
                att[c][0] |= b
                if b & ring[not c]:
                    ri = ring_info[c]
                    ri["count"] += 1
                    ri["weight"] += KAW[pt]
                    ri["attacks"] += pc(b & att[not c][chess.KING])
    return att, att2, ring, ring_info, blockers


def shelter_at(board, us, ksq):
    them = not us
    # pawns not behind the king (forward_ranks_bb(Them, ksq) = ranks behind ksq for us)
    kr = chess.square_rank(ksq)
    if us:
        behind = sum(B.BB_RANKS[r] for r in range(0, kr))
    else:
        behind = sum(B.BB_RANKS[r] for r in range(kr + 1, 8))
    pawns = (board.pieces_mask(chess.PAWN, True) | board.pieces_mask(chess.PAWN, False)) & ~behind
    ours_ = pawns & board.occupied_co[us]
    theirs = pawns & board.occupied_co[them]
    mg = 5
    center = min(max(chess.square_file(ksq), 1), 6)

    def rel(sq):
        r = chess.square_rank(sq)
        return r if us else 7 - r

    for f in range(center - 1, center + 2):
        b = ours_ & B.BB_FILES[f]
        # frontmost_sq(Them, b): the one nearest our own back rank
        our_rank = min(rel(s) for s in chess.scan_forward(b)) if b else 0
        b = theirs & B.BB_FILES[f]
        their_rank = min(rel(s) for s in chess.scan_forward(b)) if b else 0
        d = min(f, 7 - f, 3)
        mg += SHELTER[d][our_rank]
        if our_rank and our_rank == their_rank - 1:
            mg -= 82 * int(their_rank == 2)
        else:
            mg -= STORM[d][their_rank]
    return mg


def shelter_mg(board, us):
    ksq = board.king(us)
    best = shelter_at(board, us, ksq)
    rank = 0 if us else 7
    if board.has_kingside_castling_rights(us):
        best = max(best, shelter_at(board, us, chess.square(6, rank)))
    if board.has_queenside_castling_rights(us):
        best = max(best, shelter_at(board, us, chess.square(2, rank)))
    return best


def king_safety(board, us, mob_mg):
    """mob_mg: {color: FSF middlegame mobility in internal units}."""
    them = not us
    att, att2, ring, ring_info, blockers = attack_maps(board)
    ksq = board.king(us)
    occ = board.occupied
    sh = shelter_mg(board, us)
    weak = att[them][0] & ~att2[us] & (~att[us][0] | att[us][chess.KING] | att[us][chess.QUEEN])
    safe = ~board.occupied_co[them] & (~att[us][0] | (weak & att2[them])) & B.BB_ALL
    ourq = board.pieces_mask(chess.QUEEN, us)
    b1 = rook_att(ksq, occ ^ ourq)
    b2 = bishop_att(ksq, occ ^ ourq)
    parts = {}
    unsafe = 0
    qc = (b1 | b2) & att[them][chess.QUEEN] & safe & ~att[us][chess.QUEEN] & ~(b1 & att[them][chess.ROOK])
    parts["safe check Q"] = 780 if qc else 0
    for pt, bb, val in ((chess.ROOK, b1, 1080), (chess.BISHOP, b2, 635),
                        (chess.KNIGHT, B.BB_KNIGHT_ATTACKS[ksq], 790)):
        ch = bb & att[them][pt]
        if ch & safe:
            parts[f"safe check {chess.piece_symbol(pt).upper()}"] = val
        else:
            parts[f"safe check {chess.piece_symbol(pt).upper()}"] = 0
            unsafe |= ch
    kf = chess.square_file(ksq)
    flank = KINGFLANK[kf]
    camp = sum(B.BB_RANKS[r] for r in (range(0, 5) if us else range(3, 8)))
    fb1 = att[them][0] & flank & camp
    fb2 = fb1 & att2[them]
    fb3 = att[us][0] & flank & camp
    flank_attack = pc(fb1) + pc(fb2)
    ri = ring_info[them]
    parts["attackers count*weight"] = ri["count"] * ri["weight"]
    parts["weak ring squares *185"] = 185 * pc(ring[us] & weak)
    parts["unsafe checks *148"] = 148 * pc(unsafe)
    parts["king blockers (pins) *98"] = 98 * pc(blockers[us])
    parts["attacks next to king *69"] = 69 * ri["attacks"]
    parts["flank attack^2 *3/8"] = 3 * flank_attack * flank_attack // 8
    parts["mobility diff (mg)"] = mob_mg[them] - mob_mg[us]
    parts["no enemy queen -873"] = -873 * int(not board.pieces_mask(chess.QUEEN, them))
    parts["knight defender -100"] = -100 * int(bool(att[us][chess.KNIGHT] & att[us][chess.KING]))
    parts["shelter feedback -6/8"] = -6 * sh // 8  # C++ division truncates toward 0
    if sh < 0:
        parts["shelter feedback -6/8"] = int(-6 * sh / 8)
    parts["flank defense -4"] = -4 * pc(fb3)
    parts["constant +37"] = 37
    kd = sum(parts.values())
    mg = sh
    eg = 5  # shelter eg part (5) minus the distance to the nearest own pawn, below
    pawns = board.pieces_mask(chess.PAWN, us)
    mpd = 0
    if pawns:
        mpd = 1 if pawns & B.BB_KING_ATTACKS[ksq] else min(chess.square_distance(ksq, s) for s in chess.scan_forward(pawns))
    eg -= 16 * mpd
    danger_mg = min(kd * kd // 4096, 3000) if kd > 100 else 0
    danger_eg = kd // 16 if kd > 100 else 0
    mg -= danger_mg
    eg -= danger_eg
    pawnless = not ((board.pieces_mask(chess.PAWN, True) | board.pieces_mask(chess.PAWN, False)) & flank)
    if pawnless:
        mg -= 17
        eg -= 95
    mg -= 8 * flank_attack
    return dict(kd=kd, parts=parts, shelter=sh, danger_mg=danger_mg, danger_eg=danger_eg,
                flank_attack=flank_attack, pawnless=pawnless, mg=mg, eg=eg)


def main():
    rows = json.load(open(sys.argv[1]))
    import numpy as np
    sets = {}
    for r in rows:
        if r["fsf_total"] is None:
            continue
        b = chess.Board(r["fen"])
        stm = b.turn
        # sides[...][0] is the side to move's entry (cp = pawns*100); FSF internal = cp*213/100
        mob = {stm: r["sides"]["Mobility"][0][0] * 2.13, (not stm): r["sides"]["Mobility"][1][0] * 2.13}
        out = {}
        for who, col in (("stm", stm), ("other", not stm)):
            ks = king_safety(b, col, mob)
            idx = 0 if who == "stm" else 1
            trace = r["sides"]["King safety"][idx]
            ks["trace_mg"] = trace[0] * 2.13
            ks["trace_eg"] = trace[1] * 2.13
            out[who] = ks
        sets.setdefault(r["set"], []).append((r, out))
    for s, lst in sets.items():
        err = [abs(o[w]["mg"] - o[w]["trace_mg"]) for _, o in lst for w in ("stm", "other")]
        print(f"\n## {s}: {len(lst)} positions; |computed mg - trace mg| (internal): median {np.median(err):.1f}, "
              f"90% {np.percentile(err, 90):.1f}, max {max(err):.0f}")
        # the side to move is FSF's at first/any2/early; 'other' is our king
        for who, label in (("other", "our king (FSF attacking)"), ("stm", "FSF's king (we attack)")):
            kd = [o[who]["kd"] for _, o in lst]
            dm = [o[who]["danger_mg"] for _, o in lst]
            print(f"{label}: kingDanger median {np.median(kd):.0f}, mean {np.mean(kd):.0f}; "
                  f"danger mg (internal) median {np.median(dm):.0f}, mean {np.mean(dm):.0f} "
                  f"(= {np.mean(dm) / 2.13:.0f} cp); shelter mg mean {np.mean([o[who]['shelter'] for _, o in lst]):.0f}; "
                  f"flank attack mean {np.mean([o[who]['flank_attack'] for _, o in lst]):.1f}")
            keys = list(lst[0][1][who]["parts"].keys())
            print("  parts of kingDanger (mean): " + ", ".join(
                f"{k} {np.mean([o[who]['parts'][k] for _, o in lst]):+.0f}" for k in keys))


if __name__ == "__main__":
    main()
