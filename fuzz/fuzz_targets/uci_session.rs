//! A whole UCI session from the fuzzer's lines (at most 64): every `isready` answered, every `go`
//! with one legal `bestmove`, only UCI lines written, and the engine still plays at the end.
#![no_main]

use fairybridge_fuzz::uci::Harness;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut h = Harness::new();
    for line in text.split('\n').take(64) {
        h.send(line);
    }
    h.finish();
});
