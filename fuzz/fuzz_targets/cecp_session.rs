//! A whole CECP session from the fuzzer's lines (at most 64 of them): the engine answers every
//! `ping` in order, writes only protocol lines, plays only legal moves, and still plays at the end.
#![no_main]

use fairybridge_fuzz::cecp::Harness;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut h = Harness::new();
    for line in text.split('\n').take(64) {
        h.send(line);
    }
    h.finish();
});
