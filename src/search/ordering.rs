//! Move ordering: the TT move, then winning and equal captures (MVV-LVA over every piece a move
//! captures plus the capture history, checked by SEE where it applies) and queen-like promotions,
//! killers, the countermove, quiet moves by history (butterfly plus the continuation histories of
//! the moves 1, 2 and 4 plies back), losing captures, and under-promotions last.

use crate::core::piece::MAX_KINDS;
use crate::core::{Move, Piece, Position};

use super::correction::CorrectionHistory;
use super::eval::KindInfo;
use super::score::MAX_PLY;
use super::see::see_at_least;

const TT_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
/// Captures of a cheaper piece: SEE decides when they are picked (most nodes cut before).
const UNRESOLVED_CAPTURE: i32 = 1 << 27;
const KILLER_1: i32 = (1 << 26) + 2;
const KILLER_2: i32 = (1 << 26) + 1;
const COUNTER: i32 = 1 << 26;
const BAD_CAPTURE: i32 = -(1 << 26);
const UNDER_PROMOTION: i32 = -(1 << 28);
/// History values stay within +-HISTORY_MAX.
pub(crate) const HISTORY_MAX: i32 = 16_384;
const PIECE_SLOTS: usize = 64;
const SQUARE_SLOTS: usize = crate::core::geometry::MAX_SQUARES;
/// Largest number of (piece, square) rows of the continuation and capture histories; larger
/// games (many piece types on a big board) fold their rows onto these, sharing some.
const PIECE_TO_CAP: usize = 2048;
/// The capture-history column of a promotion that captures nothing.
const NOTHING_CAPTURED: usize = MAX_KINDS;

/// Value of everything a move captures (0 for quiet moves). The plain moves here, in line (the
/// scorer asks for every move); the others out of line.
#[inline(always)]
pub(crate) fn captured_value(pos: &Position, mv: &Move, kinds: &[KindInfo]) -> i32 {
    match *mv {
        Move::Normal { to, .. } | Move::MultiStep { to, .. } => {
            pos.piece_at(to).map_or(0, |p| kinds[p.kind().index()].value.max(1))
        }
        _ => captured_value_other(pos, mv, kinds),
    }
}

/// `captured_value` of the moves other than `Normal` and `MultiStep` (those too, alike).
#[inline(never)]
fn captured_value_other(pos: &Position, mv: &Move, kinds: &[KindInfo]) -> i32 {
    match *mv {
        Move::Normal { to, .. } | Move::MultiStep { to, .. } => {
            pos.piece_at(to).map_or(0, |p| kinds[p.kind().index()].value.max(1))
        }
        // Growing roses also takes the converted unit away from the opponent (as that unit).
        Move::Grow { to, converts, .. } => {
            let value = |sq: crate::core::Square| {
                pos.piece_at(sq)
                    .filter(|p| p.color() != pos.side_to_move())
                    .map_or(0, |p| kinds[p.kind().index()].value.max(1))
            };
            value(to) + converts.map_or(0, value)
        }
        Move::EnPassant { victim, .. } => pos.piece_at(victim).map_or(0, |p| kinds[p.kind().index()].value.max(1)),
        Move::Special { .. } => pos
            .captures_of(mv)
            .map(|(_, p)| kinds[p.kind().index()].value.max(1))
            .sum(),
        Move::Castle { .. } | Move::Drop { .. } => 0,
    }
}

/// The piece a move moves (or drops).
#[inline]
pub(crate) fn moving_piece(pos: &Position, mv: &Move) -> Piece {
    match *mv {
        Move::Drop { kind, .. } => Piece::new(kind, pos.side_to_move()),
        _ => mv.from().and_then(|from| pos.piece_at(from)).unwrap_or(Piece(0)),
    }
}

/// The best promotion choice of a piece type (highest value); other choices are under-promotions.
pub(crate) fn is_under_promotion(pos: &Position, mv: &Move, kinds: &[KindInfo]) -> bool {
    let Some(promo) = mv.promotion() else { return false };
    let Some(piece) = mv.from().and_then(|from| pos.piece_at(from)) else {
        return false;
    };
    let Some(rule) = &pos.variant().piece(piece.kind()).promotion else {
        return false;
    };
    let best = rule.choices.iter().map(|k| kinds[k.index()].value).max().unwrap_or(0);
    kinds[promo.index()].value < best
}

