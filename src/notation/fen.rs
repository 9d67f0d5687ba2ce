//! FEN in XBoard's dialect: multi-digit empty runs, holdings in `[...]` right after the board (any
//! order, `[-]` or `[]` when empty), X-FEN/Shredder castling letters, promoted pieces marked as
//! XBoard and Fairy-Stockfish mark them: `Q~` (a queen that was a pawn: crazyhouse) or `+P` (the
//! promoted form of a pawn: shogi).
//! Parsing yields raw `Setup` data; `Position::from_setup` validates it.

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{tag, take_while, take_while1},
    character::complete::{alpha1, char, digit1, satisfy, space0, space1},
    combinator::{all_consuming, map, opt, value, verify},
    multi::{many0, separated_list1},
    sequence::{delimited, preceded},
};

use super::{Coords, parse_square, square_name};
use crate::core::{BoardShape, CastlingRight, CastlingRook, Color, Position, Setup, Variant};

/// A FEN that cannot be read, and why.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct FenError {
    pub fen: String,
    pub message: String,
}

impl std::fmt::Display for FenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "invalid FEN \"{}\": {}", self.fen, self.message)
    }
}

impl std::error::Error for FenError {}

#[derive(Clone)]
enum Cell {
    Empty(usize),
    /// A letter, and whether it is marked promoted.
    Piece(char, bool),
}

fn letter(i: &str) -> IResult<&str, char> {
    satisfy(|c| c.is_ascii_alphabetic()).parse(i)
}

fn cell(i: &str) -> IResult<&str, Cell> {
    alt((
        map(digit1, |d: &str| Cell::Empty(d.parse().unwrap_or(usize::MAX))),
        map(preceded(char('+'), letter), |c| Cell::Piece(c, true)),
        map((letter, opt(char('~'))), |(c, mark)| Cell::Piece(c, mark.is_some())),
    ))
    .parse(i)
}

fn rank(i: &str) -> IResult<&str, Vec<Cell>> {
    many0(cell).parse(i)
}

fn holdings(i: &str) -> IResult<&str, Vec<char>> {
    delimited(
        char('['),
        alt((
            value(Vec::new(), char('-')),
            map(take_while(|c: char| c.is_ascii_alphabetic()), |s: &str| {
                s.chars().collect()
            }),
        )),
        char(']'),
    )
    .parse(i)
}

type Fields<'a> = (
    Vec<Vec<Cell>>,
    Option<Vec<char>>,
    char,
    &'a str,
    &'a str,
    Option<(&'a str, Option<&'a str>)>,
);

fn fields(i: &str) -> IResult<&str, Fields<'_>> {
    let (i, board) = separated_list1(char('/'), rank).parse(i)?;
    let (i, hand) = opt(preceded(space0, holdings)).parse(i)?;
    // A whole word, so that "world" is a bad side to move, not "w" and a bad castling field.
    let (i, side) = preceded(
        space1,
        map(verify(alpha1, |w: &str| w == "w" || w == "b"), |w: &str| {
            if w == "w" { 'w' } else { 'b' }
        }),
    )
    .parse(i)?;
    let (i, castling) = preceded(space1, alt((tag("-"), take_while1(|c: char| c.is_ascii_alphabetic())))).parse(i)?;
    let (i, ep) = preceded(space1, take_while1(|c: char| c.is_ascii_alphanumeric() || c == '-')).parse(i)?;
    let (i, clocks) = opt((preceded(space1, digit1), opt(preceded(space1, digit1)))).parse(i)?;
    let (i, _) = space0(i)?;
    Ok((i, (board, hand, side, castling, ep, clocks)))
}

