//! Raw position data as read from a FEN, before validation against a variant's rules.

use super::geometry::Color;

/// A position as written: anything goes until `Position::from_setup` validates it.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Setup {
    /// Ranks from the top (Black's side) down; each cell a piece letter or `None`.
    pub board: Vec<Vec<Option<char>>>,
    /// Squares, as 0-based (file, rank), whose piece is a promoted form (FEN `Q~`, `+P`).
    pub promoted: Vec<(u8, u8)>,
    /// Letters in hand: upper case White, lower case Black.
    pub holdings: Vec<char>,
    pub side: Color,
    /// Castling rights as written (FEN's `KQkq` and Shredder/X-FEN file letters); empty for none.
    pub castling: Vec<CastlingRight>,
    /// En-passant square as 0-based (file, rank).
    pub ep: Option<(u8, u8)>,
    pub halfmove: u32,
    pub fullmove: u32,
}

/// One castling right as a position states it: whose, and which rook.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct CastlingRight {
    pub color: Color,
    pub rook: CastlingRook,
}

/// Which rook a castling right names.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum CastlingRook {
    /// The outermost castling rook on the king's right-hand (higher-file) side, standing where
    /// the start position has it (X-FEN `K`).
    Kingside,
    /// The same on the lower-file side (X-FEN `Q`).
    Queenside,
    /// The rook on this 0-based file of the king's rank (Shredder/X-FEN file letter).
    File(u8),
}

/// What is wrong with a position.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum PositionError {
    /// The board has the wrong number of ranks or files.
    BoardSize {
        expected: (u8, u8),
        found: (usize, usize),
        rank: Option<usize>,
    },
    /// A letter that names no piece of this variant.
    UnknownPiece(char),
    /// A piece in hand that this variant never drops.
    NotDroppable(char),
    /// A side has no king, or more than the variant allows.
    KingCount { color: Color, found: usize },
    /// A piece stands where it would have had to promote.
    UnpromotedPiece(char),
    /// A square marked promoted holds a piece that has no promoted form of that letter.
    NotPromoted(char),
    /// The side not to move is in check.
    OpponentInCheck,
    /// A castling right naming a file off the board or the king's own file.
    BadCastling(CastlingRight),
    /// Too many pieces of one type in hand.
    HandTooLarge(char),
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionError::BoardSize { expected, found, rank } => match rank {
                Some(r) => write!(
                    f,
                    "rank {} of the board has {} files, expected {}",
                    r + 1,
                    found.0,
                    expected.0
                ),
                None => write!(f, "the board has {} ranks, expected {}", found.1, expected.1),
            },
            PositionError::UnknownPiece(c) => write!(f, "unknown piece letter '{c}'"),
            PositionError::NotDroppable(c) => write!(f, "piece '{c}' cannot be held in hand in this variant"),
            PositionError::KingCount { color, found } => {
                write!(f, "{} has {found} kings", color.name())
            }
            PositionError::UnpromotedPiece(c) => write!(f, "piece '{c}' stands on a rank where it must promote"),
            PositionError::NotPromoted(c) => write!(f, "no promoted piece '{c}' in this variant"),
            PositionError::OpponentInCheck => write!(f, "the side not to move is in check"),
            PositionError::BadCastling(right) => match right.rook {
                CastlingRook::File(file) => write!(
                    f,
                    "invalid castling right: {} has no castling rook on file {}",
                    right.color.name(),
                    file as u32 + 1
                ),
                _ => write!(f, "invalid castling right for {}", right.color.name()),
            },
            PositionError::HandTooLarge(c) => write!(f, "too many '{c}' in hand"),
        }
    }
}

impl std::error::Error for PositionError {}
