//! A match past one run: killed with SIGKILL and resumed (`--resume`), split into shards
//! (`--shard K/N`) and merged (`fairybridge merge`) — each must give the report of one
//! uninterrupted run with the same seed. The engines are fairybridge at fixed depths (`depth=`,
//! CECP `sd`), so the same game is played again the same way and whole reports can be compared.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use fairybridge::tournament::pgn::read_pgn;

const GAMES: usize = 16;

/// A PGN file's games: `number -> (White, Black, Result, Pair)`.
type Games = BTreeMap<u32, (String, String, String, String)>;

fn dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("distributed-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Six openings, written once (the tests run at the same time).
fn openings() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("distributed-{}.epd", std::process::id()));
        std::fs::write(
            &path,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
         rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n\
         rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1\n\
         rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1\n\
         rnbqkbnr/pppppppp/8/8/8/6P1/PPPPPP1P/RNBQKBNR b KQkq - 0 1\n\
         rnbqkbnr/pppppppp/8/8/5P2/8/PPPPP1PP/RNBQKBNR b KQkq - 0 1\n",
        )
        .unwrap();
        path
    })
}

/// `fairybridge match` between fairybridge at depth 2 and at depth 1: 8 pairs, 16 games.
fn match_command(extra: &[&str]) -> Command {
    match_with_seed("11", extra)
}

fn match_with_seed(seed: &str, extra: &[&str]) -> Command {
    let exe = env!("CARGO_BIN_EXE_fairybridge");
    let mut cmd = Command::new(exe);
    cmd.args(["match", "--engine", &format!("cmd={exe}"), "name=Deep", "depth=2"])
        .args(["--engine", &format!("cmd={exe}"), "name=Shallow", "depth=1"])
        .args(["--each", "st=10", "--games", "2", "--rounds", "8", "--maxmoves", "60"])
        .args(["--seed", seed, "--concurrency", "2", "--timemargin", "2000"])
        .args(["--sprt", "elo0=0", "elo1=2", "--openings"])
        .arg(openings())
        .args(["order=random"])
        .args(extra);
    cmd
}

fn run(mut cmd: Command) -> Output {
    let out = cmd.output().expect("run fairybridge");
    assert_eq!(
        out.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The games of a PGN file.
fn results(pgn: &Path) -> Games {
    let text = std::fs::read_to_string(pgn).unwrap();
    let mut out = BTreeMap::new();
    for g in read_pgn(&text) {
        let tag = |t: &str| g.tag(t).unwrap_or("").to_string();
        let number: u32 = tag("Round").parse().unwrap();
        let row = (tag("White"), tag("Black"), tag("Result"), tag("Pair"));
        assert!(
            out.insert(number, row).is_none(),
            "game {number} twice in {}",
            pgn.display()
        );
        // Fixed-depth engines at a 10 s limit: nobody loses on time, so every game repeats.
        assert_ne!(tag("Termination"), "time forfeit", "game {number}");
    }
    out
}

/// The uninterrupted run: its report (stdout) and its games.
fn reference() -> &'static (String, Games) {
    static REFERENCE: OnceLock<(String, Games)> = OnceLock::new();
    REFERENCE.get_or_init(|| {
        let d = dir("reference");
        let pgn = d.join("all.pgn");
        let mut cmd = match_command(&["--pgn"]);
        cmd.arg(&pgn);
        let out = run(cmd);
        let games = results(&pgn);
        assert_eq!(games.len(), GAMES);
        let outcomes: BTreeSet<&str> = games.values().map(|g| g.2.as_str()).collect();
        assert!(outcomes.len() >= 2, "the games should not all end alike: {outcomes:?}");
        (String::from_utf8(out.stdout).unwrap(), games)
    })
}

fn recorded_games(state: &Path) -> usize {
    std::fs::read_to_string(state)
        .map(|t| t.lines().filter(|l| l.starts_with("game ")).count())
        .unwrap_or(0)
}

#[test]
fn a_killed_match_resumes_to_the_same_totals() {
    let (report, games) = reference();
    let d = dir("resume");
    let (state, pgn) = (d.join("m.state"), d.join("m.pgn"));
    let mut cmd = match_command(&["--resume"]);
    cmd.arg(&state).arg("--pgn").arg(&pgn);
    cmd.stdout(Stdio::null()).stderr(Stdio::null());
    let mut child = cmd.spawn().expect("start the match");
    let start = Instant::now();
    while recorded_games(&state) < 3 {
        assert!(start.elapsed() < Duration::from_secs(300), "no games recorded");
        assert!(child.try_wait().unwrap().is_none(), "the match ended before the kill");
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap(); // SIGKILL: no chance to tidy up
    child.wait().unwrap();
    let at_kill = recorded_games(&state);
    assert!(at_kill < GAMES, "killed mid-match ({at_kill} games recorded)");

    let mut cmd = match_command(&["--resume"]);
    cmd.arg(&state).arg("--pgn").arg(&pgn);
    let out = run(cmd);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("Resuming: {at_kill} game(s) already played")),
        "{stderr}"
    );
    assert_eq!(&String::from_utf8_lossy(&out.stdout), report);
    // Nothing played twice, nothing lost: the PGN has every game once, with the same results.
    assert_eq!(&results(&pgn), games);
    assert_eq!(recorded_games(&state), GAMES);

    // Once more: nothing left to play, the same report; another seed is refused.
    let mut cmd = match_command(&["--resume"]);
    cmd.arg(&state).arg("--pgn").arg(&pgn);
    let out = run(cmd);
    assert_eq!(&String::from_utf8_lossy(&out.stdout), report);
    assert_eq!(&results(&pgn), games);
    let mut cmd = match_with_seed("12", &["--resume"]);
    cmd.arg(&state);
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("differs from the seed 11"));
}

