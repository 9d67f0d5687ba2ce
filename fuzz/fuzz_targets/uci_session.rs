//! A whole UCI session from the fuzzer's lines: every `isready` answered, every `go` with one legal
//! `bestmove`, only UCI lines written, and the engine still plays at the end.
#![no_main]

use fairybridge_fuzz::uci::Harness;
use fairybridge_fuzz::fuzz_session;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fuzz_session::<Harness>(data));