/// The piece type a move captures (the first, for moves that capture several), as a column of the
/// capture history.
#[inline]
pub(crate) fn captured_slot(pos: &Position, mv: &Move) -> usize {
    let victim = match *mv {
        Move::Normal { to, .. } | Move::MultiStep { to, .. } | Move::Grow { to, .. } => {
            pos.piece_at(to).filter(|p| p.color() != pos.side_to_move())
        }
        Move::EnPassant { victim, .. } => pos.piece_at(victim),
        Move::Special { .. } => pos.captures_of(mv).map(|(_, p)| p).next(),
        Move::Castle { .. } | Move::Drop { .. } => None,
    };
    victim.map_or(NOTHING_CAPTURED, |p| p.kind().index().min(MAX_KINDS - 1))
}

/// Killers, countermoves and histories, kept between searches of one game.
pub(crate) struct Heuristics {
    pub killers: [[Option<Move>; 2]; MAX_PLY + 2],
    /// `[moved piece][to]` of the previous move.
    counter: Vec<Option<Move>>,
    /// `[moved piece][to]`.
    history: Vec<i32>,
    /// `[piece-to of an earlier move][piece-to]`, one table for the moves 1, 2 and 4 plies back.
    cont: Vec<i16>,
    /// `[piece-to][captured piece type]`.
    capture: Vec<i16>,
    /// The static evaluation's learnt error per pawn structure.
    pub corr: CorrectionHistory,
    /// Squares of the board, and rows of the piece-to tables.
    squares: usize,
    rows: usize,
}

impl Heuristics {
    pub fn new() -> Heuristics {
        let mut h = Heuristics {
            killers: [[None; 2]; MAX_PLY + 2],
            counter: vec![None; PIECE_SLOTS * SQUARE_SLOTS],
            history: vec![0; PIECE_SLOTS * SQUARE_SLOTS],
            cont: Vec::new(),
            capture: Vec::new(),
            corr: CorrectionHistory::new(),
            squares: 0,
            rows: 0,
        };
        // Chess-sized until a game says otherwise.
        h.fit(6, 64);
        h
    }

    /// Sizes the piece-to tables for a game of `kinds` piece types on `squares` squares
    /// (emptied if the size changes).
    pub fn fit(&mut self, kinds: usize, squares: usize) {
        let squares = squares.max(1);
        let rows = (2 * kinds.max(1) * squares).min(PIECE_TO_CAP);
        if (squares, rows) == (self.squares, self.rows) {
            return;
        }
        self.squares = squares;
        self.rows = rows;
        self.cont = vec![0; rows * rows];
        self.capture = vec![0; rows * (MAX_KINDS + 1)];
    }

