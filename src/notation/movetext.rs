//! Move text. Canonical notation (the engine's own; human coordinates): `e2e4`, `e9e10q`, drops
//! `J@e5`, castling as the king move except 1-square castlings written rook-onto-king (`i1f1`),
//! hook captures as from-square + landing square, detonation `e5e5`.
//! Multi-leg coordinate forms (XBoard's, and Fairy-Stockfish's for kill moves in UCI too):
//! castling and e.p. as two legs (`f0h0,i0g0`; king onto the rook square as `f0i0,i0i0`; e.p.
//! through the victim `d5c5,c5c4`), hook captures of one victim as two legs through the victim's
//! square (`d3d7,d7d6`, detonation `e4e5,e5e4`, `kill_square`), growing roses as the pawn's leg
//! and a leg to the converted unit (`e7e8,e8b8`). Which form the XBoard door sends, per variant,
//! is the door's (`protocol::xboard::wire`); reading wire coordinates takes every form.
//!
//! Reading: `move_syntax::parse` reads a text into its typed form, and `resolve` finds the legal
//! move whose squares, promotion or dropped piece it names, in one of the forms above.

use super::move_syntax::{DropText, Leg, MoveText, SquareText, Step, Suffix};
use super::{Coords, move_syntax, square_name, square_text};
use crate::core::moves::piece_move;
use crate::core::{Move, Position, Square};

fn sq(pos: &Position, s: Square, coords: Coords) -> String {
    square_name(pos.variant().shape, s, coords)
}

/// One leg, from `a` to `b`: `e2e4`.
pub fn leg(pos: &Position, a: Square, b: Square, coords: Coords) -> String {
    format!("{}{}", sq(pos, a, coords), sq(pos, b, coords))
}

/// Two legs, `a` to `b` and `c` to `d`: `d3d7,d7d6`.
pub fn two_legs(pos: &Position, [a, b, c, d]: [Square; 4], coords: Coords) -> String {
    format!("{},{}", leg(pos, a, b, coords), leg(pos, c, d, coords))
}

/// The canonical text of a move (human coordinates).
pub fn canonical(pos: &Position, mv: &Move) -> String {
    plain(pos, mv, Coords::Human)
}

