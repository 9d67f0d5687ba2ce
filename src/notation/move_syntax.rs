//! The grammar of coordinate move text, one for every reader. It answers three questions: what
//! a text says (`parse`: its typed form, `MoveText`, which `movetext::resolve` then matches against
//! a position's legal moves), is a text a move's shape (`looks_like_move`: the CECP door takes a
//! bare line for a move), and does a text begin like a move (`begins_like_move`: a refusal by `movetext::parse_move` is then an
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
    combinator::{all_consuming, map, opt, recognize, value},
    multi::many0,
    sequence::preceded,
};

type ParseResult<'a, O> = IResult<&'a str, O>;

/// A move text in typed form: what `parse` reads, before any position is asked which move it
/// names (`movetext::resolve`).
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum MoveText {
    /// `@@@@`.
    Null,
    /// `O-O` (`long`: `O-O-O`), also spelt `o-o` or `0-0`.
    Castle { long: bool },
    /// A drop on its own: `P@e4`.
    Drop(DropText),
    /// One leg (`e2e4`, `e7e8q`) or several joined by commas (`d3d7,d7d6`); `unfinished` when a
    /// trailing comma marks a move not yet complete (`e2e4,`).
    Legs { legs: Vec<Leg>, unfinished: bool },
}

/// One leg of a move: a step from a square to a square, or a drop.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Leg {
    Step(Step),
    Drop(DropText),
}

/// A step from a square to a square, with what may follow it.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Step {
    pub from: SquareText,
    pub to: SquareText,
    pub suffix: Option<Suffix>,
}

/// A drop: the piece ID as written (`piece`, and the `'` or `!` that dresses it, if any) and the
/// square.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct DropText {
    pub piece: char,
    pub dress: Option<char>,
    pub to: SquareText,
}

/// What follows a step.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Suffix {
    /// A promotion letter as written, either case: `e7e8q`, also `e7e8=q`.
    Promote(char),
    /// `+`, a shogi promotion.
    Shogi,
    /// `-`, a demotion (as Fairy-Stockfish prints it).
    Demote,
    /// `=` alone: promotion declined.
    Decline,
    /// `=b8`: the square of the unit a growing rose converts.
    Convert(SquareText),
}

/// A square as written: its file (0 for `a`) and its rank number with the count of digits it was
/// written with (`e08` is not `e8`). Which board square it is depends on the board and the
/// coordinates (`notation::parse_square`, `notation::square_text`).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct SquareText {
    pub file: u8,
    pub rank: u8,
    pub digits: u8,
}

impl SquareText {
    /// The square written in the fewest digits: file `file` (0 for `a`), rank number `rank`.
    pub fn new(file: u8, rank: u8) -> SquareText {
        SquareText {
            file,
            rank,
            digits: if rank >= 10 { 2 } else { 1 },
        }
    }
}

/// A text that is not a move's shape.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct NotAMove;

/// Reads the whole of `text` as a move's shape, into its typed form.
///
/// # Errors
///
/// [`NotAMove`] when the text, or any of it, is not a move's shape.
pub fn parse(text: &str) -> Result<MoveText, NotAMove> {
    all_consuming(move_text)
        .parse(text)
        .map(|(_, t)| t)
        .map_err(|_| NotAMove)
}

/// True if the whole of `text` has the shape of a move.
pub fn looks_like_move(text: &str) -> bool {
    parse(text).is_ok()
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
    recognize(move_text).parse(input)
}

fn move_text(input: &str) -> ParseResult<'_, MoveText> {
    alt((
        value(MoveText::Null, null_move),
        map(castling, |c: &str| MoveText::Castle { long: c.len() == 5 }),
        legs,
    ))
    .parse(input)
}

/// A square: file `a`–`p` and a one- or two-digit rank (`a0` on 10-rank boards in wire
/// coordinates, `a10` on taller ones).
///
/// # Errors
///
/// nom's error when the input does not start with a square.
pub fn square(input: &str) -> ParseResult<'_, &str> {
    recognize(square_text).parse(input)
}

