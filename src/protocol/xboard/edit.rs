//! The board of CECP's `edit` mode (protocol 1 GUIs set positions this way): the lines between
//! `edit` and `.` place and clear pieces; `.` turns the board into a `Setup` for the core to check.

use super::command::EditCommand;
use crate::core::{CastlingRight, CastlingRook, Color, Position, Setup, Variant};
use crate::notation::{Coords, parse_square};

/// A board being set up in `edit` mode.
#[derive(Clone, Debug, PartialEq)]
pub struct EditBoard {
    /// Rank-major cells, White's first rank first; FEN letters.
    cells: Vec<Option<char>>,
    /// The colour of the pieces placed next (`c` toggles it).
    color: Color,
}

/// What an edit line asks for.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum EditStep {
    /// Go on editing.
    More,
    /// `.`: leave edit mode.
    Done,
}

impl EditBoard {
    /// `edit`: start from the position as it stands, placing White pieces.
    pub fn from_position(pos: &Position) -> EditBoard {
        let variant = pos.variant();
        let cells = variant
            .shape
            .squares()
            .map(|sq| pos.piece_at(sq).map(|p| variant.letter(p.kind(), p.color())))
            .collect();
        EditBoard {
            cells,
            color: Color::White,
        }
    }

    /// Applies one edit line. Squares off this board and unknown lines are ignored, as XBoard
    /// expects of an engine (it sends nothing an engine could answer here).
    pub fn apply(&mut self, command: EditCommand, variant: &Variant) -> EditStep {
        let shape = variant.shape;
        let cell = |square: &str| match parse_square(shape, square, Coords::Wire) {
            Some((sq, "")) => Some(sq.index()),
            _ => None,
        };
        match command {
            EditCommand::ToggleColor => self.color = self.color.opposite(),
            EditCommand::ClearBoard => self.cells.iter_mut().for_each(|c| *c = None),
            EditCommand::Place { piece, square, .. } => {
                let letter = piece.chars().next().filter(|c| c.is_ascii_alphabetic());
                if let (Some(letter), Some(index)) = (letter, cell(&square)) {
                    self.cells[index] = Some(match self.color {
                        Color::White => letter.to_ascii_uppercase(),
                        Color::Black => letter.to_ascii_lowercase(),
                    });
                }
            }
            EditCommand::ClearSquare(square) => {
                if let Some(index) = cell(&square) {
                    self.cells[index] = None;
                }
            }
            EditCommand::Holdings(_) | EditCommand::Unknown(_) => {}
            EditCommand::Done => return EditStep::Done,
        }
        EditStep::More
    }

    /// The position set up, `side` to move: castling wherever king and rook stand at home (the
    /// core keeps the rights whose pieces are there), no e.p., counters reset. The core judges it.
    pub fn to_setup(&self, variant: &Variant, side: Color) -> Setup {
        let shape = variant.shape;
        let board = (0..shape.ranks)
            .rev()
            .map(|r| {
                (0..shape.files)
                    .map(|f| self.cells[shape.square(f, r).index()])
                    .collect()
            })
            .collect();
        let castling = if variant.castling.is_some() {
            let sides = [CastlingRook::Kingside, CastlingRook::Queenside];
            Color::BOTH
                .into_iter()
                .flat_map(|color| sides.map(|rook| CastlingRight { color, rook }))
                .collect()
        } else {
            Vec::new()
        };
        Setup {
            board,
            promoted: Vec::new(),
            holdings: Vec::new(),
            side,
            castling,
            ep: None,
            halfmove: 0,
            fullmove: 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;
    use crate::protocol::xboard::command::parse_edit_line;

    fn edit(variant: &str, lines: &[&str]) -> (EditBoard, EditStep, std::sync::Arc<Variant>) {
        let registry = crate::protocol::builtin_games();
        let variant = registry.get(variant).expect("built-in variant");
        let mut board = EditBoard::from_position(&Position::start(&variant));
        let mut step = EditStep::More;
        for line in lines {
            step = board.apply(parse_edit_line(line), &variant);
        }
        (board, step, variant)
    }

    fn fen_of(board: &EditBoard, variant: &std::sync::Arc<Variant>, side: Color) -> Result<String, String> {
        Position::from_setup(variant, &board.to_setup(variant, side))
            .map(|p| fen::to_fen(&p, Coords::Human))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn untouched_board_is_the_start_with_counters_reset() {
        let (board, step, variant) = edit("normal", &["."]);
        assert_eq!(step, EditStep::Done);
        assert_eq!(
            fen_of(&board, &variant, Color::White).as_deref(),
            Ok("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        );
    }

    #[test]
    fn pieces_placed_in_either_colour_and_squares_cleared() {
        let lines = ["#", "Ke1", "Rh1", "Pe4", "xe4", "c", "Ke8", "Pa7", "Zz9", "castle", "."];
        let (board, step, variant) = edit("normal", &lines);
        assert_eq!(step, EditStep::Done);
        // Castling only where king and rook stand at home: White's short side.
        assert_eq!(
            fen_of(&board, &variant, Color::Black).as_deref(),
            Ok("4k3/p7/8/8/8/8/8/4K2R b K - 0 1")
        );
    }

    #[test]
    fn ten_rank_boards_count_ranks_from_zero() {
        let (board, _, variant) = edit("pillage", &["#", "Kf0", "c", "Kf9", "."]);
        assert_eq!(
            fen_of(&board, &variant, Color::White).as_deref(),
            Ok("5k4/10/10/10/10/10/10/10/10/5K4 w - - 0 1")
        );
    }

    #[test]
    fn a_position_without_kings_is_for_the_core_to_refuse() {
        let (board, _, variant) = edit("normal", &["#", "."]);
        assert!(fen_of(&board, &variant, Color::White).is_err());
    }
}
