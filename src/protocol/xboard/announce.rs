//! How an engine-defined variant is announced to XBoard: the `setup` line (piece-to-char table,
//! board size, holdings, parent, start FEN) and one `piece` line per piece type.

use super::variant_info::XboardInfo;
use crate::core::piece::Royalty;
use crate::core::{Position, Variant};
use crate::notation::{Coords, fen};

/// XBoard's piece slots in table order (the king slot comes last and is handled apart).
const SLOTS: [char; 21] = [
    'P', 'N', 'B', 'R', 'Q', 'F', 'E', 'A', 'C', 'W', 'M', 'O', 'H', 'I', 'J', 'G', 'D', 'V', 'L', 'S', 'U',
];

/// The lines that define a variant to XBoard.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Announcement {
    /// Everything after `setup `.
    pub setup: String,
    /// (piece id such as `N&`, XBetza) for `piece` lines.
    pub pieces: Vec<(String, String)>,
}

/// The piece-to-char table and holdings size: the variant's own, or one built so that pieces that
/// can be dropped take the first participating slots (XBoard's holdings are the first S types), a
/// promoting piece takes the pawn slot, and others the slot of their own letter when it is free.
pub fn piece_table(variant: &Variant) -> (String, u8) {
    let xboard = XboardInfo::of(variant);
    if let Some(t) = &xboard.piece_table {
        return (t.clone(), xboard.holdings);
    }
    let mut slots = ['.'; SLOTS.len()];
    let king = {
        let kings: Vec<_> = variant.pieces.iter().filter(|p| p.royalty == Royalty::King).collect();
        if kings.len() == 1 { kings[0].letter } else { '.' }
    };
    let others: Vec<_> = variant.pieces.iter().filter(|p| p.letter != king).collect();
    let free = |slots: &mut [char; SLOTS.len()], letter: char, preferred: Option<usize>| {
        let i = preferred
            .filter(|&i| slots[i] == '.')
            .or_else(|| SLOTS.iter().position(|&s| s == letter).filter(|&i| slots[i] == '.'))
            .or_else(|| slots.iter().position(|&s| s == '.'));
        if let Some(i) = i {
            slots[i] = letter;
        }
    };
    // The pawn slot first, if it is also droppable or nothing droppable competes for it.
    let pawn = others.iter().find(|p| p.promotion.is_some() && p.en_passant_victim);
    let droppable: Vec<_> = others.iter().filter(|p| p.drop.is_some()).collect();
    if let Some(p) = pawn
        && (droppable.is_empty() || p.drop.is_some())
    {
        free(&mut slots, p.letter, Some(0));
    }
    for (n, p) in droppable.iter().enumerate() {
        if !slots.contains(&p.letter) {
            free(&mut slots, p.letter, Some(n));
        }
    }
    for p in &others {
        if !slots.contains(&p.letter) {
            free(&mut slots, p.letter, None);
        }
    }
    let holdings = if droppable.is_empty() {
        0
    } else {
        let participating: Vec<char> = slots.iter().copied().filter(|&c| c != '.').collect();
        droppable
            .iter()
            .filter_map(|p| participating.iter().position(|&c| c == p.letter))
            .max()
            .map_or(0, |i| i as u8 + 1)
    };
    let white: String = slots.iter().collect::<String>() + &king.to_string();
    let black = white.to_ascii_lowercase();
    (white + &black, holdings)
}

/// How far the castling rooks stand in from the board's edges (0: in the corners). XBoard castles
/// with the piece at the edge of the king's rank, or `j` files in from it with `isjO2`: with the
/// rooks one file in (Pillage, Wreckage) and no `j`, it looks for a partner on the a- or j-file and
/// refuses the castling once that piece has moved. Rooks at different insets cannot be told
/// apart this way: then the inset of the nearer one.
fn castling_rook_inset(variant: &Variant, castling: &crate::core::variant::CastlingRule) -> usize {
    let files = variant.shape.files;
    let [high, low] = castling.rook_files;
    let insets = [high.map(|f| files - 1 - f), low];
    insets.iter().flatten().copied().min().unwrap_or(0) as usize
}

/// Direction modifiers in XBoard's Betza reader (`dirType` in its moves.c).
const DIRECTIONS: &str = "bfhlrsv";
/// Mode modifiers, in the one order XBoard reads them after the directions.
const MODES: &str = "mcdetpgoynj";