/// Parses a FEN into raw setup data. The en-passant square is read in `coords`.
///
/// # Errors
///
/// The text is not a FEN (the error names the text and what is wrong). Whether the setup is a
/// position of a game is [`Position::from_setup`]'s question.
pub fn parse_fen(fen: &str, coords: Coords) -> Result<Setup, FenError> {
    let err = |message: String| FenError {
        fen: fen.to_string(),
        message,
    };
    let text = fen.trim();
    let (board, hand, side, castling, ep, clocks) = match all_consuming(fields).parse(text) {
        Ok((_, f)) => f,
        Err(e) => {
            let rest = match &e {
                nom::Err::Error(x) | nom::Err::Failure(x) => x.input,
                nom::Err::Incomplete(_) => "",
            };
            let at = text.len() - rest.len();
            let what = match text[..at].split_whitespace().count() {
                0 | 1 if !text[..at].contains(' ') => "the board",
                1 => "the side to move (w or b)",
                2 => "the castling field",
                3 => "the en-passant field",
                _ => "the move counters",
            };
            return Err(err(format!(
                "cannot read {what} at {:?}",
                rest.chars().take(12).collect::<String>()
            )));
        }
    };
    let mut rows = Vec::new();
    // (file, row from the top) of the marked pieces; ranks are known once every row is read.
    let mut marked = Vec::new();
    for cells in board {
        let mut row = Vec::new();
        for c in cells {
            match c {
                Cell::Empty(n) if n == 0 || n > 64 => return Err(err(format!("bad empty-square count {n}"))),
                Cell::Empty(n) => row.extend(std::iter::repeat_n(None, n)),
                Cell::Piece(p, promoted) => {
                    if promoted && row.len() < 16 {
                        marked.push((row.len() as u8, rows.len() as u8));
                    }
                    row.push(Some(p));
                }
            }
        }
        rows.push(row);
    }
    let ranks = rows.len();
    if ranks > 16 {
        return Err(err(format!("{ranks} ranks is more than the 16 a board may have")));
    }
    let ep = if ep == "-" {
        None
    } else {
        let files = rows.first().map_or(0, Vec::len).clamp(1, 16) as u8;
        let shape = BoardShape::new(files, (ranks as u8).max(1))
            .or(BoardShape::new(16, 15))
            .ok_or_else(|| err("board too large".to_string()))?;
        match parse_square(shape, ep, coords) {
            Some((sq, "")) => Some((shape.file(sq), shape.rank(sq))),
            _ => return Err(err(format!("bad en-passant square {ep:?}"))),
        }
    };
    let number = |s: &str| s.parse::<u32>().map_err(|_| err(format!("bad number {s:?}")));
    let (halfmove, fullmove) = match clocks {
        Some((h, f)) => (number(h)?, f.map(number).transpose()?.unwrap_or(1)),
        None => (0, 1),
    };
    let promoted = marked.into_iter().map(|(f, row)| (f, ranks as u8 - 1 - row)).collect();
    Ok(Setup {
        board: rows,
        promoted,
        holdings: hand.unwrap_or_default(),
        side: if side == 'w' { Color::White } else { Color::Black },
        castling: if castling == "-" {
            Vec::new()
        } else {
            castling
                .chars()
                .map(|c| castling_right(c).ok_or_else(|| err(format!("invalid castling letter '{c}'"))))
                .collect::<Result<_, _>>()?
        },
        ep,
        halfmove,
        fullmove,
    })
}

/// An X-FEN/Shredder castling letter: `K`/`Q` (by side), `A`..`P` (a rook's file), lower case
/// for Black.
fn castling_right(c: char) -> Option<CastlingRight> {
    let color = if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    let rook = match c.to_ascii_uppercase() {
        'K' => CastlingRook::Kingside,
        'Q' => CastlingRook::Queenside,
        f @ 'A'..='P' => CastlingRook::File(f as u8 - b'A'),
        _ => return None,
    };
    Some(CastlingRight { color, rook })
}

/// The X-FEN letter of a castling right.
fn castling_letter(right: CastlingRight) -> char {
    let c = match right.rook {
        CastlingRook::Kingside => 'K',
        CastlingRook::Queenside => 'Q',
        CastlingRook::File(f) => (b'A' + f.min(25)) as char,
    };
    match right.color {
        Color::White => c,
        Color::Black => c.to_ascii_lowercase(),
    }
}

/// The FEN of a variant's start position (human coordinates).
pub fn start_fen(variant: &Variant) -> String {
    setup_to_fen(&variant.start, variant, Coords::Human)
}

/// A promoted piece as FEN marks it: `+P` when it bears its unpromoted form's letter (shogi),
/// else `Q~` (crazyhouse: it looks like a queen but returns to hand as a pawn).
fn push_promoted(s: &mut String, letter: char, variant: &Variant) {
    let plus = variant.promoted_kind_by_letter(letter).is_some_and(|k| {
        let base = variant.hand_kind(k);
        variant.piece(base).letter == letter.to_ascii_uppercase()
    });
    if plus {
        s.push('+');
        s.push(letter);
    } else {
        s.push(letter);
        s.push('~');
    }
}

/// Writes one rank of a FEN board field: each occupied cell by `push`, each run of empty cells
/// (`None`) as its length.
pub fn push_rank<C>(s: &mut String, cells: impl IntoIterator<Item = Option<C>>, mut push: impl FnMut(&mut String, C)) {
    let mut run = 0;
    for cell in cells {
        match cell {
            None => run += 1,
            Some(c) => {
                if run > 0 {
                    s.push_str(&run.to_string());
                    run = 0;
                }
                push(s, c);
            }
        }
    }
    if run > 0 {
        s.push_str(&run.to_string());
    }
}

