//! A FEN of one game (the first byte picks the game; the text up to the first newline is the
//! FEN, empty for the start position), then a walk: each byte picks a legal move (0xFF takes one
//! back). Checked at every step: legal moves are exactly the pseudo-legal ones that pass the slow
//! test; make/unmake restores position and hash; the hash equals the one from scratch; FEN and
//! every move notation print and parse back.
#![no_main]

use fairybridge::core::Position;
use fairybridge::notation::{Coords, fen};
use fairybridge_fuzz::{check_position, position_from_fen, variant, walk};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&game, rest)) = data.split_first() else {
        return;
    };
    let v = variant(game);
    let (fen_bytes, choices) = match rest.iter().position(|&b| b == b'\n') {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let text = String::from_utf8_lossy(fen_bytes);
    let mut pos = if text.trim().is_empty() {
        Position::start(&v)
    } else {
        let coords = if game & 0x80 != 0 { Coords::Wire } else { Coords::Human };
        let Some(pos) = position_from_fen(&v, &text, coords) else {
            // Not a position: reading it must still fail cleanly (it did), in the other
            // coordinates too.
            let _ = fen::parse_fen(&text, Coords::Wire);
            return;
        };
        pos
    };
    check_position(&pos);
    walk(&mut pos, &choices[..choices.len().min(24)]);
});
