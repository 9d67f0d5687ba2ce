//! The session under random input: long random sequences of commands, good and bad, in every
//! built-in game. Whatever comes in, the engine never panics, answers every `ping` in order, writes
//! only protocol lines, sends only legal moves, and still plays afterwards.

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};

use super::{Event, Session};
use crate::core::Position;
use crate::notation::movetext::parse_move;
use crate::notation::{Coords, fen};
use crate::protocol::xboard::variant_info::wire;
use crate::test_rng::Rng;
use crate::variants::Registry;

/// What the session writes, shared with the test.
#[derive(Clone, Default)]
struct Output(Arc<Mutex<Vec<u8>>>);

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
    fn take_lines(&self) -> Vec<String> {
        let mut buf = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let Some(end) = buf.iter().rposition(|&b| b == b'\n') else {
            return Vec::new();
        };
        let text: Vec<u8> = buf.drain(..=end).collect();
        String::from_utf8_lossy(&text).lines().map(str::to_string).collect()
    }
}

/// Panics in search threads (named `search-N`), which the session would otherwise only log.
static SEARCH_PANICS: AtomicUsize = AtomicUsize::new(0);

struct Harness {
    session: Session<Output>,
    events: UnboundedReceiver<Event>,
    out: Output,
    /// Every line the engine wrote, for failure messages.
    transcript: Vec<String>,
    pings_sent: Vec<u64>,
    pongs: Vec<u64>,
}

impl Harness {
    fn new() -> Harness {
        let (tx, rx) = unbounded_channel();
        let out = Output::default();
        Harness {
            session: Session::new(Arc::new(Registry::builtin()), out.clone(), tx),
            events: rx,
            out,
            transcript: Vec::new(),
            pings_sent: Vec::new(),
            pongs: Vec::new(),
        }
    }

    /// Handles one event; checks what the engine wrote in answer.
    fn handle(&mut self, event: Event) {
        // The engine's move must be legal where it is played: in the position before this event.
        let before: Position = self.session.game.position_clone();
        let valid = self.session.game.is_valid();
        self.session.handle(event);
        for line in self.out.take_lines() {
            self.check_line(&line, &before, valid);
            self.transcript.push(format!("< {line}"));
        }
    }

    fn check_line(&mut self, line: &str, before: &Position, valid: bool) {
        let context = || self.transcript[self.transcript.len().saturating_sub(40)..].join("\n");
        if let Some(n) = line.strip_prefix("pong ") {
            self.pongs
                .push(n.parse().unwrap_or_else(|_| panic!("pong {n:?}\n{}", context())));
            return;
        }
        if let Some(text) = line.strip_prefix("move ") {
            if text != "@@@@" {
                assert!(valid, "a move from an invalid position: {line}\n{}", context());
                let mut pos = before.clone();
                assert!(
                    parse_move(&mut pos, text, Coords::Wire).is_ok(),
                    "illegal engine move {text} in {}\n{}",
                    fen::to_fen(before, Coords::Wire),
                    context()
                );
            }
            return;
        }
        let protocol = [
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
        ];
        let thinking = line
            .split_whitespace()
            .next()
            .is_some_and(|w| w.chars().all(|c| c.is_ascii_digit()));
        assert!(
            line.is_empty() || thinking || protocol.iter().any(|p| line.starts_with(p)),
            "not a protocol line: {line:?}\n{}",
            context()
        );
    }

    fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        self.handle(Event::Line(line.to_string(), Instant::now()));
    }

    /// Handles the search reports that have arrived, waiting up to `wait` for more while a search
    /// runs on our move.
    fn pump(&mut self, wait: Duration) {
        let deadline = Instant::now() + wait;
        loop {
            while let Ok(event) = self.events.try_recv() {
                self.handle(event);
            }
            let thinking = self.session.driver.thinking_on_move();
            if !thinking || Instant::now() >= deadline {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

/// A random command; `harness` gives the engine's position, so that many moves are legal.
fn random_command(rng: &mut Rng, h: &mut Harness, variants: &[&str], ping: &mut u64) -> String {
    let mut pos = h.session.game.position_clone();
    let valid = h.session.game.is_valid();
    let square = |rng: &mut Rng| format!("{}{}", (b'a' + rng.below(10) as u8) as char, rng.below(11));
    if h.session.edit.is_some() {
        // Edit mode takes only edit commands until `.` (XBoard sends nothing else there).
        return rng
            .pick(&["#", "c", "Pe4", "Ke1", "ke8", "Qd1", "xe4", "Zz9", "."])
            .to_string();
    }
    match rng.below(40) {
        0..=11 if valid => {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                return "usermove e2e4".to_string();
            }
            let mv = legal.iter().nth(rng.below(legal.len())).copied();
            let text = mv.map(|m| wire(&pos, &m)).unwrap_or_default();
            if rng.below(4) == 0 {
                text
            } else {
                format!("usermove {text}")
            }
        }
        12 => format!("usermove {}{}", square(rng), square(rng)),
        13 => "usermove @@@@".to_string(),
        14 => format!("variant {}", rng.pick(variants)),
        15 => "new".to_string(),
        16 if valid => {
            // A position from a short random playout, or a damaged one.
            let legal = pos.legal_moves();
            if let Some(&mv) = legal.iter().nth(rng.below(legal.len().max(1))) {
                pos.make(mv);
            }
            let mut text = fen::to_fen(&pos, Coords::Wire);
            if rng.below(3) == 0 {
                let cut = rng.below(text.len().max(1));
                text.truncate(cut);
            }
            format!("setboard {text}")
        }
        17 => "undo".to_string(),
        18 => "remove".to_string(),
        19 => "force".to_string(),
        20 | 21 => "go".to_string(),
        22 => "playother".to_string(),
        23 => "?".to_string(),
        24 => rng
            .pick(&["sd 1", "sd 2", "st 0.02", "level 0 0:01 0", "time 50", "otim 80"])
            .to_string(),
        25 => rng
            .pick(&["hard", "easy", "post", "nopost", "random", "computer"])
            .to_string(),
        26 => rng.pick(&["analyze", "exit", ".", "hint", "bk", "draw"]).to_string(),
        27 => {
            *ping += 1;
            h.pings_sent.push(*ping);
            format!("ping {ping}")
        }
        28 => rng
            .pick(&["result 1-0 {White mates}", "result *", "result 1/2-1/2"])
            .to_string(),
        29 => format!("{} {}", rng.pick(&["lift", "put", "hover"]), square(rng)),
        30 => format!("{} {}{}", rng.pick(&["exclude", "include"]), square(rng), square(rng)),
        31 => rng.pick(&["exclude all", "include all"]).to_string(),
        32 => "edit".to_string(),
        34 => "white".to_string(),
        35 => "black".to_string(),
        36 => {
            let bytes: String = (0..rng.below(12))
                .map(|_| (b' ' + rng.below(95) as u8) as char)
                .collect();
            bytes
        }
        37 => rng
            .pick(&["option Hash=1", "memory 1", "cores 2", "nps 5000", "setscore 10 2"])
            .to_string(),
        _ => "sd 1".to_string(),
    }
}

fn fuzz(seed: u64, commands: usize) {
    let registry = Registry::builtin();
    let names: Vec<String> = registry.names().iter().map(|s| s.to_string()).collect();
    let mut variants: Vec<&str> = names.iter().map(String::as_str).collect();
    variants.push("no-such-game");
    let mut rng = Rng(seed);
    let mut h = Harness::new();
    let mut ping = 0;
    for cmd in ["xboard", "protover 2", "memory 1", "sd 2", "st 0.02"] {
        h.send(cmd);
    }
    for _ in 0..commands {
        let line = random_command(&mut rng, &mut h, &variants, &mut ping);
        h.send(&line);
        h.pump(Duration::from_millis(rng.below(3) as u64 * 10));
    }
    // Whatever happened, the engine still answers, and plays a legal move from a fresh start.
    if h.session.edit.is_some() {
        h.send(".");
    }
    h.send("exit");
    h.send("new");
    h.send("sd 2");
    h.send("go");
    h.pump(Duration::from_secs(10));
    ping += 1;
    h.pings_sent.push(ping);
    h.send(&format!("ping {ping}"));
    h.pump(Duration::from_secs(1));
    let tail = || h.transcript[h.transcript.len().saturating_sub(40)..].join("\n");
    assert!(
        h.transcript.iter().rev().take(200).any(|l| l.starts_with("< move ")),
        "no move after `new` / `go`\n{}",
        tail()
    );
    assert_eq!(h.pongs, h.pings_sent, "every ping answered, in order\n{}", tail());
    let count = |prefix: &str| h.transcript.iter().filter(|l| l.starts_with(prefix)).count();
    eprintln!(
        "seed {seed:#x}: {} engine moves, {} illegal-move answers, {} errors, {} claims, {} pongs, {} setup lines",
        count("< move "),
        count("< Illegal move"),
        count("< Error"),
        count("< 1-0") + count("< 0-1") + count("< 1/2-1/2"),
        h.pongs.len(),
        count("< setup "),
    );
    // The sequence must have exercised the engine, or this test proves nothing.
    assert!(count("< move ") >= 100 && h.pongs.len() >= 20, "too little happened");
    assert_eq!(SEARCH_PANICS.load(Ordering::SeqCst), 0, "a search thread panicked");
}

fn count_search_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().name().is_some_and(|n| n.starts_with("search-")) {
            SEARCH_PANICS.fetch_add(1, Ordering::SeqCst);
        }
        default(info);
    }));
}

#[test]
fn random_command_sequences_never_break_the_engine() {
    count_search_panics();
    for seed in [0x5eed_0001, 0x0dd_ba11] {
        fuzz(seed, 3000);
    }
}
