//! Move generation from the piece tables: rays (leapers, riders, hoppers, lame leaps, pushes),
//! promotions, en passant, drops, castling and hook pieces (the legality filter is `legality`).
//! Nothing here knows which variant it is playing.

use super::betza::mode;
use super::geometry::{Color, Square, SquareSet};
use super::moves::{Move, MoveList};
use super::piece::{Kind, Piece, Promotion};
use super::position::{EMPTY, Position};
use super::variant::Variant;

/// The promotion rule of the moves of one piece from one square, the one move generation follows
/// (static exchange evaluation asks it too): a move promotes if it ends in the piece's zone, or
/// starts there when the rule has `from_zone`; it may then stay unpromoted only if the rule is
/// optional and the piece could still move from where it lands (`Tables::immobile`).
#[derive(Copy, Clone)]
pub struct Promotions<'a> {
    /// The piece's rule, if it has one (only then is its zone not empty).
    rule: Option<&'a Promotion>,
    zone: &'a SquareSet,
    immobile: &'a SquareSet,
    /// Every move promotes: it leaves the zone of a `from_zone` rule.
    leaves_zone: bool,
}

impl<'a> Promotions<'a> {
    /// The rule of the moves of `kind` of `color` from `from`.
    #[inline]
    pub fn new(v: &'a Variant, kind: Kind, color: Color, from: Square) -> Promotions<'a> {
        let Some(rule) = &v.piece(kind).promotion else {
            return Promotions {
                rule: None,
                zone: &SquareSet::EMPTY,
                immobile: &SquareSet::EMPTY,
                leaves_zone: false,
            };
        };
        let i = kind.index() * 2 + color as usize;
        let zone = &v.tables.promotion_zone[i];
        Promotions {
            rule: Some(rule),
            zone,
            immobile: &v.tables.immobile[i],
            leaves_zone: rule.from_zone && zone.contains(from),
        }
    }

    /// The rule a move to `to` promotes by, if it promotes.
    #[inline]
    pub fn on(&self, to: Square) -> Option<&'a Promotion> {
        self.rule.filter(|_| self.leaves_zone || self.zone.contains(to))
    }

    /// May a move to `to` that promotes stay unpromoted instead?
    #[inline]
    pub fn may_stay(&self, to: Square) -> bool {
        self.rule.is_some_and(|p| p.optional) && !self.immobile.contains(to)
    }
}

impl Position {
    /// Adds every pseudo-legal move: all moves except the test that no king is left attacked (and
    /// the repetition ban of variants that have one).
    pub fn generate_pseudo(&self, list: &mut MoveList) {
        let v = &**self.variant();
        let us = self.side_to_move();
        for &from in self.pieces_of(us) {
            let piece = Piece(self.men.board[from.index()]);
            let kind = piece.kind();
            self.piece_moves(kind, from, list);
        }
        if v.has_drops() {
            self.generate_drops(list);
        }
        if v.castling.is_some() && self.castling_rights() != 0 {
            self.generate_castling(list);
        }
    }

    /// Adds the pseudo-legal moves that can capture or promote, in the order `generate_pseudo` gives
    /// them: every move of a hook piece (its hook decides what a move takes), drops if `drops`, no
    /// castling, no other move to an empty square that does not promote. Quiescence filters these
    /// further; leaving the quiet moves out here spares making and scoring them.
    pub fn generate_noisy(&self, list: &mut MoveList, drops: bool) {
        let v = &**self.variant();
        let us = self.side_to_move();
        for &from in self.pieces_of(us) {
            let kind = Piece(self.men.board[from.index()]).kind();
            if v.piece(kind).hook.is_some() {
                self.piece_moves(kind, from, list);
            } else {
                self.generate_piece::<false>(kind, from, list);
            }
        }
        if drops && v.has_drops() {
            self.generate_drops(list);
        }
    }

    /// Adds the pseudo-legal moves of the piece on `from` (of the side to move): its Betza moves,
    /// then what its hook makes of them and adds.
    pub fn moves_from(&self, from: Square, list: &mut MoveList) {
        if let Some(p) = self.piece_at(from).filter(|p| p.color() == self.side_to_move()) {
            self.piece_moves(p.kind(), from, list);
        }
    }

    fn piece_moves(&self, kind: Kind, from: Square, list: &mut MoveList) {
        let first = list.len();
        self.generate_piece::<true>(kind, from, list);
        if let Some(hook) = self.variant().piece(kind).hook {
            for mv in &mut list.0[first..] {
                hook.adjust_quiet(self, from, mv);
            }
            hook.captures(self, from, list);
        }
    }

