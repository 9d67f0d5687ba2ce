//! Attack detection: is a square attacked, by leapers, riders, hoppers and hook pieces; check;
//! the attackers of a square on a board with pieces taken off (static exchange evaluation).

use std::ops::ControlFlow;

use super::*;

impl Position {
    /// Calls `found` for each piece of colour `by` that attacks `target` by the variant's attack
    /// tables (leaps, lame leaps, rides, hops; not hook pieces, see `is_attacked`), leapers first,
    /// on the board `piece_on` describes: the real one (`|s| pos.piece_at(s)`) or one with pieces
    /// taken off, so that x-rays and hops over vacated squares come out right. Stops at the first
    /// `Break`.
    #[inline(always)]
    pub fn table_attackers<B>(
        &self,
        target: Square,
        by: Color,
        piece_on: impl Fn(Square) -> Option<Piece>,
        mut found: impl FnMut(Square, Piece) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let t = &self.variant.tables;
        for a in t.leap_attacks(by, target) {
            let Some(p) = piece_on(a.from) else { continue };
            if p.color() == by && a.mask & (1 << p.kind().0) != 0 && (a.block.is_none() || piece_on(a.block).is_none())
            {
                found(a.from, p)?;
            }
        }
        for r in t.ride_attacks(by, target) {
            let mut screened = !r.hop;
            for (i, &s) in t.ride_squares(r).iter().enumerate() {
                let Some(p) = piece_on(s) else { continue };
                if !screened {
                    screened = true;
                    continue;
                }
                if p.color() == by && r.mask & (1 << p.kind().0) != 0 && (r.max_steps == 0 || i < r.max_steps as usize)
                {
                    found(s, p)?;
                }
                break;
            }
        }
        ControlFlow::Continue(())
    }

    /// Is `target` attacked by a piece of colour `by`? Roses count as capturable here.
    pub fn is_attacked(&self, target: Square, by: Color) -> bool {
        let by_table = self.table_attackers(target, by, |s| self.piece_at(s), |_, _| ControlFlow::Break(()));
        if by_table.is_break() {
            return true;
        }
        let v = &*self.variant;
        let t = &v.tables;
        let board = &self.men.board;
        if t.hook_mask != 0 && self.has_hook_pieces(by) {
            // A hook piece attacks only along the queen lines through the target.
            let lines = t.queen_lines(target);
            for &from in self.pieces_of(by) {
                if !lines.contains(from) {
                    continue;
                }
                let p = Piece(board[from.index()]);
                if t.hook_mask & (1 << p.kind().0) != 0
                    && let Some(hook) = v.piece(p.kind()).hook
                    && hook.attacks(self, from, target)
                {
                    return true;
                }
            }
        }
        false
    }

    /// Do the attack tables show that the move cannot give check? True only for an ordinary move
    /// (`Normal`, `MultiStep`, `Drop`) that neither lands on a square from which some piece type
    /// attacks an enemy king nor leaves or enters a line towards one, nor, in a game with hook
    /// pieces, leaves or enters a queen line from one (`Tables::queen_lines`: the only squares a
    /// hook's attack on the king reads). False means that only playing the move can tell.
    #[inline]
    pub fn cannot_give_check(&self, mv: &Move) -> bool {
        if !matches!(mv, Move::Normal { .. } | Move::MultiStep { .. } | Move::Drop { .. }) {
            return false;
        }
        let us = self.side;
        let t = &self.variant.tables;
        let (from, to) = (mv.from(), mv.to());
        let hooks = t.hook_mask != 0;
        !self.kings(us.opposite()).iter().any(|&k| {
            let lines = t.line_mask(us, k);
            from.is_some_and(|from| lines.contains(from))
                || lines.contains(to)
                || t.leap_attacks(us, k).iter().any(|a| a.from == to)
                || (hooks && {
                    let queen = t.queen_lines(k);
                    from.is_some_and(|from| queen.contains(from)) || queen.contains(to)
                })
        })
    }

    /// Does colour `color` have any hook piece on the board?
    #[inline]
    pub fn has_hook_pieces(&self, color: Color) -> bool {
        let mask = self.variant.tables.hook_mask;
        if mask == 0 {
            return false;
        }
        // The hook kinds alone, lowest first (a game has few).
        let counts = &self.men.counts[color as usize];
        let mut rest = mask;
        while rest != 0 {
            if counts[rest.trailing_zeros() as usize] > 0 {
                return true;
            }
            rest &= rest - 1;
        }
        false
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
