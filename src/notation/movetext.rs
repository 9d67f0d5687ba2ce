//! Move text. Canonical notation (the engine's own; human coordinates): `e2e4`, `e9e10q`, drops
//! `J@e5`, castling as the king move except 1-square castlings written rook-onto-king (`i1f1`),
//! hook captures as from-square + landing square, detonation `e5e5`.
//! Wire notation (CECP): the same in wire coordinates, except castling and e.p. in variants whose
//! `WireStyle` (the XBoard door's, per variant) sends them as two legs (`f0h0,i0g0`; king onto the
//! rook square as `f0i0,i0i0`; e.p. through the victim `d5c5,c5c4`), and hook captures of one
//! victim as two legs through the victim's square (`d3d7,d7d6`, detonation `e4e5,e5e4`). Reading
//! wire text takes every style.

use super::{Coords, square_name};
use crate::core::moves::piece_move;
use crate::core::{Move, Position, Square};

fn sq(pos: &Position, s: Square, coords: Coords) -> String {
    square_name(pos.variant().shape, s, coords)
}

/// One leg, from `a` to `b`: `e2e4`.
fn leg(pos: &Position, a: Square, b: Square, coords: Coords) -> String {
    format!("{}{}", sq(pos, a, coords), sq(pos, b, coords))
}

/// Two legs, `a` to `b` and `c` to `d`: `d3d7,d7d6`.
fn two_legs(pos: &Position, [a, b, c, d]: [Square; 4], coords: Coords) -> String {
    format!("{},{}", leg(pos, a, b, coords), leg(pos, c, d, coords))
}

/// The canonical text of a move (human coordinates).
pub fn canonical(pos: &Position, mv: &Move) -> String {
    plain(pos, mv, Coords::Human)
}

/// A move in coordinate notation without multi-leg forms.
fn plain(pos: &Position, mv: &Move, coords: Coords) -> String {
    let v = pos.variant();
    let shape = v.shape;
    match *mv {
        Move::Drop { kind, to } => format!("{}@{}", v.piece(kind).letter, sq(pos, to, coords)),
        Move::Castle {
            king_from,
            king_to,
            rook_from,
            ..
        } => {
            if shape.file(king_from).abs_diff(shape.file(king_to)) == 1 {
                leg(pos, rook_from, king_from, coords)
            } else {
                leg(pos, king_from, king_to, coords)
            }
        }
        Move::Grow { from, to, converts } => {
            let mut s = leg(pos, from, to, coords);
            if let Some(unit) = converts {
                s.push('=');
                s.push_str(&sq(pos, unit, coords));
            }
            s
        }
        piece_move!(from, to, promotion) => {
            let mut s = leg(pos, from, to, coords);
            if let Some(k) = promotion {
                s.push(v.piece(k).letter.to_ascii_lowercase());
            }
            s
        }
    }
}

/// The square a hook move goes through on the wire (XBoard's "kill square"): its single victim
/// off the landing square; the jumped victim of a double capture; for a detonation, which stays
/// put, the first of its victims (XBoard forfeits a move from a square to itself, and cannot carry
/// more than one victim in two legs).
fn kill_square(pos: &Position, mv: &Move) -> Option<Square> {
    let Move::Special { from, to, .. } = *mv else {
        return None;
    };
    let mut victims = pos.captures_of(mv).map(|(s, _)| s);
    let first = victims.next()?;
    if from == to {
        return Some(first);
    }
    match victims.next() {
        None => Some(first),
        // Double capture: the jumped victim is the kill square, the landing square the second.
        Some(second) if second == to || first == to => Some(if first == to { second } else { first }),
        Some(_) => None,
    }
}

/// The squares whose pieces XBoard removes when it reads `mv`'s wire text: the landing square
/// and any kill square of a two-leg form. A hook move's other victims (a detonation's second and
/// later ones) are not among them: XBoard keeps showing them.
pub fn wire_cleared(pos: &Position, mv: &Move, style: WireStyle) -> [Square; 2] {
    let kill = match *mv {
        Move::Special { .. } => kill_square(pos, mv).unwrap_or(Square::NONE),
        Move::EnPassant { victim, .. } if style.en_passant_legs => victim,
        _ => Square::NONE,
    };
    [mv.to(), kill]
}

