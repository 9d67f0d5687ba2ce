//! A position of any variant: placement, hands, side to move, castling, en passant, counters and
//! the undo stack. One idea per file: `placement` (board, piece lists, incremental hash),
//! `from_setup` (validation from and back to raw `Setup` data), `hash`, `attacks` (attack
//! detection and check), `make` (make/unmake), `repetition`.

mod attacks;
mod from_setup;
mod hash;
mod make;
mod placement;
mod repetition;

use std::sync::Arc;

use super::geometry::{Color, MAX_SQUARES, Square};
use super::moves::{Move, NEIGHBOURS};
use super::piece::{Kind, MAX_KINDS, Piece, Royalty};
use super::setup::{CastlingRight, CastlingRook, PositionError, Setup};
use super::variant::Variant;
use super::zobrist::Zobrist;
use make::Undo;
pub(crate) use placement::Placement;

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
    /// Plies since the last move after which no earlier position can come back (the repetition
    /// window; not the n-move count, which some reversible moves reset).
    reversible: u32,
    fullmove: u32,
    /// The side to move is in the middle of a turn of several moves (after growing roses).
    continuation: bool,
    undo: Vec<Undo>,
    /// Hashes of the positions before each move made, oldest first.
    history: Vec<u64>,
}

impl Position {
    /// The variant's start position.
    ///
    /// # Panics
    ///
    /// Never for a built variant: its start position is validated when the variant is built.
    pub fn start(variant: &Arc<Variant>) -> Position {
        Position::from_setup(variant, &variant.start)
            .expect("the start position is validated when the variant is built")
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

    /// The hash of the pawn structure: the pieces that promote and their squares, nothing else
    /// (no side to move, hands or rights).
    #[inline]
    pub fn pawn_hash(&self) -> u64 {
        self.men.pawn_hash
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

    /// The moves played since this position was set up, oldest first (passes are no moves).
    pub fn moves_played(&self) -> impl Iterator<Item = Move> + '_ {
        self.undo.iter().filter_map(|u| u.mv)
    }

    /// The move played last; none after a pass.
    pub fn last_move(&self) -> Option<Move> {
        self.undo.last().and_then(|u| u.mv)
    }

    /// A copy to play trial moves on and take them back: the board and state, no undo stack (the
    /// trials push their own), and the game's history only if `with_history` (a repetition ban
    /// looks there; nothing else a trial asks does).
    pub(crate) fn trial_copy(&self, with_history: bool) -> Position {
        Position {
            variant: Arc::clone(&self.variant),
            men: self.men.clone(),
            hand: self.hand,
            kings: self.kings,
            king_count: self.king_count,
            side: self.side,
            castling: self.castling,
            castle_rooks: self.castle_rooks,
            king_origin: self.king_origin,
            ep: self.ep,
            halfmove: self.halfmove,
            reversible: self.reversible,
            fullmove: self.fullmove,
            continuation: self.continuation,
            undo: Vec::new(),
            history: if with_history { self.history.clone() } else { Vec::new() },
        }
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