#[test]
fn shards_merge_to_the_single_run() {
    let (report, games) = reference();
    let d = dir("shards");
    let children: Vec<_> = (1..=2)
        .map(|k| {
            let mut cmd = match_command(&["--shard", &format!("{k}/2"), "--pgn"]);
            cmd.arg(d.join(format!("shard{k}.pgn")))
                .arg("--resume")
                .arg(d.join(format!("shard{k}.state")));
            cmd.stdout(Stdio::null()).stderr(Stdio::piped());
            cmd.spawn().unwrap()
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let (one, two) = (results(&d.join("shard1.pgn")), results(&d.join("shard2.pgn")));
    // Disjoint, complete, pairs whole, and the same games as the single run.
    assert!(one.keys().all(|n| !two.contains_key(n)));
    assert_eq!(one.len() + two.len(), GAMES);
    assert_eq!(one.len(), GAMES / 2);
    let pairs = |r: &Games| -> BTreeMap<String, usize> {
        let mut m = BTreeMap::new();
        for g in r.values() {
            *m.entry(g.3.clone()).or_insert(0) += 1;
        }
        m
    };
    assert!(pairs(&one).values().chain(pairs(&two).values()).all(|&n| n == 2));
    let mut union = one.clone();
    union.extend(two);
    assert_eq!(&union, games);

    let exe = env!("CARGO_BIN_EXE_fairybridge");
    // State files carry the SPRT; PGN files need it on the command line.
    for (files, sprt) in [
        (["shard2.state", "shard1.state"], &[][..]),
        (["shard1.pgn", "shard2.pgn"], &["--sprt", "elo0=0", "elo1=2"][..]),
    ] {
        let mut cmd = Command::new(exe);
        cmd.arg("merge").args(files.iter().map(|f| d.join(f))).args(sprt);
        let out = run(cmd);
        assert_eq!(&String::from_utf8_lossy(&out.stdout), report, "merge {files:?}");
    }
    // A game in two files is an error, not a double count.
    let out = Command::new(exe)
        .arg("merge")
        .arg(d.join("shard1.pgn"))
        .arg(d.join("shard1.state"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("more than one file"));
}

/// A finished match is extended by running it again with more `--rounds` (the earlier games keep
/// their numbers); a refused resume names the setting that differs, not every setting.
#[test]
fn a_finished_match_is_extended_with_more_rounds() {
    let d = dir("extend");
    let (state, pgn) = (d.join("m.state"), d.join("m.pgn"));
    let exe = env!("CARGO_BIN_EXE_fairybridge");
    let command = |rounds: &str, games: &str| {
        let mut cmd = Command::new(exe);
        cmd.args(["match", "--engine", &format!("cmd={exe}"), "name=A", "depth=1"])
            .args(["--engine", &format!("cmd={exe}"), "name=B", "depth=1"])
            .args([
                "--each",
                "st=10",
                "--maxmoves",
                "20",
                "--seed",
                "5",
                "--timemargin",
                "2000",
            ])
            .args(["--games", games, "--rounds", rounds, "--openings"])
            .arg(openings())
            .arg("--resume")
            .arg(&state)
            .arg("--pgn")
            .arg(&pgn);
        cmd
    };
    run(command("1", "2"));
    assert_eq!(recorded_games(&state), 2);
    let first = results(&pgn);
    let out = run(command("2", "2"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("Resuming: 2 game(s) already played, 2 to play"),
        "{stderr}"
    );
    let all = results(&pgn);
    assert_eq!(all.len(), 4);
    assert_eq!(all.keys().copied().collect::<Vec<_>>(), [1, 2, 3, 4]);
    assert!(
        first.iter().all(|(n, g)| all[n] == *g),
        "the first round is kept as it was"
    );
    assert_eq!(recorded_games(&state), 4);
    for (rounds, games, wanted) in [
        ("2", "4", "--games is 2 there, 4 here"),
        ("1", "2", "it has 2 round(s), this match 1"),
    ] {
        let out = command(rounds, games).output().expect("run");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(wanted), "{wanted}: {stderr}");
    }
}