/// How a variant's castling and e.p. go on the wire: as one leg (the default) or two.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct WireStyle {
    pub castling_two_legs: bool,
    pub en_passant_legs: bool,
}

impl WireStyle {
    /// Both as two legs: the forms a one-leg reading would not find by itself.
    const LEGS: WireStyle = WireStyle {
        castling_two_legs: true,
        en_passant_legs: true,
    };
}

/// The wire (CECP) text of a move, castling and e.p. in `style`.
pub fn wire(pos: &Position, mv: &Move, style: WireStyle) -> String {
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

/// The canonical text of a turn: its sub-moves separated by spaces (`e7e8=b8 a2a3`).
pub fn turn_canonical(pos: &Position, turn: &[Move]) -> String {
    turn_text(pos, turn, " ", canonical)
}

/// The text of a turn of one or more sub-moves: each sub-move written by `write` in the position
/// it is played from, joined by `separator` (a space in canonical notation, a comma in UCI).
pub fn turn_text(
    pos: &Position,
    turn: &[Move],
    separator: &str,
    mut write: impl FnMut(&Position, &Move) -> String,
) -> String {
    let mut p = pos.clone();
    let mut words = Vec::with_capacity(turn.len());
    for mv in turn {
        words.push(write(&p, mv));
        p.make(*mv);
    }
    words.join(separator)
}

/// Parses a turn (sub-moves separated by spaces) and checks that it is complete: afterwards the
/// other side is to move. The position is left unchanged.
///
/// # Errors
///
/// A sub-move that is not a move ([`MoveTextError::Unparsable`]) or not legal, or a turn that
/// stops before the other side is to move ([`MoveTextError::Illegal`]).
pub fn parse_turn(pos: &mut Position, text: &str, coords: Coords) -> Result<Vec<Move>, MoveTextError> {
    let mut turn = Vec::new();
    let mut result = Ok(());
    for word in text.split_whitespace() {
        if !turn.is_empty() && !pos.in_continuation() {
            result = Err(MoveTextError::Illegal);
            break;
        }
        match parse_move(pos, word, coords) {
            Ok(mv) => {
                pos.make(mv);
                turn.push(mv);
            }
            Err(e) => {
                result = Err(e);
                break;
            }
        }
    }
    if result.is_ok() && (turn.is_empty() || pos.in_continuation()) {
        result = Err(if turn.is_empty() {
            MoveTextError::Unparsable
        } else {
            MoveTextError::Illegal
        });
    }
    for _ in &turn {
        pos.unmake();
    }
    result.map(|_| turn)
}

/// Why a move text was not accepted.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum MoveTextError {
    /// Not shaped like a move at all.
    Unparsable,
    /// Shaped like a move, but no legal move has this text.
    Illegal,
}

/// Does the text look like a move (so that a refusal is `Illegal move`, not `Error`)? It begins
/// like one in the one move grammar, `notation::move_syntax`.
pub use super::move_syntax::begins_like_move as looks_like_move;

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
pub fn parse_move(pos: &Position, text: &str, coords: Coords) -> Result<Move, MoveTextError> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Registry;

    /// A refusal is `Illegal` exactly when the text begins like a move in the one grammar.
    #[test]
    fn refusals_follow_the_move_grammar() {
        let variant = Registry::builtin().get("normal").expect("built-in");
        let pos = Position::start(&variant);
        for coords in [Coords::Human, Coords::Wire] {
            assert_eq!(
                parse_move(&pos, "e2e4", coords).map(|m| canonical(&pos, &m)),
                Ok("e2e4".into())
            );
            for shaped in [
                "e2e5",
                "e7e8=b8",
                "E2E5",
                "e2e5+",
                "d3d7,d7d6",
                "P@e4",
                "O-O",
                "e2-e4",
                "e2e4e5",
            ] {
                assert_eq!(
                    parse_move(&pos, shaped, coords),
                    Err(MoveTextError::Illegal),
                    "{shaped}"
                );
            }
            for unshaped in ["Nf3", "e2", "hello", "0000", "@e4"] {
                assert_eq!(
                    parse_move(&pos, unshaped, coords),
                    Err(MoveTextError::Unparsable),
                    "{unshaped}"
                );
            }
        }
    }
}
