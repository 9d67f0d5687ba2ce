#!/usr/bin/env python3
"""Static evals of the study's positions by our engines and Fairy-Stockfish 11.1.

Input: positions.tsv (gap_positions.py).  Output: evals.json, one record a row with
  set, game, ply, fen, fsf_search, our_prev, stm_is_fsf (always 1 here),
  ours[name] (our `eval`, internal units ~ centipawns, side to move's view),
  fsf_total (FSF `Total evaluation`, pawns*100 -> "cp", converted to side to move's view),
  terms{name: [mg, eg]} (FSF trace Total columns, pawns*100, side to move's view),
  phase (SF11 game phase 0..128 from non-pawn material), npm, queens.
FSF's "pawns" are internal/PawnValueEg(213) (its to_cp); ours are internal units where a
pawn is 86 MG / 90 EG.  Both are taken as "cp" by multiplying FSF by 100.

Usage: eval_positions.py positions.tsv evals.json
All engines are run under nice -n 19, one process each, every position fed in one go.
"""
import json
import re
import subprocess
import sys

import chess

OURS = {"main-pawns": "/work/keep/bin/main-pawns", "batch1": "/work/keep/bin/batch1"}
FSF = "/usr/games/fairy-stockfish"
TERMS = ["Material", "Imbalance", "Pawns", "Knights", "Bishops", "Rooks", "Queens",
         "Mobility", "King safety", "Threats", "Passed", "Space", "Initiative", "Variant", "Total"]


def run(cmd, fens):
    inp = "uci\n" + "".join(f"position fen {f}\neval\n" for f in fens) + "quit\n"
    r = subprocess.run(["nice", "-n", "19", cmd], input=inp, capture_output=True, text=True, timeout=300)
    return r.stdout


def ours(cmd, fens):
    out = run(cmd, fens)
    vals = [int(m) for m in re.findall(r"info string eval cp (-?\d+)", out)]
    assert len(vals) == len(fens), (cmd, len(vals), len(fens))
    return vals


def fsf(fens):
    out = run(FSF, fens)
    blocks = out.split("Total evaluation:")
    # block k (k < len(fens)) holds the trace of position k, block k+1 starts with its total
    res = []
    for k in range(len(fens)):
        trace = blocks[k]
        tot = blocks[k + 1].split("\n", 1)[0].strip()
        terms = {}
        sides = {}
        for line in trace.splitlines():
            if "|" not in line:
                continue
            parts = [p.strip() for p in line.split("|")]
            name = parts[0]
            if name not in TERMS:
                continue
            def pair(s):
                a = s.split()
                return [None if x.startswith("-" * 2) else float(x) for x in a]
            terms[name] = pair(parts[3])
            sides[name] = [pair(parts[1]), pair(parts[2])]
        if tot.startswith("none"):
            res.append((None, terms, sides))
        else:
            res.append((float(tot.split()[0]), terms, sides))
    return res


PV = {chess.KNIGHT: 781, chess.BISHOP: 825, chess.ROOK: 1276, chess.QUEEN: 2538}


def phase(board):
    npm = sum(PV[p] * len(board.pieces(p, c)) for p in PV for c in (chess.WHITE, chess.BLACK))
    npm_c = max(3915, min(npm, 15258))
    return ((npm_c - 3915) * 128) // (15258 - 3915), npm


def main():
    rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
    fens = sorted({r[3] for r in rows})
    ev = {n: dict(zip(fens, ours(c, fens))) for n, c in OURS.items()}
    fs = dict(zip(fens, fsf(fens)))
    out = []
    for r in rows:
        st, game, ply, fen, s, prev, fw = r
        b = chess.Board(fen)
        sgn = 1 if b.turn == chess.WHITE else -1
        tot, terms, sides = fs[fen]
        rec = dict(set=st, game=int(game), ply=int(ply), fen=fen,
                   fsf_search=float(s) * 100, our_prev=float(prev) * 100 if prev != "None" else None,
                   stm_is_fsf=int((b.turn == chess.WHITE) == (fw == "1")),
                   ours={n: ev[n][fen] for n in OURS},
                   fsf_total=None if tot is None else sgn * tot * 100,
                   terms={k: [None if x is None else sgn * x * 100 for x in v] for k, v in terms.items()},
                   # per side: [stm side [mg,eg], other side [mg,eg]]
                   sides={k: ([[None if x is None else x * 100 for x in v[0]], [None if x is None else x * 100 for x in v[1]]]
                              if sgn == 1 else
                              [[None if x is None else x * 100 for x in v[1]], [None if x is None else x * 100 for x in v[0]]])
                          for k, v in sides.items()},
                   in_check=b.is_check())
        ph, npm = phase(b)
        rec.update(phase=ph, npm=npm,
                   queens=len(b.pieces(chess.QUEEN, chess.WHITE)) + len(b.pieces(chess.QUEEN, chess.BLACK)),
                   material_cp=sgn * (sum((len(b.pieces(p, chess.WHITE)) - len(b.pieces(p, chess.BLACK))) * v
                                          for p, v in {1: 100, 2: 300, 3: 300, 4: 500, 5: 900}.items())))
        out.append(rec)
    json.dump(out, open(sys.argv[2], "w"), indent=0)


if __name__ == "__main__":
    main()
