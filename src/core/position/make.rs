//! Make and unmake: playing a move (or a null move) with everything needed to take it back.

use std::sync::Arc;

use super::*;
use crate::core::moves::piece_move;

/// Everything needed to take a move back.
#[derive(Clone)]
pub(super) struct Undo {
    /// The move played; none for a pass (`make_null`).
    pub(super) mv: Option<Move>,
    moved: u8,
    /// Captured (or converted) pieces: square, piece, list index when removed.
    captured: [(Square, u8, u8); 8],
    ncaptured: u8,
    /// List index of the moving piece when it was taken off (promotions, growing roses).
    moved_index: u8,
    castling: u8,
    ep: EnPassant,
    halfmove: u32,
    reversible: u32,
    fullmove: u32,
    hash: u64,
    kings: [[Square; MAX_KINGS]; 2],
    king_count: [u8; 2],
    side: Color,
    continuation: bool,
}

impl Position {
    /// Plays a move (pseudo-legal for this position; legality is the caller's business).
    ///
    /// # Panics
    ///
    /// A multi-step move whose first step leaves the board: no generated move is one.
    pub fn make(&mut self, mv: Move) {
        // SAFETY: the variant lives behind an `Arc` that this position holds and that `make` never
        // replaces, so it outlives this borrow; `&mut self` covers the pointer, not the variant.
        // Borrowed so rather than through a clone of the `Arc`: a clone and its drop are two atomic
        // updates a move on a count that all threads of a parallel search share, and the cache
        // line they fight over also holds the variant's first fields, which every thread reads.
        let v: &Variant = unsafe { &*Arc::as_ptr(&self.variant) };
        let z = &v.tables.zobrist;
        let mut undo = self.undo_record(Some(mv));
        self.leave_position(z);
        // Squares whose castling rights the move may take away.
        let mut touched = [mv.from(), Some(mv.to()), None];
        let resets_clock = match mv {
            Move::Drop { kind, to } => {
                self.drop_from_hand(z, kind, to);
                true
            }
            Move::Castle {
                king_from,
                king_to,
                rook_from,
                rook_to,
            } => {
                self.castle(z, &mut undo, (king_from, king_to), (rook_from, rook_to));
                touched[2] = Some(rook_from);
                false
            }
            Move::Grow { from, to, converts } => {
                self.grow(v, &mut undo, from, to, converts);
                true
            }
            piece_move!(from, to, promotion) => self.move_piece(v, &mut undo, mv, (from, to, promotion), &mut touched),
        };
        if self.castling != 0 {
            for sq in touched.into_iter().flatten() {
                self.clear_castling_at(sq);
            }
        }
        self.halfmove = if resets_clock {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        // Castling rights only ever go: a move that takes some closes the window in any game.
        let one_way = self.castling != undo.castling
            || !v.captures_to_hand
                && match mv {
                    Move::Drop { .. } | Move::Grow { .. } => true,
                    // Its loss of rights (above) closes the window.
                    Move::Castle { .. } => false,
                    piece_move!(from, to, promotion) => {
                        Self::cannot_come_back(v, (Piece(undo.moved), from, to), undo.ncaptured > 0, promotion)
                    }
                };
        self.reversible = if one_way { 0 } else { self.reversible.saturating_add(1) };
        self.undo.push(undo);
        self.pass_the_turn(z, mv);
    }

    /// The first step of every move: the position left goes to the history, and the state that
    /// lasts one move only (a turn going on, an e.p. right) ends.
    #[inline]
    fn leave_position(&mut self, z: &Zobrist) {
        self.history.push(self.men.hash);
        if self.continuation {
            self.men.hash ^= z.continuation;
            self.continuation = false;
        }
        if !self.ep.is_none() {
            self.men.hash ^= z.ep(self.ep.first);
            self.ep = EnPassant::NONE;
        }
    }

    /// A piece of the side to move leaves its hand for `to`.
    #[inline]
    fn drop_from_hand(&mut self, z: &Zobrist, kind: Kind, to: Square) {
        let us = self.side;
        let n = &mut self.hand[us as usize][kind.index()];
        self.men.hash ^= z.hand(kind, us, *n) ^ z.hand(kind, us, *n - 1);
        *n -= 1;
        self.men.put(z, Piece::new(kind, us), to);
    }

    /// King and rook change places as castling says: `(from, to)` for each.
    #[inline]
    fn castle(&mut self, z: &Zobrist, undo: &mut Undo, king: (Square, Square), rook: (Square, Square)) {
        let ((king_from, king_to), (rook_from, rook_to)) = (king, rook);
        undo.moved = self.men.board[king_from.index()];
        // Relocating keeps the piece lists in order; the order of the two avoids overlap (a
        // 1-square castling puts the rook on the king's square, a long one the king on the rook's).
        if rook_to == king_from {
            self.men.relocate(z, king_from, king_to);
            self.men.relocate(z, rook_from, rook_to);
        } else {
            self.men.relocate(z, rook_from, rook_to);
            self.men.relocate(z, king_from, king_to);
        }
        self.move_king(self.side, king_from, king_to);
    }

    /// Growing roses: the piece on `from` goes to `to`, capturing there, and leaves the board; the
    /// enemy unit on `converts` (if any) changes its kind.
    #[inline]
    fn grow(&mut self, v: &Variant, undo: &mut Undo, from: Square, to: Square, converts: Option<Square>) {
        let z = &v.tables.zobrist;
        let (moved, index) = self.men.remove(z, from);
        undo.moved = moved.0;
        undo.moved_index = index;
        if self.men.board[to.index()] != EMPTY {
            let (victim, i) = self.men.remove(z, to);
            undo.captured[0] = (to, victim.0, i);
            undo.ncaptured = 1;
        }
        if let Some(unit_sq) = converts {
            // The converted unit is recorded as captured; unmake puts it back.
            let (unit, i) = self.men.remove(z, unit_sq);
            undo.captured[undo.ncaptured as usize] = (unit_sq, unit.0, i);
            undo.ncaptured += 1;
            let convert = v
                .piece(moved.kind())
                .promotion
                .as_ref()
                .and_then(|p| p.convert)
                .unwrap_or(unit.kind());
            self.men.put(z, Piece::new(convert, unit.color()), unit_sq);
        }
    }

    /// A piece moves from `from` to `to` (or stays, detonating), capturing on the way what the
    /// move says, and promoting. Returns whether the move is irreversible (it captured, or the
    /// piece resets the clock); adds to `touched` a square whose castling right a capture ends.
    #[inline]
    fn move_piece(
        &mut self,
        v: &Variant,
        undo: &mut Undo,
        mv: Move,
        (from, to, promotion): (Square, Square, Option<Kind>),
        touched: &mut [Option<Square>; 3],
    ) -> bool {
        let z = &v.tables.zobrist;
        let us = self.side;
        let moved = Piece(self.men.board[from.index()]);
        undo.moved = moved.0;
        match mv {
            Move::EnPassant { victim, .. } => self.capture_at(v, victim, from, undo),
            Move::Special { victim, blast, .. } => {
                if let Some(sq) = victim {
                    self.capture_at(v, sq, from, undo);
                    touched[2] = Some(sq);
                }
                for (dx, dy) in blast.directions() {
                    if let Some(sq) = v.shape.offset(to, dx, dy) {
                        self.capture_at(v, sq, from, undo);
                        self.clear_castling_at(sq);
                    }
                }
            }
            _ => {}
        }
        if from != to {
            self.capture_at(v, to, from, undo);
            match promotion {
                Some(kind) => {
                    let (_, i) = self.men.remove(z, from);
                    undo.moved_index = i;
                    self.men.put(z, Piece::new(kind, us), to);
                }
                None => self.men.relocate(z, from, to),
            }
            if v.piece(moved.kind()).royalty == Royalty::King {
                self.move_king(us, from, to);
            }
        }
        // A push that promotes leaves no pawn behind to take en passant.
        if let Move::MultiStep { promotion: None, .. } = mv {
            self.open_en_passant(z, from, to);
        }
        undo.ncaptured > 0 || v.piece(moved.kind()).resets_clock
    }

    /// Takes what stands on `sq` (if anything, and not the mover itself on `from`): a king leaves
    /// its side's kings, anything else may go to the capturer's hand.
    #[inline]
    fn capture_at(&mut self, v: &Variant, sq: Square, from: Square, undo: &mut Undo) {
        if self.men.board[sq.index()] == EMPTY || sq == from {
            return;
        }
        let (p, i) = self.men.remove(&v.tables.zobrist, sq);
        if v.piece(p.kind()).royalty == Royalty::King {
            self.drop_king(p.color(), sq);
        } else if v.captures_to_hand {
            self.add_to_hand(self.side, v.hand_kind(p.kind()));
        }
        undo.captured[undo.ncaptured as usize] = (sq, p.0, i);
        undo.ncaptured += 1;
    }

    /// After the pawn's multi-step from `from` to `to`, the squares it skipped are targets if the
    /// other side can take on one.
    #[inline]
    fn open_en_passant(&mut self, z: &Zobrist, from: Square, to: Square) {
        let us = self.side;
        let first = self
            .variant
            .shape
            .offset(from, 0, us.forward())
            .expect("a multi-step passes a square");
        let ep = EnPassant { first, victim: to };
        if self.ep_capturable(&ep, us.opposite()) {
            self.ep = ep;
            self.men.hash ^= z.ep(first);
        }
    }

    /// The last step of a move: the other side moves next, unless a growing rose goes on with
    /// another move of the same side.
    #[inline]
    fn pass_the_turn(&mut self, z: &Zobrist, mv: Move) {
        if matches!(mv, Move::Grow { .. }) && self.has_pseudo_moves() {
            // The turn goes on: the same side makes another move.
            self.continuation = true;
            self.men.hash ^= z.continuation;
            return;
        }
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.opposite();
        self.men.hash ^= z.side;
    }

    /// The state a move (or a pass: `mv` none) changes, saved so that `unmake` can restore it.
    pub(super) fn undo_record(&self, mv: Option<Move>) -> Undo {
        Undo {
            mv,
            moved: EMPTY,
            captured: [(Square::NONE, EMPTY, 0); 8],
            ncaptured: 0,
            moved_index: 0,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            reversible: self.reversible,
            fullmove: self.fullmove,
            hash: self.men.hash,
            kings: self.kings,
            king_count: self.king_count,
            side: self.side,
            continuation: self.continuation,
        }
    }

    /// Passes: the other side moves next (for null-move pruning in the search); `unmake_null`
    /// takes it back. Not available in the middle of a turn of several moves.
    pub fn make_null(&mut self) {
        let z = &self.variant.tables.zobrist;
        let undo = self.undo_record(None);
        self.history.push(self.men.hash);
        if !self.ep.is_none() {
            self.men.hash ^= z.ep(self.ep.first);
            self.ep = EnPassant::NONE;
        }
        self.halfmove = self.halfmove.saturating_add(1);
        // A repetition across a pass is none: the pass is no move of the game.
        self.reversible = 0;
        self.side = self.side.opposite();
        self.men.hash ^= z.side;
        self.undo.push(undo);
    }

    /// Does the side to move have any pseudo-legal move?
    pub(super) fn has_pseudo_moves(&self) -> bool {
        let mut list = crate::core::moves::MoveList::new();
        self.generate_pseudo(&mut list);
        !list.is_empty()
    }

    /// Is the side to move in the middle of a turn of several moves?
    #[inline]
    pub fn in_continuation(&self) -> bool {
        self.continuation
    }

    pub(super) fn clear_castling_at(&mut self, sq: Square) {
        if self.castling == 0 {
            return;
        }
        let z = &self.variant.tables.zobrist;
        let before = self.castling;
        for c in 0..2 {
            if self.king_origin[c] == sq {
                self.castling &= !(3 << (c * 2));
            }
            for side in 0..2 {
                if self.castle_rooks[c][side] == sq {
                    self.castling &= !(1 << (c * 2 + side));
                }
            }
        }
        if before != self.castling {
            self.men.hash ^= z.castling(before) ^ z.castling(self.castling);
        }
    }

    /// A captured piece goes to the capturer's hand (the hash follows the count).
    fn add_to_hand(&mut self, color: Color, kind: Kind) {
        let z = &self.variant.tables.zobrist;
        let n = &mut self.hand[color as usize][kind.index()];
        self.men.hash ^= z.hand(kind, color, *n) ^ z.hand(kind, color, n.saturating_add(1));
        *n = n.saturating_add(1);
    }

    pub(super) fn move_king(&mut self, color: Color, from: Square, to: Square) {
        let c = color as usize;
        for k in &mut self.kings[c][..self.king_count[c] as usize] {
            if *k == from {
                *k = to;
                return;
            }
        }
    }

    pub(super) fn drop_king(&mut self, color: Color, sq: Square) {
        let c = color as usize;
        let n = self.king_count[c] as usize;
        if let Some(i) = self.kings[c][..n].iter().position(|&k| k == sq) {
            self.kings[c][i] = self.kings[c][n - 1];
            self.king_count[c] -= 1;
        }
    }

    /// Takes back the last move. Returns it, or `None` if there is none to take back (nothing
    /// played, or a pass last: `unmake_null` takes that back).
    pub fn unmake(&mut self) -> Option<Move> {
        let mv = self.undo.last()?.mv?;
        let undo = self.undo.pop()?;
        let v = &*self.variant;
        let z = &v.tables.zobrist;
        let us = undo.side;
        // Every step of `make` is undone in reverse order, so the piece lists come back exactly.
        let captured = &undo.captured[..undo.ncaptured as usize];
        match mv {
            Move::Drop { kind, to } => {
                self.men.take_back(z, to);
                self.hand[us as usize][kind.index()] += 1;
            }
            Move::Castle {
                king_from,
                king_to,
                rook_from,
                rook_to,
            } => {
                if rook_to == king_from {
                    self.men.relocate(z, rook_to, rook_from);
                    self.men.relocate(z, king_to, king_from);
                } else {
                    self.men.relocate(z, king_to, king_from);
                    self.men.relocate(z, rook_to, rook_from);
                }
            }
            Move::Grow { from, converts, .. } => {
                if let Some(unit_sq) = converts {
                    self.men.take_back(z, unit_sq);
                }
                for &(sq, p, i) in captured.iter().rev() {
                    self.men.restore(z, Piece(p), sq, i);
                }
                self.men.restore(z, Piece(undo.moved), from, undo.moved_index);
            }
            piece_move!(from, to, promotion) => {
                if from != to {
                    if promotion.is_some() {
                        self.men.take_back(z, to);
                        self.men.restore(z, Piece(undo.moved), from, undo.moved_index);
                    } else {
                        self.men.relocate(z, to, from);
                    }
                }
                for &(sq, p, i) in captured.iter().rev() {
                    let p = Piece(p);
                    if v.captures_to_hand && v.piece(p.kind()).royalty != Royalty::King {
                        self.hand[us as usize][v.hand_kind(p.kind()).index()] -= 1;
                    }
                    self.men.restore(z, p, sq, i);
                }
            }
        }
        self.restore_state(&undo);
        Some(mv)
    }

    /// Takes back a pass (`make_null`); nothing if the last thing played was a move.
    pub fn unmake_null(&mut self) {
        let pass_last = self.undo.last().is_some_and(|u| u.mv.is_none());
        debug_assert!(pass_last, "no pass to take back");
        if pass_last && let Some(undo) = self.undo.pop() {
            self.restore_state(&undo);
        }
    }

    /// Restores what `undo_record` saved, the move or pass taken back off the board already.
    fn restore_state(&mut self, undo: &Undo) {
        self.history.pop();
        self.side = undo.side;
        self.continuation = undo.continuation;
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.reversible = undo.reversible;
        self.fullmove = undo.fullmove;
        self.kings = undo.kings;
        self.king_count = undo.king_count;
        self.men.hash = undo.hash;
    }

    /// Pieces a move would capture, with their squares (for ordering, SEE and notation).
    pub fn captures_of(&self, mv: &Move) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let shape = self.variant.shape;
        let mut squares = [Square::NONE; 10];
        match *mv {
            Move::Normal { to, .. } | Move::MultiStep { to, .. } | Move::Grow { to, .. } => squares[0] = to,
            Move::EnPassant { victim, .. } => squares[0] = victim,
            Move::Special {
                from,
                to,
                victim,
                blast,
                ..
            } => {
                if from != to {
                    squares[0] = to;
                }
                squares[1] = victim.unwrap_or(Square::NONE);
                for (i, &(dx, dy)) in NEIGHBOURS.iter().enumerate() {
                    if blast.0 & (1 << i) != 0 {
                        squares[2 + i] = shape.offset(to, dx, dy).unwrap_or(Square::NONE);
                    }
                }
            }
            Move::Castle { .. } | Move::Drop { .. } => {}
        }
        let us = self.side;
        squares.into_iter().filter_map(move |sq| {
            if sq.is_none() {
                return None;
            }
            self.piece_at(sq).filter(|p| p.color() != us).map(|p| (sq, p))
        })
    }