    pub fn clear(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 2];
        self.counter.fill(None);
        self.history.fill(0);
        self.cont.fill(0);
        self.capture.fill(0);
        self.corr.clear();
    }

    /// Between searches of one game: the killers go (their plies now mean other positions); the
    /// histories stay whole, as what the last search learnt still orders the next one's moves
    /// (gravity keeps them bounded), and only a new game clears them.
    pub fn new_search(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 2];
    }

    #[inline]
    fn slot(piece: Piece, mv: &Move) -> usize {
        (piece.0 as usize % PIECE_SLOTS) * SQUARE_SLOTS + (mv.to().index() % SQUARE_SLOTS)
    }

    /// The row of a move in the continuation and capture histories.
    #[inline]
    pub fn piece_to(&self, piece: Piece, mv: &Move) -> usize {
        let i = piece.0 as usize * self.squares + mv.to().index();
        if i < self.rows { i } else { i % self.rows }
    }

    #[inline]
    pub fn history(&self, piece: Piece, mv: &Move) -> i32 {
        self.history[Self::slot(piece, mv)]
    }

    /// The continuation history of the move with row `to` after the earlier move with row `from`.
    #[inline]
    pub fn cont(&self, from: Option<usize>, to: usize) -> i32 {
        from.map_or(0, |f| self.cont[f * self.rows + to] as i32)
    }

    /// The history score of a quiet move: butterfly plus the three continuation histories.
    #[inline]
    pub fn quiet_score(&self, piece: Piece, mv: &Move, earlier: &[Option<usize>; 3]) -> i32 {
        self.quiet_histories(piece, mv, self.piece_to(piece, mv), earlier).1
    }

    /// The histories of a quiet move whose row is `row`: whether the two nearest continuations
    /// are both below zero, and all of them with the butterfly history (`quiet_score`).
    #[inline]
    pub fn quiet_histories(&self, piece: Piece, mv: &Move, row: usize, earlier: &[Option<usize>; 3]) -> (bool, i32) {
        let (c1, c2) = (self.cont(earlier[0], row), self.cont(earlier[1], row));
        (
            c1 < 0 && c2 < 0,
            c1 + c2 + self.cont(earlier[2], row) + self.history(piece, mv),
        )
    }

    /// The capture history of a capture or promotion.
    #[inline]
    pub fn capture_score(&self, piece: Piece, mv: &Move, captured: usize) -> i32 {
        self.capture[self.piece_to(piece, mv) * (MAX_KINDS + 1) + captured] as i32
    }

    /// The countermove to a previous move `(piece, move)`.
    #[inline]
    pub fn counter(&self, prev: Option<(Piece, Move)>) -> Option<Move> {
        prev.and_then(|(p, m)| self.counter[Self::slot(p, &m)])
    }

    /// The bonus (and malus) of a cut at `depth`.
    #[inline]
    fn bonus(depth: i32) -> i32 {
        (depth * depth * 6 + depth * 20).min(1600)
    }

    /// A quiet move caused a cut: reward it, punish the quiet moves tried before it. `earlier`:
    /// the rows of the moves 1, 2 and 4 plies back.
    #[allow(clippy::too_many_arguments)]
    pub fn update_quiet(
        &mut self,
        ply: usize,
        depth: i32,
        piece: Piece,
        mv: Move,
        prev: Option<(Piece, Move)>,
        earlier: &[Option<usize>; 3],
        tried: &[(Piece, Move)],
    ) {
        let bonus = Self::bonus(depth);
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        if let Some((p, m)) = prev {
            self.counter[Self::slot(p, &m)] = Some(mv);
        }
        self.reward_quiet(piece, &mv, earlier, bonus);
        for &(p, m) in tried {
            if m != mv {
                self.reward_quiet(p, &m, earlier, -bonus);
            }
        }
    }

    fn reward_quiet(&mut self, piece: Piece, mv: &Move, earlier: &[Option<usize>; 3], bonus: i32) {
        Self::gravity(&mut self.history[Self::slot(piece, mv)], bonus);
        let row = self.piece_to(piece, mv);
        for e in earlier.iter().flatten() {
            Self::gravity16(&mut self.cont[e * self.rows + row], bonus);
        }
    }

    /// A cut at `depth`: reward the capture that caused it (if it was one), punish the captures
    /// tried before it. Entries are `(piece, move, captured slot)`.
    pub fn update_captures(&mut self, depth: i32, best: Option<(Piece, Move, usize)>, tried: &[(Piece, Move, usize)]) {
        let bonus = Self::bonus(depth);
        let cols = MAX_KINDS + 1;
        if let Some((p, m, c)) = best {
            let i = self.piece_to(p, &m) * cols + c;
            Self::gravity16(&mut self.capture[i], bonus);
        }
        for &(p, m, c) in tried {
            if best.is_none_or(|(_, b, _)| b != m) {
                let i = self.piece_to(p, &m) * cols + c;
                Self::gravity16(&mut self.capture[i], -bonus);
            }
        }
    }

    #[inline]
    fn gravity(h: &mut i32, bonus: i32) {
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    #[inline]
    fn gravity16(h: &mut i16, bonus: i32) {
        let v = *h as i32;
        *h = (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16;
    }
}

/// What the move scorer needs to know about the node.
pub(crate) struct OrderInfo<'a> {
    pub tt_move: Option<Move>,
    pub killers: [Option<Move>; 2],
    pub counter: Option<Move>,
    /// The continuation-history rows of the moves 1, 2 and 4 plies back.
    pub earlier: [Option<usize>; 3],
    pub kinds: &'a [KindInfo],
}

