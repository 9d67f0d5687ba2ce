#!/usr/bin/env python3
"""Pick the positions for the eval-gap study (7 Dec 2026).

For each game of the PGN: the first position where Fairy-Stockfish's search score
(the comment on its move, its view) is >= +2.00 while our previous search score (the
comment on our move just before, our view) was >= -0.30.  The position is the root
FSF searched: after our move, FSF to move.  "first" set.

"any2" set: the first position where FSF's search says >= +2.00, whatever ours said.
"early" set: the position 10 plies earlier (also FSF to move); if that one is in check,
or the move into it was a capture / promotion / check, step back 2 plies at a time
(at most 3 times) to find a quiet one (ply >= 2).

Output: TSV  set  game  ply  fen  fsf_search  our_prev_search  fsf_is_white
"all" set (--all): every third ply from ply 10 on whose move in and move out are not
captures, promotions or checks, mover's score under 10 pawns: a broad sample to fit on.
Here the "fsf_search" column is the mover's score, whoever moves.

Usage: gap_positions.py games.pgn [--all] > positions.tsv
"""
import re
import sys

import chess
import chess.pgn

SC = re.compile(r"^\s*([+-]?)(M?)(\d+(?:\.\d+)?)/")


def score(comment):
    m = SC.match(comment or "")
    if not m:
        return None
    sign = -1 if m.group(1) == "-" else 1
    if m.group(2) == "M":
        return sign * 100.0
    return sign * float(m.group(3))


def quiet(board, move_into):
    if board.is_check():
        return False
    if move_into is None:
        return True
    return True


ALL = False


def main():
    global ALL
    path = sys.argv[1]
    ALL = "--all" in sys.argv[2:]
    out = sys.stdout
    with open(path) as f:
        gi = 0
        while True:
            g = chess.pgn.read_game(f)
            if g is None:
                break
            gi += 1
            fsf_white = "stockfish" in g.headers["White"].lower()
            board = g.board()
            # lists indexed by ply (number of moves made before the position)
            fens = [board.fen()]
            moves = []
            scores = []  # score of the move played from position i (mover's view)
            noisy = [False]  # was the move INTO position i a capture/promo/check
            for node in g.mainline():
                mv = node.move
                cap = board.is_capture(mv) or mv.promotion is not None
                scores.append(score(node.comment))
                board.push(mv)
                moves.append(mv)
                fens.append(board.fen())
                noisy.append(cap or board.is_check())
            # mover of position i: start side if i even
            def fsf_to_move(i):
                white_to_move = (g.board().turn == chess.WHITE) == (i % 2 == 0)
                return white_to_move == fsf_white
            if ALL:
                for i in range(10, len(scores), 3):
                    if scores[i] is None or abs(scores[i]) >= 10 or noisy[i] or i + 1 >= len(fens):
                        continue
                    # the move played from i is quiet too (so static eval is near the search's world)
                    if noisy[i + 1]:
                        continue
                    out.write(f"all\t{gi}\t{i}\t{fens[i]}\t{scores[i]}\t{scores[i-1]}\t{int(fsf_white)}\n")
                continue
            any2 = None
            for i in range(1, len(scores)):
                if fsf_to_move(i) and scores[i] is not None and scores[i] >= 2.0:
                    any2 = i
                    break
            if any2 is not None:
                out.write(f"any2\t{gi}\t{any2}\t{fens[any2]}\t{scores[any2]}\t{scores[any2-1]}\t{int(fsf_white)}\n")
            found = None
            for i in range(1, len(scores)):
                if not fsf_to_move(i):
                    continue
                s, prev = scores[i], scores[i - 1]
                if s is None or prev is None:
                    continue
                if s >= 2.0 and prev >= -0.30:
                    found = i
                    break
            if found is None:
                continue
            out.write(f"first\t{gi}\t{found}\t{fens[found]}\t{scores[found]}\t{scores[found-1]}\t{int(fsf_white)}\n")
            j = found - 10
            for _ in range(4):
                if j < 2:
                    break
                b = chess.Board(fens[j])
                if not b.is_check() and not noisy[j]:
                    out.write(f"early\t{gi}\t{j}\t{fens[j]}\t{scores[j]}\t{scores[j-1]}\t{int(fsf_white)}\n")
                    break
                j -= 2


if __name__ == "__main__":
    main()
