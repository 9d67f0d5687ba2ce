#!/usr/bin/env python3
"""SF11 / FSF 11.1 threats() for chess, split in sub-terms (internal Score per side), on top of
fsf_kingdanger.attack_maps.  check: sum equals the trace's per-side Threats."""
import os
import sys
import chess
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'kd'))
from fsf_kingdanger import attack_maps, pawn_att, pc, rook_att, bishop_att
B = chess
TBM = [(0, 0), (6, 32), (59, 41), (79, 56), (90, 119), (79, 161)]
TBR = [(0, 0), (3, 44), (38, 71), (38, 61), (0, 38), (51, 38)]
SUB = ['minor>P', 'minor>minor', 'minor>R', 'minor>Q', 'rook>P', 'rook>minor', 'rook>Q', 'king', 'hanging',
       'restricted', 'safe pawn', 'pawn push', 'knight on queen', 'slider on queen']
W = dict(hanging=(69, 36), restricted=(7, 7), **{'safe pawn': (173, 94), 'pawn push': (48, 39),
         'knight on queen': (16, 12), 'slider on queen': (59, 18), 'king': (24, 89)})

def threats(board, maps=None):
    att, att2, ring, ri, blockers = maps or attack_maps(board)
    occ = board.occupied
    out = {}
    for us in (True, False):
        th = not us
        parts = {k: [0, 0] for k in SUB}
        def add(k, sc, n=1):
            parts[k][0] += sc[0] * n; parts[k][1] += sc[1] * n
        them_p = board.occupied_co[th]
        npe = them_p & ~board.pieces_mask(B.PAWN, th)
        strong = att[th][B.PAWN] | (att2[th] & ~att2[us])
        defended = npe & strong
        weak = them_p & ~strong & att[us][0]
        for s in B.SquareSet((defended | weak) & (att[us][B.KNIGHT] | att[us][B.BISHOP])):
            pt = board.piece_type_at(s)
            if pt == B.KING: continue
            add({1: 'minor>P', 2: 'minor>minor', 3: 'minor>minor', 4: 'minor>R', 5: 'minor>Q'}[pt], TBM[pt])
        for s in B.SquareSet(weak & att[us][B.ROOK]):
            pt = board.piece_type_at(s)
            if pt == B.KING: continue
            add({1: 'rook>P', 2: 'rook>minor', 3: 'rook>minor', 4: 'rook>minor', 5: 'rook>Q'}[pt], TBR[pt])
        if weak & att[us][B.KING]: add('king', W['king'])
        b = (~att[th][0] & B.BB_ALL) | (npe & att2[us])
        add('hanging', W['hanging'], pc(weak & b))
        add('restricted', W['restricted'], pc(att[th][0] & ~strong & att[us][0]))
        safe = (~att[th][0] & B.BB_ALL) | att[us][0]
        add('safe pawn', W['safe pawn'], pc(pawn_att(board.pieces_mask(B.PAWN, us) & safe, us) & npe))
        up = 8 if us else -8
        sh = lambda x: ((x << 8) & B.BB_ALL) if us else (x >> 8)
        b = sh(board.pieces_mask(B.PAWN, us)) & ~occ
        b |= sh(b & (B.BB_RANK_3 if us else B.BB_RANK_6)) & ~occ
        b &= ~att[th][B.PAWN] & safe
        add('pawn push', W['pawn push'], pc(pawn_att(b, us) & npe))
        qs = board.pieces_mask(B.QUEEN, th)
        if pc(qs) == 1:
            s = qs.bit_length() - 1
            low = B.BB_RANK_2 | B.BB_RANK_3 if us else B.BB_RANK_7 | B.BB_RANK_6
            pw = board.pieces_mask(B.PAWN, us)
            blocked = pw & ((occ >> 8) if us else ((occ << 8) & B.BB_ALL))
            mob_area = B.BB_ALL & ~((pw & (blocked | low)) | board.pieces_mask(B.KING, us) | board.pieces_mask(B.QUEEN, us)
                                    | blockers[us] | att[th][B.PAWN])
            sf = mob_area & ~strong
            add('knight on queen', W['knight on queen'], pc(att[us][B.KNIGHT] & B.BB_KNIGHT_ATTACKS[s] & sf))
            b = (att[us][B.BISHOP] & bishop_att(s, occ)) | (att[us][B.ROOK] & rook_att(s, occ))
            add('slider on queen', W['slider on queen'], pc(b & sf & att2[us]))
        out[us] = parts
    return out

if __name__ == '__main__':
    import json
    rows = json.load(open(sys.argv[1]))[:300]
    bad = 0
    for r in rows:
        if r['fsf_total'] is None or 'Threats' not in r['sides']: continue
        b = chess.Board(r['fen']); t = threats(b)
        for k, c in ((0, b.turn), (1, not b.turn)):
            mg = sum(v[0] for v in t[c].values()) * 100 / 213; eg = sum(v[1] for v in t[c].values()) * 100 / 213
            tr = r['sides']['Threats'][k]
            if abs(mg - tr[0]) > 1.5 or abs(eg - tr[1]) > 1.5:
                bad += 1
                if bad < 5: print(r['fen'], k, mg, eg, tr)
    print('mismatches', bad)
