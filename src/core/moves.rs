//! Moves: everything make/unmake and notation need, in 8 bytes.

use super::geometry::Square;
use super::piece::Kind;

/// What kind of move this is.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum MoveKind {
    /// A move to `to`, capturing whatever enemy stands there.
    Normal,
    /// A pawn push of two or more squares that may give an en-passant right.
    MultiStep,
    /// En-passant capture: the victim stands on `extra[0]`.
    EnPassant,
    /// Castling: the king goes `from`→`to`, the rook `extra[0]`→`extra[1]`.
    Castle,
    /// A piece from hand put on `to` (after any drop push).
    Drop,
    /// A hook move: captures on `to` (if occupied by an enemy), on `extra` squares and on the
    /// neighbours of `to` selected by `blast`; `from == to` for a move that stays put.
    Special,
    /// Growing roses: the piece goes to `to` (capturing there) and leaves the board, the enemy unit
    /// on `extra[0]` (if any) changes its kind, and the same side moves again — the first sub-move
    /// of a turn of several moves.
    Grow,
}

/// A move.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub kind: MoveKind,
    /// Promotion or drop piece type, `NO_KIND` if none.
    pub piece: u8,
    pub extra: [Square; 2],
    /// Neighbour directions (bit i = `NEIGHBOURS[i]`) whose pieces a Special move captures.
    pub blast: u8,
}

/// `Move::piece` when the move neither promotes nor drops.
pub const NO_KIND: u8 = 255;

/// The eight neighbour directions used by `Move::blast`: N, NE, E, SE, S, SW, W, NW.
pub const NEIGHBOURS: [(i32, i32); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

impl Move {
    #[inline]
    pub fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move {
            from,
            to,
            kind,
            piece: NO_KIND,
            extra: [Square::NONE; 2],
            blast: 0,
        }
    }

    #[inline]
    pub fn drop(kind: Kind, to: Square) -> Move {
        Move {
            from: Square::NONE,
            to,
            kind: MoveKind::Drop,
            piece: kind.0,
            extra: [Square::NONE; 2],
            blast: 0,
        }
    }

    #[inline]
    pub fn with_promotion(mut self, kind: Kind) -> Move {
        self.piece = kind.0;
        self
    }

    /// The promotion piece type, if the move promotes.
    #[inline]
    pub fn promotion(&self) -> Option<Kind> {
        (self.kind != MoveKind::Drop && self.piece != NO_KIND).then_some(Kind(self.piece))
    }

    /// The dropped piece type, if the move is a drop.
    #[inline]
    pub fn dropped(&self) -> Option<Kind> {
        (self.kind == MoveKind::Drop).then_some(Kind(self.piece))
    }
}

/// A growable list of moves.
#[derive(Clone, Debug, Default)]
pub struct MoveList(pub Vec<Move>);

impl MoveList {
    pub fn new() -> MoveList {
        MoveList(Vec::with_capacity(128))
    }

    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.0.push(mv);
    }

    #[inline]
    pub fn clear(&mut self) {
        self.0.clear();
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.0.iter()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}
