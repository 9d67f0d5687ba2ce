//! The position's hash: keys beyond the placement (side, rights, e.p., hands), and the hash
//! computed from scratch that tests compare with the incremental one (likewise the pawn hash).

use super::*;

impl Position {
    pub(super) fn keys_outside_placement(&self) -> u64 {
        let z = &self.variant.tables.zobrist;
        let mut h = z.castling(self.castling);
        if self.side == Color::Black {
            h ^= z.side;
        }
        if self.continuation {
            h ^= z.continuation;
        }
        if !self.ep.is_none() {
            h ^= z.ep(self.ep.first);
        }
        for c in Color::BOTH {
            for k in 0..self.variant.pieces.len() {
                h ^= z.hand(Kind(k as u8), c, self.hand[c as usize][k]);
            }
        }
        h
    }

    /// The hash computed from scratch (tests compare it with the incremental one).
    pub fn recomputed_hash(&self) -> u64 {
        let z = &self.variant.tables.zobrist;
        let mut h = self.keys_outside_placement();
        for sq in self.variant.shape.squares() {
            let b = self.men.board[sq.index()];
            if b != EMPTY {
                h ^= z.piece(Piece(b), sq);
            }
        }
        h
    }

    /// The pawn hash computed from scratch (tests compare it with the incremental one).
    pub fn recomputed_pawn_hash(&self) -> u64 {
        let z = &self.variant.tables.zobrist;
        let mut h = 0;
        for sq in self.variant.shape.squares() {
            let b = self.men.board[sq.index()];
            if b != EMPTY && self.variant.piece(Piece(b).kind()).promotion.is_some() {
                h ^= z.piece(Piece(b), sq);
            }
        }
        h
    }
}
