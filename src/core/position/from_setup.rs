//! Between raw setup data and a position: validation (`from_setup`, with castling rights and the
//! e.p. square resolved against the board) and the way back (`to_setup`).

use std::sync::Arc;

use super::*;

impl Position {
    /// Validates raw setup data into a position.
    ///
    /// # Errors
    ///
    /// The setup is not a position of `variant` (the board's size, a piece it lacks, a king missing,
    /// rights or e.p. that cannot hold): the [`PositionError`] says which.
    pub fn from_setup(variant: &Arc<Variant>, setup: &Setup) -> Result<Position, PositionError> {
        let v = &**variant;
        let shape = v.shape;
        let z = &v.tables.zobrist;
        if setup.board.len() != shape.ranks as usize {
            return Err(PositionError::BoardSize {
                expected: (shape.files, shape.ranks),
                found: (setup.board.first().map_or(0, Vec::len), setup.board.len()),
                rank: None,
            });
        }
        let mut men = Placement::empty();
        let mut kings = [[Square::NONE; MAX_KINGS]; 2];
        let mut king_count = [0u8; 2];
        for (row, cells) in setup.board.iter().enumerate() {
            let rank = shape.ranks as usize - 1 - row;
            if cells.len() != shape.files as usize {
                return Err(PositionError::BoardSize {
                    expected: (shape.files, shape.ranks),
                    found: (cells.len(), setup.board.len()),
                    rank: Some(rank),
                });
            }
            for (file, cell) in cells.iter().enumerate() {
                let Some(letter) = *cell else { continue };
                let kind = if setup.promoted.contains(&(file as u8, rank as u8)) {
                    v.promoted_kind_by_letter(letter)
                        .ok_or(PositionError::NotPromoted(letter))?
                } else {
                    v.kind_by_letter(letter).ok_or(PositionError::UnknownPiece(letter))?
                };
                let color = if letter.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                let sq = shape.square(file as u8, rank as u8);
                let pt = v.piece(kind);
                // A piece that must promote may not stand in its zone; one that may stay
                // unpromoted only not where it could never move again.
                let must_promote = match &pt.promotion {
                    Some(p) if p.optional => &v.tables.immobile,
                    _ => &v.tables.promotion_zone,
                };
                if must_promote[kind.index() * 2 + color as usize].contains(sq) {
                    return Err(PositionError::UnpromotedPiece(letter));
                }
                if pt.royalty == Royalty::King {
                    let c = color as usize;
                    if king_count[c] as usize >= MAX_KINGS.min(v.max_kings) {
                        return Err(PositionError::KingCount {
                            color,
                            found: king_count[c] as usize + 1,
                        });
                    }
                    kings[c][king_count[c] as usize] = sq;
                    king_count[c] += 1;
                }
                men.put(z, Piece::new(kind, color), sq);
            }
        }
        if v.king_kinds().next().is_some() {
            for color in Color::BOTH {
                if king_count[color as usize] == 0 {
                    return Err(PositionError::KingCount { color, found: 0 });
                }
            }
        }
        let mut hand = [[0u8; MAX_KINDS]; 2];
        for &letter in &setup.holdings {
            let kind = v.kind_by_letter(letter).ok_or(PositionError::UnknownPiece(letter))?;
            if v.piece(kind).drop.is_none() {
                return Err(PositionError::NotDroppable(letter));
            }
            let color = if letter.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let count = &mut hand[color as usize][kind.index()];
            if *count as usize >= MAX_SQUARES {
                return Err(PositionError::HandTooLarge(letter));
            }
            *count += 1;
        }
        let mut pos = Position {
            variant: Arc::clone(variant),
            men,
            hand,
            kings,
            king_count,
            side: setup.side,
            castling: 0,
            castle_rooks: [[Square::NONE; 2]; 2],
            king_origin: [Square::NONE; 2],
            ep: EnPassant::NONE,
            halfmove: setup.halfmove,
            reversible: 0,
            fullmove: setup.fullmove.max(1),
            continuation: false,
            undo: Vec::with_capacity(256),
            history: Vec::with_capacity(256),
        };
        pos.set_castling(&setup.castling)?;
        if let Some((file, rank)) = setup.ep
            && file < shape.files
            && rank < shape.ranks
        {
            pos.set_ep_from_fen(shape.square(file, rank));
        }
        pos.men.hash ^= pos.keys_outside_placement();
        // The side that just moved may not have left its king attacked.
        if pos.king_attacked(pos.side.opposite()) {
            return Err(PositionError::OpponentInCheck);
        }
        Ok(pos)
    }

    /// Resolves castling rights: the outermost castling rook on a side of the king (X-FEN K/Q),
    /// or a rook's file (Shredder/X-FEN). Rights whose king or rook is not in place are dropped.
    pub(super) fn set_castling(&mut self, rights: &[CastlingRight]) -> Result<(), PositionError> {
        let v = Arc::clone(&self.variant);
        let shape = v.shape;
        let Some(rule) = &v.castling else {
            return Ok(());
        };
        for &right in rights {
            let color = right.color;
            let ci = color as usize;
            // The castling king: the variant's king, standing where kings castle from.
            if self.king_count[ci] == 0 {
                continue;
            }
            let ksq = self.kings[ci][0];
            let krank = shape.rank(ksq);
            let kfile = shape.file(ksq);
            if krank != rule.king_ranks[ci] || !rule.king_files.contains(&kfile) {
                continue;
            }
            let is_rook = |sq: Square| {
                let b = self.men.board[sq.index()];
                b != EMPTY && Piece(b).color() == color && v.piece(Piece(b).kind()).castling_rook
            };
            let rook = match right.rook {
                // K and Q name the rooks' squares of the start position (X-FEN's outermost rook
                // there); a rook anywhere else has no right (pillage C-3).
                CastlingRook::Kingside => rule.rook_files[0]
                    .map(|f| shape.square(f, krank))
                    .filter(|&s| shape.file(s) > kfile && is_rook(s)),
                CastlingRook::Queenside => rule.rook_files[1]
                    .map(|f| shape.square(f, krank))
                    .filter(|&s| shape.file(s) < kfile && is_rook(s)),
                CastlingRook::File(f) => {
                    if f >= shape.files || f == kfile {
                        return Err(PositionError::BadCastling(right));
                    }
                    Some(shape.square(f, krank)).filter(|&s| is_rook(s))
                }
            };
            let Some(rsq) = rook else { continue };
            let side = if shape.file(rsq) > kfile { 0 } else { 1 };
            self.castle_rooks[ci][side] = rsq;
            self.king_origin[ci] = ksq;
            self.castling |= 1 << (ci * 2 + side);
        }
        Ok(())
    }

