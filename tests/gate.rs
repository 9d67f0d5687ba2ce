//! `scripts/gate.sh`, the strength gate, with tiny game counts and depth-limited engines: its
//! plumbing (the verdict and exit code read from the runner's report, the figures it prints,
//! resuming a stopped gate, bad arguments), not strength. Building revisions is exercised by CI's
//! strength smoke (`.ci/run`), which gates the build against a revision of the clone's history.

#![cfg(unix)]

mod common;

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{stderr, stdout};
use fairybridge::tournament::pgn::read_pgn;

fn gate_script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/gate.sh")
}

/// A results directory of its own for each test, emptied.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("gate-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The gate between two copies of the test's binary, the candidate searching to `cand_depth` and
/// the baseline to `base_depth`, with `extra` options, results in `dir`.
fn gate_command(dir: &Path, cand_depth: u32, base_depth: u32, extra: &[&str]) -> Command {
    let fb = env!("CARGO_BIN_EXE_fairybridge");
    let mut cmd = Command::new("bash");
    cmd.arg(gate_script())
        .args(["--tc", "10+0.1", "--referee", fb, "--dir"])
        .arg(dir)
        .arg("--candidate-key")
        .arg(format!("depth={cand_depth}"))
        .arg("--baseline-key")
        .arg(format!("depth={base_depth}"))
        .args(extra)
        .args([fb, fb]);
    cmd
}

fn gate(dir: &Path, cand_depth: u32, base_depth: u32, extra: &[&str]) -> Output {
    gate_command(dir, cand_depth, base_depth, extra)
        .output()
        .expect("run scripts/gate.sh")
}

/// The value of the summary line starting with `key`.
fn line<'a>(out: &'a str, key: &str) -> &'a str {
    out.lines()
        .find(|l| l.starts_with(key))
        .unwrap_or_else(|| panic!("no {key:?} line in {out}"))
}

/// Moves in the PGN of the results directory, and the number of games.
fn pgn_moves_and_games(dir: &Path) -> (usize, usize) {
    let games = read_pgn(&std::fs::read_to_string(dir.join("games.pgn")).unwrap());
    (games.iter().map(|g| g.moves.len()).sum(), games.len())
}

/// The `N moves` of the summary's two thinking-time lines (candidate, baseline).
fn thinking_moves(out: &str) -> Vec<usize> {
    out.lines()
        .filter(|l| l.starts_with("  candidate-") || l.starts_with("  baseline-"))
        .map(|l| {
            assert!(l.contains(" s ("), "{l}");
            let n = l.rsplit('(').next().unwrap().trim_end_matches(" moves)");
            n.parse().unwrap()
        })
        .collect()
}

