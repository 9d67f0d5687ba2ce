#!/usr/bin/env python3
"""Independent perft for Wild Rose Chess (shared/rules/wildrose.md). Used to verify
fixtures/perft/wildrose.perft and the counts in tests/wildrose.rs. Not run by `cargo test`; pure
Python 3, no packages.

    python3 tests/support/wildrose_perft.py [--divide] 'FEN' DEPTH
    python3 tests/support/wildrose_perft.py --turns 'FEN'        list the legal turns with verdicts

It shares no code or tables with the engine: the rules are written out below from the spec (the
TOML file is not read). Perft counts complete legal turns; a position reached by a finishing turn
has no turns (C-1: the FEN's own position is never judged). Turns print in canonical notation:
`e2e4`; growing roses `e7e8=b8 a2a3` (`e7e8 a2a3` with nothing to convert, `e7e8=b8` with no extra
move, `e7e8=b8 g7g8=c6 a2a3` when the extra move promotes again).

Rules implemented (wildrose.md sections 2-6, 8, clarifications C-1..C-4):
  - Wild Rose W: queen; never captured (no move onto an enemy Rose; a Rose stops rides).
  - Raven V: rook + nightrider. Nightrider N: knight vectors repeated, every landing square before
    the last empty. Crusader U: bishop + dabbaba-rider (landing squares S+2e, S+4e, ...; the odd
    squares are jumped whatever stands there).
  - Pawn P: FIDE pawn: 1 forward, 2 forward from its 2nd rank through an empty square, diagonal
    capture, e.p. on the next turn only (as the first move of that turn, never as the extra move
    of a growing-roses turn, A-5).
  - Growing roses: a pawn reaching the last rank leaves the board (with what it captured there);
    one choice per enemy non-Rose unit to become an enemy Rose (no choice if there is none); then
    one extra pseudo-legal move of the same side if any exists, recursively.
  - Legality: every pseudo-legal move; a turn whose final position (placement, side to move, e.p.
    target if a pawn of the side to move stands diagonally behind it) occurred before in the game
    (the FEN's position included) is illegal.
  - After each completed turn, in order: mover attacks >= 2 enemy Roses -> mover wins; >= 2 own
    Roses attacked -> mover wins; opponent has only Roses -> mover wins; >= 1 own Rose attacked ->
    mover loses. Attacks count Roses as capturable; pawns attack diagonally only.
  - No legal turn: draw (stalemate).
"""
import sys

ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
DABBABA = [(2, 0), (-2, 0), (0, 2), (0, -2)]

# Rides of each piece type (upper case): lists of direction vectors.
RIDES = {
    "W": ORTH + DIAG,
    "V": ORTH + KNIGHT,
    "N": KNIGHT,
    "U": DIAG + DABBABA,
}


