#!/usr/bin/env python3
"""Independent perft for Pillage (shared/rules/pillage.md) and for the example user variants of
fixtures/variants/examples/ (nightrider-cannons, minicannon). Used to verify
fixtures/perft/pillage.perft and the counts in tests/pillage.rs and tests/user_variants.rs.
Not run by `cargo test`; pure Python 3, no packages.

    python3 tests/support/pillage_perft.py [--variant NAME] [--divide] 'FEN' DEPTH
    python3 tests/support/pillage_perft.py [--variant NAME] --moves 'FEN'

It shares no code or tables with the engine: the rules are written out below from the spec (the
TOML files are not read). Moves print in canonical notation: `e2e4`, promotion `e8e10q`, castling
as the king move except the 1-square castlings, written rook-onto-king (`i2f2`, `b2f2`).

Rules implemented (pillage.md sections 2-7 and clarifications C-1..C-3):
  - Cannon C / Vao V: rook / bishop moves without capturing; capture by hopping exactly one screen
    of either colour onto the first piece beyond, which must be an enemy.
  - Super pawn S: to S+d and S+2d for d in N, NE, NW, E, W (owner-relative), empty or enemy;
    jumps; never e.p.; promotes on r = 10.
  - Fast pawn P: 1 forward, or 2 forward through an empty square, from any rank; captures one
    diagonally forward; e.p. after every non-promoting double step, by an enemy fast pawn beside the
    landing square, on the next turn only; promotes on r = 10 to Q R B N C V.
  - Castling: king f2/f9, rooks b/i on that rank; king steps 1-3 towards the i-rook, 1-4 towards
    the b-rook, the rook lands next to the king on the centre side; squares between king and rook
    empty; king not in check; each square strictly between the king's origin and destination
    tested with the king there and the rook at home; destination tested in the final position.
  - Rights (C-3): K/Q in a FEN = the rook on its start square east/west of the king (i2/b2),
    dropped unless the king and that rook stand on their start squares; any king move clears
    both; a move from or onto a rook's square clears that right.

The other two games (`--variant nightrider-cannons`, `--variant minicannon`) reuse the same
machinery with their own piece lists below: nightriders ride the knight's leap, pawns double-step
from rank 2 only (nightrider-cannons) or never (minicannon), castling is the king two squares
towards the rook with the rook landing on the square it crossed (nightrider-cannons only).
"""
import sys

QUIET, CAPTURE, BOTH = 1, 2, 3

ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]


class Piece:
    """Movement of one piece type, as White sees it (Black mirrors dy).

    leaps: [(dx, dy, mode)]; rides: [(dx, dy)] (move and capture); hops: [(dx, dy)] (cannon-style:
    ride without capturing, capture over one screen).  pawn: None, 'fast' (any-rank double step),
    'fide' (double step from rank 2 only) or 'single' (no double step): forward pushes and e.p. are
    coded apart."""

    def __init__(self, leaps=(), rides=(), hops=(), pawn=None, promotes=False):
        self.leaps = list(leaps)
        self.rides = list(rides)
        self.hops = list(hops)
        self.pawn = pawn
        self.promotes = promotes


# The pieces the games share, each the same movement wherever it stands.
KING = Piece(leaps=[(x, y, BOTH) for x, y in ORTH + DIAG])
QUEEN = Piece(rides=ORTH + DIAG)
ROOK = Piece(rides=ORTH)
BISHOP = Piece(rides=DIAG)
NIGHTRIDER = Piece(rides=KNIGHT)
CANNON = Piece(hops=ORTH)


def pawn(kind):
    """A pawn capturing one square diagonally forward; `kind` is how it pushes (see Piece)."""
    return Piece(leaps=[(1, 1, CAPTURE), (-1, 1, CAPTURE)], pawn=kind, promotes=True)


def pillage():
    super_pawn = [(0, 1), (0, 2), (1, 1), (-1, 1), (2, 2), (-2, 2), (1, 0), (-1, 0), (2, 0), (-2, 0)]
    return dict(
        name="pillage",
        files=10,
        ranks=10,
        pieces={
            "K": KING,
            "Q": QUEEN,
            "R": ROOK,
            "B": BISHOP,
            "N": Piece(leaps=[(x, y, BOTH) for x, y in KNIGHT]),
            "C": CANNON,
            "V": Piece(hops=DIAG),
            "S": Piece(leaps=[(x, y, BOTH) for x, y in super_pawn], promotes=True),
            "P": pawn("fast"),
        },
        promo_choices="QRBNCV",
        castle_steps={1: [1, 2, 3, 4], -1: [1, 2, 3, 4]},
        rook="R",
        start="cv6vc/srnbqkbnrs/pppppppppp/10/10/10/10/PPPPPPPPPP/SRNBQKBNRS/CV6VC w KQkq - 0 1",
    )


