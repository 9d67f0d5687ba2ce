//! Replays the transcripts of `protocol/transcripts/` against the built engine: CECP, and UCI for
//! the files named `uci-*` (where search `info` lines, not `info string`, count as thinking).

mod common;

use std::time::{Duration, Instant};

use common::{EngineProcess, LINE_TIMEOUT, is_thinking};

/// What the build announces (`feature myname`, `id name`): `fairybridge`, version and commit, as set
/// by `build.rs`, which sets it for the tests of the package too.
const ENGINE_NAME: &str = concat!("fairybridge ", env!("FAIRYBRIDGE_VERSION"));

/// `*` matches any text; tabs in the line count as spaces.
fn glob(pattern: &str, line: &str) -> bool {
    let line = line.replace('\t', " ");
    let parts: Vec<&str> = pattern.split('*').collect();
    let mut rest = line.as_str();
    for (i, part) in parts.iter().enumerate() {
        if i == 0 {
            match rest.strip_prefix(part) {
                Some(r) => rest = r,
                None => return false,
            }
        } else if i == parts.len() - 1 {
            return rest.ends_with(part);
        } else {
            match rest.find(part) {
                Some(at) => rest = &rest[at + part.len()..],
                None => return false,
            }
        }
    }
    rest.is_empty()
}

/// The engine under a transcript: every line it writes is recorded, and any line but thinking
/// output must be the one the transcript expects next.
struct Engine {
    process: EngineProcess,
    seen: Vec<String>,
    thinking: fn(&str) -> bool,
    /// The clock the transcript last gave the engine (CECP `time`, UCI `go wtime`/`btime`): a move
    /// may take up to that long on top of the usual wait, so a loaded machine fails no transcript.
    clock: Duration,
}

/// UCI search output: `info depth …`, `info nodes …` — everything but `info string`.
fn is_uci_thinking(line: &str) -> bool {
    line.starts_with("info ") && !line.starts_with("info string ")
}

impl Engine {
    fn start(thinking: fn(&str) -> bool) -> Engine {
        Engine {
            process: EngineProcess::start(&[], false),
            seen: Vec::new(),
            thinking,
            clock: Duration::ZERO,
        }
    }

    fn send(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["time", cs] => {
                self.clock = Duration::from_millis(cs.parse::<u64>().unwrap_or(0).saturating_mul(10));
            }
            ["go", rest @ ..] => {
                let ms = rest
                    .windows(2)
                    .filter(|w| matches!(w[0], "wtime" | "btime"))
                    .filter_map(|w| w[1].parse::<u64>().ok())
                    .max();
                if let Some(ms) = ms {
                    self.clock = Duration::from_millis(ms);
                }
            }
            _ => {}
        }
        self.process.send(line);
    }

    /// Reads until a line satisfies `want`; fails on any other non-thinking line.
    fn expect(&mut self, file: &str, lineno: usize, what: &str, want: impl Fn(&str) -> bool) {
        let deadline = Instant::now() + LINE_TIMEOUT + self.clock;
        loop {
            let Some(line) = self.process.next_line_before(deadline) else {
                panic!(
                    "{file}:{lineno}: expected {what}, got nothing\nengine output so far:\n{}",
                    self.seen.join("\n")
                )
            };
            self.seen.push(line.clone());
            if want(&line) {
                return;
            }
            if !(self.thinking)(&line) {
                panic!(
                    "{file}:{lineno}: expected {what}, got {line:?}\nengine output so far:\n{}",
                    self.seen.join("\n")
                );
            }
        }
    }

    /// Ends the conversation: the engine must exit with status 0 and leave no unread line that is
    /// not thinking output.
    fn finish(mut self, file: &str, send_quit: bool) {
        if send_quit {
            self.send("quit");
        }
        let Some(status) = self.process.wait_for_exit(Duration::from_secs(10)) else {
            panic!("{file}: the engine did not exit");
        };
        assert!(status.success(), "{file}: the engine exited with {status}");
        for line in self.process.pending_lines() {
            assert!(
                (self.thinking)(&line),
                "{file}: unexpected engine line at the end: {line:?}"
            );
        }
    }
}

