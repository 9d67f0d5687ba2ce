//! Piece types as variant data: letter, names, movement, value, royalty, promotion, drops, hooks.

use super::betza::Movement;
use super::geometry::Color;
use super::hooks::HookRef;

/// Most piece types one variant may define.
pub const MAX_KINDS: usize = 32;

/// Index of a piece type in its variant's piece table.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Ord, PartialOrd)]
pub struct Kind(pub u8);

impl Kind {
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A coloured piece as stored on the board: `kind << 1 | colour`.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Piece(pub u8);

impl Piece {
    #[inline]
    pub fn new(kind: Kind, color: Color) -> Piece {
        Piece(kind.0 << 1 | color as u8)
    }

    #[inline]
    pub fn kind(self) -> Kind {
        Kind(self.0 >> 1)
    }

    #[inline]
    pub fn color(self) -> Color {
        if self.0 & 1 == 0 { Color::White } else { Color::Black }
    }
}

/// What losing this piece means.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Royalty {
    /// An ordinary piece.
    None,
    /// A king: a move may not leave it attacked; no legal move while attacked is checkmate.
    King,
    /// A Wild Rose: can be attacked but never captured; the variant's goals judge attacks on it.
    Rose,
}

/// Promotion of a pawn-like piece (ranks are owner-relative, 0-based).
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Promotion {
    pub ranks: Vec<u8>,
    pub choices: Vec<Kind>,
    /// Growing roses (Wild Rose): instead of promoting, the piece leaves the board, one enemy unit
    /// that is not of this kind becomes one (still the enemy's), and the same side moves again.
    pub convert: Option<Kind>,
    /// The piece may stay unpromoted (shogi), except where it could never move again.
    pub optional: bool,
    /// A move that starts in the zone promotes too (shogi: leaving the zone).
    pub from_zone: bool,
}

/// Where a piece in hand may be dropped (owner-relative ranks, 0-based; never where it could not
/// move again), how far a fresh drop may be pushed straight forward in the same turn (Wreckage
/// ninja pawns: up to 3), and the shogi drop restrictions.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct DropRule {
    pub ranks: Vec<u8>,
    pub push: u8,
    /// Not on a file where the side already has one of this kind (shogi's nifu).
    pub one_per_file: bool,
    /// A checkmate given by dropping this kind loses for the dropper (shogi's uchifuzume: the
    /// illegal move loses; Fairy-Stockfish counts it the same way, as a move whose mate is a loss).
    pub mate_loses: bool,
}

/// One row of a variant's piece table.
#[derive(Clone, Debug)]
pub struct PieceType {
    /// Upper-case letter (White); Black uses the lower case.
    pub letter: char,
    pub name: String,
    pub betza: String,
    pub movement: Movement,
    /// Material value in centipawns.
    pub value: i32,
    pub royalty: Royalty,
    pub promotion: Option<Promotion>,
    /// Maximum forward non-capturing lame push by owner-relative rank (replaces nothing; adds moves).
    pub push: Option<Vec<u8>>,
    /// Owner-relative ranks (0-based) on which Betza `i` moves are allowed.
    pub initial_ranks: Vec<u8>,
    /// Its multi-square pushes give the opponent an en-passant right.
    pub en_passant_victim: bool,
    /// Moving it resets the n-move counter (pawns).
    pub resets_clock: bool,
    /// It can be the rook of a castling.
    pub castling_rook: bool,
    pub drop: Option<DropRule>,
    /// This type is the promoted form of that one: captured, it goes to hand as that type
    /// (a crazyhouse queen that was a pawn, a shogi tokin).
    pub promoted_from: Option<Kind>,
    /// Captures the movement atoms cannot express (its quiet moves are still `movement`'s).
    pub hook: Option<HookRef>,
    /// Enemy piece types the hook piece may not capture (Dragon: pawns).
    pub hook_immune: Vec<Kind>,
}