/// A move in coordinate notation without multi-leg forms (the canonical text in `coords`).
pub fn plain(pos: &Position, mv: &Move, coords: Coords) -> String {
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

/// The square a hook move's two-leg form goes through (XBoard's "kill square"): its single
/// victim off the landing square; the jumped victim of a double capture; for a detonation, which
/// stays put, the first of its victims (XBoard forfeits a move from a square to itself, and cannot
/// carry more than one victim in two legs). `None` for a move with no such form.
pub fn kill_square(pos: &Position, mv: &Move) -> Option<Square> {
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

/// The multi-leg form of a move: castling as the king's leg and the rook's (a king that lands on
/// the rook's square as `f0i0,i0i0`: XBoard would glue `f0i0,i0h0` into one king move), e.p.
/// through the victim, growing roses as the pawn's leg and a leg to the converted unit (XBoard
/// relays such a two-leg move verbatim; see protocol/wildrose-turns.md), a hook capture through
/// its `kill_square`; any other move, or a hook capture without a kill square off its landing
/// square, `plain`.
pub fn multi_leg(pos: &Position, mv: &Move, coords: Coords) -> String {
    match leg_squares(pos, mv) {
        Some(legs) => two_legs(pos, legs, coords),
        None => plain(pos, mv, coords),
    }
}

/// The squares of a move's two legs in its `multi_leg` form (first leg's from and to, second
/// leg's from and to); `None` where that form is `plain`. The writer and the reader share it.
fn leg_squares(pos: &Position, mv: &Move) -> Option<[Square; 4]> {
    match *mv {
        Move::Castle {
            king_from: kf,
            king_to: kt,
            rook_from: rf,
            rook_to: rt,
        } => Some(if kt == rf { [kf, kt, kt, kt] } else { [kf, kt, rf, rt] }),
        Move::EnPassant { from, to, victim, .. } => Some([from, victim, victim, to]),
        Move::Grow { from, to, converts } => Some([from, to, to, converts.unwrap_or(to)]),
        Move::Special { from, to, .. } => match kill_square(pos, mv) {
            Some(kill) if kill != to => Some([from, kill, kill, to]),
            _ => None,
        },
        _ => None,
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

/// The reader's leniency before the grammar: surrounding blanks and trailing `+#!?` go; a drop's
/// piece letter is taken in upper case and everything else in lower case.
fn normalize(text: &str) -> String {
    let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
    match t.split_once('@') {
        Some((p, rest)) => format!("{}@{}", p.to_ascii_uppercase(), rest.to_ascii_lowercase()),
        None => t.to_ascii_lowercase(),
    }
}

/// Finds the legal move a text names, in canonical or wire notation (wire text in any style).
///
/// # Errors
///
/// [`MoveTextError::Unparsable`] for a text that does not begin like a move;
/// [`MoveTextError::Illegal`] for one that does, when it is not a move's shape or no legal move
/// has this text.
pub fn parse_move(pos: &Position, text: &str, coords: Coords) -> Result<Move, MoveTextError> {
    let wanted = normalize(text);
    if !looks_like_move(&wanted) {
        return Err(MoveTextError::Unparsable);
    }
    let typed = move_syntax::parse(&wanted).map_err(|_| MoveTextError::Illegal)?;
    resolve(pos, &typed, coords)
}

/// A move text as `resolve` compares it: one step, two steps (no other multi-leg form names a
/// move), or a lone drop.
#[derive(Copy, Clone)]
enum Written<'a> {
    One(&'a Step),
    Two(&'a Step, &'a Step),
    Drop(&'a DropText),
}

/// Compares a written move with the moves of one position.
struct Reader<'a> {
    pos: &'a Position,
    coords: Coords,
    written: Written<'a>,
}

impl Reader<'_> {
    fn at(&self, s: Square) -> SquareText {
        square_text(self.pos.variant().shape, s, self.coords)
    }

    /// A step from `a` to `b` with nothing after it.
    fn bare(&self, step: &Step, a: Square, b: Square) -> bool {
        step.suffix.is_none() && step.from == self.at(a) && step.to == self.at(b)
    }

    /// One leg, `a` to `b`: `e2e4`.
    fn leg(&self, a: Square, b: Square) -> bool {
        matches!(self.written, Written::One(step) if self.bare(step, a, b))
    }

    /// Two legs, `a` to `b` and `c` to `d`: `d3d7,d7d6`.
    fn two_legs(&self, [a, b, c, d]: [Square; 4]) -> bool {
        matches!(self.written, Written::Two(first, second) if self.bare(first, a, b) && self.bare(second, c, d))
    }

    /// The move in coordinate notation without multi-leg forms (`plain`).
    fn plain(&self, mv: &Move) -> bool {
        let v = self.pos.variant();
        let shape = v.shape;
        match (*mv, self.written) {
            (Move::Drop { kind, to }, Written::Drop(d)) => {
                d.dress.is_none() && d.piece.eq_ignore_ascii_case(&v.piece(kind).letter) && d.to == self.at(to)
            }
            (
                Move::Castle {
                    king_from,
                    king_to,
                    rook_from,
                    ..
                },
                _,
            ) => {
                if shape.file(king_from).abs_diff(shape.file(king_to)) == 1 {
                    self.leg(rook_from, king_from)
                } else {
                    self.leg(king_from, king_to)
                }
            }
            (Move::Grow { from, to, converts }, Written::One(step)) => {
                step.from == self.at(from)
                    && step.to == self.at(to)
                    && step.suffix == converts.map(|unit| Suffix::Convert(self.at(unit)))
            }
            (piece_move!(from, to, promotion), Written::One(step)) => {
                let suffix_names_promotion = match (step.suffix, promotion) {
                    (None, None) => true,
                    (Some(Suffix::Promote(letter)), Some(k)) => letter.eq_ignore_ascii_case(&v.piece(k).letter),
                    _ => false,
                };
                suffix_names_promotion && step.from == self.at(from) && step.to == self.at(to)
            }
            _ => false,
        }
    }

    /// The move's `multi_leg` form.
    fn legs(&self, mv: &Move) -> bool {
        match leg_squares(self.pos, mv) {
            Some(legs) => self.two_legs(legs),
            None => self.plain(mv),
        }
    }

    /// Growing roses as XBoard relays them when it takes the two legs for castling:
    /// `FROM CONVERTED,TO X`, X on the converted unit's rank.
    fn rose_relay(&self, from: Square, to: Square, converted: Square) -> bool {
        let Written::Two(first, second) = self.written else {
            return false;
        };
        let unit = self.at(converted);
        self.bare(first, from, converted)
            && second.suffix.is_none()
            && second.from == self.at(to)
            && SquareText {
                file: unit.file,
                ..second.to
            } == unit
    }
}

/// Finds the legal move a typed move text names, in canonical or wire notation (wire text in any
/// style), by its squares, promotion and dropped piece.
///
/// # Errors
///
/// [`MoveTextError::Illegal`] when no legal move has this text; castling by `O-O`, the null move
/// and an unfinished move (a trailing comma) never do.
pub fn resolve(pos: &Position, text: &MoveText, coords: Coords) -> Result<Move, MoveTextError> {
    let written = match text {
        MoveText::Drop(d) => Written::Drop(d),
        MoveText::Legs {
            legs,
            unfinished: false,
        } => match legs.as_slice() {
            [Leg::Step(step)] => Written::One(step),
            [Leg::Drop(d)] => Written::Drop(d),
            [Leg::Step(first), Leg::Step(second)] => Written::Two(first, second),
            _ => return Err(MoveTextError::Illegal),
        },
        MoveText::Null | MoveText::Castle { .. } | MoveText::Legs { .. } => return Err(MoveTextError::Illegal),
    };
    let r = Reader { pos, coords, written };
    let moves = pos.legal_moves();
    let found = |matches: &dyn Fn(&Move) -> bool| moves.iter().find(|mv| matches(mv)).copied();
    // Exact forms first, then alternatives, so that a plain king step never turns into castling
    // (on the wire, castling's exact form is its two legs: the one-leg form comes after).
    let exact = found(&|mv| match coords {
        Coords::Human => r.plain(mv),
        Coords::Wire => r.legs(mv),
    });
    // On the wire, also the coordinate form without legs.
    let one_leg = || match coords {
        Coords::Wire => found(&|mv| r.plain(mv)),
        Coords::Human => None,
    };
    // E.p. as two legs through the victim, whichever form this variant sends.
    let en_passant = || {
        found(&|mv| match *mv {
            Move::EnPassant { from, to, victim, .. } => r.two_legs([from, victim, victim, to]),
            _ => false,
        })
    };
    // A detonation through any of its victims (the engine itself names the first one).
    let detonation = || {
        found(&|mv| match *mv {
            Move::Special { from, to, .. } if from == to => {
                pos.captures_of(mv).any(|(v, _)| r.two_legs([from, v, v, from]))
            }
            _ => false,
        })
    };
    // Other forms of castling: the natural two legs (king leg, rook leg; XBoard relays a king
    // that lands on the rook's square as `f0i0,i0h0`), and the plain king move when the canonical
    // form is rook-onto-king.
    let castling = || {
        found(&|mv| match *mv {
            Move::Castle {
                king_from,
                king_to,
                rook_from,
                rook_to,
            } => {
                r.two_legs([king_from, king_to, rook_from, rook_to])
                    || (r.leg(king_from, king_to)
                        && !moves.iter().any(|m| {
                            !matches!(m, Move::Castle { .. }) && m.from() == Some(king_from) && m.to() == king_to
                        }))
            }
            _ => false,
        })
    };
    // Growing roses as XBoard relays them when it takes the two legs for castling (it does when
    // the pawn's square and its arrival square have one colour on its board, as for every Black
    // push onto an empty last-rank square): `FROM CONVERTED,TO X`, X beside the converted unit on
    // its rank, or off the board.
    let rose_relay = || match coords {
        Coords::Wire => found(&|mv| match *mv {
            Move::Grow { from, to, converts } => r.rose_relay(from, to, converts.unwrap_or(to)),
            _ => false,
        }),
        Coords::Human => None,
    };
    exact
        .or_else(one_leg)
        .or_else(en_passant)
        .or_else(detonation)
        .or_else(castling)
        .or_else(rose_relay)
        .ok_or(MoveTextError::Illegal)
}

#[cfg(test)]
mod reader_equivalence;
#[cfg(test)]
pub(crate) mod string_reader;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Registry;

    fn position(game: &str, fen_text: &str) -> Position {
        let variant = Registry::builtin().get(game).expect("built-in");
        let setup = crate::notation::fen::parse_fen(fen_text, Coords::Human).expect("FEN");
        Position::from_setup(&variant, &setup).expect("position")
    }

    /// Reads `text` into its typed form and resolves it; returns the move's canonical text.
    fn read(pos: &Position, text: &str, coords: Coords) -> Result<String, MoveTextError> {
        let typed = move_syntax::parse(text).expect("a move's shape");
        resolve(pos, &typed, coords).map(|mv| canonical(pos, &mv))
    }

    #[test]
    fn resolve_one_step() {
        let pos = position("normal", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        assert_eq!(read(&pos, "e2e4", Coords::Human), Ok("e2e4".into()));
        assert_eq!(read(&pos, "e2e5", Coords::Human), Err(MoveTextError::Illegal));
    }

    #[test]
    fn resolve_a_promotion_by_its_letter() {
        let pos = position("normal", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(read(&pos, "a7a8n", Coords::Human), Ok("a7a8n".into()));
        assert_eq!(read(&pos, "a7a8N", Coords::Human), Ok("a7a8n".into()));
        // Promotion is not optional in chess, and no piece is lettered `-`, `+` or `=`.
        for text in ["a7a8", "a7a8-", "a7a8+", "a7a8=", "a7a8x"] {
            assert_eq!(read(&pos, text, Coords::Human), Err(MoveTextError::Illegal), "{text}");
        }
    }

    #[test]
    fn resolve_a_drop_by_its_letter() {
        let pos = position("crazyhouse", "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
        assert_eq!(read(&pos, "N@d4", Coords::Human), Ok("N@d4".into()));
        assert_eq!(read(&pos, "B@d4", Coords::Human), Err(MoveTextError::Illegal));
        assert_eq!(read(&pos, "N'@d4", Coords::Human), Err(MoveTextError::Illegal));
    }

    #[test]
    fn resolve_two_legs() {
        let pos = position("normal", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        for coords in [Coords::Human, Coords::Wire] {
            assert_eq!(read(&pos, "e5d5,d5d6", coords), Ok("e5d6".into()));
            assert_eq!(read(&pos, "d5d6,e5d5", coords), Err(MoveTextError::Illegal));
        }
    }

    #[test]
    fn resolve_a_growing_rose_by_the_unit_it_converts() {
        let pos = position("wildrose", "1n5w/4P3/7w/8/8/8/W7/1W6 w - - 0 1");
        assert_eq!(read(&pos, "e7e8=b8", Coords::Human), Ok("e7e8=b8".into()));
        assert_eq!(read(&pos, "e7e8=a8", Coords::Human), Err(MoveTextError::Illegal));
        assert_eq!(read(&pos, "e7b8,e8i8", Coords::Wire), Ok("e7e8=b8".into()));
        assert_eq!(read(&pos, "e7b8,e8c8q", Coords::Wire), Err(MoveTextError::Illegal));
        // The last square is a square of the grammar (the string-matching reader took any
        // character for its file).
        assert_eq!(parse_move(&pos, "e7b8,e8#8", Coords::Wire), Err(MoveTextError::Illegal));
    }

    #[test]
    fn castling_by_name_the_null_move_and_unfinished_moves_name_no_move() {
        let pos = position("normal", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert_eq!(read(&pos, "e1g1", Coords::Human), Ok("e1g1".into()));
        for text in ["O-O", "o-o-o", "0-0", "@@@@", "e1g1,", "e1g1,h1f1,", "e1e2,e2e1,e1d1"] {
            assert_eq!(read(&pos, text, Coords::Wire), Err(MoveTextError::Illegal), "{text}");
        }
    }

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
