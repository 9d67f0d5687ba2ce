//! One CECP line, as the engine reads it (commands, edit-mode lines) and as the match runner reads
//! an engine's (`parse_engine_line`): never a panic, and every typed value prints as a line that
//! parses back to it (an engine line: to one that prints the same).
#![no_main]

use fairybridge::protocol::xboard::command::{Command, EditCommand, parse_command, parse_edit_line};
use fairybridge::protocol::xboard::engine_line::{EngineLine, parse_engine_line};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The reader delivers lines: never one with a `\n` inside.
    let text = String::from_utf8_lossy(data);
    let line = text.split('\n').next().unwrap_or("");
    let command = parse_command(line);
    if !matches!(command, Command::Unknown(_)) {
        let printed = command.to_string();
        assert_eq!(
            parse_command(&printed),
            command,
            "command {line:?} printed as {printed:?}"
        );
    }
    let edit = parse_edit_line(line);
    if !matches!(edit, EditCommand::Unknown(_)) {
        let printed = edit.to_string();
        assert_eq!(
            parse_edit_line(&printed),
            edit,
            "edit line {line:?} printed as {printed:?}"
        );
    }
    // A reply prints without control characters inside (a `\r` becomes a blank, which can split
    // a feature name): the round trip is checked for lines without them.
    let plain = !line.chars().any(|c| c.is_control() && c != '\t');
    if let (true, EngineLine::Reply(reply)) = (plain, parse_engine_line(line)) {
        let printed = reply.to_string();
        match parse_engine_line(&printed) {
            // Loose input (an unquoted value with a quote in it) is read as well as it can be; the
            // line printed from it is then exact.
            EngineLine::Reply(again) => {
                assert_eq!(
                    again.to_string(),
                    printed,
                    "engine line {line:?} printed as {printed:?}"
                )
            }
            EngineLine::Unknown(_) => panic!("engine line {line:?} printed as {printed:?}, unreadable"),
        }
    }
});
