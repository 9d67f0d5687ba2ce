//! Helpers shared by the integration tests: a random-number generator for playouts, positions and
//! move lists by canonical text, the perft fixtures, running the `fairybridge` binary (its command
//! line and refereed matches), and driving it as a CECP engine.

// Each test crate includes this module and uses only some of it.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Output, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use fairybridge::core::{Move, Position, Square, Variant};
use fairybridge::notation::movetext::{canonical, parse_move};
use fairybridge::notation::{Coords, fen, parse_square};
use fairybridge::protocol::xboard::variant_info::wire;
use fairybridge::tournament::pgn::{PgnGame, read_pgn};
use fairybridge::variants::Registry;

// ----- random numbers -----

/// A small deterministic random-number generator for playouts (xorshift64).
pub struct XorShift(u64);

impl XorShift {
    pub fn new(seed: u64) -> XorShift {
        XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// Starts from this exact state (not zero), without mixing it as `new` does.
    pub fn from_state(state: u64) -> XorShift {
        XorShift(state)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

// ----- positions and moves by their canonical text -----

/// A built-in variant.
pub fn builtin(name: &str) -> Arc<Variant> {
    fairybridge::protocol::builtin_games()
        .get(name)
        .unwrap_or_else(|| panic!("{name} is built in"))
}

/// A position from a FEN in human coordinates; fails the test if the FEN is not accepted.
pub fn position(variant: &Arc<Variant>, fen_text: &str) -> Position {
    let setup = fen::parse_fen(fen_text, Coords::Human).unwrap_or_else(|e| panic!("{e}"));
    Position::from_setup(variant, &setup).unwrap_or_else(|e| panic!("{fen_text}: {e}"))
}

pub fn fen_of(p: &Position) -> String {
    fen::to_fen(p, Coords::Human)
}

/// Canonical texts of the legal moves; no two legal moves may share a text.
pub fn moves(p: &mut Position) -> BTreeSet<String> {
    let list = p.legal_moves();
    let texts: BTreeSet<String> = list.iter().map(|m| canonical(p, m)).collect();
    assert_eq!(texts.len(), list.len(), "two legal moves share a text: {texts:?}");
    texts
}

/// Legal moves whose canonical text starts with `from` (a square name, or `J@`): `a1` does not
/// take in the moves from `a10`.
pub fn moves_from(p: &mut Position, from: &str) -> BTreeSet<String> {
    moves(p)
        .into_iter()
        .filter(|m| m.starts_with(from) && !m[from.len()..].starts_with(|c: char| c.is_ascii_digit()))
        .collect()
}

/// The legal move with this canonical text, if there is one.
pub fn legal(p: &mut Position, text: &str) -> Option<Move> {
    let list = p.legal_moves();
    list.iter().find(|m| canonical(p, m) == text).copied()
}

/// The canonical and the wire text of a legal move; fails unless each parses back to the move.
pub fn move_texts(p: &mut Position, mv: &Move, ctx: &str) -> (String, String) {
    let text = canonical(p, mv);
    assert_eq!(
        parse_move(p, &text, Coords::Human),
        Ok(*mv),
        "{ctx}: canonical {text:?} does not parse back, {}",
        fen_of(p)
    );
    let w = wire(p, mv);
    assert_eq!(
        parse_move(p, &w, Coords::Wire),
        Ok(*mv),
        "{ctx}: wire {w:?} does not parse back, {}",
        fen_of(p)
    );
    (text, w)
}

/// Plays a legal move given by its canonical text; fails if it is not legal.
pub fn play(p: &mut Position, text: &str) -> Move {
    let mv = parse_move(p, text, Coords::Human).unwrap_or_else(|e| panic!("{text} not legal in {}: {e:?}", fen_of(p)));
    p.make(mv);
    mv
}

/// The square with this name (human coordinates).
pub fn sq(p: &Position, name: &str) -> Square {
    match parse_square(p.variant().shape, name, Coords::Human) {
        Some((s, "")) => s,
        _ => panic!("bad square {name}"),
    }
}

/// The letter on a square (`.` if empty), as in FEN.
pub fn at(p: &Position, name: &str) -> char {
    p.piece_at(sq(p, name))
        .map_or('.', |pc| p.variant().letter(pc.kind(), pc.color()))
}

pub fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

// ----- the perft fixtures and the example user games -----

/// `fixtures/perft/*.perft`, sorted by name.
pub fn perft_fixture_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join("perft");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixtures/perft exists")
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "perft"))
        .collect();
    files.sort();
    files
}

