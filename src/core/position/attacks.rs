//! Attack detection: is a square attacked, by leapers, riders, hoppers and hook pieces; check.

use super::*;

impl Position {
    /// Is `target` attacked by a piece of colour `by`? Roses count as capturable here.
    pub fn is_attacked(&self, target: Square, by: Color) -> bool {
        let v = &*self.variant;
        let t = &v.tables;
        let board = &self.men.board;
        let by_bit = by as u8;
        for a in t.leap_attacks(by, target) {
            let b = board[a.from.index()];
            if b != EMPTY
                && b & 1 == by_bit
                && a.mask & (1 << (b >> 1)) != 0
                && (a.block.is_none() || board[a.block.index()] == EMPTY)
            {
                return true;
            }
        }
        for r in t.ride_attacks(by, target) {
            let squares = t.ride_squares(r);
            let mut screened = !r.hop;
            for (i, s) in squares.iter().enumerate() {
                let b = board[s.index()];
                if b == EMPTY {
                    continue;
                }
                if !screened {
                    screened = true;
                    continue;
                }
                if b & 1 == by_bit && r.mask & (1 << (b >> 1)) != 0 && (r.max_steps == 0 || i < r.max_steps as usize) {
                    return true;
                }
                break;
            }
        }
        if t.hook_mask != 0 && self.has_hook_pieces(by) {
            for &from in self.pieces_of(by) {
                let p = Piece(board[from.index()]);
                if let Some(hook) = v.piece(p.kind()).hook
                    && hook.attacks(self, from, target)
                {
                    return true;
                }
            }
        }
        false
    }

    /// Does colour `color` have any hook piece on the board?
    #[inline]
    pub fn has_hook_pieces(&self, color: Color) -> bool {
        let mask = self.variant.tables.hook_mask;
        if mask == 0 {
            return false;
        }
        self.men.counts[color as usize]
            .iter()
            .enumerate()
            .any(|(k, &n)| n > 0 && mask & (1 << k) != 0)
    }

    /// Is any king of `color` attacked?
    #[inline]
    pub fn king_attacked(&self, color: Color) -> bool {
        let them = color.opposite();
        self.kings(color).iter().any(|&k| self.is_attacked(k, them))
    }

    /// Is the side to move in check?
    #[inline]
    pub fn in_check(&self) -> bool {
        self.king_attacked(self.side)
    }
}
