//! A CECP session driven in-process with every line it writes checked, for the random-session
//! test and the `cecp_session` fuzz target: the engine writes only protocol lines, plays only
//! legal moves from a valid position, and answers every `ping N` with `pong N`, in order.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};

use super::command_loop::CommandLoop;
use super::session::Session;
use crate::core::Position;
use crate::engine::ThinkerEvent;
use crate::notation::movetext::parse_move;
use crate::notation::{Coords, fen};
use crate::protocol::captured::CapturedOutput;
use crate::protocol::input::Input;
use crate::variants::Registry;

/// How the lines an engine may write begin (besides thinking output, which begins with a number).
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

/// How many lines of the transcript a failure shows.
const CONTEXT_LINES: usize = 60;

/// What reaches the session: the GUI's input, or a report of its search.
enum Event {
    Input(Input),
    Report(ThinkerEvent),
}

pub struct CheckedSession {
    /// The session behind the CECP command loop, as the engine serves it.
    commands: CommandLoop<Session<CapturedOutput>>,
    events: UnboundedReceiver<ThinkerEvent>,
    out: CapturedOutput,
    /// Every line in (`> `) and out (`< `), for failure messages.
    transcript: Vec<String>,
    pings_sent: Vec<u64>,
    pongs: Vec<u64>,
    next_ping: u64,
}

impl CheckedSession {
    pub fn new(registry: Arc<Registry>) -> CheckedSession {
        let (tx, rx) = unbounded_channel();
        let out = CapturedOutput::default();
        CheckedSession {
            commands: CommandLoop::new(Session::new(registry, out.clone(), tx)),
            events: rx,
            out,
            transcript: Vec::new(),
            pings_sent: Vec::new(),
            pongs: Vec::new(),
            next_ping: 0,
        }
    }

    pub fn session(&self) -> &Session<CapturedOutput> {
        self.commands.brain()
    }

    /// Every line in (`> `) and out (`< `) so far.
    pub fn transcript(&self) -> &[String] {
        &self.transcript
    }

    /// The end of the transcript, for a failure message.
    pub fn context(&self) -> String {
        self.transcript[self.transcript.len().saturating_sub(CONTEXT_LINES)..].join("\n")
    }

    /// How many lines the engine wrote that begin with `prefix`.
    pub fn count_written(&self, prefix: &str) -> usize {
        self.transcript
            .iter()
            .filter_map(|l| l.strip_prefix("< "))
            .filter(|l| l.starts_with(prefix))
            .count()
    }

    /// Did the engine play a move among the last `lines` of the transcript?
    pub fn moved_lately(&self, lines: usize) -> bool {
        self.transcript
            .iter()
            .rev()
            .take(lines)
            .any(|l| l.starts_with("< move "))
    }

    /// One line to the session as it is; what it writes in answer is checked.
    pub fn line(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        self.handle(Event::Input(Input::Line(line.to_string(), Instant::now())));
    }

    /// A `ping` numbered by the harness, whose `pong` must come in order.
    pub fn ping(&mut self) {
        self.next_ping += 1;
        self.pings_sent.push(self.next_ping);
        self.line(&format!("ping {}", self.next_ping));
    }

    /// The end of input, as when the GUI goes away.
    pub fn eof(&mut self) {
        self.handle(Event::Input(Input::Eof));
    }

    /// Every `ping` so far answered, in order.
    ///
    /// # Panics
    ///
    /// When a `ping` is unanswered or answered out of order: this is a test harness.
    pub fn assert_pings_answered(&self) {
        assert_eq!(
            self.pongs,
            self.pings_sent,
            "every ping answered, in order\n{}",
            self.context()
        );
    }

    /// Handles the search reports that have come, waiting up to `wait` for more while a search
    /// runs on our move.
    pub fn pump(&mut self, wait: Duration) {
        let deadline = Instant::now() + wait;
        loop {
            while let Ok(report) = self.events.try_recv() {
                self.handle(Event::Report(report));
            }
            if !self.session().thinking_on_move() || Instant::now() >= deadline {
                return;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    fn handle(&mut self, event: Event) {
        // The engine's move must be legal where it is played: in the position before this event.
        let before = self.session().game().position_clone();
        let valid = self.session().game().is_valid();
        match event {
            Event::Input(input) => self.commands.input(input),
            Event::Report(report) => self.commands.report(report),
        }
        for line in self.out.take_lines() {
            self.transcript.push(format!("< {line}"));
            self.check_line(&line, &before, valid);
        }
    }

    fn check_line(&mut self, line: &str, before: &Position, valid: bool) {
        if let Some(n) = line.strip_prefix("pong ") {
            let n = n.parse().unwrap_or_else(|_| panic!("pong {n:?}\n{}", self.context()));
            self.pongs.push(n);
            return;
        }
        if let Some(text) = line.strip_prefix("move ") {
            if text != "@@@@" {
                assert!(valid, "a move from an invalid position: {line}\n{}", self.context());
                let pos = before.clone();
                assert!(
                    parse_move(&pos, text, Coords::Wire).is_ok(),
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
}
