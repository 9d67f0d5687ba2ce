//! Fixtures written as text, for unit tests. Positions and moves, for the tests of modules that
//! must not read text themselves (`search`): the FEN and move texts are read here, so the modules
//! under test import nothing from `notation` (the layers only import downward), while their tests keep their readable
//! fixtures. And the line a text stands on in a definition file, for the tests of errors that
//! point at lines.

use std::sync::Arc;

use crate::core::{Move, Position, Variant};
use crate::notation::{Coords, fen, movetext};

/// The position of `fen_text` (human coordinates) in `variant`; a bad fixture fails the test.
pub(crate) fn position_of(variant: &Arc<Variant>, fen_text: &str) -> Position {
    let setup = fen::parse_fen(fen_text, Coords::Human).expect("a fixture FEN");
    Position::from_setup(variant, &setup).expect("a legal fixture position")
}

/// The legal move written `text` (canonical, human coordinates) in `pos`.
pub(crate) fn parse_move(pos: &mut Position, text: &str) -> Move {
    movetext::parse_move(pos, text, Coords::Human).expect("a legal fixture move")
}

/// The canonical text of `mv` in `pos`.
pub(crate) fn move_text(pos: &Position, mv: &Move) -> String {
    movetext::canonical(pos, mv)
}

/// The FEN of `pos` (human coordinates).
pub(crate) fn fen_of(pos: &Position) -> String {
    fen::to_fen(pos, Coords::Human)
}

/// The line (from 1) of `source` on which `text` first stands.
pub(crate) fn line_containing(source: &str, text: &str) -> usize {
    source
        .lines()
        .position(|l| l.contains(text))
        .expect("the text is in the file")
        + 1
}