/// The built-in games and the example user files (`fixtures/variants/examples/*.toml`), which
/// must all load: a perft suite named after an example game (`minishogi.perft`) runs on it.
pub fn registry_with_examples() -> Registry {
    let mut registry = fairybridge::protocol::builtin_games();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/variants/examples");
    let loaded = registry.load_dir(&dir);
    assert!(loaded.errors.is_empty(), "example definitions: {:?}", loaded.errors);
    assert!(
        !loaded.variants.is_empty(),
        "no example definition in {}",
        dir.display()
    );
    registry
}

// ----- peer programs, installed on demand -----

/// Fairy-Max, as Debian installs it.
pub const FAIRYMAX: &str = "/usr/games/fairymax";

/// Makes sure a peer program the test needs is there: if `present` says no, runs
/// `scripts/install-deps.sh DEP` (saying so on stderr), then checks again and fails the test,
/// naming the script, if it is still missing. Never skips. One install at a time per test binary.
pub fn require_peer(dep: &str, present: impl Fn() -> bool) {
    static INSTALLING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    if present() {
        return;
    }
    let _one_at_a_time = INSTALLING.lock().unwrap_or_else(|e| e.into_inner());
    if present() {
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/install-deps.sh");
    eprintln!("{dep} is missing: installing it with scripts/install-deps.sh {dep}");
    let status = Command::new("bash").arg(script).arg(dep).status();
    assert!(
        matches!(status, Ok(s) if s.success()) && present(),
        "{dep} is missing and `scripts/install-deps.sh {dep}` could not install it ({status:?}): \
         run scripts/install-deps.sh"
    );
}

/// Fairy-Max's path, installed if missing.
pub fn require_fairymax() -> &'static str {
    require_peer("fairymax", || Path::new(FAIRYMAX).exists());
    FAIRYMAX
}

/// python-chess importable by `python3`, installed if missing.
pub fn require_python_chess() {
    require_peer("python-chess", || {
        Command::new("python3")
            .args(["-c", "import chess.engine, chess.pgn"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    });
}

// ----- the fairybridge command line -----

/// Runs `fairybridge ARGS` to its end.
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fairybridge"))
        .args(args)
        .output()
        .expect("run fairybridge")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 stderr")
}

/// Runs `fairybridge ARGS`, a `perft ... --divide` command, which must succeed; returns the divide
/// rows (`TURN COUNT`) and the total of the last line, `nodes N`.
pub fn cli_divide(args: &[&str]) -> (Vec<(String, u64)>, u64) {
    let o = run(args);
    assert!(
        o.status.success(),
        "fairybridge {args:?} failed ({:?}): {}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    let (last, rows) = lines.split_last().expect("some output");
    let nodes = last
        .strip_prefix("nodes ")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("last line is not `nodes <N>`: {last:?}"));
    let rows = rows
        .iter()
        .map(|l| {
            let (mv, n) = l.rsplit_once(' ').unwrap_or_else(|| panic!("bad divide line {l:?}"));
            (
                mv.to_string(),
                n.parse().unwrap_or_else(|_| panic!("bad count in {l:?}")),
            )
        })
        .collect();
    (rows, nodes)
}

/// Reads a PGN file with python-chess (which must be importable) and prints one line per game:
/// the Python expression `line` of the game `g`, after an `ERRORS ...` line if the reader found
/// errors in it.
pub fn python_chess_pgn(pgn: &Path, line: &str) -> Output {
    require_python_chess();
    let script = format!(
        r#"
import sys, chess.pgn
f = open(sys.argv[1])
while True:
    g = chess.pgn.read_game(f)
    if g is None:
        break
    if g.errors:
        print("ERRORS", g.errors)
    print({line})
"#
    );
    Command::new("python3")
        .args(["-c", &script])
        .arg(pgn)
        .output()
        .expect("python3 runs")
}

// ----- refereed matches: `fairybridge match` -----

/// `NAME-PID.EXT` in the test's temporary directory, any file of an earlier run removed.
pub fn fresh_temp_file(name: &str, ext: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}.{ext}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// `fairybridge match ARGS --pgn PGN`, to its end.
pub fn run_match<I, S>(args: I, pgn: &Path) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    Command::new(env!("CARGO_BIN_EXE_fairybridge"))
        .arg("match")
        .args(args)
        .arg("--pgn")
        .arg(pgn)
        .output()
        .expect("run fairybridge match")
}

