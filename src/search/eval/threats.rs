//! Threats: enemy pieces attacked by pawns, by pieces worth less, or undefended.

use crate::core::Color;

use super::{S, Shared, Side};

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
            if !enemy.att.contains(sq) {
                bonus += w.hanging;
            }
        }
        bonus
    }
}