/// Scores every move of `moves` into `scores` (higher first).
pub(crate) fn score_moves(pos: &Position, moves: &[Move], scores: &mut Vec<i32>, info: &OrderInfo, heur: &Heuristics) {
    scores.clear();
    let kinds = info.kinds;
    for mv in moves {
        let score = if Some(*mv) == info.tt_move {
            TT_MOVE
        } else {
            let piece = moving_piece(pos, mv);
            let attacker = kinds[piece.kind().index()].value;
            let victims = captured_value(pos, mv, kinds);
            let promo_gain = mv.promotion().map_or(0, |k| kinds[k.index()].value - attacker);
            if mv.promotion().is_some() && is_under_promotion(pos, mv, kinds) {
                UNDER_PROMOTION + victims
            } else if victims > 0 || promo_gain > 0 {
                let learnt = heur.capture_score(piece, mv, captured_slot(pos, mv)) / 8;
                let mvv_lva = (victims + promo_gain) * 8 - attacker.min(4000) / 8 + learnt;
                if victims >= attacker || promo_gain > 0 {
                    GOOD_CAPTURE + mvv_lva
                } else {
                    UNRESOLVED_CAPTURE + mvv_lva
                }
            } else if Some(*mv) == info.killers[0] {
                KILLER_1
            } else if Some(*mv) == info.killers[1] {
                KILLER_2
            } else if Some(*mv) == info.counter {
                COUNTER
            } else {
                heur.quiet_score(piece, mv, &info.earlier)
            }
        };
        scores.push(score);
    }
}

/// Scores for quiescence: captures and promotions by MVV-LVA, the TT move first.
pub(crate) fn score_captures(
    pos: &Position,
    moves: &[Move],
    scores: &mut Vec<i32>,
    tt_move: Option<Move>,
    kinds: &[KindInfo],
) {
    scores.clear();
    for mv in moves {
        let s = if Some(*mv) == tt_move {
            TT_MOVE
        } else {
            let attacker = kinds[moving_piece(pos, mv).kind().index()].value;
            let promo_gain = mv.promotion().map_or(0, |k| kinds[k.index()].value - attacker);
            (captured_value(pos, mv, kinds) + promo_gain) * 8 - attacker.min(4000) / 8
        };
        scores.push(s);
    }
}

/// Is the score one of a losing capture?
#[inline]
pub(crate) fn is_bad_capture_score(score: i32) -> bool {
    (BAD_CAPTURE - (1 << 24)..BAD_CAPTURE + (1 << 24)).contains(&score)
}

/// The next move to search (position `i`): like `pick`, and captures of a cheaper piece are judged
/// by SEE now: losing ones go back among the losing captures.
pub(crate) fn next_move(pos: &Position, moves: &mut [Move], scores: &mut [i32], i: usize, kinds: &[KindInfo]) -> Move {
    loop {
        let mv = pick(moves, scores, i);
        let band = UNRESOLVED_CAPTURE - (1 << 24)..UNRESOLVED_CAPTURE + (1 << 24);
        if !band.contains(&scores[i]) {
            return mv;
        }
        let mvv_lva = scores[i] - UNRESOLVED_CAPTURE;
        if see_at_least(pos, &mv, 0, kinds).unwrap_or(true) {
            scores[i] = GOOD_CAPTURE + mvv_lva;
            return mv;
        }
        scores[i] = BAD_CAPTURE + mvv_lva;
        if i >= SELECT {
            // Keep the sorted tail sorted.
            let mut j = i;
            while j + 1 < moves.len() && scores[j + 1] > scores[j] {
                moves.swap(j, j + 1);
                scores.swap(j, j + 1);
                j += 1;
            }
        }
    }
}

/// Picks made by selection before the rest of the list is sorted.
const SELECT: usize = 4;

