//! The pawn terms: advancement, doubled, isolated, connected and backward pawns, rammed pawns,
//! and passed pawns with their stop squares and paths to promotion.

use crate::core::{Color, Square, SquareSet};

use super::{KindInfo, S, Shared, Side, king_distance};

/// Ranks to go from owner-relative rank `rel` to the nearest promotion rank ahead.
pub(super) fn promo_distance(ranks: &[u8], rel: u8) -> usize {
    ranks
        .iter()
        .filter(|&&r| r > rel)
        .map(|&r| (r - rel) as usize)
        .min()
        .unwrap_or(usize::MAX)
}

impl Shared<'_> {
    /// `color`'s doubled, isolated, connected, backward and passed pawns; the passers are kept
    /// in its side's `passers`.
    #[inline]
    pub(super) fn pawns(&self, sides: &mut [Side; 2], color: Color) -> S {
        let (pos, t, w, shape) = (self.pos, self.t, self.w, self.shape);
        let c = color as usize;
        let (own, enemy) = (&sides[c], &sides[1 - c]);
        let mut bonus = S::default();
        let mut passers = SquareSet::EMPTY;
        let mut rammed = [0; 2];
        for i in 0..own.npawns {
            let sq = own.pawns[i];
            let Some(p) = pos.piece_at(sq) else { continue };
            let info = &t.kinds[p.kind().index()];
            let f = shape.file(sq) as usize;
            let r = shape.rank(sq);
            if own.pawn_files[f.min(15)] > 1 {
                bonus += w.doubled;
            }
            let left = f.checked_sub(1).map_or(0, |x| own.pawn_files[x.min(15)]);
            let right = if f + 1 < shape.files as usize {
                own.pawn_files[(f + 1).min(15)]
            } else {
                0
            };
            let lo = f.saturating_sub(1);
            let hi = (f + 1).min(shape.files as usize - 1);
            if t.pawn_shape
                && shape
                    .offset(sq, 0, color.forward())
                    .is_some_and(|x| enemy.pawn_set.contains(x))
            {
                rammed[usize::from(shape.is_light(sq))] += 1;
            }
            if left == 0 && right == 0 {
                bonus += w.isolated;
            } else if t.pawn_shape {
                let beside = |dx: i32| shape.offset(sq, dx, 0).is_some_and(|x| own.pawn_set.contains(x));
                if own.pawn_attacks.contains(sq) || beside(-1) || beside(1) {
                    let d = promo_distance(&info.promo_ranks, shape.relative_rank(sq, color));
                    bonus += w.connected[d.min(w.connected.len() - 1)];
                } else {
                    // Backward: every own pawn on the files beside it is ahead of it (none is
                    // level with it: that one would have made it connected).
                    let all_ahead = (lo..=hi)
                        .filter(|&x| x != f)
                        .all(|x| own.no_pawn_ahead(x, r, color.opposite()));
                    let stop = shape.offset(sq, 0, color.forward());
                    if all_ahead && stop.is_some_and(|x| enemy.pawn_attacks.contains(x)) {
                        bonus += w.backward;
                    }
                }
            }
            // Passed: no enemy pawn ahead on this or a neighbouring file.
            let passed = (lo..=hi).all(|x| enemy.no_pawn_ahead(x, r, color));
            if passed {
                passers.insert(sq);
                bonus += self.passer(enemy, info, color, sq);
            }
        }
        sides[c].passers = passers;
        sides[c].rammed = rammed;
        bonus
    }

    /// What stands on `color`'s passers' stop squares: a piece (`passed_blocked`), or nothing and
    /// no enemy attack (`passed_safe`), and then on the whole way (`passed_path`). After `gather`,
    /// which makes the attack maps.
    #[inline(never)]
    pub(super) fn passer_paths(&self, sides: &[Side; 2], color: Color) -> S {
        let (pos, t, w, shape) = (self.pos, self.t, self.w, self.shape);
        let (own, enemy) = (&sides[color as usize], &sides[1 - color as usize]);
        let mut bonus = S::default();
        for sq in own.passers.iter() {
            let Some(p) = pos.piece_at(sq) else { continue };
            let Some(stop) = shape.offset(sq, 0, color.forward()) else {
                continue;
            };
            let info = &t.kinds[p.kind().index()];
            let d = promo_distance(&info.promo_ranks, shape.relative_rank(sq, color));
            let d = d.min(w.passed_safe.len() - 1);
            if pos.piece_at(stop).is_some() {
                bonus += w.passed_blocked[d];
            } else if !enemy.att.contains(stop) {
                bonus += w.passed_safe[d];
                let free = |x: &Square| pos.piece_at(*x).is_none() && !enemy.att.contains(*x);
                if self.path_to_promotion(sq, color, &info.promo_ranks).all(|x| free(&x)) {
                    bonus += w.passed_path[d];
                }
            }
        }
        bonus
    }

    /// The squares a pawn of `color` on `sq` steps over to its nearest promotion rank, the stop
    /// square first.
    fn path_to_promotion(&self, sq: Square, color: Color, promo_ranks: &[u8]) -> impl Iterator<Item = Square> {
        let shape = self.shape;
        let d = promo_distance(promo_ranks, shape.relative_rank(sq, color));
        let d = if d == usize::MAX { 0 } else { d as i32 };
        (1..=d).filter_map(move |i| shape.offset(sq, 0, color.forward() * i))
    }

    /// A passed pawn of `color` on `sq`: by its distance to promotion, and in the endgame the
    /// kings' distances to its stop square and the rule of the square against a bare king.
    /// Out of line: passers are rare, and inlined, its set-up is hoisted out of `pawns`' loop, to
    /// run for every side whether it has a passer or not.
    #[inline(never)]
    fn passer(&self, enemy: &Side, info: &KindInfo, color: Color, sq: Square) -> S {
        let (pos, w, shape) = (self.pos, self.w, self.shape);
        let c = color as usize;
        let mut bonus = S::default();
        let rel = shape.relative_rank(sq, color);
        let d = promo_distance(&info.promo_ranks, rel);
        if d == usize::MAX {
            return bonus;
        }
        bonus += w.passed[d.min(w.passed.len() - 1)];
        let Some(stop) = shape.offset(sq, 0, color.forward()) else {
            return bonus;
        };
        if let (Some(ok), Some(ek)) = (self.kings[c], self.kings[1 - c]) {
            let per = w.passer_king[d.min(w.passer_king.len() - 1)];
            bonus.eg += (king_distance(shape, ek, stop) - king_distance(shape, ok, stop)) * per;
            // Rule of the square against a bare king (pawns only on the other side).
            if enemy.npm == 0 {
                let promo = shape.offset(sq, 0, color.forward() * d as i32);
                if let Some(promo) = promo {
                    let tempo = if pos.side_to_move() == color { 0 } else { 1 };
                    let path_clear = (1..=d as i32).all(|i| {
                        shape
                            .offset(sq, 0, color.forward() * i)
                            .is_some_and(|x| pos.piece_at(x).is_none())
                    });
                    if path_clear && king_distance(shape, ek, promo) - tempo > d as i32 {
                        bonus.eg += w.unstoppable;
                    }
                }
            }
        }
        bonus
    }
}
