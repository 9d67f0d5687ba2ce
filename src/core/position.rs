//! A position of any variant: placement, hands, side to move, castling, en passant, counters and
//! the undo stack; make/unmake and attack detection. Built from a validated `Setup`.

use std::sync::Arc;

use super::geometry::{Color, MAX_SQUARES, Square};
use super::moves::{Move, MoveKind, NEIGHBOURS};
use super::piece::{Kind, MAX_KINDS, Piece, Royalty};
use super::setup::{CastlingRight, CastlingRook, PositionError, Setup};
use super::variant::Variant;
use super::zobrist::Zobrist;

/// Board value of an empty square.
pub const EMPTY: u8 = 0xFF;
/// Most king-royal pieces per side.
pub const MAX_KINGS: usize = 4;

/// En-passant state: the pawn that just moved several squares (`victim`) and the first square it
/// skipped; every square from `first` up to the victim is a target.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct EnPassant {
    pub first: Square,
    pub victim: Square,
}

impl EnPassant {
    pub const NONE: EnPassant = EnPassant {
        first: Square::NONE,
        victim: Square::NONE,
    };

    #[inline]
    pub fn is_none(&self) -> bool {
        self.first.is_none()
    }
}

/// Piece placement with piece lists, counts per type and the incremental hash.
#[derive(Clone)]
pub(crate) struct Placement {
    pub board: [u8; MAX_SQUARES],
    pub list: [[Square; MAX_SQUARES]; 2],
    pub len: [u8; 2],
    pub idx: [u8; MAX_SQUARES],
    pub counts: [[u8; MAX_KINDS]; 2],
    pub hash: u64,
}

impl Placement {
    fn empty() -> Placement {
        Placement {
            board: [EMPTY; MAX_SQUARES],
            list: [[Square::NONE; MAX_SQUARES]; 2],
            len: [0; 2],
            idx: [0; MAX_SQUARES],
            counts: [[0; MAX_KINDS]; 2],
            hash: 0,
        }
    }

    #[inline]
    pub fn put(&mut self, z: &Zobrist, p: Piece, sq: Square) {
        let c = p.color() as usize;
        self.board[sq.index()] = p.0;
        self.idx[sq.index()] = self.len[c];
        self.list[c][self.len[c] as usize] = sq;
        self.len[c] += 1;
        self.counts[c][p.kind().index()] += 1;
        self.hash ^= z.piece(p, sq);
    }

    /// Takes the piece off `sq`; the last piece of its list takes its place there. Returns the
    /// piece and its list index, which `restore` needs to undo this exactly.
    #[inline]
    pub fn remove(&mut self, z: &Zobrist, sq: Square) -> (Piece, u8) {
        let p = Piece(self.board[sq.index()]);
        let c = p.color() as usize;
        self.board[sq.index()] = EMPTY;
        let i = self.idx[sq.index()] as usize;
        self.len[c] -= 1;
        let last = self.list[c][self.len[c] as usize];
        self.list[c][i] = last;
        self.idx[last.index()] = i as u8;
        self.counts[c][p.kind().index()] -= 1;
        self.hash ^= z.piece(p, sq);
        (p, i as u8)
    }

    /// Undoes `remove` (called in reverse order), so that the piece lists come back in the same
    /// order — searches of the same position then visit moves in the same order.
    #[inline]
    pub fn restore(&mut self, z: &Zobrist, p: Piece, sq: Square, index: u8) {
        let c = p.color() as usize;
        let len = self.len[c];
        if index < len {
            let moved = self.list[c][index as usize];
            self.list[c][len as usize] = moved;
            self.idx[moved.index()] = len;
        }
        self.list[c][index as usize] = sq;
        self.idx[sq.index()] = index;
        self.len[c] += 1;
        self.board[sq.index()] = p.0;
        self.counts[c][p.kind().index()] += 1;
        self.hash ^= z.piece(p, sq);
    }

    /// Takes off the piece that was put last (the inverse of `put`).
    #[inline]
    pub fn take_back(&mut self, z: &Zobrist, sq: Square) -> Piece {
        let (p, _) = self.remove(z, sq);
        p
    }