    /// The e.p. square from a FEN: kept only if an enemy multi-stepper stands beyond it and a pawn
    /// of the side to move can really capture.
    pub(super) fn set_ep_from_fen(&mut self, first: Square) {
        let v = Arc::clone(&self.variant);
        let mover = self.side.opposite();
        let mut sq = first;
        loop {
            let Some(next) = v.shape.offset(sq, 0, mover.forward()) else {
                return;
            };
            let b = self.men.board[next.index()];
            if b == EMPTY {
                sq = next;
                continue;
            }
            let p = Piece(b);
            // The victim must have come from the square behind `first` with one multi-step push.
            let came_from = v.shape.offset(first, 0, -mover.forward());
            let pushed_there = came_from.is_some_and(|origin| {
                self.men.board[origin.index()] == EMPTY
                    && v.tables
                        .rays(p.kind().index(), mover, origin)
                        .iter()
                        .any(|r| r.multi_step && v.tables.ray_squares(r).iter().skip(1).any(|&s| s == next))
            });
            if p.color() == mover
                && v.piece(p.kind()).en_passant_victim
                && self.men.board[first.index()] == EMPTY
                && pushed_there
            {
                let ep = EnPassant { first, victim: next };
                if self.ep_capturable(&ep, self.side) {
                    self.ep = ep;
                }
            }
            return;
        }
    }

    /// Can a piece of `capturer` capture en passant into `ep`?
    pub(super) fn ep_capturable(&self, ep: &EnPassant, capturer: Color) -> bool {
        let v = &*self.variant;
        let shape = v.shape;
        let mover = capturer.opposite();
        let mut t = ep.first;
        while t != ep.victim {
            for a in v.tables.ep_attacks(capturer, t) {
                let b = self.men.board[a.from.index()];
                if b != EMPTY && Piece(b).color() == capturer && a.mask & (1 << Piece(b).kind().0) != 0 {
                    return true;
                }
            }
            match shape.offset(t, 0, mover.forward()) {
                Some(n) => t = n,
                None => return false,
            }
        }
        false
    }

    /// The raw setup of this position (for FEN output).
    pub fn to_setup(&self) -> Setup {
        let v = &*self.variant;
        let shape = v.shape;
        let board = (0..shape.ranks)
            .rev()
            .map(|r| {
                (0..shape.files)
                    .map(|f| self.piece_at(shape.square(f, r)).map(|p| v.letter(p.kind(), p.color())))
                    .collect()
            })
            .collect();
        let promoted = shape
            .squares()
            .filter(|&sq| {
                self.piece_at(sq)
                    .is_some_and(|p| v.piece(p.kind()).promoted_from.is_some())
            })
            .map(|sq| (shape.file(sq), shape.rank(sq)))
            .collect();
        let mut holdings = Vec::new();
        for color in Color::BOTH {
            for (k, _) in v.pieces.iter().enumerate() {
                for _ in 0..self.hand[color as usize][k] {
                    holdings.push(v.letter(Kind(k as u8), color));
                }
            }
        }
        let mut castling = Vec::new();
        for color in Color::BOTH {
            for side in 0..2 {
                if let Some(rsq) = self.castling_rook(color, side) {
                    // As X-FEN states it: by side when the rook is the outermost castling rook
                    // there, else by its file.
                    let ksq = self.king_origin[color as usize];
                    let rook = match (self.is_outermost_rook(color, ksq, rsq), side) {
                        (true, 0) => CastlingRook::Kingside,
                        (true, _) => CastlingRook::Queenside,
                        (false, _) => CastlingRook::File(shape.file(rsq)),
                    };
                    castling.push(CastlingRight { color, rook });
                }
            }
        }
        Setup {
            board,
            promoted,
            holdings,
            side: self.side,
            castling,
            ep: (!self.ep.is_none()).then(|| (shape.file(self.ep.first), shape.rank(self.ep.first))),
            halfmove: self.halfmove,
            fullmove: self.fullmove,
        }
    }

    pub(super) fn is_outermost_rook(&self, color: Color, ksq: Square, rsq: Square) -> bool {
        let v = &*self.variant;
        let shape = v.shape;
        let (kf, rf, rank) = (shape.file(ksq), shape.file(rsq), shape.rank(rsq));
        let beyond: Vec<u8> = if rf > kf {
            (rf + 1..shape.files).collect()
        } else {
            (0..rf).collect()
        };
        !beyond.into_iter().any(|f| {
            self.piece_at(shape.square(f, rank))
                .is_some_and(|p| p.color() == color && v.piece(p.kind()).castling_rook)
        })
    }
}
