//! Standard algebraic notation (SAN) for every variant, as written in the match runner's PGN.
//!
//! Squares are human coordinates (`e4`, `j10`). For orthodox chess the output is ordinary SAN that
//! any PGN reader accepts (`Nf3`, `exd5`, `e8=Q+`, `O-O-O#`); the other games extend it:
//!
//! - piece letters are the variant's (upper case); the piece with letter `P` is written without
//!   one, every other piece (a Pillage super pawn `S`, a Wreckage ninja `J`) with its letter;
//! - disambiguation by file, then rank, then both, when another piece of the same type can reach
//!   the same square; pawn captures always carry their file (`exd5`);
//! - `x` for any capture: en passant, hook captures (a Dragon or Guillotine capturing away from its
//!   landing square), a detonation that removes neighbours;
//! - promotion `=L` with the variant's letter (`e10=C`);
//! - castling `O-O` (towards the higher files) / `O-O-O` (towards the lower files) when the variant
//!   has one castling per side (orthodox, Wild Castle), and `O-O/n` / `O-O-O/n` with the king's
//!   displacement `n` for flexible castling (Pillage, Wreckage: `O-O/1`, `O-O-O/4`);
//! - drops `J@e5` (upper-case letter for both colours);
//! - a piece that acts without moving (Wreckage detonation) as letter + square + `*`: `Xe5*`;
//! - growing roses (Wild Rose): the pawn move with `=` and the square of the unit that becomes a
//!   rose, `e8=b8` (or `dxe8=b8`); the extra move of that turn is the next SAN word, by the same side;
//! - `+` after a move that gives check, `#` after a mate.
//!
//! Should two legal moves still read the same (hook moves with the same squares but different
//! victims), the move gets `:` and its victims' squares, and as a last resort `:` and its
//! canonical coordinate text. [`parse_san`] generates the text of every legal move and compares, so
//! whatever [`to_san`] writes reads back to the same move.

use super::{Coords, movetext, square_name};
use crate::core::{Move, MoveList, Position, Square};

/// Why a SAN text was not accepted.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum SanError {
    /// No legal move has this text.
    Illegal(String),
    /// Several legal moves have this text.
    Ambiguous(String),
}

impl std::fmt::Display for SanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SanError::Illegal(t) => write!(f, "no legal move reads \"{t}\""),
            SanError::Ambiguous(t) => write!(f, "\"{t}\" names several legal moves"),
        }
    }
}

impl std::error::Error for SanError {}

/// How much of the origin square a move's text names.
#[derive(Copy, Clone, Debug, Eq, PartialEq, PartialOrd, Ord)]
enum Dis {
    None,
    File,
    Rank,
    Square,
}

fn sq(pos: &Position, s: Square) -> String {
    square_name(pos.variant().shape, s, Coords::Human)
}

/// The piece letter written before a move of the piece on `mv.from()` (`""` for the pawn).
fn letter(pos: &Position, mv: &Move) -> String {
    match mv.from().and_then(|from| pos.piece_at(from)) {
        Some(p) => {
            let l = pos.variant().piece(p.kind()).letter;
            if l == 'P' { String::new() } else { l.to_string() }
        }
        None => String::new(),
    }
}

fn moving_kind(pos: &Position, mv: &Move) -> Option<u8> {
    mv.from().and_then(|from| pos.piece_at(from)).map(|p| p.kind().0)
}

/// The square a piece moves from, in a move that is neither a drop nor castling.
fn piece_move_from(mv: &Move) -> Option<Square> {
    match mv {
        Move::Drop { .. } | Move::Castle { .. } => None,
        _ => mv.from(),
    }
}

/// The disambiguation standard SAN asks for: none if no other piece of the same type can go to the
/// same square; else the file if that tells them apart, else the rank, else the whole square.
fn standard_dis(pos: &Position, mv: &Move, legal: &MoveList) -> Dis {
    let Some(from) = piece_move_from(mv).filter(|_| !mv.stays()) else {
        return Dis::None;
    };
    let kind = moving_kind(pos, mv);
    let shape = pos.variant().shape;
    let rivals: Vec<Square> = legal
        .iter()
        .filter(|m| !m.stays() && m.to() == mv.to() && moving_kind(pos, m) == kind)
        .filter_map(piece_move_from)
        .filter(|&f| f != from)
        .collect();
    let pawn_capture = letter(pos, mv).is_empty() && pos.is_capture(mv);
    if rivals.is_empty() {
        return if pawn_capture { Dis::File } else { Dis::None };
    }
    if rivals.iter().all(|&f| shape.file(f) != shape.file(from)) {
        Dis::File
    } else if !pawn_capture && rivals.iter().all(|&f| shape.rank(f) != shape.rank(from)) {
        Dis::Rank
    } else {
        Dis::Square
    }
}