fn replay(path: &std::path::Path) {
    let file = path.file_name().and_then(|f| f.to_str()).unwrap_or("?").to_string();
    let text = std::fs::read_to_string(path).expect("transcript readable");
    let uci = file.starts_with("uci-");
    let mut engine = Engine::start(if uci { is_uci_thinking } else { is_thinking });
    let mut quit_sent = false;
    let mut eof = false;
    for (i, raw) in text.lines().enumerate() {
        let lineno = i + 1;
        let expanded = raw.replace("{engine_name}", ENGINE_NAME);
        let raw = expanded.as_str();
        if raw.trim().is_empty() || raw.starts_with('#') {
            continue;
        }
        if let Some(cmd) = raw.strip_prefix("> ") {
            quit_sent |= cmd == "quit";
            engine.send(cmd);
        } else if let Some(exact) = raw.strip_prefix("< ") {
            engine.expect(&file, lineno, &format!("{exact:?}"), |l| l == exact);
        } else if raw == "<" {
            engine.expect(&file, lineno, "an empty line", |l| l.is_empty());
        } else if let Some(pattern) = raw.strip_prefix("<~ ") {
            engine.expect(&file, lineno, &format!("a line like {pattern:?}"), |l| glob(pattern, l));
        } else if raw.trim() == "%handshake" {
            engine.send("xboard");
            engine.send("protover 2");
            engine.expect(&file, lineno, "feature done=0", |l| l == "feature done=0");
            loop {
                let before = engine.seen.len();
                engine.expect(&file, lineno, "feature lines", |l| l.starts_with("feature "));
                if engine.seen[before..].iter().any(|l| l == "feature done=1") {
                    break;
                }
            }
        } else if raw.trim() == "%uci" {
            engine.send("uci");
            engine.expect(&file, lineno, "uciok", |l| {
                l == "uciok" || l.starts_with("id ") || l.starts_with("option name ")
            });
            while engine.seen.last().is_some_and(|l| l != "uciok") {
                engine.expect(&file, lineno, "uciok", |l| {
                    l == "uciok" || l.starts_with("id ") || l.starts_with("option name ")
                });
            }
        } else if raw.trim() == "%eof" {
            // The lines after it are what the engine still says once its input is closed.
            engine.process.close_input();
            eof = true;
        } else {
            panic!("{file}:{lineno}: cannot read transcript line {raw:?}");
        }
    }
    engine.finish(&file, !quit_sent && !eof);
}

#[test]
fn glob_matches_what_it_should() {
    assert!(glob("move *", "move e2e4"));
    assert!(!glob("move *", "moved e2e4"));
    assert!(glob("* 100001 * * d1d8*", "1 100001 0 40 2 599799 0\td1d8"));
    assert!(!glob("stat01: * * * * *", "stat01: 1 2"));
    assert!(glob("abc", "abc") && !glob("abc", "abcd"));
}

#[test]
fn thinking_lines_are_recognised() {
    assert!(is_thinking("12 -35 150 1234567 18 823000 0\te2e4"));
    assert!(!is_thinking("move e2e4"));
    assert!(!is_thinking("1-0 {White mates}"));
    assert!(is_uci_thinking("info depth 3 seldepth 4 score cp 12 nodes 99 pv e2e4"));
    assert!(!is_uci_thinking("info string error: unknown command x"));
    assert!(!is_uci_thinking("bestmove e2e4"));
}

#[test]
fn transcripts() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol/transcripts");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("protocol/transcripts exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 10,
        "expected the transcript fixtures, found {}",
        files.len()
    );
    for f in &files {
        replay(f);
    }
}