/// Checks a two-game match against a deliberately broken engine named `Broken` (White in game 1,
/// Black in game 2, `mode` its fault) that must have lost both games by forfeit: the match ran to
/// its end, its table shows 0 - 2 - 0 with two forfeits, and in the PGN each game is the other
/// side's win with the Termination tag `termination`, a last comment `COLOUR REASON...` and
/// `plies[i]` legal moves before the forfeit. Returns the games.
pub fn assert_broken_engine_forfeits_both(
    mode: &str,
    out: &Output,
    pgn: &Path,
    termination: &str,
    reason: &str,
    plies: [usize; 2],
) -> Vec<PgnGame> {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{mode}: {stderr}");
    // The final table: the broken engine lost both games, both by forfeit.
    assert!(
        stdout.contains("Score of Broken vs fairybridge: 0 - 2 - 0  [0.000] 2"),
        "{mode}: {stdout}"
    );
    let row = stdout.lines().find(|l| l.contains(" Broken ")).expect("table row");
    assert!(row.trim_end().ends_with(" 2"), "{mode}: two forfeits in {row:?}");
    let text = std::fs::read_to_string(pgn).expect("PGN written");
    let games = read_pgn(&text);
    assert_eq!(games.len(), 2, "{mode}: the match goes on after the forfeit:\n{text}");
    for (i, g) in games.iter().enumerate() {
        let broken_colour = if i == 0 { "White" } else { "Black" };
        let winner = if i == 0 { "0-1" } else { "1-0" };
        assert_eq!(g.tag(broken_colour), Some("Broken"), "{mode}");
        assert_eq!(g.tag("Result"), Some(winner), "{mode} game {}", i + 1);
        assert_eq!(g.tag("Termination"), Some(termination), "{mode} game {}", i + 1);
        let last = g.comments.last().expect("reason comment");
        let wanted = format!("{broken_colour} {reason}");
        assert!(
            last.starts_with(&wanted),
            "{mode} game {}: {last:?}, wanted {wanted:?}",
            i + 1
        );
        // The moves before the forfeit are legal and recorded.
        let (_, moves) = g.replay(&fairybridge::protocol::builtin_games()).expect("moves replay");
        assert_eq!(moves.len(), plies[i], "{mode} game {}", i + 1);
    }
    games
}

// ----- the fairybridge CECP engine as a child process -----

/// How long the tests wait for an engine line.
pub const LINE_TIMEOUT: Duration = Duration::from_secs(20);

/// Thinking output: `PLY SCORE TIME NODES ...`.
pub fn is_thinking(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.len() >= 4
        && words[0].chars().all(|c| c.is_ascii_digit())
        && words[1].trim_start_matches('-').chars().all(|c| c.is_ascii_digit())
        && words[2..4].iter().all(|w| w.chars().all(|c| c.is_ascii_digit()))
}

/// `fairybridge ARGS` running with piped input and output: lines go to its stdin, and its stdout
/// lines arrive through a channel. A process still running when this is dropped is killed.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Option<JoinHandle<String>>,
}