/// The text of a move (without check suffix) with the given disambiguation.
fn body(pos: &Position, mv: &Move, dis: Dis) -> String {
    let v = pos.variant();
    let shape = v.shape;
    match *mv {
        Move::Drop { kind, to } => format!("{}@{}", v.piece(kind).letter, sq(pos, to)),
        Move::Castle { king_from, king_to, .. } => {
            let (kf, kt) = (shape.file(king_from), shape.file(king_to));
            let mut s = String::from(if kt > kf { "O-O" } else { "O-O-O" });
            let flexible = v.castling.as_ref().is_some_and(|c| c.king_steps.len() > 1);
            if flexible {
                s.push_str(&format!("/{}", kf.abs_diff(kt)));
            }
            s
        }
        Move::Normal { from, .. }
        | Move::MultiStep { from, .. }
        | Move::EnPassant { from, .. }
        | Move::Special { from, .. }
        | Move::Grow { from, .. } => {
            if mv.stays() {
                return format!("{}{}*", letter(pos, mv), sq(pos, from));
            }
            let from = sq(pos, from);
            let file_len = 1;
            let mut s = letter(pos, mv);
            match dis {
                Dis::None => {}
                Dis::File => s.push_str(&from[..file_len]),
                Dis::Rank => s.push_str(&from[file_len..]),
                Dis::Square => s.push_str(&from),
            }
            if pos.is_capture(mv) {
                s.push('x');
            }
            s.push_str(&sq(pos, mv.to()));
            if let Move::Grow { converts, .. } = *mv {
                if let Some(unit) = converts {
                    s.push('=');
                    s.push_str(&sq(pos, unit));
                }
            } else if let Some(k) = mv.promotion() {
                s.push('=');
                s.push(v.piece(k).letter);
            }
            s
        }
    }
}

/// The victims' squares of a move, joined (`d5d6`).
fn victims(pos: &Position, mv: &Move) -> String {
    pos.captures_of(mv)
        .map(|(s, _)| sq(pos, s))
        .collect::<Vec<_>>()
        .join("")
}

