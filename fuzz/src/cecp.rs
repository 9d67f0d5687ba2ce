//! A CECP session from the fuzzer's lines, over the engine's own checked session
//! (`protocol::xboard::checked_session`: only protocol lines, only legal moves, every `ping`
//! answered in order). This harness adds the fuzzing policy: pings are its own, every search is
//! bounded by depth, and at the end the engine must still play.

use std::time::Duration;

use fairybridge::protocol::xboard::checked_session::CheckedSession;
use fairybridge::protocol::xboard::command::{Command, EditCommand, parse_command, parse_edit_line};

use crate::{SessionHarness, registry};

/// How the harness bounds the engine's thinking: every search has a depth limit (a fuzz run must
/// not wait for a 5-minute clock), re-sent after the commands that clear it.
const DEPTH: &str = "sd 2";

/// The longest wait for a search on our move (depth 2 takes milliseconds).
const SEARCH_WAIT: Duration = Duration::from_secs(20);

pub struct Harness {
    checked: CheckedSession,
}

impl Harness {

    /// One line to the session as it is, then its answers, waiting for a search on our move.
    fn raw(&mut self, line: &str) {
        self.checked.line(line);
        self.checked.pump(SEARCH_WAIT);
    }

    fn ping(&mut self) {
        self.checked.ping();
        self.checked.pump(SEARCH_WAIT);
    }

}

impl SessionHarness for Harness {
    fn new() -> Self {
        let mut h = Harness {
            checked: CheckedSession::new(std::sync::Arc::clone(registry())),
        };
        for line in ["xboard", "protover 2", "memory 1", DEPTH] {
            h.raw(line);
        }
        h
    }

    /// A line from the fuzzer: passed on (its `ping`s are the harness's own), the depth limit
    /// restored after commands that clear it, then a `ping` of the harness's.
    fn send(&mut self, line: &str) {
        let editing = self.checked.session().editing();
        let command = if editing { None } else { Some(parse_command(line)) };
        match &command {
            // Pings are numbered by the harness, to check the order of the answers.
            Some(Command::Ping(_)) => return,
            Some(Command::Quit) => return,
            _ => {}
        }
        if line.contains('\n') {
            // The reader splits lines at `\n`: no line holds one.
            return;
        }
        self.raw(line);
        if matches!(
            command,
            Some(Command::New | Command::Variant(_) | Command::DepthLimit { .. })
        ) {
            self.raw(DEPTH);
        }
        if !self.checked.session().editing() {
            self.ping();
        } else if editing && matches!(parse_edit_line(line), EditCommand::Done) {
            panic!("still editing after `.`\n{}", self.checked.context());
        }
    }

    /// Ends the session: out of edit mode and analysis, then a last ping; every ping must have
    /// been answered, in order, and the engine must still play.
    fn finish(mut self) {
        if self.checked.session().editing() {
            self.raw(".");
        }
        self.raw("exit");
        self.raw("force");
        self.ping();
        self.checked.assert_pings_answered();
        // Still alive: a new game, and a move on `go`.
        self.raw("new");
        self.raw("sd 1");
        self.raw("go");
        assert!(self.checked.moved_lately(20), "no move after new/go\n{}", self.checked.context());
        self.checked.eof();
        assert!(self.checked.session().finished());
    }
}