    /// The Betza moves of one piece; with `QUIETS` false only those that capture or promote.
    fn generate_piece<const QUIETS: bool>(&self, kind: Kind, from: Square, list: &mut MoveList) {
        let v = &**self.variant();
        let t = &v.tables;
        let us = self.side_to_move();
        let board = &self.men.board;
        let us_bit = us as u8;
        let uncapturable = t.uncapturable_mask;
        let promotions = Promotions::new(v, kind, us, from);
        let ep = self.en_passant();
        // An enemy piece that may be captured (roses never are).
        let capturable = |b: u8| b & 1 != us_bit && uncapturable & (1 << (b >> 1)) == 0;
        let promotes_on = |to: Square| promotions.on(to).is_some();
        // A function, not a closure, to be always inlined: the closure was a call per move.
        #[inline(always)]
        fn add(pos: &Position, promotions: &Promotions, list: &mut MoveList, mv: Move) {
            match promotions.on(mv.to()) {
                Some(p) => pos.push_promotions(list, mv, p, promotions.may_stay(mv.to())),
                None => list.push(mv),
            }
        }
        for ray in t.rays(kind.index(), us, from) {
            let squares = t.ray_squares(ray);
            if ray.modes & mode::HOP == 0 {
                for (i, &to) in squares.iter().enumerate() {
                    let b = board[to.index()];
                    if i < ray.first_dest as usize {
                        if b != EMPTY {
                            break;
                        }
                        continue;
                    }
                    if b == EMPTY {
                        if ray.modes & mode::MOVE != 0 {
                            if QUIETS || promotes_on(to) {
                                let mv = if ray.multi_step && i >= 1 {
                                    Move::MultiStep {
                                        from,
                                        to,
                                        promotion: None,
                                    }
                                } else {
                                    Move::normal(from, to)
                                };
                                add(self, &promotions, list, mv);
                            }
                        } else if ray.modes & mode::EN_PASSANT != 0 && !ep.is_none() && self.is_ep_target(to) {
                            let victim = ep.victim;
                            add(
                                self,
                                &promotions,
                                list,
                                Move::EnPassant {
                                    from,
                                    to,
                                    victim,
                                    promotion: None,
                                },
                            );
                        }
                        continue;
                    }
                    if ray.modes & mode::CAPTURE != 0 && capturable(b) {
                        add(self, &promotions, list, Move::normal(from, to));
                    }
                    break;
                }
            } else {
                // A hopper: nothing before the screen, moves and a capture beyond it.
                let mut screened = false;
                for &to in squares {
                    let b = board[to.index()];
                    if !screened {
                        screened = b != EMPTY;
                        continue;
                    }
                    if b == EMPTY {
                        if ray.modes & mode::MOVE != 0 && (QUIETS || promotes_on(to)) {
                            add(self, &promotions, list, Move::normal(from, to));
                        }
                        continue;
                    }
                    if ray.modes & mode::CAPTURE != 0 && capturable(b) {
                        add(self, &promotions, list, Move::normal(from, to));
                    }
                    break;
                }
            }
        }
    }

    /// Adds a move that promotes by `p`, once per promotion choice and unpromoted too if it
    /// `may_stay` (for growing roses: once per enemy unit that can be converted).
    fn push_promotions(&self, list: &mut MoveList, mv: Move, p: &Promotion, may_stay: bool) {
        if let Some(convert) = p.convert {
            self.push_grow_moves(list, mv, convert);
            return;
        }
        if may_stay {
            list.push(mv);
        }
        for &choice in &p.choices {
            list.push(mv.with_promotion(choice));
        }
    }

    /// Growing roses: one move per enemy unit (not already of the `convert` kind, and not the one
    /// captured on the way) that may be converted; one move converting nothing if there is none.
    fn push_grow_moves(&self, list: &mut MoveList, mv: Move, convert: Kind) {
        let Some(from) = mv.from() else { return };
        let to = mv.to();
        let them = self.side_to_move().opposite();
        let mut any = false;
        for &sq in self.pieces_of(them) {
            let p = Piece(self.men.board[sq.index()]);
            if sq != to && p.kind() != convert {
                list.push(Move::Grow {
                    from,
                    to,
                    converts: Some(sq),
                });
                any = true;
            }
        }
        if !any {
            list.push(Move::Grow {
                from,
                to,
                converts: None,
            });
        }
    }

    /// Is `sq` one of the current en-passant target squares?
    #[inline]
    pub fn is_ep_target(&self, sq: Square) -> bool {
        let ep = self.en_passant();
        if ep.is_none() {
            return false;
        }
        let shape = self.variant().shape;
        if shape.file(sq) != shape.file(ep.first) {
            return false;
        }
        let (r, a, b) = (shape.rank(sq), shape.rank(ep.first), shape.rank(ep.victim));
        if a < b { r >= a && r < b } else { r <= a && r > b }
    }

