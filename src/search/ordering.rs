//! Move ordering: the TT move, then winning and equal captures (MVV-LVA over every piece a move
//! captures, checked by SEE where it applies) and queen-like promotions, killers, the countermove,
//! quiet moves by history, losing captures, and under-promotions last.

use crate::core::{Move, Piece, Position};

use super::eval::KindInfo;
use super::score::MAX_PLY;
use super::see::see;

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

/// Value of everything a move captures (0 for quiet moves).
#[inline]
pub(crate) fn captured_value(pos: &Position, mv: &Move, kinds: &[KindInfo]) -> i32 {
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

/// Killers, countermoves and history, kept between searches of one game.
pub(crate) struct Heuristics {
    pub killers: [[Option<Move>; 2]; MAX_PLY + 2],
    /// `[moved piece][to]` of the previous move.
    counter: Vec<Option<Move>>,
    /// `[moved piece][to]`.
    history: Vec<i32>,
}

impl Heuristics {
    pub fn new() -> Heuristics {
        Heuristics {
            killers: [[None; 2]; MAX_PLY + 2],
            counter: vec![None; PIECE_SLOTS * SQUARE_SLOTS],
            history: vec![0; PIECE_SLOTS * SQUARE_SLOTS],
        }
    }

    pub fn clear(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 2];
        self.counter.fill(None);
        self.history.fill(0);
    }

    /// Halves the history (between searches: old knowledge fades).
    pub fn age(&mut self) {
        for h in &mut self.history {
            *h /= 2;
        }
        self.killers = [[None; 2]; MAX_PLY + 2];
    }

    #[inline]
    fn slot(piece: Piece, mv: &Move) -> usize {
        (piece.0 as usize % PIECE_SLOTS) * SQUARE_SLOTS + (mv.to().index() % SQUARE_SLOTS)
    }

    #[inline]
    pub fn history(&self, piece: Piece, mv: &Move) -> i32 {
        self.history[Self::slot(piece, mv)]
    }

    /// The countermove to a previous move `(piece, move)`.
    #[inline]
    pub fn counter(&self, prev: Option<(Piece, Move)>) -> Option<Move> {
        prev.and_then(|(p, m)| self.counter[Self::slot(p, &m)])
    }

    /// A quiet move caused a cut: reward it, punish the quiet moves tried before it.
    pub fn update_quiet(
        &mut self,
        ply: usize,
        depth: i32,
        piece: Piece,
        mv: Move,
        prev: Option<(Piece, Move)>,
        tried: &[(Piece, Move)],
    ) {
        let bonus = (depth * depth * 6 + depth * 20).min(1600);
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        if let Some((p, m)) = prev {
            self.counter[Self::slot(p, &m)] = Some(mv);
        }
        Self::gravity(&mut self.history[Self::slot(piece, &mv)], bonus);
        for &(p, m) in tried {
            if m != mv {
                Self::gravity(&mut self.history[Self::slot(p, &m)], -bonus);
            }
        }
    }

    #[inline]
    fn gravity(h: &mut i32, bonus: i32) {
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }
}

/// What the move scorer needs to know about the node.
pub(crate) struct OrderInfo<'a> {
    pub tt_move: Option<Move>,
    pub killers: [Option<Move>; 2],
    pub counter: Option<Move>,
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
                let mvv_lva = (victims + promo_gain) * 8 - attacker.min(4000) / 8;
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
                heur.history(piece, mv)
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
        if see(pos, &mv, kinds).is_none_or(|v| v >= 0) {
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
}