    #[inline]
    pub fn relocate(&mut self, z: &Zobrist, from: Square, to: Square) {
        let p = Piece(self.board[from.index()]);
        let c = p.color() as usize;
        self.board[from.index()] = EMPTY;
        self.board[to.index()] = p.0;
        let i = self.idx[from.index()];
        self.idx[to.index()] = i;
        self.list[c][i as usize] = to;
        self.hash ^= z.piece(p, from) ^ z.piece(p, to);
    }
}

/// Everything needed to take a move back.
#[derive(Clone)]
struct Undo {
    mv: Move,
    moved: u8,
    /// Captured (or converted) pieces: square, piece, list index when removed.
    captured: [(Square, u8, u8); 8],
    ncaptured: u8,
    /// List index of the moving piece when it was taken off (promotions, growing roses).
    moved_index: u8,
    /// A null move (a pass in the search).
    null: bool,
    castling: u8,
    ep: EnPassant,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
    kings: [[Square; MAX_KINGS]; 2],
    king_count: [u8; 2],
    side: Color,
    continuation: bool,
}

/// A position.
#[derive(Clone)]
pub struct Position {
    variant: Arc<Variant>,
    pub(crate) men: Placement,
    hand: [[u8; MAX_KINDS]; 2],
    kings: [[Square; MAX_KINGS]; 2],
    king_count: [u8; 2],
    side: Color,
    /// Bit `colour * 2 + side`: side 0 castles towards higher files, 1 towards lower files.
    castling: u8,
    castle_rooks: [[Square; 2]; 2],
    king_origin: [Square; 2],
    ep: EnPassant,
    halfmove: u32,
    fullmove: u32,
    /// The side to move is in the middle of a turn of several moves (after growing roses).
    continuation: bool,
    undo: Vec<Undo>,
    /// Hashes of the positions before each move made, oldest first.
    history: Vec<u64>,
}

impl Position {
    /// The variant's start position.
    pub fn start(variant: &Arc<Variant>) -> Position {
        Position::from_setup(variant, &variant.start)
            .expect("the start position is validated when the variant is built")
    }

