//! The rules core: board geometry, piece tables, positions, move generation, make/unmake, legality
//! and game results. No I/O; no strings beyond names.

pub mod betza;
pub mod geometry;
pub mod hooks;
pub mod legality;
pub mod movegen;
pub mod moves;
pub mod outcome;
pub mod piece;
pub mod position;
pub mod setup;
pub mod tables;
#[cfg(test)]
pub(crate) mod test_positions;
pub mod variant;
pub mod zobrist;

pub use geometry::{BoardShape, Color, Square, SquareSet};
pub use legality::IllegalMove;
pub use moves::{Blast, Move, MoveKind, MoveList};
pub use outcome::{EndReason, GameResult, Outcome};
pub use piece::{Kind, Piece, PieceType, Royalty};
pub use position::Position;
pub use setup::{CastlingRight, CastlingRook, PositionError, Setup};
pub use variant::{Goal, Variant};
