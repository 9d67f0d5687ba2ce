//! Threats: enemy pieces attacked by pawns, by lesser pieces or undefended, by the king, and those
//! a safe pawn step would attack.

use crate::core::betza::mode;
use crate::core::{Color, SquareSet};

use super::{S, Shared, Side, s};

impl Shared<'_> {
    /// Threats of `color`: enemy pieces attacked by a pawn or by a piece worth less, and
    /// undefended ones.
    #[inline]
    pub(super) fn threats(&self, sides: &[Side; 2], color: Color) -> S {
        let (pos, t, w) = (self.pos, self.t, self.w);
        let uncapturable = self.tables.uncapturable_mask;
        let (own, enemy) = (&sides[color as usize], &sides[1 - color as usize]);
        let mut bonus = S::default();
        for &sq in pos.pieces_of(color.opposite()) {
            if !own.att.contains(sq) {
                continue;
            }
            let Some(p) = pos.piece_at(sq) else { continue };
            let info = &t.kinds[p.kind().index()];
            if info.royal || uncapturable & (1 << p.kind().0) != 0 {
                continue;
            }
            if !info.pawn && own.pawn_attacks.contains(sq) {
                bonus += w.threat_pawn;
            } else if own.lesser.contains(sq) {
                bonus += w.threat_lesser;
            }
            if !info.pawn && own.royal_att.contains(sq) {
                bonus += w.threat_king;
            }
            if !enemy.att.contains(sq) {
                bonus += w.hanging;
            }
        }
        bonus
    }

    /// `threat_push` for each enemy piece (not a pawn, not royal) one of `color`'s pawns would
    /// attack after a step forward to an empty square that no enemy pawn attacks and that the
    /// enemy does not attack unless `color` defends it.
    #[inline(never)]
    pub(super) fn push_threats(&self, sides: &[Side; 2], color: Color) -> S {
        let (pos, t, shape, tables) = (self.pos, self.t, self.shape, self.tables);
        let uncapturable = tables.uncapturable_mask;
        let (own, enemy) = (&sides[color as usize], &sides[1 - color as usize]);
        let mut targets = SquareSet::EMPTY;
        for &sq in &own.pawns[..own.npawns] {
            let Some(p) = pos.piece_at(sq) else { continue };
            let Some(to) = shape.offset(sq, 0, color.forward()) else {
                continue;
            };
            if pos.piece_at(to).is_some()
                || enemy.pawn_attacks.contains(to)
                || (enemy.att.contains(to) && !own.att.contains(to))
            {
                continue;
            }
            let k = p.kind().index();
            for ray in tables.rays(k, color, to) {
                if ray.modes & mode::CAPTURE != 0 && ray.modes & mode::HOP == 0 && ray.first_dest == 0 {
                    let target = tables.ray_squares(ray)[0];
                    let enemy_piece = pos.piece_at(target).filter(|q| q.color() != color);
                    if let Some(q) = enemy_piece {
                        let info = &t.kinds[q.kind().index()];
                        if !info.pawn && !info.royal && uncapturable & (1 << q.kind().0) == 0 {
                            targets.insert(target);
                        }
                    }
                }
            }
        }
        let n = targets.len() as i32;
        s(self.w.threat_push.mg * n, self.w.threat_push.eg * n)
    }
}
