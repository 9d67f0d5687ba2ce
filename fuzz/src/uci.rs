//! A UCI session driven in-process: lines in, the search reports pumped, every line out checked.
//! Every `isready` is answered `readyok`, every `go` with exactly one `bestmove`, each legal in the
//! position searched; only UCI lines are written.

use std::sync::Arc;
use std::time::{Duration, Instant};

use fairybridge::core::Position;
use fairybridge::notation::{Coords, fen};
use fairybridge::protocol::uci::command::{Command, parse_command};
use fairybridge::protocol::uci::moves::play_word;
use fairybridge::protocol::captured::CapturedOutput as Output;
use fairybridge::protocol::uci::session::Session;

use crate::{SessionHarness, registry};

/// Every search is bounded by depth (a fuzz run must not wait for a clock); `depth` is read last.
const DEPTH: &str = " depth 2";
const SEARCH_WAIT: Duration = Duration::from_secs(20);

pub struct Harness {
    session: Session<Output>,
    out: Output,
    transcript: Vec<String>,
    /// The positions of the `go`s sent, whose `bestmove` has not come yet.
    roots: Vec<Position>,
    readies: usize,
    readyoks: usize,
    gos: usize,
    bestmoves: usize,
    /// The last `go` may wait for `stop` (`infinite`, `ponder`).
    may_hold: bool,
}

const UCI_LINES: [&str; 8] = [
    "id ",
    "option ",
    "uciok",
    "readyok",
    "info ",
    "bestmove ",
    "copyprotection",
    "registration",
];

impl Harness {

    fn context(&self) -> String {
        self.transcript[self.transcript.len().saturating_sub(60)..].join("\n")
    }

    fn check_output(&mut self) {
        for line in self.out.take_lines() {
            self.transcript.push(format!("< {line}"));
            assert!(
                UCI_LINES.iter().any(|p| line.starts_with(p)),
                "not a UCI line: {line:?}\n{}",
                self.context()
            );
            if line == "readyok" {
                self.readyoks += 1;
            }
            if let Some(rest) = line.strip_prefix("bestmove ") {
                self.bestmoves += 1;
                assert!(!self.roots.is_empty(), "bestmove without go\n{}", self.context());
                let mut root = self.roots.remove(0);
                let words: Vec<&str> = rest.split_whitespace().collect();
                let best = words.first().copied().unwrap_or("");
                if best == "(none)" {
                    let mut r = root.clone();
                    assert!(
                        r.legal_moves().is_empty() || r.goal_reached().is_some(),
                        "bestmove (none) with legal moves in {}\n{}",
                        fen::to_fen(&root, Coords::Human),
                        self.context()
                    );
                    continue;
                }
                // The Chess960 castling form depends on an option the harness does not follow.
                let legal = [false, true].into_iter().find_map(|c960| {
                    let mut r = root.clone();
                    play_word(&mut r, best, c960).ok().map(|_| (r, c960))
                });
                let Some((after, c960)) = legal else {
                    panic!(
                        "illegal bestmove {best} in {}\n{}",
                        fen::to_fen(&root, Coords::Human),
                        self.context()
                    );
                };
                if let (Some(&"ponder"), Some(p)) = (words.get(1), words.get(2)) {
                    root = after;
                    assert!(
                        play_word(&mut root, p, c960).is_ok(),
                        "illegal ponder move {p}\n{}",
                        self.context()
                    );
                }
            }
        }
    }

    fn pump(&mut self, wait: Duration) {
        let deadline = Instant::now() + wait;
        loop {
            while let Ok(event) = self.session.events().try_recv() {
                self.session.think(event);
                self.check_output();
            }
            // A held search (`infinite`, `ponder`) answers only on `stop`: no waiting for it.
            if self.bestmoves >= self.gos || self.may_hold || Instant::now() >= deadline {
                return;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    fn raw(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let command = parse_command(line);
        match &command {
            Command::Go(go) => {
                // Answers come in order: a new `go` first answers the last one.
                self.roots.push(self.session.game().position_clone());
                self.gos += 1;
                self.may_hold = go.infinite || go.ponder;
            }
            Command::Stop => self.may_hold = false,
            Command::IsReady => self.readies += 1,
            _ => {}
        }
        self.session.line(line, Instant::now());
        self.check_output();
        self.pump(SEARCH_WAIT);
    }

}

impl SessionHarness for Harness {
    fn new() -> Self {
        let out = Output::default();
        let mut h = Harness {
            session: Session::new(Arc::clone(registry()), out.clone()),
            out,
            transcript: Vec::new(),
            roots: Vec::new(),
            readies: 0,
            readyoks: 0,
            gos: 0,
            bestmoves: 0,
            may_hold: false,
        };
        for line in ["uci", "setoption name Hash value 1", "isready"] {
            h.raw(line);
        }
        h
    }

    /// A line from the fuzzer: `go` bounded by depth, `quit` kept for the end, then `isready`.
    fn send(&mut self, line: &str) {
        if line.contains('\n') {
            return;
        }
        match parse_command(line) {
            Command::Quit => return,
            Command::Go(_) => {
                let bounded = format!("{}{DEPTH}", line.trim_end());
                self.raw(&bounded);
            }
            _ => self.raw(line),
        }
        self.raw("isready");
    }

    /// Ends: `stop` answers any held search; every `go` has had its one `bestmove`, every
    /// `isready` its `readyok`; the engine still plays.
    fn finish(mut self) {
        self.raw("stop");
        self.pump(SEARCH_WAIT);
        assert_eq!(self.bestmoves, self.gos, "one bestmove per go\n{}", self.context());
        assert!(
            !self.session.bestmove_pending(),
            "still searching after stop\n{}",
            self.context()
        );
        assert_eq!(
            self.readyoks,
            self.readies,
            "every isready answered\n{}",
            self.context()
        );
        self.raw("ucinewgame");
        self.raw("position startpos");
        self.raw("go depth 1");
        self.pump(SEARCH_WAIT);
        assert_eq!(
            self.bestmoves,
            self.gos,
            "no bestmove after a fresh go\n{}",
            self.context()
        );
        self.session.eof();
        assert!(self.session.finished());
    }
}
