//! The move reader `movetext` had before `resolve`: it renders every legal move in each of its
//! forms and compares the strings with the text; and the wire writer it used, which the XBoard
//! door had in notation then. Test-only: the oracle `resolve` (`reader_equivalence`) and the
//! door's writer (`protocol::xboard::wire`) are checked against, since keeping every behaviour
//! was the rule when they replaced these.

use super::{MoveTextError, kill_square, leg, looks_like_move, plain, sq, two_legs};
use crate::core::{Move, Position, Square};
use crate::notation::Coords;

/// How a variant's castling and e.p. went on the wire: as one leg (the default) or two.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub(crate) struct WireStyle {
    pub castling_two_legs: bool,
    pub en_passant_legs: bool,
}

impl WireStyle {
    /// Both as two legs: the forms a one-leg reading would not find by itself.
    pub(crate) const LEGS: WireStyle = WireStyle {
        castling_two_legs: true,
        en_passant_legs: true,
    };

    /// Every style.
    pub(crate) const ALL: [WireStyle; 4] = [
        WireStyle {
            castling_two_legs: false,
            en_passant_legs: false,
        },
        WireStyle {
            castling_two_legs: true,
            en_passant_legs: false,
        },
        WireStyle {
            castling_two_legs: false,
            en_passant_legs: true,
        },
        WireStyle::LEGS,
    ];
}

/// The wire (CECP) text of a move, castling and e.p. in `style`.
pub(crate) fn wire(pos: &Position, mv: &Move, style: WireStyle) -> String {
    let c = Coords::Wire;
    match *mv {
        Move::Castle {
            king_from: kf,
            king_to: kt,
            rook_from: rf,
            rook_to: rt,
        } if style.castling_two_legs => {
            if kt == rf {
                // XBoard would glue `f0i0,i0h0` into one king move; this form moves both right.
                two_legs(pos, [kf, kt, kt, kt], c)
            } else {
                two_legs(pos, [kf, kt, rf, rt], c)
            }
        }
        Move::Castle { king_from, king_to, .. } => leg(pos, king_from, king_to, c),
        Move::EnPassant { from, to, victim, .. } if style.en_passant_legs => {
            two_legs(pos, [from, victim, victim, to], c)
        }
        // Growing roses: the pawn's move, then a second leg to the converted unit (XBoard relays
        // such a two-leg move verbatim; see protocol/wildrose-turns.md).
        Move::Grow { from, to, converts } => two_legs(pos, [from, to, to, converts.unwrap_or(to)], c),
        Move::Special { from, to, .. } => match kill_square(pos, mv) {
            Some(kill) if kill != to => two_legs(pos, [from, kill, kill, to], c),
            _ => plain(pos, mv, c),
        },
        _ => plain(pos, mv, c),
    }
}

/// The squares whose pieces XBoard removes when it reads `mv`'s wire text.
pub(crate) fn wire_cleared(pos: &Position, mv: &Move, style: WireStyle) -> [Square; 2] {
    let kill = match *mv {
        Move::Special { .. } => kill_square(pos, mv).unwrap_or(Square::NONE),
        Move::EnPassant { victim, .. } if style.en_passant_legs => victim,
        _ => Square::NONE,
    };
    [mv.to(), kill]
}

fn normalize(text: &str) -> String {
    let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
    // Drops keep their upper-case letter; promotion letters may come in either case or after `=`.
    match t.split_once('@') {
        Some((p, rest)) => format!("{}@{}", p.to_ascii_uppercase(), rest.to_ascii_lowercase()),
        None => {
            let lower = t.to_ascii_lowercase();
            // `e7e8=q` is a promotion; `e7e8=b8` (growing roses) keeps its `=`.
            match lower.rsplit_once('=') {
                Some((head, letter)) if letter.len() == 1 && letter.chars().all(|c| c.is_ascii_alphabetic()) => {
                    format!("{head}{letter}")
                }
                _ => lower,
            }
        }
    }
}

/// Finds the legal move a text names, in canonical or wire notation (wire text in any style).
///
/// # Errors
///
/// [`MoveTextError::Unparsable`] for a text not shaped like a move; [`MoveTextError::Illegal`]
/// when no legal move has this text.
pub(crate) fn parse_move(pos: &Position, text: &str, coords: Coords) -> Result<Move, MoveTextError> {
    let wanted = normalize(text);
    if !looks_like_move(&wanted) {
        return Err(MoveTextError::Unparsable);
    }
    let moves = pos.legal_moves();
    // Exact forms first, then alternatives, so that a plain king step never turns into castling
    // (on the wire, castling's exact form is its two legs: the one-leg form comes after).
    let exact = |mv: &Move| match coords {
        Coords::Human => plain(pos, mv, Coords::Human),
        Coords::Wire => wire(pos, mv, WireStyle::LEGS),
    };
    if let Some(mv) = moves.iter().find(|mv| exact(mv) == wanted) {
        return Ok(*mv);
    }
    // On the wire, also the coordinate form without legs.
    if coords == Coords::Wire
        && let Some(mv) = moves.iter().find(|mv| plain(pos, mv, Coords::Wire) == wanted)
    {
        return Ok(*mv);
    }
    // E.p. as two legs through the victim, whichever form this variant sends.
    if let Some(mv) = moves.iter().find(|mv| match **mv {
        Move::EnPassant { from, to, victim, .. } => two_legs(pos, [from, victim, victim, to], coords) == wanted,
        _ => false,
    }) {
        return Ok(*mv);
    }
    // A detonation through any of its victims (the engine itself names the first one).
    for mv in moves.iter() {
        if let Move::Special { from, to, .. } = *mv
            && from == to
        {
            let through_any = pos
                .captures_of(mv)
                .any(|(v, _)| two_legs(pos, [from, v, v, from], coords) == wanted);
            if through_any {
                return Ok(*mv);
            }
        }
    }
    // Other forms of castling: the natural two legs (king leg, rook leg; XBoard relays a king
    // that lands on the rook's square as `f0i0,i0h0`), and the plain king move when the canonical
    // form is rook-onto-king.
    for mv in moves.iter() {
        if let Move::Castle {
            king_from,
            king_to,
            rook_from,
            rook_to,
        } = *mv
        {
            if two_legs(pos, [king_from, king_to, rook_from, rook_to], coords) == wanted {
                return Ok(*mv);
            }
            let king_move = leg(pos, king_from, king_to, coords);
            let is_plain_king_move = moves
                .iter()
                .any(|m| !matches!(m, Move::Castle { .. }) && m.from() == Some(king_from) && m.to() == king_to);
            if king_move == wanted && !is_plain_king_move {
                return Ok(*mv);
            }
        }
    }
    // Growing roses as XBoard relays them when it takes the two legs for castling (it does when
    // the pawn's square and its arrival square have one colour on its board, as for every Black
    // push onto an empty last-rank square): `FROM CONVERTED,TO X`, X beside the converted unit on
    // its rank, or off the board.
    if coords == Coords::Wire {
        for mv in moves.iter() {
            if let Move::Grow { from, to, converts } = *mv {
                let converted = sq(pos, converts.unwrap_or(to), coords);
                let head = format!(
                    "{},{}",
                    leg(pos, from, converts.unwrap_or(to), coords),
                    sq(pos, to, coords)
                );
                let beside = |rest: &str| rest.len() == converted.len() && rest.get(1..) == converted.get(1..);
                if wanted.strip_prefix(&head).is_some_and(beside) {
                    return Ok(*mv);
                }
            }
        }
    }
    Err(MoveTextError::Illegal)
}