def sqname(s):
    return "abcdefgh"[s % 8] + str(s // 8 + 1)


def parse_sq(t):
    return (ord(t[0]) - 97) + 8 * (int(t[1:]) - 1)


def white(p):
    return p.isupper()


def is_rose(p):
    return p in "Ww"


class Pos:
    """board: list of 64 (None or letter), index file + 8 * rank; side 'w'/'b'; ep: target square
    or None (kept only if a pawn of the side to move can take there)."""

    def __init__(self, board, side, ep):
        self.board = board
        self.side = side
        self.ep = ep

    def key(self):
        return (tuple(self.board), self.side, self.ep)

    def copy(self):
        return Pos(self.board[:], self.side, self.ep)


def ep_usable(board, side, target):
    """Can a pawn of `side` capture onto `target` (it stands diagonally behind it)?"""
    f, r = target % 8, target // 8
    dy = -1 if side == "w" else 1
    pawn = "P" if side == "w" else "p"
    for dx in (-1, 1):
        x, y = f + dx, r + dy
        if 0 <= x < 8 and 0 <= y < 8 and board[x + 8 * y] == pawn:
            return True
    return False


def parse_fen(fen):
    parts = fen.split()
    rows = parts[0].split("/")
    assert len(rows) == 8
    board = [None] * 64
    for i, row in enumerate(rows):
        rank = 7 - i
        f = 0
        num = ""
        for c in row:
            if c.isdigit():
                num += c
                continue
            if num:
                f += int(num)
                num = ""
            assert c.upper() in "PNUVW", c
            board[f + 8 * rank] = c
            f += 1
        if num:
            f += int(num)
        assert f == 8, row
    side = parts[1]
    ep = None
    if len(parts) > 3 and parts[3] != "-":
        t = parse_sq(parts[3])
        # Kept only if a pawn of the side to move stands diagonally behind it (C-3) and the
        # square behind the target is where an enemy pawn that just double-stepped stands.
        victim = t + (-8 if side == "w" else 8)
        enemy_pawn = "p" if side == "w" else "P"
        if board[victim] == enemy_pawn and board[t] is None and ep_usable(board, side, t):
            ep = t
    return Pos(board, side, ep)


def pseudo_moves(pos, side, allow_ep):
    """Pseudo-legal moves of `side`: (from, to, kind) with kind None, 'double', 'ep'."""
    b = pos.board
    us_white = side == "w"
    out = []
    for s in range(64):
        p = b[s]
        if p is None or white(p) != us_white:
            continue
        f, r = s % 8, s // 8
        u = p.upper()
        if u == "P":
            dy = 1 if us_white else -1
            y = r + dy
            if 0 <= y < 8:
                t = f + 8 * y
                if b[t] is None:
                    out.append((s, t, None))
                    start = 1 if us_white else 6
                    if r == start and b[t + 8 * dy] is None:
                        out.append((s, t + 8 * dy, "double"))
                for dx in (-1, 1):
                    x = f + dx
                    if not 0 <= x < 8:
                        continue
                    t = x + 8 * y
                    q = b[t]
                    if q is not None:
                        if white(q) != us_white and not is_rose(q):
                            out.append((s, t, None))
                    elif allow_ep and pos.ep == t:
                        out.append((s, t, "ep"))
            continue
        for dx, dy in RIDES[u]:
            x, y = f + dx, r + dy
            while 0 <= x < 8 and 0 <= y < 8:
                t = x + 8 * y
                q = b[t]
                if q is None:
                    out.append((s, t, None))
                else:
                    if white(q) != us_white and not is_rose(q):
                        out.append((s, t, None))
                    break
                x += dx
                y += dy
    return out


def attacked(board, target, by_white):
    """Is `target` attacked by the side `by_white`, as if whatever stands there were capturable?"""
    f, r = target % 8, target // 8
    # Pawns: diagonal only.
    dy = -1 if by_white else 1
    pawn = "P" if by_white else "p"
    for dx in (-1, 1):
        x, y = f + dx, r + dy
        if 0 <= x < 8 and 0 <= y < 8 and board[x + 8 * y] == pawn:
            return True
    for u, vecs in RIDES.items():
        letter = u if by_white else u.lower()
        for dx, dy in vecs:
            # Walk backwards from the target along -v: the first piece met must be `letter`.
            x, y = f - dx, r - dy
            while 0 <= x < 8 and 0 <= y < 8:
                q = board[x + 8 * y]
                if q is not None:
                    if q == letter:
                        return True
                    break
                x -= dx
                y -= dy
    return False


def attacked_roses(board, owner_white):
    rose = "W" if owner_white else "w"
    return sum(1 for s in range(64) if board[s] == rose and attacked(board, s, not owner_white))


def verdict(pos):
    """Verdict after a completed turn by the side that is not to move: None or (winner, reason)."""
    mover_white = pos.side == "b"
    mover = "w" if mover_white else "b"
    opp = "b" if mover_white else "w"
    b = pos.board
    if attacked_roses(b, not mover_white) >= 2:
        return (mover, "checkmate")
    if attacked_roses(b, mover_white) >= 2:
        return (mover, "blossom")
    if all(q is None or white(q) != (not mover_white) or is_rose(q) for q in b):
        return (mover, "fading")
    if attacked_roses(b, mover_white) >= 1:
        return (opp, "cutting")
    return None


def apply(board, mv):
    """Plays one ordinary move on a board copy; returns the new board."""
    s, t, kind = mv
    nb = board[:]
    nb[t] = nb[s]
    nb[s] = None
    if kind == "ep":
        nb[t + (-8 if white(board[s]) else 8)] = None
    return nb


def sub_moves(board, side, ep, first):
    """Yields (text, board, last_move) for every way to play the rest of a turn: one pseudo-legal
    move, growing roses expanded recursively. `last_move` is the final ordinary move."""
    pos = Pos(board, side, ep)
    last_rank = 7 if side == "w" else 0
    for mv in pseudo_moves(pos, side, first):
        s, t, kind = mv
        text = sqname(s) + sqname(t)
        nb = apply(board, mv)
        if board[s].upper() == "P" and t // 8 == last_rank:
            nb[t] = None  # the pawn leaves the board (with what it captured there)
            them_white = side == "b"
            targets = [q for q in range(64) if nb[q] is not None and white(nb[q]) == them_white and not is_rose(nb[q])]
            choices = [(q, "W" if them_white else "w") for q in targets] or [None]
            for ch in choices:
                cb = nb[:]
                t1 = text
                if ch is not None:
                    cb[ch[0]] = ch[1]
                    t1 += "=" + sqname(ch[0])
                rest = list(sub_moves(cb, side, None, False))
                if not rest:
                    yield (t1, cb, None)
                for t2, b2, last in rest:
                    yield (t1 + " " + t2, b2, last)
        else:
            yield (text, nb, mv)


def turns(pos, history):
    """Legal turns: list of (text, resulting Pos). `history` is the set of earlier keys."""
    out = []
    other = "b" if pos.side == "w" else "w"
    for text, nb, last in sub_moves(pos.board, pos.side, pos.ep, True):
        ep = None
        if last is not None and last[2] == "double":
            t = (last[0] + last[1]) // 2
            if ep_usable(nb, other, t):
                ep = t
        np = Pos(nb, other, ep)
        if np.key() in history:
            continue
        out.append((text, np))
    return out


def perft(pos, depth, history, judged):
    if depth == 0:
        return 1
    if judged and verdict(pos) is not None:
        return 0
    key = pos.key()
    history.add(key)
    n = 0
    ts = turns(pos, history)
    if depth == 1:
        n = len(ts)
    else:
        for _, np in ts:
            n += perft(np, depth - 1, history, True)
    history.discard(key)
    return n


def main(argv):
    divide = "--divide" in argv
    args = [a for a in argv if a != "--divide"]
    if args and args[0] == "--turns":
        pos = parse_fen(args[1])
        hist = {pos.key()}
        ts = turns(pos, hist)
        for text, np in sorted(ts):
            print(text, verdict(np) or "-")
        print("turns", len(ts))
        return
    fen, depth = args[0], int(args[1])
    pos = parse_fen(fen)
    if divide:
        hist = {pos.key()}
        total = 0
        rows = []
        for text, np in turns(pos, hist):
            n = perft(np, depth - 1, hist, True)
            rows.append((text, n))
            total += n
        for text, n in sorted(rows):
            print(text, n)
        print("nodes", total)
    else:
        print("nodes", perft(pos, depth, set(), False))


if __name__ == "__main__":
    main(sys.argv[1:])