/// A Betza string with each leg's modifiers in the order XBoard 4.9.1 reads them: `i` first, then
/// the directions, then the modes (`m c d e t p g o y n j`), legs joined by `a`. XBoard reads a
/// mode letter, then skips every lower-case letter it did not expect: `mfW` is `mW` to it (a
/// step in all four directions) and `cfeF` a diagonal capture backwards too.
pub fn xboard_order(betza: &str) -> String {
    let mut out = String::new();
    let mut prefix = String::new();
    for c in betza.chars() {
        if c.is_ascii_lowercase() {
            prefix.push(c);
            continue;
        }
        if !prefix.is_empty() {
            let initial: String = prefix.chars().filter(|&c| c == 'i').collect();
            out.push_str(&initial);
            let legs: Vec<String> = prefix
                .split('a')
                .map(|leg| {
                    let dirs = leg.chars().filter(|c| DIRECTIONS.contains(*c));
                    let modes = MODES.chars().flat_map(|m| leg.chars().filter(move |&c| c == m));
                    // Anything else stays, after the modes (XBoard would skip it anyway).
                    let known = |c: char| c == 'i' || DIRECTIONS.contains(c) || MODES.contains(c);
                    let rest = leg.chars().filter(move |&c| !known(c));
                    dirs.chain(modes).chain(rest).collect()
                })
                .collect();
            out.push_str(&legs.join("a"));
            prefix.clear();
        }
        out.push(c);
    }
    out.push_str(&prefix);
    out
}

/// The `setup`/`piece` lines for an engine-defined variant; `None` for XBoard's built-in games.
pub fn announcement(variant: &std::sync::Arc<Variant>) -> Option<Announcement> {
    let xboard = XboardInfo::of(variant);
    if xboard.builtin {
        return None;
    }
    let (table, holdings) = piece_table(variant);
    let start = fen::to_fen(&Position::start(variant), Coords::Wire);
    let setup = format!(
        "({table}) {}x{}+{holdings}_{} {start}",
        variant.shape.files, variant.shape.ranks, xboard.parent
    );
    let mut pieces = Vec::new();
    for p in &variant.pieces {
        let own = xboard.pieces.iter().find(|(l, _)| l.starts_with(p.letter));
        let betza = match own {
            Some((_, b)) => b.clone(),
            None if p.royalty == Royalty::King => {
                let mut b = p.betza.clone();
                if let Some(c) = &variant.castling {
                    let skip = "j".repeat(castling_rook_inset(variant, c));
                    for s in &c.king_steps {
                        b.push_str(&format!("is{skip}O{s}"));
                    }
                }
                b
            }
            None => p.betza.clone(),
        };
        if !betza.is_empty() {
            pieces.push((format!("{}&", p.letter), xboard_order(&betza)));
        }
    }
    Some(Announcement { setup, pieces })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::betza::movement;

    #[test]
    fn modifiers_come_in_xboards_order() {
        for (ours, xboard) in [
            ("mfWmfnDcfeF", "fmWfmnDfceF"),
            ("cfeF", "fceF"),
            ("msWcfFicsW", "smWfcFiscW"),
            ("fmWfceFifmnD", "fmWfceFifmnD"),
            ("rcalmWlcarmW", "rcalmWlcarmW"),
            ("mQmDmAcDcAcafKcafmQ", "mQmDmAcDcAcafKcafmQ"),
            ("KisO1isO2isO3isO4", "KisO1isO2isO3isO4"),
            ("KisjO1isjO2", "KisjO1isjO2"),
            ("fmR3cfeF", "fmR3fceF"),
            ("mRcpR", "mRcpR"),
            ("NN", "NN"),
        ] {
            assert_eq!(xboard_order(ours), xboard, "{ours}");
        }
    }

    /// The reordering never changes what a piece does (for our own reader, which takes any order).
    #[test]
    fn reordering_keeps_every_builtin_piece_the_same() {
        let registry = crate::protocol::builtin_games();
        for name in registry.names() {
            let Some(v) = registry.get(name) else { continue };
            for p in &v.pieces {
                if p.betza.is_empty() || p.betza.contains('a') {
                    continue;
                }
                assert_eq!(
                    movement(&xboard_order(&p.betza)).ok(),
                    movement(&p.betza).ok(),
                    "{name} {}: {}",
                    p.letter,
                    p.betza
                );
            }
        }
    }

    /// The king's castling `j`s follow the castling rooks' distance from the edge.
    #[test]
    fn castling_skips_as_many_files_as_the_rooks_stand_in() {
        let king_line = |v: &std::sync::Arc<Variant>| {
            let a = announcement(v).expect("an engine-defined variant");
            a.pieces.into_iter().find(|(id, _)| id == "K&").map(|(_, b)| b)
        };
        let registry = crate::protocol::builtin_games();
        for name in ["pillage", "wreckage"] {
            let v = registry.get(name).expect("built in");
            assert_eq!(king_line(&v).as_deref(), Some("KisjO1isjO2isjO3isjO4"), "{name}");
        }
        // Rooks in the corners: no `j`.
        let mut registry = crate::protocol::builtin_games();
        let file =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/variants/examples/nightrider-cannons.toml");
        let v = registry.load_file(&file).expect("example loads");
        let line = king_line(&v).expect("a king line");
        assert!(line.contains("isO") && !line.contains('j'), "{line}");
    }

    /// Every `piece` line we send is in XBoard's order.
    #[test]
    fn announced_piece_lines_are_in_xboards_order() {
        let registry = crate::protocol::builtin_games();
        for name in registry.names() {
            let Some(v) = registry.get(name) else { continue };
            let Some(a) = announcement(&v) else { continue };
            for (id, betza) in &a.pieces {
                assert_eq!(&xboard_order(betza), betza, "{name} {id}");
            }
        }
    }
}
