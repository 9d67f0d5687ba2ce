//! The grammar of coordinate move text, one for every reader. It answers two questions: is a
//! text a move's shape (`looks_like_move`: the CECP door takes a bare line for a move), and does a
//! text begin like a move (`begins_like_move`: a refusal by `movetext::parse_move` is then an
//! illegal move, not "not a move", and the match runner forfeits `b1-c3` as an illegal move, not
//! an unreadable one).
//!
//! Shapes: `e2e4`, `e7e8q`, `c7c8+`, `e7e8=q`, `e9e10q`, `a0b2`, growing roses `e7e8=b8`, drops
//! `P@e4` (dressed IDs `N'@d4`), comma-joined legs `d3d7,d7d6` (a trailing comma marks an
//! unfinished move), castling `O-O`/`O-O-O` (also `o-o`, `0-0`) and the null move `@@@@`. Which
//! board, which coordinates and whether the move is legal are not the grammar's business.

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{tag, take_while_m_n},
    character::complete::{char, one_of, satisfy},
    combinator::{all_consuming, opt, recognize},
    multi::many0,
};

type ParseResult<'a, O> = IResult<&'a str, O>;

/// True if the whole of `text` has the shape of a move.
pub fn looks_like_move(text: &str) -> bool {
    all_consuming(move_shape).parse(text).is_ok()
}

/// True if `text` begins like a coordinate move however it goes on (`b1-c3`, `e2e4!!`, `O-O+`):
/// a square followed by more text, a drop's `X@`, or castling.
pub fn begins_like_move(text: &str) -> bool {
    let square_then_more = recognize((square, satisfy(|_| true)));
    alt((square_then_more, recognize((piece_id, char('@'))), castling))
        .parse(text)
        .is_ok()
}

/// A move's shape, as a nom parser: what it recognises is the move text.
///
/// # Errors
///
/// nom's error when the input does not start with a move.
pub fn move_shape(input: &str) -> ParseResult<'_, &str> {
    alt((null_move, castling, legs)).parse(input)
}

/// A square: file `a`–`p` and a one- or two-digit rank (`a0` on 10-rank boards in wire
/// coordinates, `a10` on taller ones).
///
/// # Errors
///
/// nom's error when the input does not start with a square.
pub fn square(input: &str) -> ParseResult<'_, &str> {
    recognize((
        satisfy(|c| ('a'..='p').contains(&c)),
        take_while_m_n(1, 2, |c: char| c.is_ascii_digit()),
    ))
    .parse(input)
}

/// A piece ID: a letter, optionally "dressed" with `'` or `!` (XBoard ≥ 4.9).
///
/// # Errors
///
/// nom's error when the input does not start with a piece ID.
pub fn piece_id(input: &str) -> ParseResult<'_, &str> {
    recognize((satisfy(|c| c.is_ascii_alphabetic()), opt(one_of("'!")))).parse(input)
}

/// What may follow a step: the square of the unit a growing rose converts (`=b8`, tried first so
/// that `=b` is not taken for a promotion), or a promotion: a piece letter (either case), `+`
/// (shogi promotion), `-` (demotion, as Fairy-Stockfish prints) or `=` with an optional letter
/// (`=` alone declines promotion).
fn step_suffix(input: &str) -> ParseResult<'_, &str> {
    alt((
        recognize((char('='), square)),
        recognize((char('='), opt(satisfy(|c| c.is_ascii_alphabetic())))),
        recognize(satisfy(|c| c.is_ascii_alphabetic() || c == '+' || c == '-')),
    ))
    .parse(input)
}

fn board_step(input: &str) -> ParseResult<'_, &str> {
    recognize((square, square, opt(step_suffix))).parse(input)
}

fn drop_move(input: &str) -> ParseResult<'_, &str> {
    recognize((piece_id, char('@'), square)).parse(input)
}

/// One or more legs joined by commas; a trailing comma marks an unfinished multi-leg move.
fn legs(input: &str) -> ParseResult<'_, &str> {
    let leg = || alt((board_step, drop_move));
    recognize((leg(), many0((char(','), leg())), opt(char(',')))).parse(input)
}

fn castling(input: &str) -> ParseResult<'_, &str> {
    alt((
        tag("O-O-O"),
        tag("O-O"),
        tag("o-o-o"),
        tag("o-o"),
        tag("0-0-0"),
        tag("0-0"),
    ))
    .parse(input)
}

fn null_move(input: &str) -> ParseResult<'_, &str> {
    tag("@@@@").parse(input)
}

/// Texts of each move shape and texts of none, for the tests of the grammar and of the readers
/// that take their moves by it (the CECP door keeps each of the first as a move, verbatim).
#[cfg(test)]
pub(crate) mod examples {
    pub(crate) const MOVE_SHAPES: &[&str] = &[
        "e2e4",
        "e7e8q",
        "e7e8Q",
        "c7c8+",
        "c7c8=",
        "e7e8=q",
        "e7e8=",
        "e9e10q",
        "a0b2",
        "j9j0",
        "p16a1",
        "e7e8=b8",
        "e7e8=b8,a2a3",
        "P@e4",
        "J@e5",
        "N'@d4",
        "d3d7,d7d6",
        "f0h0,i0g0",
        "e2e4,",
        "e4f5,f5f4,f4e4",
        "P@e4,e4d5",
        "O-O",
        "O-O-O",
        "o-o",
        "o-o-o",
        "0-0",
        "0-0-0",
        "@@@@",
    ];

    /// The empty text is none either, but not listed: a reader of lines takes it for an empty line.
    pub(crate) const NOT_MOVE_SHAPES: &[&str] = &[
        "e2",
        "e2e",
        "q2e4",
        "e2e4 e7e5",
        "e2e4,,e7e5",
        ",e2e4",
        "e123e4",
        "O-O-O-O",
        "O-o",
        "@@@",
        "P@",
        "@e4",
        "Nf3",
        "exd5",
        "e2-e4",
        "e2e4#",
        "E2E4",
        "0000",
        "zz9z9",
        "x1x2",
    ];
}

#[cfg(test)]
mod tests {
    use super::examples::{MOVE_SHAPES, NOT_MOVE_SHAPES};
    use super::{begins_like_move, looks_like_move};

    #[test]
    fn move_shapes() {
        for text in MOVE_SHAPES {
            assert!(looks_like_move(text), "{text} should look like a move");
        }
    }

    #[test]
    fn not_move_shapes() {
        for text in [""].iter().chain(NOT_MOVE_SHAPES) {
            assert!(!looks_like_move(text), "{text:?} should not look like a move");
        }
    }

    #[test]
    fn texts_that_begin_like_a_move() {
        for text in ["e2e4", "b1-c3", "e2e4#", "e123e4", "P@", "O-O-O-O", "e2x", "d3d7,,"] {
            assert!(begins_like_move(text), "{text}");
        }
        for text in ["", "e2", "Nf3", "exd5", "@e4", "@@@@", "0000", "hello", "q2e4"] {
            assert!(!begins_like_move(text), "{text:?}");
        }
    }
}