    /// Validates raw setup data into a position.
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
                let kind = v.kind_by_letter(letter).ok_or(PositionError::UnknownPiece(letter))?;
                let color = if letter.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                let sq = shape.square(file as u8, rank as u8);
                let pt = v.piece(kind);
                if v.tables.promotion_zone[kind.index() * 2 + color as usize].contains(sq) {
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
    fn set_castling(&mut self, rights: &[CastlingRight]) -> Result<(), PositionError> {
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
    fn set_ep_from_fen(&mut self, first: Square) {
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
    fn ep_capturable(&self, ep: &EnPassant, capturer: Color) -> bool {
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

    fn keys_outside_placement(&self) -> u64 {
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

    // ----- accessors -----

    #[inline]
    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    pub fn hash(&self) -> u64 {
        self.men.hash
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let b = self.men.board[sq.index()];
        (b != EMPTY).then_some(Piece(b))
    }

    #[inline]
    pub fn hand_count(&self, color: Color, kind: Kind) -> u8 {
        self.hand[color as usize][kind.index()]
    }

    #[inline]
    pub fn count(&self, color: Color, kind: Kind) -> u8 {
        self.men.counts[color as usize][kind.index()]
    }

    /// Squares of a side's pieces (in no particular order).
    #[inline]
    pub fn pieces_of(&self, color: Color) -> &[Square] {
        &self.men.list[color as usize][..self.men.len[color as usize] as usize]
    }

    #[inline]
    pub fn kings(&self, color: Color) -> &[Square] {
        &self.kings[color as usize][..self.king_count[color as usize] as usize]
    }

    #[inline]
    pub fn en_passant(&self) -> EnPassant {
        self.ep
    }

    #[inline]
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// The rook of castling right `color`/`side`, if that right is held.
    pub fn castling_rook(&self, color: Color, side: usize) -> Option<Square> {
        (self.castling & (1 << (color as usize * 2 + side)) != 0).then(|| self.castle_rooks[color as usize][side])
    }

    #[inline]
    pub fn castling_king_origin(&self, color: Color) -> Square {
        self.king_origin[color as usize]
    }

    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Hashes of earlier positions of the game, oldest first.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// Number of moves that can be taken back.
    pub fn plies_played(&self) -> usize {
        self.undo.len()
    }

    /// The moves played since this position was set up, oldest first.
    pub fn moves_played(&self) -> impl Iterator<Item = Move> + '_ {
        self.undo.iter().map(|u| u.mv)
    }

    pub fn last_move(&self) -> Option<Move> {
        self.undo.last().map(|u| u.mv)
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
            holdings,
            side: self.side,
            castling,
            ep: (!self.ep.is_none()).then(|| (shape.file(self.ep.first), shape.rank(self.ep.first))),
            halfmove: self.halfmove,
            fullmove: self.fullmove,
        }
    }

    fn is_outermost_rook(&self, color: Color, ksq: Square, rsq: Square) -> bool {
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

    // ----- attacks -----

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

    // ----- make / unmake -----

    /// Plays a move (pseudo-legal for this position; legality is the caller's business).
    pub fn make(&mut self, mv: Move) {
        let variant = Arc::clone(&self.variant);
        let v = &*variant;
        let z = &v.tables.zobrist;
        let shape = v.shape;
        let us = self.side;
        let mut undo = self.undo_record(mv, false);
        self.history.push(self.men.hash);
        if self.continuation {
            self.men.hash ^= z.continuation;
            self.continuation = false;
        }
        if !self.ep.is_none() {
            self.men.hash ^= z.ep(self.ep.first);
            self.ep = EnPassant::NONE;
        }
        let mut irreversible = false;
        let mut touched = [mv.from, mv.to, Square::NONE, Square::NONE];
        match mv.kind {
            MoveKind::Drop => {
                let kind = Kind(mv.piece);
                let n = &mut self.hand[us as usize][kind.index()];
                self.men.hash ^= z.hand(kind, us, *n) ^ z.hand(kind, us, *n - 1);
                *n -= 1;
                self.men.put(z, Piece::new(kind, us), mv.to);
                irreversible = true;
            }
            MoveKind::Castle => {
                undo.moved = self.men.board[mv.from.index()];
                // Relocating keeps the piece lists in order; the order of the two avoids overlap
                // (a 1-square castling puts the rook on the king's square, a long one the king on
                // the rook's).
                let (rook_from, rook_to) = (mv.extra[0], mv.extra[1]);
                if rook_to == mv.from {
                    self.men.relocate(z, mv.from, mv.to);
                    self.men.relocate(z, rook_from, rook_to);
                } else {
                    self.men.relocate(z, rook_from, rook_to);
                    self.men.relocate(z, mv.from, mv.to);
                }
                self.move_king(us, mv.from, mv.to);
                touched[2] = mv.extra[0];
            }
            MoveKind::Grow => {
                let (moved, index) = self.men.remove(z, mv.from);
                undo.moved = moved.0;
                undo.moved_index = index;
                if self.men.board[mv.to.index()] != EMPTY {
                    let (victim, i) = self.men.remove(z, mv.to);
                    undo.captured[0] = (mv.to, victim.0, i);
                    undo.ncaptured = 1;
                }
                if !mv.extra[0].is_none() {
                    // The converted unit is recorded as captured; unmake puts it back.
                    let (unit, i) = self.men.remove(z, mv.extra[0]);
                    undo.captured[undo.ncaptured as usize] = (mv.extra[0], unit.0, i);
                    undo.ncaptured += 1;
                    let convert = v
                        .piece(moved.kind())
                        .promotion
                        .as_ref()
                        .and_then(|p| p.convert)
                        .unwrap_or(unit.kind());
                    self.men.put(z, Piece::new(convert, unit.color()), mv.extra[0]);
                }
                irreversible = true;
            }
            _ => {
                let moved = Piece(self.men.board[mv.from.index()]);
                undo.moved = moved.0;
                let capture = |pos: &mut Position, sq: Square, undo: &mut Undo| {
                    // `Square::NONE` (an unused `extra` slot) is no board index: test it first.
                    if sq.is_none() || pos.men.board[sq.index()] == EMPTY || sq == mv.from {
                        return;
                    }
                    let (p, i) = pos.men.remove(z, sq);
                    if v.piece(p.kind()).royalty == Royalty::King {
                        pos.drop_king(p.color(), sq);
                    }
                    undo.captured[undo.ncaptured as usize] = (sq, p.0, i);
                    undo.ncaptured += 1;
                };
                match mv.kind {
                    MoveKind::EnPassant => capture(self, mv.extra[0], &mut undo),
                    MoveKind::Special => {
                        capture(self, mv.extra[0], &mut undo);
                        capture(self, mv.extra[1], &mut undo);
                        touched[2] = mv.extra[0];
                        touched[3] = mv.extra[1];
                        if mv.blast != 0 {
                            for (i, &(dx, dy)) in NEIGHBOURS.iter().enumerate() {
                                if mv.blast & (1 << i) != 0
                                    && let Some(sq) = shape.offset(mv.to, dx, dy)
                                {
                                    capture(self, sq, &mut undo);
                                    self.clear_castling_at(sq);
                                }
                            }
                        }
                    }
                    _ => {}
                }
                if mv.from != mv.to {
                    capture(self, mv.to, &mut undo);
                    match mv.promotion() {
                        Some(kind) => {
                            let (_, i) = self.men.remove(z, mv.from);
                            undo.moved_index = i;
                            self.men.put(z, Piece::new(kind, us), mv.to);
                        }
                        None => self.men.relocate(z, mv.from, mv.to),
                    }
                    if v.piece(moved.kind()).royalty == Royalty::King {
                        self.move_king(us, mv.from, mv.to);
                    }
                }
                irreversible = undo.ncaptured > 0 || v.piece(moved.kind()).resets_clock;
                // A push that promotes leaves no pawn behind to take en passant.
                if mv.kind == MoveKind::MultiStep && mv.promotion().is_none() {
                    let first = shape
                        .offset(mv.from, 0, us.forward())
                        .expect("a multi-step passes a square");
                    let ep = EnPassant { first, victim: mv.to };
                    if self.ep_capturable(&ep, us.opposite()) {
                        self.ep = ep;
                        self.men.hash ^= z.ep(first);
                    }
                }
            }
        }
        if self.castling != 0 {
            for sq in touched {
                if !sq.is_none() {
                    self.clear_castling_at(sq);
                }
            }
        }
        self.halfmove = if irreversible {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        self.undo.push(undo);
        if mv.kind == MoveKind::Grow && self.has_pseudo_moves() {
            // The turn goes on: the same side makes another move.
            self.continuation = true;
            self.men.hash ^= z.continuation;
            return;
        }
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = us.opposite();
        self.men.hash ^= z.side;
    }

    /// The state a move changes, saved so that `unmake` can restore it.
    fn undo_record(&self, mv: Move, null: bool) -> Undo {
        Undo {
            mv,
            moved: EMPTY,
            captured: [(Square::NONE, EMPTY, 0); 8],
            ncaptured: 0,
            moved_index: 0,
            null,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            hash: self.men.hash,
            kings: self.kings,
            king_count: self.king_count,
            side: self.side,
            continuation: self.continuation,
        }
    }

    /// Passes: the other side moves next (for null-move pruning in the search). Not available in
    /// the middle of a turn of several moves.
    pub fn make_null(&mut self) {
        let z = &self.variant.tables.zobrist;
        let undo = self.undo_record(Move::new(Square::NONE, Square::NONE, MoveKind::Normal), true);
        self.history.push(self.men.hash);
        if !self.ep.is_none() {
            self.men.hash ^= z.ep(self.ep.first);
            self.ep = EnPassant::NONE;
        }
        self.halfmove = self.halfmove.saturating_add(1);
        self.side = self.side.opposite();
        self.men.hash ^= z.side;
        self.undo.push(undo);
    }

    /// Does the side to move have any pseudo-legal move?
    fn has_pseudo_moves(&self) -> bool {
        let mut list = super::moves::MoveList::new();
        self.generate_pseudo(&mut list);
        !list.is_empty()
    }

    /// Is the side to move in the middle of a turn of several moves?
    #[inline]
    pub fn in_continuation(&self) -> bool {
        self.continuation
    }

    fn clear_castling_at(&mut self, sq: Square) {
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

    fn move_king(&mut self, color: Color, from: Square, to: Square) {
        let c = color as usize;
        for k in &mut self.kings[c][..self.king_count[c] as usize] {
            if *k == from {
                *k = to;
                return;
            }
        }
    }

    fn drop_king(&mut self, color: Color, sq: Square) {
        let c = color as usize;
        let n = self.king_count[c] as usize;
        if let Some(i) = self.kings[c][..n].iter().position(|&k| k == sq) {
            self.kings[c][i] = self.kings[c][n - 1];
            self.king_count[c] -= 1;
        }
    }

    /// Takes back the last move. Returns it, or `None` if there is nothing to take back.
    pub fn unmake(&mut self) -> Option<Move> {
        let undo = self.undo.pop()?;
        self.history.pop();
        let v = &*self.variant;
        let z = &v.tables.zobrist;
        let mv = undo.mv;
        let us = undo.side;
        // Every step of `make` is undone in reverse order, so the piece lists come back exactly.
        let captured = &undo.captured[..undo.ncaptured as usize];
        match mv.kind {
            _ if undo.null => {}
            MoveKind::Drop => {
                self.men.take_back(z, mv.to);
                self.hand[us as usize][mv.piece as usize] += 1;
            }
            MoveKind::Castle => {
                let (rook_from, rook_to) = (mv.extra[0], mv.extra[1]);
                if rook_to == mv.from {
                    self.men.relocate(z, rook_to, rook_from);
                    self.men.relocate(z, mv.to, mv.from);
                } else {
                    self.men.relocate(z, mv.to, mv.from);
                    self.men.relocate(z, rook_to, rook_from);
                }
            }
            MoveKind::Grow => {
                if !mv.extra[0].is_none() {
                    self.men.take_back(z, mv.extra[0]);
                }
                for &(sq, p, i) in captured.iter().rev() {
                    self.men.restore(z, Piece(p), sq, i);
                }
                self.men.restore(z, Piece(undo.moved), mv.from, undo.moved_index);
            }
            _ => {
                if mv.from != mv.to {
                    if mv.promotion().is_some() {
                        self.men.take_back(z, mv.to);
                        self.men.restore(z, Piece(undo.moved), mv.from, undo.moved_index);
                    } else {
                        self.men.relocate(z, mv.to, mv.from);
                    }
                }
                for &(sq, p, i) in captured.iter().rev() {
                    self.men.restore(z, Piece(p), sq, i);
                }
            }
        }
        self.side = us;
        self.continuation = undo.continuation;
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.fullmove = undo.fullmove;
        self.kings = undo.kings;
        self.king_count = undo.king_count;
        self.men.hash = undo.hash;
        Some(mv)
    }

    /// Pieces a move would capture, with their squares (for ordering, SEE and notation).
    pub fn captures_of(&self, mv: &Move) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let shape = self.variant.shape;
        let mut squares = [Square::NONE; 11];
        match mv.kind {
            MoveKind::Normal | MoveKind::MultiStep | MoveKind::Grow => squares[0] = mv.to,
            MoveKind::EnPassant => squares[0] = mv.extra[0],
            MoveKind::Special => {
                if mv.from != mv.to {
                    squares[0] = mv.to;
                }
                squares[1] = mv.extra[0];
                squares[2] = mv.extra[1];
                for (i, &(dx, dy)) in NEIGHBOURS.iter().enumerate() {
                    if mv.blast & (1 << i) != 0 {
                        squares[3 + i] = shape.offset(mv.to, dx, dy).unwrap_or(Square::NONE);
                    }
                }
            }
            MoveKind::Castle | MoveKind::Drop => {}
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

    /// How often the current position occurred before (same side, placement, hands, rights, e.p.).
    pub fn repetitions(&self) -> usize {
        let h = self.men.hash;
        let n = self.history.len();
        let window = (self.halfmove as usize).min(n);
        self.history[n - window..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|&&x| x == h)
            .count()
    }

    /// Has the current position occurred at any earlier point of the game?
    pub fn occurred_before(&self) -> bool {
        let h = self.men.hash;
        self.history.contains(&h)
    }
}

impl std::fmt::Debug for Position {
    /// The raw setup (board rows, hands, side, rights, e.p., counters): no notation in the core.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let setup = self.to_setup();
        let rows: Vec<String> = setup
            .board
            .iter()
            .map(|row| row.iter().map(|c| c.unwrap_or('.')).collect())
            .collect();
        f.debug_struct("Position")
            .field("variant", &self.variant.name)
            .field("board", &rows)
            .field("holdings", &setup.holdings)
            .field("side", &setup.side)
            .field("castling", &setup.castling)
            .field("ep", &setup.ep)
            .field("clocks", &(setup.halfmove, setup.fullmove))
            .finish()
    }
}