/// Writes setup data as a FEN of this variant; a variant with drops gets the `[...]` field
/// (always, `[-]` when empty).
pub fn setup_to_fen(setup: &Setup, variant: &Variant, coords: Coords) -> String {
    let shape = variant.shape;
    let (files, ranks) = (shape.files, shape.ranks);
    let with_holdings = variant.has_drops();
    let mut s = String::new();
    for (i, row) in setup.board.iter().enumerate() {
        if i > 0 {
            s.push('/');
        }
        let rank = (setup.board.len() - 1 - i) as u8;
        let cells = row.iter().enumerate().map(|(file, cell)| cell.map(|c| (file as u8, c)));
        push_rank(&mut s, cells, |s, (file, c)| {
            if setup.promoted.contains(&(file, rank)) {
                push_promoted(s, c, variant);
            } else {
                s.push(c);
            }
        });
    }
    if with_holdings {
        s.push('[');
        if setup.holdings.is_empty() {
            s.push('-');
        } else {
            s.extend(setup.holdings.iter());
        }
        s.push(']');
    }
    s.push_str(if setup.side == Color::White { " w " } else { " b " });
    if setup.castling.is_empty() {
        s.push('-');
    } else {
        s.extend(setup.castling.iter().map(|&r| castling_letter(r)));
    }
    s.push(' ');
    match setup.ep {
        Some((f, r)) => {
            let shape = BoardShape { files, ranks };
            s.push_str(&square_name(shape, shape.square(f, r), coords));
        }
        None => s.push('-'),
    }
    s.push_str(&format!(" {} {}", setup.halfmove, setup.fullmove));
    s
}

/// A FEN as PGN readers want it: an empty hand written `[]`, not XBoard's `[-]` (python-chess's
/// crazyhouse reader refuses `[-]`; XBoard and Fairy-Stockfish read both).
pub fn for_pgn(fen: &str) -> String {
    match fen.split_once("[-]") {
        Some((board, rest)) if !board.contains(' ') => format!("{board}[]{rest}"),
        _ => fen.to_string(),
    }
}

/// The FEN of a position.
pub fn to_fen(pos: &Position, coords: Coords) -> String {
    setup_to_fen(&pos.to_setup(), pos.variant(), coords)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_multi_digit_runs_and_holdings() {
        let s = parse_fen(
            "xrwbqkbfrd/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/XRWBQKBFRD[GJJJJJgjjjjj] w KQkq - 0 1",
            Coords::Human,
        )
        .unwrap();
        assert_eq!(s.board.len(), 10);
        assert!(s.board.iter().all(|r| r.len() == 10));
        assert_eq!(s.holdings.len(), 12);
        let letters: String = s.castling.iter().map(|&r| castling_letter(r)).collect();
        assert_eq!(letters, "KQkq");
        let t = parse_fen("8/8/8/8/8/8/8/K6k [-] b - - 5 9", Coords::Human).unwrap();
        assert!(t.holdings.is_empty());
        assert_eq!((t.halfmove, t.fullmove), (5, 9));
        assert_eq!(
            parse_fen("8/8/8/8/8/8/8/K6k[] b -", Coords::Human).unwrap_err().message,
            "cannot read the en-passant field at \"\""
        );
    }

    #[test]
    fn pgn_fens_write_an_empty_hand_as_brackets() {
        assert_eq!(
            for_pgn("8/8/8/8/8/8/8/K6k[-] w - - 0 1"),
            "8/8/8/8/8/8/8/K6k[] w - - 0 1"
        );
        assert_eq!(
            for_pgn("8/8/8/8/8/8/8/K6k[Qq] w - - 0 1"),
            "8/8/8/8/8/8/8/K6k[Qq] w - - 0 1"
        );
        assert_eq!(for_pgn("8/8/8/8/8/8/8/K6k w - - 0 1"), "8/8/8/8/8/8/8/K6k w - - 0 1");
    }

    #[test]
    fn en_passant_square_follows_the_coordinates() {
        let fen = "10/10/10/10/10/10/10/10/10/10 w - e2 0 1";
        assert_eq!(parse_fen(fen, Coords::Wire).unwrap().ep, Some((4, 2)));
        assert_eq!(parse_fen(fen, Coords::Human).unwrap().ep, Some((4, 1)));
    }

    #[test]
    fn errors_say_what_is_wrong() {
        assert!(
            parse_fen("8/8/8/8/8/8/8/8 x - - 0 1", Coords::Human)
                .unwrap_err()
                .message
                .contains("side to move")
        );
        assert!(
            parse_fen("8/8/8/8/8/8/8/8 w - z9z 0 1", Coords::Human)
                .unwrap_err()
                .message
                .contains("en-passant")
        );
        assert!(parse_fen("", Coords::Human).is_err());
        let garbage = parse_fen("hello world", Coords::Human).unwrap_err().message;
        assert_eq!(garbage, "cannot read the side to move (w or b) at \"world\"");
        assert!(
            parse_fen("8/8/0/8/8/8/8/8 w - - 0 1", Coords::Human)
                .unwrap_err()
                .message
                .contains("count")
        );
        assert!(parse_fen("8/8/8/8/8/8/8/8 w - - x 1", Coords::Human).is_err());
    }
}
