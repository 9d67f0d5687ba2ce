//! A Betza string (how a definition file writes a piece's moves): parsed and compiled without a
//! panic; a string that compiles gives atoms within the board's reach.
#![no_main]

use fairybridge::core::betza;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(groups) = betza::parse(text) {
        let _ = betza::compile(text, &groups);
    }
    let _ = betza::movement(text);
});
