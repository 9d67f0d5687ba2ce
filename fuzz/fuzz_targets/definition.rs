//! A variant definition file (TOML, as `--variant FILE` reads it, any bytes): a clear error, or a
//! game whose start position is legal, whose start FEN reads back, and whose first moves keep every
//! invariant of the position target. A file may `inherit` a built-in game.
#![no_main]

use std::sync::OnceLock;

use fairybridge::core::Position;
use fairybridge::notation::{Coords, fen};
use fairybridge::variants::Registry;
use fairybridge::variants::definition::definition_text;
use fairybridge_fuzz::{check_position, position_from_fen, walk};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = definition_text(data.to_vec(), "fuzz.toml") else {
        return;
    };
    static BUILTIN: OnceLock<Registry> = OnceLock::new();
    let Ok(variant) = BUILTIN.get_or_init(fairybridge::protocol::builtin_games).read_definition(&text, "fuzz.toml") else {
        return;
    };
    let mut pos = Position::start(&variant);
    let start = fen::start_fen(&variant);
    let back = position_from_fen(&variant, &start, Coords::Human)
        .unwrap_or_else(|| panic!("the start FEN does not read back: {start}"));
    assert_eq!(back.hash(), pos.hash(), "start FEN read back with another hash");
    check_position(&pos);
    // A short walk, choices from the file's bytes.
    let choices: Vec<u8> = data.iter().rev().take(6).copied().collect();
    walk(&mut pos, &choices);
});
