//! Replays the CECP transcripts of `protocol/transcripts/` against the built engine.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

const LINE_TIMEOUT: Duration = Duration::from_secs(20);

/// Thinking output: `PLY SCORE TIME NODES ...`.
fn is_thinking(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.len() >= 4
        && words[0].chars().all(|c| c.is_ascii_digit())
        && words[1].trim_start_matches('-').chars().all(|c| c.is_ascii_digit())
        && words[2].chars().all(|c| c.is_ascii_digit())
        && words[3].chars().all(|c| c.is_ascii_digit())
}

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

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fairybridge"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("engine starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines: rx,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        if let Some(stdin) = self.stdin.as_mut() {
            writeln!(stdin, "{line}").expect("engine reads its input");
            stdin.flush().expect("flush");
        }
    }

    /// Reads until a line satisfies `want`; fails on any other non-thinking line.
    fn expect(&mut self, file: &str, lineno: usize, what: &str, want: impl Fn(&str) -> bool) {
        let deadline = Instant::now() + LINE_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if want(&line) {
                        return;
                    }
                    if !is_thinking(&line) {
                        panic!(
                            "{file}:{lineno}: expected {what}, got {line:?}\nengine output so far:\n{}",
                            self.seen.join("\n")
                        );
                    }
                }
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => panic!(
                    "{file}:{lineno}: expected {what}, got nothing\nengine output so far:\n{}",
                    self.seen.join("\n")
                ),
            }
        }
    }

    /// Ends the conversation: the engine must exit with status 0 and leave no unread line that is
    /// not thinking output.
    fn finish(mut self, file: &str, send_quit: bool) {
        if send_quit {
            self.send("quit");
        }
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_secs(10);
        let status = loop {
            if let Some(s) = self.child.try_wait().expect("wait") {
                break s;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("{file}: the engine did not exit");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(status.success(), "{file}: the engine exited with {status}");
        for line in self.lines.try_iter() {
            assert!(
                is_thinking(&line),
                "{file}: unexpected engine line at the end: {line:?}"
            );
        }
    }
}

fn replay(path: &std::path::Path) {
    let file = path.file_name().and_then(|f| f.to_str()).unwrap_or("?").to_string();
    let text = std::fs::read_to_string(path).expect("transcript readable");
    let mut engine = Engine::start();
    let mut quit_sent = false;
    for (i, raw) in text.lines().enumerate() {
        let lineno = i + 1;
        if raw.trim().is_empty() || raw.starts_with('#') {
            continue;
        }
        if let Some(cmd) = raw.strip_prefix("> ") {
            quit_sent |= cmd == "quit";
            engine.send(cmd);
        } else if let Some(exact) = raw.strip_prefix("< ") {
            engine.expect(&file, lineno, &format!("{exact:?}"), |l| l == exact);
        } else if let Some(pattern) = raw.strip_prefix("<~ ") {
            engine.expect(&file, lineno, &format!("a line like {pattern:?}"), |l| glob(pattern, l));
        } else if let Some(ms) = raw.strip_prefix("%sleep ") {
            std::thread::sleep(Duration::from_millis(ms.trim().parse().expect("sleep in ms")));
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
        } else if raw.trim() == "%eof" {
            engine.finish(&file, false);
            return;
        } else {
            panic!("{file}:{lineno}: cannot read transcript line {raw:?}");
        }
    }
    engine.finish(&file, !quit_sent);
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
