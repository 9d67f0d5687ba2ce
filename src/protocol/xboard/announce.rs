//! How an engine-defined variant is announced to XBoard: the `setup` line (piece-to-char table,
//! board size, holdings, parent, start FEN) and one `piece` line per piece type.

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
    if let Some(t) = &variant.xboard.piece_table {
        return (t.clone(), variant.xboard.holdings);
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

/// The `setup`/`piece` lines for an engine-defined variant; `None` for XBoard's built-in games.
pub fn announcement(variant: &std::sync::Arc<Variant>) -> Option<Announcement> {
    if variant.xboard.builtin {
        return None;
    }
    let (table, holdings) = piece_table(variant);
    let start = fen::to_fen(&Position::start(variant), Coords::Wire);
    let setup = format!(
        "({table}) {}x{}+{holdings}_{} {start}",
        variant.shape.files, variant.shape.ranks, variant.xboard.parent
    );
    let mut pieces = Vec::new();
    for p in &variant.pieces {
        let own = variant.xboard.pieces.iter().find(|(l, _)| l.starts_with(p.letter));
        let betza = match own {
            Some((_, b)) => b.clone(),
            None if p.royalty == Royalty::King => {
                let mut b = p.betza.clone();
                if let Some(c) = &variant.castling {
                    for s in &c.king_steps {
                        b.push_str(&format!("isO{s}"));
                    }
                }
                b
            }
            None => p.betza.clone(),
        };
        if !betza.is_empty() {
            pieces.push((format!("{}&", p.letter), betza));
        }
    }
    Some(Announcement { setup, pieces })
}