/// The SAN of every legal move, without check suffixes, made unambiguous; index-aligned with `legal`.
fn all_bodies(pos: &Position, legal: &MoveList) -> Vec<String> {
    let mut texts: Vec<String> = legal
        .iter()
        .map(|m| body(pos, m, standard_dis(pos, m, legal)))
        .collect();
    // Escalate only where two moves still read the same.
    for round in 0..3 {
        let mut changed = false;
        for i in 0..texts.len() {
            if texts.iter().enumerate().any(|(j, t)| j != i && *t == texts[i]) {
                let m = &legal.0[i];
                texts[i] = match round {
                    0 => body(pos, m, Dis::Square),
                    1 => format!("{}:{}", body(pos, m, Dis::Square), victims(pos, m)),
                    _ => format!("{}:{}", body(pos, m, Dis::Square), movetext::canonical(pos, m)),
                };
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    texts
}

/// `+` if the move gives check, `#` if it mates, `""` otherwise (and in the middle of a turn).
fn suffix(pos: &mut Position, mv: &Move) -> &'static str {
    let mover = pos.side_to_move();
    pos.make(*mv);
    let s = if pos.side_to_move() == mover || !pos.in_check() {
        ""
    } else if pos.has_legal_move() {
        "+"
    } else {
        "#"
    };
    pos.unmake();
    s
}

/// The SAN of a legal move (the position is left as it was).
pub fn to_san(pos: &mut Position, mv: &Move) -> String {
    let legal = pos.legal_moves();
    let mut text = match legal.iter().position(|m| m == mv) {
        Some(i) => all_bodies(pos, &legal).swap_remove(i),
        // Not a legal move: describe it as well as we can.
        None => body(pos, mv, Dis::Square),
    };
    text.push_str(suffix(pos, mv));
    text
}

/// Strips check, mate and annotation marks, and reads `0-0` as `O-O`.
fn normalize(text: &str) -> String {
    let t = text.trim().trim_end_matches(['+', '#', '!', '?']);
    let t = t.strip_suffix("e.p.").unwrap_or(t).trim_end();
    if t.starts_with("0-0") {
        t.replace('0', "O")
    } else {
        t.to_string()
    }
}

/// Finds the legal move a SAN text names. Accepts what [`to_san`] writes, with or without the
/// check suffix; also over-disambiguated forms (`Ngf3`, `Ng1f3`) and promotions without `=`.
///
/// # Errors
///
/// [`SanError::Illegal`] when no legal move has this text; [`SanError::Ambiguous`] when several do.
pub fn parse_san(pos: &Position, text: &str) -> Result<Move, SanError> {
    let wanted = normalize(text);
    let legal = pos.legal_moves();
    let texts = all_bodies(pos, &legal);
    if let Some(i) = texts.iter().position(|t| *t == wanted) {
        return Ok(legal.0[i]);
    }
    // Lenient forms: more disambiguation than needed, promotion without `=`.
    let mut found: Vec<Move> = Vec::new();
    for (i, m) in legal.iter().enumerate() {
        let mut forms = vec![
            body(pos, m, Dis::File),
            body(pos, m, Dis::Rank),
            body(pos, m, Dis::Square),
        ];
        if m.promotion().is_some() {
            forms.push(texts[i].replacen('=', "", 1));
        }
        if forms.contains(&wanted) && !found.contains(m) {
            found.push(*m);
        }
    }
    match found.len() {
        1 => Ok(found[0]),
        0 => Err(SanError::Illegal(text.to_string())),
        _ => Err(SanError::Ambiguous(text.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::zobrist::splitmix64;
    use crate::notation::fen::parse_fen;
    use crate::variants::Registry;
    use std::sync::Arc;

    fn pos(variant: &str, fen: &str) -> Position {
        let v = Registry::builtin().get(variant).unwrap();
        Position::from_setup(&v, &parse_fen(fen, Coords::Human).unwrap()).unwrap()
    }

    fn san_of(p: &mut Position, canonical: &str) -> String {
        let mv = movetext::parse_move(p, canonical, Coords::Human).unwrap();
        to_san(p, &mv)
    }

    #[test]
    fn orthodox_forms() {
        let mut p = pos("normal", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(san_of(&mut p, "e2e4"), "e4");
        assert_eq!(san_of(&mut p, "g1f3"), "Nf3");
        // Two knights to d2? (b1 and f3 after Nf3): file disambiguation.
        let mut p = pos("normal", "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        assert_eq!(san_of(&mut p, "b1d2"), "Nbd2");
        // Same file: rank.
        let mut p = pos("normal", "4k3/8/8/N7/8/8/8/N3K3 w - - 0 1");
        assert_eq!(san_of(&mut p, "a1b3"), "N1b3");
        // Three queens: full square.
        let mut p = pos("normal", "7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1");
        assert_eq!(san_of(&mut p, "a4b3"), "Qa4b3");
        // Captures, en passant, promotion with check, castling, mate.
        let mut p = pos("normal", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        assert_eq!(san_of(&mut p, "e5d6"), "exd6");
        let mut p = pos("normal", "8/4P3/8/8/k7/8/8/4K3 w - - 0 1");
        assert_eq!(san_of(&mut p, "e7e8q"), "e8=Q+");
        let mut p = pos("normal", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert_eq!(san_of(&mut p, "e1g1"), "O-O");
        assert_eq!(san_of(&mut p, "e1c1"), "O-O-O");
        let mut p = pos("normal", "7k/8/6K1/8/8/8/8/R7 w - - 0 1");
        assert_eq!(san_of(&mut p, "a1a8"), "Ra8#");
    }

    #[test]
    fn parse_accepts_variants_of_the_text() {
        let p = pos("normal", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        for t in ["Nf3", "Ngf3", "Ng1f3", "Nf3+", "Nf3!?"] {
            let mv = parse_san(&p, t).unwrap();
            assert_eq!(movetext::canonical(&p, &mv), "g1f3", "{t}");
        }
        assert!(matches!(parse_san(&p, "Nf4"), Err(SanError::Illegal(_))));
        assert!(matches!(parse_san(&p, "xyz"), Err(SanError::Illegal(_))));
        let p = pos("normal", "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        assert!(matches!(parse_san(&p, "Nd2"), Err(SanError::Illegal(_))));
        let p = pos("normal", "8/4P3/8/8/k7/8/8/4K3 w - - 0 1");
        let mv = parse_san(&p, "e8Q").unwrap();
        assert_eq!(movetext::canonical(&p, &mv), "e7e8q");
        let p = pos("normal", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let mv = parse_san(&p, "0-0").unwrap();
        assert_eq!(movetext::canonical(&p, &mv), "e1g1");
    }

    /// The SAN of every legal castling, sorted.
    fn castlings(p: &mut Position) -> Vec<String> {
        let mut castles: Vec<String> = p
            .legal_moves()
            .iter()
            .filter(|m| matches!(m, Move::Castle { .. }))
            .map(|m| to_san(&mut p.clone(), m))
            .collect();
        castles.sort();
        castles
    }

    #[test]
    fn pillage_flexible_castling_and_ten_ranks() {
        let mut p = pos(
            "pillage",
            "cv6vc/srnbqkbnrs/pppppppppp/10/10/10/10/PPPPPPPPPP/S3K3S1/CV6VC w KQkq - 0 1",
        );
        let castles = castlings(&mut p);
        // Pillage rooks stand on b and i; this position has none, so no castling.
        assert!(castles.is_empty(), "{castles:?}");
        let mut p = pos(
            "pillage",
            "cv6vc/srnbqkbnrs/pppppppppp/10/10/10/10/PPPPPPPPPP/SR3K2RS/CV6VC w KQkq - 0 1",
        );
        assert_eq!(
            castlings(&mut p),
            ["O-O-O/1", "O-O-O/2", "O-O-O/3", "O-O-O/4", "O-O/1", "O-O/2", "O-O/3"]
        );
        let mut p = pos("pillage", "10/4P5/10/10/10/10/10/10/10/k8K w - - 0 1");
        assert_eq!(san_of(&mut p, "e9e10c"), "e10=C");
    }

    #[test]
    fn growing_roses_name_the_converted_unit() {
        // Wild Rose spec T6: the pawn on e7 reaches the last rank and converts an enemy unit.
        let mut p = pos("wildrose", "1n5w/4P3/7w/8/8/8/W7/1W6 w - - 0 1");
        let legal = p.legal_moves();
        let texts = all_bodies(&p, &legal);
        assert!(texts.iter().any(|t| t == "e8=b8"), "{texts:?}");
        for (m, t) in legal.iter().zip(&texts) {
            assert_eq!(parse_san(&p, t).unwrap(), *m, "{t}");
        }
        // After the growing move the same side moves again: no check suffix in mid-turn.
        let grow = legal.0[texts.iter().position(|t| t == "e8=b8").unwrap()];
        assert_eq!(to_san(&mut p, &grow), "e8=b8");
        p.make(grow);
        assert_eq!(p.side_to_move(), crate::core::Color::White);
    }

    /// Plays seeded random games and checks that every SAN reads back to its move, and that no two
    /// legal moves share a text.
    fn round_trip(variant: &Arc<crate::core::Variant>, seed: u64, games: usize, plies: usize) -> usize {
        let mut s = seed;
        let mut checked = 0;
        for g in 0..games {
            // Shuffled starts where the game has them (Wild Castle), the fixed start otherwise.
            let fen = crate::variants::shuffle::random_start(variant, seed.wrapping_add(g as u64));
            let mut p = Position::from_setup(variant, &parse_fen(&fen, Coords::Human).unwrap()).unwrap();
            for ply in 0..plies {
                let legal = p.legal_moves();
                if legal.is_empty() || p.outcome().is_some() {
                    break;
                }
                let texts = all_bodies(&p, &legal);
                let mut sorted = texts.clone();
                sorted.sort();
                sorted.dedup();
                assert_eq!(sorted.len(), texts.len(), "duplicate SAN among {texts:?}");
                let pick = (splitmix64(&mut s) % legal.len() as u64) as usize;
                // Every move's text every fourth ply, the played move's otherwise (with its suffix).
                for (i, m) in legal.iter().enumerate() {
                    if ply % 4 != 0 && i != pick {
                        continue;
                    }
                    let text = if i == pick { to_san(&mut p, m) } else { texts[i].clone() };
                    let back = parse_san(&p, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
                    assert_eq!(
                        back,
                        *m,
                        "{text} in {}",
                        crate::notation::fen::to_fen(&p, Coords::Human)
                    );
                    checked += 1;
                }
                p.make(legal.0[pick]);
            }
        }
        checked
    }

    #[test]
    fn random_playouts_round_trip_in_every_builtin_game() {
        let reg = Registry::builtin();
        for name in reg.names() {
            let v = reg.get(name).unwrap();
            let n = round_trip(&v, 0x5eed ^ name.len() as u64, 5, 150);
            assert!(n > 500, "{name}: only {n} moves checked");
        }
    }
}