def nightrider_cannons():
    """fixtures/variants/examples/nightrider-cannons.toml, re-stated: N = nightrider (NN)."""
    return dict(
        name="nightrider-cannons",
        files=10,
        ranks=10,
        pieces={
            "K": KING,
            "Q": QUEEN,
            "R": ROOK,
            "B": BISHOP,
            "N": NIGHTRIDER,
            "C": CANNON,
            "P": pawn("fide"),
        },
        promo_choices="QRBNC",
        castle_steps={1: [2], -1: [2]},
        rook="R",
        start="rcnbqkbncr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RCNBQKBNCR w KQkq - 0 1",
    )


def minicannon():
    """fixtures/variants/examples/minicannon.toml, re-stated: 6x6, no castling, single-step pawns."""
    return dict(
        name="minicannon",
        files=6,
        ranks=6,
        pieces={
            "K": KING,
            "R": ROOK,
            "N": NIGHTRIDER,
            "C": CANNON,
            "P": pawn("single"),
        },
        promo_choices="RNC",
        castle_steps=None,
        rook="R",
        start="rnckcr/pppppp/6/6/PPPPPP/RNCKCR w - - 0 1",
    )


VARIANTS = {"pillage": pillage, "nightrider-cannons": nightrider_cannons, "minicannon": minicannon}


