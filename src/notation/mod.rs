//! Text forms of squares, moves and positions. The only place that names squares: canonical
//! (human) coordinates with ranks 1.., and CECP wire coordinates, where a board of exactly ten ranks
//! numbers them 0..9.

pub mod fen;
pub mod move_syntax;
pub mod movetext;
pub mod outcome;
pub mod san;
pub mod zillions;

pub use outcome::OutcomeText;

use crate::core::{BoardShape, Square};

/// Which coordinate system a text uses.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Coords {
    /// Files a.., ranks 1.. (two digits from rank 10 on).
    Human,
    /// XBoard's: like `Human`, except that a board with exactly 10 ranks numbers them 0..9.
    Wire,
}

impl Coords {
    /// The number written for 0-based rank `rank` on a board with `ranks` ranks.
    pub fn rank_number(self, rank: u8, ranks: u8) -> u32 {
        match self {
            Coords::Wire if ranks == 10 => rank as u32,
            _ => rank as u32 + 1,
        }
    }

    /// The 0-based rank for a written rank number, if it can be one.
    pub fn rank_index(self, number: u32, ranks: u8) -> Option<u8> {
        let r = match self {
            Coords::Wire if ranks == 10 => number,
            _ => number.checked_sub(1)?,
        };
        (r < ranks as u32).then_some(r as u8)
    }
}

/// The name of a square, e.g. `e4`, `j10` (human) or `j9` (wire, 10 ranks).
pub fn square_name(shape: BoardShape, sq: Square, coords: Coords) -> String {
    let file = (b'a' + shape.file(sq)) as char;
    format!("{file}{}", coords.rank_number(shape.rank(sq), shape.ranks))
}

/// The name of a square as `move_syntax` reads it: `square_name` in typed form.
pub fn square_text(shape: BoardShape, sq: Square, coords: Coords) -> move_syntax::SquareText {
    let number = coords.rank_number(shape.rank(sq), shape.ranks);
    // A board has at most 16 ranks: the number fits.
    move_syntax::SquareText::new(shape.file(sq), number as u8)
}

/// Parses a square name at the start of `text`; returns the square and the rest of the text.
pub fn parse_square(shape: BoardShape, text: &str, coords: Coords) -> Option<(Square, &str)> {
    let mut chars = text.char_indices();
    let (_, f) = chars.next()?;
    if !f.is_ascii_lowercase() {
        return None;
    }
    let file = f as u8 - b'a';
    if file >= shape.files {
        return None;
    }
    let digits_end = text[1..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(text.len(), |i| i + 1);
    if digits_end == 1 || digits_end > 4 {
        return None;
    }
    let number: u32 = text[1..digits_end].parse().ok()?;
    let rank = coords.rank_index(number, shape.ranks)?;
    Some((shape.square(file, rank), &text[digits_end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_rank_boards_number_wire_ranks_from_zero() {
        let b = BoardShape::new(10, 10).unwrap();
        let j10 = b.square(9, 9);
        assert_eq!(square_name(b, j10, Coords::Human), "j10");
        assert_eq!(square_name(b, j10, Coords::Wire), "j9");
        assert_eq!(parse_square(b, "j9", Coords::Wire), Some((j10, "")));
        assert_eq!(parse_square(b, "j10", Coords::Human), Some((j10, "")));
        assert_eq!(parse_square(b, "a0", Coords::Wire), Some((b.square(0, 0), "")));
        assert_eq!(parse_square(b, "a0", Coords::Human), None);
        assert_eq!(parse_square(b, "j10", Coords::Wire), None);
    }

    #[test]
    fn other_boards_use_human_numbers_on_the_wire() {
        let b = BoardShape::new(8, 8).unwrap();
        assert_eq!(square_name(b, b.square(4, 0), Coords::Wire), "e1");
        let big = BoardShape::new(12, 12).unwrap();
        assert_eq!(square_name(big, big.square(11, 11), Coords::Wire), "l12");
        assert_eq!(parse_square(big, "l12x", Coords::Wire), Some((big.square(11, 11), "x")));
        assert_eq!(parse_square(b, "i1", Coords::Wire), None);
        assert_eq!(parse_square(b, "e9", Coords::Human), None);
    }
}