    fn generate_drops(&self, list: &mut MoveList) {
        let v = &**self.variant();
        let shape = v.shape;
        let us = self.side_to_move();
        for (k, pt) in v.pieces.iter().enumerate() {
            let Some(rule) = &pt.drop else { continue };
            let kind = Kind(k as u8);
            if self.hand_count(us, kind) == 0 {
                continue;
            }
            let zone = &v.tables.drop_zone[k * 2 + us as usize];
            // Files where the side already has one of this kind (shogi's nifu).
            let mut taken_files = 0u32;
            if rule.one_per_file {
                for &sq in self.pieces_of(us) {
                    if Piece(self.men.board[sq.index()]).kind() == kind {
                        taken_files |= 1 << shape.file(sq);
                    }
                }
            }
            for sq in shape.squares() {
                if !zone.contains(sq) || self.men.board[sq.index()] != EMPTY || taken_files & (1 << shape.file(sq)) != 0
                {
                    continue;
                }
                list.push(Move::drop(kind, sq));
                // A drop pushed forward in the same turn is written as a drop on its final square.
                for i in 1..=rule.push as i32 {
                    match shape.offset(sq, 0, us.forward() * i) {
                        Some(to) if self.men.board[to.index()] == EMPTY => list.push(Move::drop(kind, to)),
                        _ => break,
                    }
                }
            }
        }
    }

    fn generate_castling(&self, list: &mut MoveList) {
        let v = &**self.variant();
        let Some(rule) = &v.castling else { return };
        let shape = v.shape;
        let us = self.side_to_move();
        let ksq = self.castling_king_origin(us);
        for side in 0..2 {
            let Some(rsq) = self.castling_rook(us, side) else {
                continue;
            };
            let (kf, rf) = (shape.file(ksq) as i32, shape.file(rsq) as i32);
            let dir = if rf > kf { 1 } else { -1 };
            let dist = (rf - kf).abs();
            let clear = (1..dist).all(|i| {
                shape
                    .offset(ksq, dir * i, 0)
                    .is_some_and(|s| self.men.board[s.index()] == EMPTY)
            });
            if !clear {
                continue;
            }
            for &step in &rule.king_steps {
                let step = step as i32;
                if step > dist {
                    continue;
                }
                let (Some(kto), Some(rto)) = (shape.offset(ksq, dir * step, 0), shape.offset(ksq, dir * (step - 1), 0))
                else {
                    continue;
                };
                list.push(Move::Castle {
                    king_from: ksq,
                    king_to: kto,
                    rook_from: rsq,
                    rook_to: rto,
                });
            }
        }
    }

    /// Colour helper for hooks and the evaluation.
    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        self.piece_at(sq).map(|p| p.color())
    }
}

#[cfg(test)]
mod tests {
    use crate::core::moves::{Move, MoveList};
    use crate::core::piece::Piece;
    use crate::core::{Position, Square};
    use crate::test_rng::Rng;
    use crate::variants::Registry;

    /// Must quiescence see this move? A capture, a promotion (or growth), anything of a hook piece,
    /// a drop when drops are asked for.
    fn must_be_noisy(pos: &Position, mv: &Move, drops: bool) -> bool {
        match *mv {
            Move::Drop { .. } => drops,
            Move::Castle { .. } => false,
            _ => {
                let hook = mv
                    .from()
                    .and_then(|from: Square| pos.piece_at(from))
                    .is_some_and(|p: Piece| pos.variant().piece(p.kind()).hook.is_some());
                hook || mv.promotion().is_some()
                    || matches!(mv, Move::Grow { .. })
                    || pos.captures_of(mv).next().is_some()
            }
        }
    }

    /// In random games of every built-in game, the noisy moves are the pseudo-legal moves less
    /// quiet ones only: a subsequence in the same order (so quiescence searches the same tree), and
    /// none that captures, promotes or drops (when asked) left out.
    #[test]
    fn noisy_moves_are_the_pseudo_legal_ones_less_only_quiet_moves_in_the_same_order() {
        let registry = Registry::builtin();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut positions, mut noisy_seen) = (0, 0);
        for name in registry.names() {
            let variant = registry.get(name).expect("a listed game");
            for _game in 0..6 {
                let mut pos = Position::start(&variant);
                for _ply in 0..120 {
                    let mut pseudo = MoveList::default();
                    pos.generate_pseudo(&mut pseudo);
                    for drops in [false, true] {
                        let mut noisy = MoveList::default();
                        pos.generate_noisy(&mut noisy, drops);
                        let mut rest = pseudo.0.iter();
                        for mv in &noisy.0 {
                            assert!(rest.any(|m| m == mv), "{name}: noisy {mv:?} not in pseudo order");
                        }
                        for mv in &pseudo.0 {
                            if must_be_noisy(&pos, mv, drops) {
                                assert!(noisy.0.contains(mv), "{name}: {mv:?} left out (drops {drops})");
                            }
                        }
                        noisy_seen += noisy.0.len();
                    }
                    positions += 1;
                    let legal = pos.legal_moves();
                    if legal.0.is_empty() || pos.outcome().is_some() {
                        break;
                    }
                    let mv = legal.0[rng.below(legal.0.len())];
                    pos.make(mv);
                }
            }
        }
        assert!(
            positions > 1000 && noisy_seen > 1000,
            "{positions} positions, {noisy_seen} noisy moves"
        );
    }
}