class Game:
    def __init__(self, var):
        self.v = var
        self.F, self.R = var["files"], var["ranks"]
        b = self.parse_board_only(var["start"])
        self.home = (b.index("K"), b.index("k"))

    # ----- squares -----
    def sq(self, f, r):
        return r * self.F + f

    def fr(self, s):
        return s % self.F, s // self.F

    def name(self, s):
        f, r = self.fr(s)
        return "%s%d" % (chr(97 + f), r + 1)

    def on(self, f, r):
        return 0 <= f < self.F and 0 <= r < self.R

    @staticmethod
    def white(p):
        return p.isupper()

    @staticmethod
    def color(p):
        return 0 if p.isupper() else 1

    def rel_rank(self, r, color):
        return r + 1 if color == 0 else self.R - r

    # ----- FEN -----
    def parse(self, fen):
        parts = fen.split()
        board = self.parse_board_only(fen)
        side = 0 if parts[1] == "w" else 1
        homes = self.home
        rights = set()
        if self.v["castle_steps"]:
            for c in parts[2] if parts[2] != "-" else "":
                color = 0 if c.isupper() else 1
                home = homes[color]
                king = "K" if color == 0 else "k"
                if board[home] != king:
                    continue
                kf, kr = self.fr(home)
                # C-3: the right's rook is the outermost rook of the start position on that side of
                # the king; the flag is dropped unless a rook of this colour stands there now.
                rook = self.v["rook"] if color == 0 else self.v["rook"].lower()
                start = self.parse_board_only(self.v["start"])
                files = range(self.F - 1, kf, -1) if c.upper() == "K" else range(0, kf)
                for f in files:
                    if start[self.sq(f, kr)] == rook:
                        if board[self.sq(f, kr)] == rook:
                            rights.add((color, self.sq(f, kr)))
                        break
        ep = None
        if len(parts) > 3 and parts[3] != "-":
            f = ord(parts[3][0]) - 97
            r = int(parts[3][1:]) - 1
            mover = 1 - side
            d = 1 if mover == 0 else -1
            ep = (self.sq(f, r), self.sq(f, r + d))
        return [board, side, frozenset(rights), ep]

    def parse_board_only(self, fen):
        """The board of a FEN's first field, which must fill the board exactly."""
        rows = fen.split()[0].split("/")
        assert len(rows) == self.R, fen
        board = ["."] * (self.F * self.R)
        for i, row in enumerate(rows):
            r = self.R - 1 - i
            f = 0
            num = ""
            for ch in row + " ":
                if ch.isdigit():
                    num += ch
                    continue
                if num:
                    f += int(num)
                    num = ""
                if ch == " ":
                    break
                board[self.sq(f, r)] = ch
                f += 1
            assert f == self.F, (fen, row)
        return board

    # ----- attacks -----
    def attacked(self, board, s, by):
        """Is square s attacked by colour `by` (C-1: pins do not matter)?"""
        F = self.F
        f0, r0 = self.fr(s)
        sign = 1 if by == 0 else -1
        for letter, pc in self.v["pieces"].items():
            mine = letter if by == 0 else letter.lower()
            for dx, dy, mode in pc.leaps:
                if not mode & CAPTURE:
                    continue
                f, r = f0 - dx, r0 - dy * sign
                if self.on(f, r) and board[r * F + f] == mine:
                    return True
            for dx, dy in pc.rides:
                f, r = f0 - dx, r0 - dy * sign
                while self.on(f, r):
                    p = board[r * F + f]
                    if p != ".":
                        if p == mine:
                            return True
                        break
                    f, r = f - dx, r - dy * sign
            for dx, dy in pc.hops:
                f, r = f0 - dx, r0 - dy * sign
                screened = False
                while self.on(f, r):
                    p = board[r * F + f]
                    if p != ".":
                        if screened:
                            if p == mine:
                                return True
                            break
                        screened = True
                    f, r = f - dx, r - dy * sign
        return False

    def king_sq(self, board, color):
        return board.index("K" if color == 0 else "k")

    def in_check(self, board, color):
        return self.attacked(board, self.king_sq(board, color), 1 - color)

    # ----- moves -----
    # A move: (text, new_state) built eagerly; state = [board, side, rights, ep].
    def pseudo(self, state):
        board, side, rights, ep = state
        F = self.F
        sign = 1 if side == 0 else -1
        out = []  # (from, to, promo, kind) kind: n normal, d double, e ep

        def add(frm, to, pc, kind="n"):
            tf, tr = self.fr(to)
            if pc.promotes and self.rel_rank(tr, side) == self.R:
                for c in self.v["promo_choices"]:
                    out.append((frm, to, c, kind))
            else:
                out.append((frm, to, None, kind))

        for s in range(F * self.R):
            p = board[s]
            if p == "." or self.color(p) != side:
                continue
            pc = self.v["pieces"][p.upper()]
            f0, r0 = self.fr(s)
            for dx, dy, mode in pc.leaps:
                f, r = f0 + dx, r0 + dy * sign
                if not self.on(f, r):
                    continue
                t = board[r * F + f]
                if t == ".":
                    if mode & QUIET:
                        add(s, r * F + f, pc)
                    elif pc.pawn and ep and ep[0] == r * F + f:
                        add(s, r * F + f, pc, "e")
                elif self.color(t) != side and mode & CAPTURE:
                    add(s, r * F + f, pc)
            for dx, dy in pc.rides:
                f, r = f0 + dx, r0 + dy * sign
                while self.on(f, r):
                    t = board[r * F + f]
                    if t == ".":
                        add(s, r * F + f, pc)
                    else:
                        if self.color(t) != side:
                            add(s, r * F + f, pc)
                        break
                    f, r = f + dx, r + dy * sign
            for dx, dy in pc.hops:
                f, r = f0 + dx, r0 + dy * sign
                screened = False
                while self.on(f, r):
                    t = board[r * F + f]
                    if not screened:
                        if t == ".":
                            add(s, r * F + f, pc)
                        else:
                            screened = True
                    elif t != ".":
                        if self.color(t) != side:
                            add(s, r * F + f, pc)
                        break
                    f, r = f + dx, r + dy * sign
            if pc.pawn:
                one = (f0, r0 + sign)
                if self.on(*one) and board[self.sq(*one)] == ".":
                    add(s, self.sq(*one), pc)
                    two = (f0, r0 + 2 * sign)
                    may_double = pc.pawn == "fast" or (pc.pawn == "fide" and self.rel_rank(r0, side) == 2)
                    if may_double and self.on(*two) and board[self.sq(*two)] == ".":
                        add(s, self.sq(*two), pc, "d")
        if self.v["castle_steps"]:
            out.extend(self.castlings(state))
        return out

    def castlings(self, state):
        board, side, rights, ep = state
        king = "K" if side == 0 else "k"
        home = self.home[side]
        if board[home] != king or self.in_check(board, side):
            return []
        kf, kr = self.fr(home)
        out = []
        for color, rsq in sorted(rights):
            if color != side:
                continue
            rf = self.fr(rsq)[0]
            d = 1 if rf > kf else -1
            if any(board[self.sq(f, kr)] != "." for f in range(kf + d, rf, d)):
                continue
            dist = abs(rf - kf)
            for step in self.v["castle_steps"][d]:
                if step > dist:
                    continue
                kto = self.sq(kf + d * step, kr)
                rto = self.sq(kf + d * (step - 1), kr)
                ok = True
                for f in range(kf + d, kf + d * step, d):
                    b = list(board)
                    b[home] = "."
                    b[self.sq(f, kr)] = king
                    if self.attacked(b, self.sq(f, kr), 1 - side):
                        ok = False
                        break
                if ok:
                    out.append((home, kto, (rsq, rto), "c"))
        return out

    def make(self, state, mv):
        board, side, rights, ep = state
        frm, to, promo, kind = mv
        b = list(board)
        new_ep = None
        if kind == "c":
            rsq, rto = promo
            king, rook = b[frm], b[rsq]
            b[frm] = "."
            b[rsq] = "."
            b[to] = king
            b[rto] = rook
        else:
            p = b[frm]
            b[frm] = "."
            if kind == "e":
                b[ep[1]] = "."
            b[to] = p if promo is None else (promo if side == 0 else promo.lower())
            if kind == "d" and promo is None:
                sign = 1 if side == 0 else -1
                new_ep = (frm + sign * self.F, to)
        home = self.home[side]
        nr = set()
        for color, rsq in rights:
            if color == side and frm == home:
                continue
            if rsq in (frm, to):
                continue
            if kind == "c" and color == side:
                continue
            nr.add((color, rsq))
        return [b, 1 - side, frozenset(nr), new_ep]

    def fen(self, state):
        """The FEN of a state (castling K/Q, e.p. square in human coordinates)."""
        board, side, rights, ep = state
        rows = []
        for r in range(self.R - 1, -1, -1):
            row, run = "", 0
            for f in range(self.F):
                p = board[self.sq(f, r)]
                if p == ".":
                    run += 1
                    continue
                if run:
                    row += str(run)
                    run = 0
                row += p
            rows.append(row + (str(run) if run else ""))
        cast = ""
        for color, letters in ((0, "KQ"), (1, "kq")):
            kf = self.fr(self.home[color])[0]
            for rsq in sorted(r for c, r in rights if c == color):
                cast += letters[0] if self.fr(rsq)[0] > kf else letters[1]
        cast = "".join(sorted(cast, key="KQkq".index)) or "-"
        eps = self.name(ep[0]) if ep else "-"
        return "%s %s %s %s 0 1" % ("/".join(rows), "wb"[side], cast, eps)

    def legal(self, state):
        side = state[1]
        res = []
        for mv in self.pseudo(state):
            n = self.make(state, mv)
            if not self.in_check(n[0], side):
                res.append((mv, n))
        return res

    def text(self, mv):
        frm, to, promo, kind = mv
        if kind == "c":
            rsq = promo[0]
            if abs(self.fr(frm)[0] - self.fr(to)[0]) == 1:
                return self.name(rsq) + self.name(frm)
            return self.name(frm) + self.name(to)
        s = self.name(frm) + self.name(to)
        return s + (promo.lower() if promo else "")

    def perft(self, state, depth):
        if depth == 0:
            return 1
        moves = self.legal(state)
        if depth == 1:
            return len(moves)
        return sum(self.perft(n, depth - 1) for _, n in moves)


def main(argv):
    variant = "pillage"
    divide = False
    list_moves = False
    args = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--variant":
            variant = argv[i + 1]
            i += 2
            continue
        if a == "--divide":
            divide = True
        elif a == "--moves":
            list_moves = True
        else:
            args.append(a)
        i += 1
    g = Game(VARIANTS[variant]())
    fen = args[0] if args else g.v["start"]
    if fen == "startpos":
        fen = g.v["start"]
    state = g.parse(fen)
    if list_moves:
        for t in sorted(g.text(mv) for mv, _ in g.legal(state)):
            print(t)
        return
    depth = int(args[1])
    if divide:
        total = 0
        for mv, n in sorted(g.legal(state), key=lambda x: g.text(x[0])):
            c = g.perft(n, depth - 1)
            total += c
            print(g.text(mv), c)
        print("nodes", total)
    else:
        print("nodes", g.perft(state, depth))


if __name__ == "__main__":
    main(sys.argv[1:])
