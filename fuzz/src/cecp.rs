//! A CECP session driven in-process, as `src/protocol/xboard/session_fuzz.rs` drives it: lines in,
//! the search threads' reports pumped, every line out checked. The engine answers every `ping N`
//! with `pong N`, in order; writes only protocol lines; every `move` is legal where it is played.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fairybridge::notation::movetext::parse_move;
use fairybridge::notation::{Coords, fen};
use fairybridge::protocol::xboard::command::{Command, EditCommand, parse_command, parse_edit_line};
use fairybridge::protocol::xboard::session::{Event, Session};
use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};

use crate::registry;

/// What the session writes.
#[derive(Clone, Default)]
pub struct Output(Arc<Mutex<Vec<u8>>>);

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Output {
    /// The complete lines written since the last call.
    pub fn take_lines(&self) -> Vec<String> {
        let mut buf = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let Some(end) = buf.iter().rposition(|&b| b == b'\n') else {
            return Vec::new();
        };
        let text: Vec<u8> = buf.drain(..=end).collect();
        String::from_utf8_lossy(&text).lines().map(str::to_string).collect()
    }
}

/// How the harness bounds the engine's thinking: every search has a depth limit (a fuzz run must
/// not wait for a 5-minute clock), re-sent after the commands that clear it.
const DEPTH: &str = "sd 2";

/// The longest wait for a search on our move (depth 2 takes milliseconds).
const SEARCH_WAIT: Duration = Duration::from_secs(20);

pub struct Harness {
    session: Session<Output>,
    events: UnboundedReceiver<Event>,
    out: Output,
    transcript: Vec<String>,
    pings_sent: Vec<u64>,
    pongs: Vec<u64>,
    next_ping: u64,
}

const PROTOCOL: [&str; 22] = [
    "feature ",
    "Illegal move",
    "Error (",
    "Hint: ",
    "stat01: ",
    "setup ",
    "piece ",
    "highlight ",
    "choice ",
    "click ",
    "telluser",
    "tellusererror ",
    "askuser ",
    "offer draw",
    "resign",
    "1-0 {",
    "0-1 {",
    "1/2-1/2 {",
    "# ",
    "setboard ",
    " ",
    "pong ",
];

impl Default for Harness {
    fn default() -> Self {
        Self::new()
    }
}

impl Harness {
    pub fn new() -> Harness {
        let (tx, rx) = unbounded_channel();
        let out = Output::default();
        let mut h = Harness {
            session: Session::new(Arc::clone(registry()), out.clone(), tx),
            events: rx,
            out,
            transcript: Vec::new(),
            pings_sent: Vec::new(),
            pongs: Vec::new(),
            next_ping: 0,
        };
        for line in ["xboard", "protover 2", "memory 1", DEPTH] {
            h.raw(line);
        }
        h
    }

    fn context(&self) -> String {
        self.transcript[self.transcript.len().saturating_sub(60)..].join("\n")
    }

    fn handle(&mut self, event: Event) {
        let before = self.session.game().position_clone();
        let valid = self.session.game().is_valid();
        self.session.handle(event);
        for line in self.out.take_lines() {
            self.transcript.push(format!("< {line}"));
            self.check_line(&line, &before, valid);
        }
    }

    fn check_line(&mut self, line: &str, before: &fairybridge::core::Position, valid: bool) {
        if let Some(n) = line.strip_prefix("pong ") {
            let n = n.parse().unwrap_or_else(|_| panic!("pong {n:?}\n{}", self.context()));
            self.pongs.push(n);
            return;
        }
        if let Some(text) = line.strip_prefix("move ") {
            if text != "@@@@" {
                assert!(valid, "a move from an invalid position: {line}\n{}", self.context());
                let mut pos = before.clone();
                assert!(
                    parse_move(&mut pos, text, Coords::Wire).is_ok(),
                    "illegal engine move {text} in {}\n{}",
                    fen::to_fen(before, Coords::Wire),
                    self.context()
                );
            }
            return;
        }
        let thinking = line
            .split_whitespace()
            .next()
            .is_some_and(|w| w.chars().all(|c| c.is_ascii_digit()));
        assert!(
            line.is_empty() || thinking || PROTOCOL.iter().any(|p| line.starts_with(p)),
            "not a protocol line: {line:?}\n{}",
            self.context()
        );
    }

    /// One line to the session as it is.
    fn raw(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        self.handle(Event::Line(line.to_string(), Instant::now()));
        self.pump(SEARCH_WAIT);
    }

    /// Handles the reports that have come, waiting up to `wait` while a search runs on our move.
    fn pump(&mut self, wait: Duration) {
        let deadline = Instant::now() + wait;
        loop {
            while let Ok(event) = self.events.try_recv() {
                self.handle(event);
            }
            if !self.session.thinking_on_move() || Instant::now() >= deadline {
                return;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    /// A line from the fuzzer: passed on (its `ping`s are the harness's own), the depth limit
    /// restored after commands that clear it, then a `ping` of the harness's.
    pub fn send(&mut self, line: &str) {
        let editing = self.session.editing();
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
        if !self.session.editing() {
            self.ping();
        } else if editing && matches!(parse_edit_line(line), EditCommand::Done) {
            panic!("still editing after `.`\n{}", self.context());
        }
    }

    fn ping(&mut self) {
        self.next_ping += 1;
        let n = self.next_ping;
        self.pings_sent.push(n);
        self.raw(&format!("ping {n}"));
    }

    /// Ends the session: out of edit mode and analysis, then a last ping; every ping must have
    /// been answered, in order, and the engine must still play.
    pub fn finish(mut self) {
        if self.session.editing() {
            self.raw(".");
        }
        self.raw("exit");
        self.raw("force");
        self.ping();
        self.pump(SEARCH_WAIT);
        assert_eq!(
            self.pongs,
            self.pings_sent,
            "every ping answered, in order\n{}",
            self.context()
        );
        // Still alive: a new game, and a move on `go`.
        self.raw("new");
        self.raw("sd 1");
        self.raw("go");
        self.pump(SEARCH_WAIT);
        let moved = self.transcript.iter().rev().take(20).any(|l| l.starts_with("< move "));
        assert!(moved, "no move after new/go\n{}", self.context());
        self.session.handle(Event::Eof);
        assert!(self.session.finished());
    }
}
