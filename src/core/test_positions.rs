//! Positions for the core's own unit tests, built from `Setup` and the legal moves alone: the core
//! never reads text through `notation` (which depends on it), not even in its tests. Squares are
//! named `e2` on boards of at most 26 files and 9 ranks.

use std::sync::Arc;

use super::{Color, Move, Position, Setup, Square, Variant};

/// 0-based (file, rank) of a square name such as `e2`.
fn coordinates(name: &str) -> (u8, u8) {
    match name.as_bytes() {
        &[f @ b'a'..=b'z', r @ b'1'..=b'9'] => (f - b'a', r - b'1'),
        _ => panic!("test square {name:?} is not of the form e2"),
    }
}

/// The square named `e2`.
pub fn square(pos: &Position, name: &str) -> Square {
    let (file, rank) = coordinates(name);
    pos.variant().shape.square(file, rank)
}

/// A position with only the given pieces (`('K', "e1")`: upper case White), no castling rights,
/// no e.p., the clocks as given.
pub fn position(variant: &Arc<Variant>, pieces: &[(char, &str)], side: Color, halfmove: u32) -> Position {
    let shape = variant.shape;
    let mut board = vec![vec![None; shape.files as usize]; shape.ranks as usize];
    for &(letter, name) in pieces {
        let (file, rank) = coordinates(name);
        // Setup's ranks run from the top down.
        board[(shape.ranks - 1 - rank) as usize][file as usize] = Some(letter);
    }
    let setup = Setup {
        board,
        promoted: vec![],
        holdings: vec![],
        side,
        castling: vec![],
        ep: None,
        halfmove,
        fullmove: 1,
    };
    Position::from_setup(variant, &setup).expect("a legal test position")
}

/// The one legal move from `from` to `to` (written `g1f3`; no promotions, drops or castling).
pub fn legal_move(pos: &mut Position, text: &str) -> Move {
    let (from, to) = text.split_at(2);
    let (from, to) = (square(pos, from), square(pos, to));
    let found: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| m.from() == Some(from) && m.to() == to)
        .collect();
    match found[..] {
        [mv] => mv,
        _ => panic!("{text}: {} legal moves match", found.len()),
    }
}

/// Plays the moves, each written `g1f3`.
pub fn play(pos: &mut Position, moves: &[&str]) {
    for text in moves {
        let mv = legal_move(pos, text);
        pos.make(mv);
    }
}