fn square_text(input: &str) -> ParseResult<'_, SquareText> {
    map(
        (
            satisfy(|c| ('a'..='p').contains(&c)),
            take_while_m_n(1, 2, |c: char| c.is_ascii_digit()),
        ),
        |(file, digits): (char, &str)| SquareText {
            file: file as u8 - b'a',
            rank: digits.bytes().fold(0, |n, d| n * 10 + (d - b'0')),
            digits: digits.len() as u8,
        },
    )
    .parse(input)
}

/// A piece ID: a letter, optionally "dressed" with `'` or `!` (XBoard ≥ 4.9).
///
/// # Errors
///
/// nom's error when the input does not start with a piece ID.
pub fn piece_id(input: &str) -> ParseResult<'_, &str> {
    recognize(piece_id_text).parse(input)
}

fn piece_id_text(input: &str) -> ParseResult<'_, (char, Option<char>)> {
    (satisfy(|c| c.is_ascii_alphabetic()), opt(one_of("'!"))).parse(input)
}

/// What may follow a step: the square of the unit a growing rose converts (`=b8`, tried first so
/// that `=b` is not taken for a promotion), or a promotion: a piece letter (either case), `+`
/// (shogi promotion), `-` (demotion, as Fairy-Stockfish prints) or `=` with an optional letter
/// (`=` alone declines promotion; `=q` is `q`).
fn step_suffix(input: &str) -> ParseResult<'_, Suffix> {
    alt((
        map(preceded(char('='), square_text), Suffix::Convert),
        map(
            preceded(char('='), opt(satisfy(|c| c.is_ascii_alphabetic()))),
            |letter| letter.map_or(Suffix::Decline, Suffix::Promote),
        ),
        map(
            satisfy(|c| c.is_ascii_alphabetic() || c == '+' || c == '-'),
            |c| match c {
                '+' => Suffix::Shogi,
                '-' => Suffix::Demote,
                letter => Suffix::Promote(letter),
            },
        ),
    ))
    .parse(input)
}

fn board_step(input: &str) -> ParseResult<'_, Step> {
    map((square_text, square_text, opt(step_suffix)), |(from, to, suffix)| {
        Step { from, to, suffix }
    })
    .parse(input)
}

fn drop_move(input: &str) -> ParseResult<'_, DropText> {
    map((piece_id_text, char('@'), square_text), |((piece, dress), _, to)| {
        DropText { piece, dress, to }
    })
    .parse(input)
}