/// Moves the best-scored move among `i..` to position `i` and returns it. The first few picks
/// select (most nodes cut early); then the rest is sorted once.
#[inline]
pub(crate) fn pick(moves: &mut [Move], scores: &mut [i32], i: usize) -> Move {
    // One score per move: with the lengths known equal the loops below check no bounds.
    let scores = &mut scores[..moves.len()];
    if i == SELECT {
        // Insertion sort of the remainder, best first.
        for j in i + 1..moves.len() {
            let (m, s) = (moves[j], scores[j]);
            let mut k = j;
            while k > i && scores[k - 1] < s {
                moves[k] = moves[k - 1];
                scores[k] = scores[k - 1];
                k -= 1;
            }
            moves[k] = m;
            scores[k] = s;
        }
    }
    if i >= SELECT {
        return moves[i];
    }
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
    moves[i]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::eval::EvalTables;
    use crate::test_fixtures;
    use crate::variants::Registry;

    #[test]
    fn captures_first_then_killers_then_losing_captures() {
        let v = Registry::builtin().get("normal").unwrap();
        let mut p = test_fixtures::position_of(&v, "4k3/8/2p5/3p4/4n3/8/3Q1N2/4K3 w - - 0 1");
        let t = EvalTables::new(&v);
        let mut moves = p.legal_moves().0;
        let killer = test_fixtures::parse_move(&mut p, "d2a5");
        let heur = Heuristics::new();
        let info = OrderInfo {
            tt_move: None,
            killers: [Some(killer), None],
            counter: None,
            earlier: [None; 3],
            kinds: &t.kinds,
        };
        let mut scores = Vec::new();
        score_moves(&p, &moves, &mut scores, &info, &heur);
        let first = next_move(&p, &mut moves, &mut scores, 0, &t.kinds);
        // Nf2xe4 wins a knight for nothing: the best capture.
        assert_eq!(test_fixtures::move_text(&p, &first), "f2e4");
        // Qxd5 loses the queen for a pawn (c6 recaptures): after the killer, among losing captures.
        let second = next_move(&p, &mut moves, &mut scores, 1, &t.kinds);
        assert_eq!(second, killer);
        let qxd5 = moves
            .iter()
            .position(|m| test_fixtures::move_text(&p, m) == "d2d5")
            .unwrap();
        assert!(is_bad_capture_score(scores[qxd5]), "{}", scores[qxd5]);
        assert!(scores.iter().skip(2).all(|&s| s < KILLER_2));
    }

    #[test]
    fn continuation_and_capture_histories_learn_from_cuts() {
        let mut h = Heuristics::new();
        h.fit(6, 64);
        let (knight, bishop) = (Piece(2), Piece(4));
        let good = Move::normal(crate::core::Square(1), crate::core::Square(18));
        let bad = Move::normal(crate::core::Square(2), crate::core::Square(20));
        let earlier = [Some(h.piece_to(Piece(1), &good)), None, Some(7)];
        h.update_quiet(3, 6, knight, good, None, &earlier, &[(bishop, bad)]);
        let row = h.piece_to(knight, &good);
        assert!(h.cont(earlier[0], row) > 0 && h.cont(earlier[2], row) > 0);
        assert_eq!(h.cont(Some(8), row), 0, "only the earlier moves given learn");
        assert!(h.quiet_score(knight, &good, &earlier) > h.history(knight, &good));
        assert!(h.quiet_score(bishop, &bad, &earlier) < 0);
        assert_eq!(h.killers[3][0], Some(good));
        // Captures: the one that cut gains, the one tried before loses.
        h.update_captures(5, Some((knight, good, 3)), &[(bishop, bad, 0)]);
        assert!(h.capture_score(knight, &good, 3) > 0);
        assert!(h.capture_score(bishop, &bad, 0) < 0);
        assert_eq!(h.capture_score(knight, &good, 2), 0);
        // Many cuts stay within the bound.
        for _ in 0..1000 {
            h.update_quiet(3, 20, knight, good, None, &earlier, &[]);
        }
        assert!((HISTORY_MAX - 1..=HISTORY_MAX).contains(&h.cont(earlier[0], row)));
    }

    #[test]
    fn piece_to_rows_of_a_large_game_fold_into_the_table() {
        let mut h = Heuristics::new();
        // 32 piece types on a 16x15 board: more rows than the table has.
        h.fit(32, 240);
        let top = Move::normal(crate::core::Square(0), crate::core::Square(239));
        let row = h.piece_to(Piece(63), &top);
        assert!(row < PIECE_TO_CAP);
        h.update_quiet(1, 4, Piece(63), top, None, &[Some(row), Some(0), None], &[]);
        assert!(h.quiet_score(Piece(63), &top, &[Some(row), Some(0), None]) > 0);
    }
}