#[test]
fn a_weaker_candidate_fails_and_a_stronger_one_passes() {
    let dir = fresh_dir("fail");
    let out = gate(&dir, 1, 4, &["--bounds", "-100,100", "--games", "40"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(line(&text, "verdict:").contains("FAIL: H0 accepted"), "{text}");
    let games = line(&text, "games:");
    let (moves, played) = pgn_moves_and_games(&dir);
    // The depth-1 player never wins; a depth-4 search may let a won endgame slip into a
    // repetition now and then.
    let prefix = format!("games: {played} of at most 40: W 0 D ");
    assert!(games.starts_with(&prefix), "{games}");
    let draws: usize = games[prefix.len()..]
        .split(' ')
        .next()
        .and_then(|d| d.parse().ok())
        .unwrap_or(usize::MAX);
    assert!(
        draws * 3 <= played && games.contains(&format!(" L {} ", played - draws)),
        "{games}"
    );
    assert!(played < 40, "the SPRT stops the match: {games}");
    let moves_by_side = thinking_moves(&text);
    assert_eq!(moves_by_side.len(), 2, "{text}");
    assert_eq!(moves_by_side.iter().sum::<usize>(), moves, "{text}");
    assert!(
        line(&text, "command:").contains("scripts/gate.sh --tc 10+0.1"),
        "{text}"
    );
    assert_eq!(std::fs::read_to_string(dir.join("summary.txt")).unwrap(), text);

    let dir = fresh_dir("pass");
    let out = gate(&dir, 4, 1, &["--bounds", "-100,100", "--games", "40"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(line(&text, "verdict:").contains("PASS: H1 accepted"), "{text}");
    assert!(line(&text, "games:").contains(" L 0 "), "{text}");
    assert!(line(&text, "elo:").contains("95% interval ["), "{text}");
}

#[test]
fn the_game_cap_gives_no_verdict() {
    let dir = fresh_dir("cap");
    let out = gate(&dir, 2, 2, &["--nonreg", "--games", "4"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(3), "{text}{}", stderr(&out));
    assert!(
        line(&text, "verdict:").contains("no verdict: the cap of 4 games"),
        "{text}"
    );
    assert!(line(&text, "gate:").contains("SPRT [-5, 0]"), "{text}");
    assert!(line(&text, "games:").starts_with("games: 4 of at most 4:"), "{text}");
    assert_eq!(pgn_moves_and_games(&dir).1, 4);
}

#[test]
fn a_stopped_gate_continues_where_it_was() {
    let dir = fresh_dir("resume");
    let extra = ["--nonreg", "--games", "12"];
    let mut child = gate_command(&dir, 2, 2, &extra)
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start scripts/gate.sh");
    // Stop it (the script, the runner and the engines) once a few games are in the state file.
    let start = Instant::now();
    let finished = |dir: &Path| {
        std::fs::read_to_string(dir.join("state"))
            .map(|s| s.lines().filter(|l| l.starts_with("game ")).count())
            .unwrap_or(0)
    };
    while finished(&dir) < 3 {
        assert!(start.elapsed() < Duration::from_secs(120), "no games played");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the gate ended before it was stopped"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = Command::new("kill")
        .args(["-KILL", "--", &format!("-{}", child.id())])
        .status()
        .unwrap();
    assert!(status.success());
    let _ = child.wait();
    let before = finished(&dir);
    assert!((3..12).contains(&before), "{before} games before the stop");

    let out = gate(&dir, 2, 2, &extra);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(3), "{text}{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("Resuming: {before} game(s) already played")),
        "{}",
        stderr(&out)
    );
    assert!(line(&text, "games:").starts_with("games: 12 of at most 12:"), "{text}");
    // Nothing played twice, nothing lost.
    assert_eq!(pgn_moves_and_games(&dir).1, 12);
}

#[test]
fn bad_arguments_exit_2() {
    let fb = env!("CARGO_BIN_EXE_fairybridge");
    let dir = fresh_dir("bad");
    let dir = dir.to_str().unwrap();
    for (args, wanted) in [
        (vec![fb], "CANDIDATE BASELINE"),
        (vec!["--bounds", "5,0", fb, fb], "E0 < E1"),
        (vec!["--bounds", "a,b", fb, fb], "two numbers"),
        (vec!["--games", "0", fb, fb], "--games"),
        (vec!["--variant", "nosuch", fb, fb], "no opening suite"),
        (vec!["--frobnicate", fb, fb], "unknown option"),
        (
            vec!["--dir", dir, "no-such-revision-or-file", fb],
            "neither a git revision",
        ),
    ] {
        let out = Command::new("bash").arg(gate_script()).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(wanted), "{args:?}: {}", stderr(&out));
        assert_eq!(stdout(&out), "", "{args:?}");
    }
}

#[test]
fn a_user_defined_game_is_gated_from_its_own_suite() {
    let km = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/variants/examples/knightmate.toml");
    let km = km.to_str().unwrap();
    let dir = fresh_dir("knightmate");
    std::fs::create_dir_all(&dir).unwrap();
    let suite = dir.join("knightmate.epd");
    let made = common::run(&[
        "--variants",
        km,
        "openings",
        "--variant",
        "knightmate",
        "--count",
        "4",
        "--depth",
        "2",
        "--out",
        suite.to_str().unwrap(),
    ]);
    assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
    let out = gate(
        &dir,
        2,
        2,
        &[
            "--variants",
            km,
            "--variant",
            "knightmate",
            "--openings",
            suite.to_str().unwrap(),
            "--games",
            "2",
        ],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(3), "{text}{}", stderr(&out));
    assert!(line(&text, "gate:").contains(", knightmate, "), "{text}");
    assert!(line(&text, "games:").starts_with("games: 2 of at most 2:"), "{text}");
    let forfeits = line(&text, "forfeits:");
    assert!(forfeits.ends_with(" 0") && forfeits.contains(" 0, "), "{forfeits}");
}
