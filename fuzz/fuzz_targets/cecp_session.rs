//! A whole CECP session from the fuzzer's lines: the engine answers every `ping` in order, writes
//! only protocol lines, plays only legal moves, and still plays at the end.
#![no_main]

use fairybridge_fuzz::cecp::Harness;
use fairybridge_fuzz::fuzz_session;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fuzz_session::<Harness>(data));