impl EngineProcess {
    /// Starts the engine; with `capture_stderr` what it writes to stderr is kept for
    /// [`EngineProcess::stderr_text`], otherwise it is discarded.
    pub fn start(args: &[&str], capture_stderr: bool) -> EngineProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fairybridge"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if capture_stderr { Stdio::piped() } else { Stdio::null() })
            .spawn()
            .expect("engine starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(l) = line else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        let stderr = child.stderr.take().map(|mut err| {
            std::thread::spawn(move || {
                let mut s = String::new();
                let _ = err.read_to_string(&mut s);
                s
            })
        });
        let stdin = child.stdin.take();
        EngineProcess {
            child,
            stdin,
            lines: rx,
            stderr,
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("engine stdin open");
        writeln!(stdin, "{line}").expect("engine reads its input");
        stdin.flush().expect("flush");
    }

    /// The next stdout line, waiting at most until `deadline`; `None` if there is none by then, or
    /// stdout was closed.
    pub fn next_line_before(&self, deadline: Instant) -> Option<String> {
        let left = deadline.saturating_duration_since(Instant::now());
        self.lines.recv_timeout(left).ok()
    }

    /// The stdout lines already received, without waiting.
    pub fn pending_lines(&self) -> impl Iterator<Item = String> + '_ {
        self.lines.try_iter()
    }

    /// Closes stdin (end of input), without waiting for the engine.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Sends `quit` if stdin is still open, then closes it.
    pub fn close_input_with_quit(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "quit");
        }
    }

    /// Closes stdin and waits up to `timeout` for the engine to exit; kills it and returns `None`
    /// if it does not.
    pub fn wait_for_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        self.stdin = None;
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Everything the engine wrote to stderr (waits for it to close stderr); empty unless started
    /// with `capture_stderr`.
    pub fn stderr_text(&mut self) -> String {
        self.stderr
            .take()
            .map(|h| h.join().expect("stderr reader"))
            .unwrap_or_default()
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A CECP conversation with the engine: lines it writes that the test does not wait for are skipped;
/// the whole conversation is kept for failure messages.
pub struct Conversation {
    process: EngineProcess,
    seen: Vec<String>,
}

impl Conversation {
    /// A started engine after `xboard` and `protover 2`, its features read.
    pub fn start() -> Conversation {
        let mut e = Conversation {
            process: EngineProcess::start(&[], false),
            seen: Vec::new(),
        };
        e.send("xboard");
        e.send("protover 2");
        e.expect("feature done=1", |l| l.contains("done=1"));
        e
    }

    pub fn send(&mut self, line: &str) {
        self.seen.push(format!("> {line}"));
        self.process.send(line);
    }

    /// Reads lines until one satisfies `want` and returns it; other lines are skipped.
    pub fn expect(&mut self, what: &str, want: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + LINE_TIMEOUT;
        loop {
            let Some(line) = self.process.next_line_before(deadline) else {
                panic!("expected {what}, got nothing\nconversation:\n{}", self.seen.join("\n"))
            };
            self.seen.push(format!("< {line}"));
            if want(&line) {
                return line;
            }
        }
    }

    /// The next line that is not thinking output.
    pub fn next_reply(&mut self, what: &str) -> String {
        self.expect(what, |l| !is_thinking(l))
    }

    /// Sends `ping N` and returns every non-thinking line before `pong N`.
    pub fn sync(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        let mut got = Vec::new();
        loop {
            let l = self.next_reply("pong");
            if l == format!("pong {n}") {
                return got;
            }
            got.push(l);
        }
    }

    pub fn transcript(&self) -> String {
        self.seen.join("\n")
    }
}

impl Drop for Conversation {
    fn drop(&mut self) {
        self.process.close_input_with_quit();
        self.process.wait_for_exit(Duration::from_secs(5));
    }
}

// ----- the Zillions plug-in library and the C programs that drive it -----

/// The plug-in library (the cdylib `cargo test` builds with the crate, feature `zillions`).
pub fn plugin_library() -> PathBuf {
    let dir = Path::new(env!("CARGO_BIN_EXE_fairybridge"))
        .parent()
        .expect("target dir")
        .to_path_buf();
    let name = if cfg!(target_os = "macos") {
        "libfairybridge.dylib"
    } else {
        "libfairybridge.so"
    };
    // `cargo test` builds the cdylib into deps/ (fresh with every build of the library); only
    // `cargo build` copies it up beside the binary.
    let lib = [dir.join("deps").join(name), dir.join(name)]
        .into_iter()
        .find(|p| p.exists());
    lib.unwrap_or_else(|| {
        panic!(
            "{name} is missing in {}: the cdylib is built with the library",
            dir.display()
        )
    })
}

/// Compiles `tests/c/NAME.c` with the system C compiler (warnings are errors) into the test
/// target's temporary folder, once per test binary (its tests run at once); returns the program.
pub fn c_driver(name: &str) -> PathBuf {
    static BUILT: std::sync::Mutex<Vec<(String, PathBuf)>> = std::sync::Mutex::new(Vec::new());
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, exe)) = built.iter().find(|(n, _)| n == name) {
        return exe.clone();
    }
    let exe = compile_c(name);
    built.push((name.to_string(), exe.clone()));
    exe
}

fn compile_c(name: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/c/{name}.c"));
    let exe = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
    let out = Command::new("cc")
        .args([
            "-std=c11",
            "-D_POSIX_C_SOURCE=200809L",
            "-D_DEFAULT_SOURCE",
            "-Wall",
            "-Werror",
            "-O1",
            "-o",
        ])
        .arg(&exe)
        .arg(&src)
        .args(["-ldl", "-lpthread"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C compiler `cc` ({e}): scripts/install-deps.sh installs it"));
    assert!(
        out.status.success(),
        "{name}.c does not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}