    /// Does the move capture anything?
    pub fn is_capture(&self, mv: &Move) -> bool {
        self.captures_of(mv).next().is_some()
    }
}

#[cfg(test)]
mod tests {
    use crate::core::test_positions::{legal_move, play};
    use crate::core::{Color, Position};
    use crate::variants::Registry;

    /// A pass hands the move over and clears e.p.; it is no move played, `unmake` leaves it to
    /// `unmake_null`, and that brings the position back exactly.
    #[test]
    fn a_pass_is_no_move_and_unmake_null_takes_it_back() {
        let chess = Registry::builtin().get("normal").expect("built-in");
        let mut p = Position::start(&chess);
        play(&mut p, &["e2e4", "d7d5", "e4e5", "f7f5"]);
        let before = (p.hash(), p.en_passant(), p.halfmove_clock(), p.history().len());
        let f7f5 = p.last_move();
        assert!(!before.1.is_none(), "e5 may take f6 e.p.");
        p.make_null();
        assert_eq!(p.side_to_move(), Color::Black);
        assert!(p.en_passant().is_none());
        assert_ne!(p.hash(), before.0);
        assert_eq!((p.plies_played(), p.moves_played().count()), (5, 4));
        assert_eq!(p.last_move(), None);
        assert_eq!(p.unmake(), None, "a pass is not a move to take back");
        assert_eq!(p.plies_played(), 5);
        p.unmake_null();
        assert_eq!(p.side_to_move(), Color::White);
        assert_eq!(
            (p.hash(), p.en_passant(), p.halfmove_clock(), p.history().len()),
            before
        );
        legal_move(&mut p, "e5f6");
        assert_eq!(p.unmake(), f7f5);
        assert_eq!(p.plies_played(), 3);
    }
}
