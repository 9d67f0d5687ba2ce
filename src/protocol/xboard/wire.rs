//! How this door writes moves on the wire: which coordinate form XBoard is sent for each move in
//! a variant (`WireStyle`, read from the variant's `[xboard]` section), and which squares XBoard
//! clears when it reads it. The forms themselves, and the reading of every one of them, are
//! notation's (`notation::movetext`).

use crate::core::{Move, Position, Square};
use crate::notation::Coords;
use crate::notation::movetext::{kill_square, leg, multi_leg, plain};

/// How a variant's castling and e.p. go on the wire: as one leg (the default) or two.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct WireStyle {
    pub castling_two_legs: bool,
    pub en_passant_legs: bool,
}

/// The wire (CECP) text of a move, castling and e.p. in `style`: growing roses and hook captures
/// always in their multi-leg form, castling otherwise as the king's move.
pub fn text(pos: &Position, mv: &Move, style: WireStyle) -> String {
    let c = Coords::Wire;
    match *mv {
        Move::Castle { .. } if style.castling_two_legs => multi_leg(pos, mv, c),
        Move::Castle { king_from, king_to, .. } => leg(pos, king_from, king_to, c),
        Move::EnPassant { .. } if style.en_passant_legs => multi_leg(pos, mv, c),
        Move::Grow { .. } | Move::Special { .. } => multi_leg(pos, mv, c),
        _ => plain(pos, mv, c),
    }
}

/// The squares whose pieces XBoard removes when it reads `mv`'s wire text: the landing square
/// and any kill square of a two-leg form. A hook move's other victims (a detonation's second and
/// later ones) are not among them: XBoard keeps showing them.
pub fn cleared(pos: &Position, mv: &Move, style: WireStyle) -> [Square; 2] {
    let kill = match *mv {
        Move::Special { .. } => kill_square(pos, mv).unwrap_or(Square::NONE),
        Move::EnPassant { victim, .. } if style.en_passant_legs => victim,
        _ => Square::NONE,
    };
    [mv.to(), kill]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;
    use crate::notation::movetext::string_reader;
    use crate::notation::movetext::{MoveTextError, parse_move};
    use crate::variants::Registry;

    fn position(game: &str, fen_text: &str) -> Position {
        let variant = Registry::builtin().get(game).expect("built-in");
        let setup = fen::parse_fen(fen_text, Coords::Human).expect("FEN");
        Position::from_setup(&variant, &setup).expect("position")
    }

    /// The texts of the legal moves of `pos` whose canonical text is `canonical`, in every style
    /// (no legs, castling legs, e.p. legs, both).
    fn texts(pos: &Position, canonical: &str) -> Vec<String> {
        let mv = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| crate::notation::movetext::canonical(pos, m) == canonical)
            .expect("a legal move");
        let styles = [(false, false), (true, false), (false, true), (true, true)];
        styles
            .iter()
            .map(|&(castling_two_legs, en_passant_legs)| {
                text(
                    pos,
                    &mv,
                    WireStyle {
                        castling_two_legs,
                        en_passant_legs,
                    },
                )
            })
            .collect()
    }

    #[test]
    fn castling_as_the_kings_move_or_two_legs() {
        let p = position("normal", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert_eq!(texts(&p, "e1g1"), ["e1g1", "e1g1,h1f1", "e1g1", "e1g1,h1f1"]);
        // A king that lands on the rook's square: both legs end there.
        let p = position("pillage", "5k4/10/10/10/10/10/10/10/1R3K2R1/CV6VC w KQ - 0 1");
        assert_eq!(texts(&p, "f2i2"), ["f1i1", "f1i1,i1i1", "f1i1", "f1i1,i1i1"]);
        // One-square castling is written rook-onto-king in canonical text, as the king on the wire.
        assert_eq!(texts(&p, "i2f2"), ["f1g1", "f1g1,i1f1", "f1g1", "f1g1,i1f1"]);
    }

    #[test]
    fn en_passant_as_one_leg_or_through_the_victim() {
        let p = position("normal", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        assert_eq!(texts(&p, "e5d6"), ["e5d6", "e5d6", "e5d5,d5d6", "e5d5,d5d6"]);
        let [to, kill] = cleared(
            &p,
            &p.legal_moves()
                .iter()
                .copied()
                .find(|m| m.kind() == crate::core::MoveKind::EnPassant)
                .expect("e.p."),
            WireStyle {
                castling_two_legs: false,
                en_passant_legs: true,
            },
        );
        assert_eq!(
            (to, kill),
            (p.variant().shape.square(3, 5), p.variant().shape.square(3, 4))
        );
    }

    #[test]
    fn growing_roses_and_hook_captures_always_in_legs() {
        let p = position("wildrose", "1n5w/4P3/7w/8/8/8/W7/1W6 w - - 0 1");
        assert_eq!(texts(&p, "e7e8=b8"), ["e7e8,e8b8"; 4]);
    }

    /// Along random playouts of every built-in game, the texts and cleared squares are those of
    /// the writer this door had in notation before (kept test-only there), in every style, and
    /// notation reads each text back to a move (the move itself unless it is ambiguous).
    #[test]
    fn the_door_writes_as_before() {
        let registry = Registry::builtin();
        for (i, v) in registry.all().iter().enumerate() {
            let mut pos = Position::start(v);
            let mut seed = 0x9E37_79B9_7F4A_7C15_u64.wrapping_mul(i as u64 + 1) | 1;
            for _ in 0..60 {
                let moves = pos.legal_moves();
                for mv in moves.iter() {
                    for old in string_reader::WireStyle::ALL {
                        let style = WireStyle {
                            castling_two_legs: old.castling_two_legs,
                            en_passant_legs: old.en_passant_legs,
                        };
                        let written = text(&pos, mv, style);
                        assert_eq!(written, string_reader::wire(&pos, mv, old));
                        assert_eq!(cleared(&pos, mv, style), string_reader::wire_cleared(&pos, mv, old));
                        assert_ne!(
                            parse_move(&pos, &written, Coords::Wire),
                            Err(MoveTextError::Illegal),
                            "{written}"
                        );
                    }
                }
                if moves.is_empty() || pos.outcome().is_some() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.make(moves.0[(seed % moves.len() as u64) as usize]);
            }
        }
    }
}