/// One or more legs joined by commas; a trailing comma marks an unfinished multi-leg move. A drop
/// on its own is a `MoveText::Drop`.
fn legs(input: &str) -> ParseResult<'_, MoveText> {
    let leg = || alt((map(board_step, Leg::Step), map(drop_move, Leg::Drop)));
    map(
        (leg(), many0(preceded(char(','), leg())), opt(char(','))),
        |(first, rest, comma)| match (first, rest.is_empty(), comma) {
            (Leg::Drop(drop), true, None) => MoveText::Drop(drop),
            (first, _, comma) => {
                let mut legs = Vec::with_capacity(1 + rest.len());
                legs.push(first);
                legs.extend(rest);
                MoveText::Legs {
                    legs,
                    unfinished: comma.is_some(),
                }
            }
        },
    )
    .parse(input)
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
    use super::*;

    fn sq(name: &str) -> SquareText {
        let (_, s) = square_text(name).expect("a square");
        s
    }

    fn step(from: &str, to: &str, suffix: Option<Suffix>) -> Leg {
        Leg::Step(Step {
            from: sq(from),
            to: sq(to),
            suffix,
        })
    }

    fn legs(legs: Vec<Leg>, unfinished: bool) -> Result<MoveText, NotAMove> {
        Ok(MoveText::Legs { legs, unfinished })
    }

    #[test]
    fn the_null_move() {
        assert_eq!(parse("@@@@"), Ok(MoveText::Null));
    }

    #[test]
    fn castling_in_each_spelling() {
        for (text, long) in [
            ("O-O", false),
            ("O-O-O", true),
            ("o-o", false),
            ("o-o-o", true),
            ("0-0", false),
            ("0-0-0", true),
        ] {
            assert_eq!(parse(text), Ok(MoveText::Castle { long }), "{text}");
        }
    }

    #[test]
    fn a_drop_with_its_piece_id_as_written() {
        let e4 = SquareText::new(4, 4);
        assert_eq!(
            parse("P@e4"),
            Ok(MoveText::Drop(DropText {
                piece: 'P',
                dress: None,
                to: e4
            }))
        );
        assert_eq!(
            parse("n'@e4"),
            Ok(MoveText::Drop(DropText {
                piece: 'n',
                dress: Some('\''),
                to: e4
            }))
        );
    }

    #[test]
    fn one_step() {
        assert_eq!(parse("e2e4"), legs(vec![step("e2", "e4", None)], false));
        assert_eq!(sq("e2"), SquareText::new(4, 2));
    }

    #[test]
    fn squares_keep_their_rank_as_written() {
        assert_eq!(sq("a0"), SquareText::new(0, 0));
        assert_eq!(sq("p16"), SquareText::new(15, 16));
        assert_eq!(
            sq("e08"),
            SquareText {
                file: 4,
                rank: 8,
                digits: 2
            }
        );
        assert_ne!(sq("e08"), SquareText::new(4, 8));
        assert_eq!(
            parse("e9e10q"),
            legs(vec![step("e9", "e10", Some(Suffix::Promote('q')))], false)
        );
    }

    #[test]
    fn promotion_letters_in_either_case_and_after_an_equals_sign() {
        for (text, letter) in [("e7e8q", 'q'), ("e7e8Q", 'Q'), ("e7e8=q", 'q'), ("e7e8=N", 'N')] {
            assert_eq!(
                parse(text),
                legs(vec![step("e7", "e8", Some(Suffix::Promote(letter)))], false),
                "{text}"
            );
        }
    }

    #[test]
    fn shogi_promotion_demotion_and_declining() {
        for (text, suffix) in [
            ("c7c8+", Suffix::Shogi),
            ("c7c8-", Suffix::Demote),
            ("c7c8=", Suffix::Decline),
        ] {
            assert_eq!(parse(text), legs(vec![step("c7", "c8", Some(suffix))], false), "{text}");
        }
    }

    #[test]
    fn a_growing_rose_names_the_unit_it_converts() {
        let convert = Some(Suffix::Convert(sq("b8")));
        assert_eq!(parse("e7e8=b8"), legs(vec![step("e7", "e8", convert)], false));
        // `=b` is a promotion: no rank, no square.
        assert_eq!(
            parse("e7e8=b"),
            legs(vec![step("e7", "e8", Some(Suffix::Promote('b')))], false)
        );
    }

    #[test]
    fn legs_joined_by_commas() {
        let two = vec![step("d3", "d7", None), step("d7", "d6", None)];
        assert_eq!(parse("d3d7,d7d6"), legs(two.clone(), false));
        let drop = Leg::Drop(DropText {
            piece: 'P',
            dress: None,
            to: sq("e4"),
        });
        assert_eq!(
            parse("P@e4,e4d5"),
            legs(vec![drop.clone(), step("e4", "d5", None)], false)
        );
        assert_eq!(parse("P@e4,"), legs(vec![drop], true));
    }

    #[test]
    fn a_trailing_comma_marks_an_unfinished_move() {
        assert_eq!(parse("e2e4,"), legs(vec![step("e2", "e4", None)], true));
        assert_eq!(
            parse("d3d7,d7d6,"),
            legs(vec![step("d3", "d7", None), step("d7", "d6", None)], true)
        );
    }

    #[test]
    fn a_text_that_is_not_wholly_a_move_is_refused() {
        for text in ["", "e2e4 ", "e2-e4", "e2e4,,", "e2e4e5", "O-O+", "@@@"] {
            assert_eq!(parse(text), Err(NotAMove), "{text:?}");
        }
    }

    #[test]
    fn the_shape_is_what_parse_reads() {
        for text in MOVE_SHAPES.iter().chain(NOT_MOVE_SHAPES) {
            let shape = move_shape(text)
                .ok()
                .filter(|(rest, _)| rest.is_empty())
                .map(|(_, s)| s);
            assert_eq!(shape.is_some(), parse(text).is_ok(), "{text}");
        }
    }

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
