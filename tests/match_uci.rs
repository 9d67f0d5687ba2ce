//! The match runner drives UCI engines (`--engine proto=uci`): fairybridge over UCI against
//! fairybridge over CECP in orthodox chess and in Wild Castle (through `UCI_Variant`, from
//! shuffled starts sent as `position fen`), against Fairy-Stockfish over UCI, an engine refused
//! for a variant its `UCI_Variant` does not list, and forfeits driven by a deliberately broken UCI
//! engine (`scripts/e2e/broken-uci-engine.py`, needs python-chess): an illegal `bestmove`, a crash
//! mid-game and at start, a stall, garbage, `bestmove (none)` with legal moves, and a `bestmove`
//! before any `go` that must not count.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use fairybridge::tournament::pgn::{PgnGame, read_pgn};

const FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";

fn fairybridge() -> &'static str {
    env!("CARGO_BIN_EXE_fairybridge")
}

fn pgn_path(tag: &str) -> PathBuf {
    common::fresh_temp_file(&format!("match-uci-{tag}"), "pgn")
}

fn words(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// A match that must end without a forfeit: every game ends by rule or adjudication, replays in
/// the core, and the UCI engine's moves carry the score and depth of its `info` lines.
fn clean_match(tag: &str, args: &[String], variant: &str, uci_name: &str) -> Vec<PgnGame> {
    let pgn = pgn_path(tag);
    let out = common::run_match(args, &pgn);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{tag}: {stderr}");
    let text = std::fs::read_to_string(&pgn).expect("PGN written");
    let _ = std::fs::remove_file(&pgn);
    let games = read_pgn(&text);
    assert_eq!(games.len(), 2, "{tag}:\n{text}");
    for (i, g) in games.iter().enumerate() {
        let term = g.tag("Termination").unwrap_or("");
        assert!(
            term == "normal" || term == "adjudication",
            "{tag} game {}: {term}: {:?}\n{stdout}",
            i + 1,
            g.comments.last()
        );
        assert_eq!(g.tag("Variant").unwrap_or("normal"), variant, "{tag}");
        let (_, moves) = g
            .replay(&fairybridge::protocol::builtin_games())
            .expect("the moves replay in the core");
        assert!(moves.len() >= 10, "{tag} game {}: {} moves", i + 1, moves.len());
        // The UCI engine's moves: White's in game 1, Black's in game 2 (comments alternate with
        // moves; the last comment is the ending).
        let uci_colour = if i == 0 { "White" } else { "Black" };
        assert_eq!(g.tag(uci_colour), Some(uci_name), "{tag}");
        let own = if i == 0 { 0 } else { 1 };
        let scored = g
            .comments
            .iter()
            .take(moves.len())
            .skip(own)
            .step_by(2)
            .filter(|c| c.split_whitespace().next().is_some_and(|w| w.contains('/')))
            .count();
        assert!(
            scored * 2 >= moves.len() / 2,
            "{tag} game {}: the UCI engine's moves carry no score/depth: {:?}",
            i + 1,
            g.comments
        );
    }
    let row = stdout
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(uci_name))
        .expect("table row");
    assert!(
        row.trim_end().ends_with(" 0"),
        "{tag}: no forfeits in {row:?}\n{stdout}"
    );
    games
}

/// fairybridge over UCI (White in game 1) against fairybridge over CECP.
fn uci_vs_cecp(variant: &str) -> Vec<PgnGame> {
    let mut args = words(&["--engine"]);
    args.push(format!("cmd={}", fairybridge()));
    args.extend(words(&["proto=uci", "name=FB-UCI", "--engine"]));
    args.push(format!("cmd={}", fairybridge()));
    // Clocks with an increment (wtime/btime/winc/binc), a margin no loaded machine overruns.
    args.extend(words(&[
        "name=FB-CECP",
        "--each",
        "tc=2+0.05",
        "timemargin=5000",
        "--games",
        "2",
        "--seed",
        "3",
        "--maxmoves",
        "30",
        "--variant",
        variant,
    ]));
    clean_match(&format!("cecp-{variant}"), &args, variant, "FB-UCI")
}

#[test]
fn fairybridge_over_uci_against_fairybridge_over_cecp_in_normal() {
    uci_vs_cecp("normal");
}

#[test]
fn fairybridge_over_uci_against_fairybridge_over_cecp_in_wildcastle() {
    let games = uci_vs_cecp("wildcastle");
    // Shuffled starts (seed 3): the UCI side was told them with `position fen`.
    for g in &games {
        let start = g.tag("FEN").unwrap_or("");
        assert!(!start.starts_with("rnbqkbnr/"), "{start}");
    }
}

#[test]
fn fairybridge_against_fairy_stockfish_over_uci() {
    common::require_peer("fairy-stockfish", || Path::new(FAIRY_STOCKFISH).exists());
    let mut args = words(&["--engine"]);
    args.push(format!("cmd={}", fairybridge()));
    args.extend(words(&["proto=uci", "name=FB-UCI", "--engine"]));
    args.push(format!("cmd={FAIRY_STOCKFISH}"));
    args.extend(words(&[
        "proto=uci",
        "name=FSF",
        "option.Hash=16",
        "option.Threads=1",
        "--each",
        "tc=2+0.05",
        "timemargin=5000",
        "--games",
        "2",
        "--seed",
        "3",
        "--maxmoves",
        "30",
    ]));
    clean_match("fsf", &args, "normal", "FB-UCI");
}

#[test]
fn a_uci_engine_whose_variant_combo_lacks_the_game_is_refused() {
    common::require_python_chess();
    let pgn = pgn_path("refused");
    let mut args = words(&["--engine"]);
    args.push(format!("cmd=python3 {} good", broken_script()));
    args.extend(words(&["proto=uci", "--engine"]));
    args.push(format!("cmd={}", fairybridge()));
    args.extend(words(&["--each", "st=0.05", "--variant", "wildcastle"]));
    let out = common::run_match(&args, &pgn);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("does not play the variant wildcastle (its UCI_Variant lists: chess)"),
        "{stderr}"
    );
    assert!(!pgn.exists());
}

#[test]
fn proto_values_are_checked() {
    let out = Command::new(fairybridge())
        .args([
            "match",
            "--engine",
            "cmd=a",
            "proto=usi",
            "--engine",
            "cmd=b",
            "--each",
            "st=1",
        ])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("proto= is xboard (cecp) or uci, not \"usi\""),
        "{stderr}"
    );
}

// ----- forfeits -----

fn broken_script() -> String {
    format!("{}/scripts/e2e/broken-uci-engine.py", env!("CARGO_MANIFEST_DIR"))
}

/// Two games, the broken UCI engine White in the first and Black in the second; checks both. It
/// misbehaves at its third `go`.
fn forfeit_case(mode: &str, termination: &str, reason: &str) {
    forfeit_case_after(mode, termination, reason, [4, 5]);
}

/// As [`forfeit_case`], with the number of moves each game has before the forfeit.
fn forfeit_case_after(mode: &str, termination: &str, reason: &str, plies: [usize; 2]) {
    common::require_python_chess();
    let pgn = pgn_path(&mode.replace(' ', ""));
    let mut args = words(&["--engine"]);
    args.push(format!("cmd=python3 {} {mode}", broken_script()));
    // Short where it is to hang (the test waits for its flag), else so long it never flags.
    let clock = if mode == "silent" { "st=1" } else { "tc=60+1" };
    args.extend(words(&["proto=uci", "name=Broken", clock, "--engine"]));
    args.push(format!("cmd={}", fairybridge()));
    args.extend(words(&[
        "proto=uci",
        "name=fairybridge",
        "st=0.05",
        "timemargin=5000",
        "--games",
        "2",
        "--seed",
        "1",
    ]));
    let out = common::run_match(&args, &pgn);
    common::assert_broken_engine_forfeits_both(mode, &out, &pgn, termination, reason, plies);
    let _ = std::fs::remove_file(&pgn);
}

#[test]
fn an_illegal_bestmove_forfeits() {
    forfeit_case("illegal", "rules infraction", "makes an illegal move: ");
}

#[test]
fn a_crash_mid_game_forfeits() {
    forfeit_case("crash", "abandoned", "disconnects (exit status 3)");
}

#[test]
fn a_stall_loses_on_time_after_stop() {
    forfeit_case("silent", "time forfeit", "loses on time: no move within");
}

#[test]
fn garbage_forfeits() {
    forfeit_case("garbage", "rules infraction", "sends an unreadable move: ?!%zz");
}

#[test]
fn bestmove_none_with_legal_moves_forfeits() {
    forfeit_case(
        "none",
        "rules infraction",
        "sends no move (bestmove (none)) but has legal moves",
    );
}

#[test]
fn a_crash_at_start_forfeits_each_game() {
    forfeit_case_after(
        "crash-start",
        "abandoned",
        "fails to start: exited during start-up (exit status 3)",
        [0, 0],
    );
}

#[test]
fn a_bestmove_before_any_go_is_not_a_move() {
    // `--early`: a legal bestmove in reply to `ucinewgame`; were it read as the first move, the
    // game would go differently (and the illegal move come at another ply).
    forfeit_case("illegal --early", "rules infraction", "makes an illegal move: ");
}

// ----- an engine's children go with it -----

/// Is process `pid` gone (or only a zombie waiting for its parent)?
fn is_gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        // `PID (COMM) STATE ...`: Z is a zombie.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

/// A broken engine that leaves a child holding its output open (60 s): after the match, every
/// such child (the probe's and each game's) must be gone; returns the PGN's last comments.
fn children_are_killed(mode: &str) -> Vec<String> {
    common::require_python_chess();
    let tag = format!("child-{mode}");
    let pgn = pgn_path(&tag);
    let pids = pgn.with_extension("pids");
    let _ = std::fs::remove_file(&pids);
    let mut args = words(&["--engine"]);
    args.push(format!(
        "cmd=python3 {} {mode} --child {}",
        broken_script(),
        pids.display()
    ));
    args.extend(words(&["proto=uci", "name=Broken", "tc=60+1", "--engine"]));
    args.push(format!("cmd={}", fairybridge()));
    args.extend(words(&[
        "proto=uci",
        "st=0.05",
        "timemargin=5000",
        "--games",
        "2",
        "--maxmoves",
        "4",
    ]));
    let out = common::run_match(&args, &pgn);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&pids).expect("the children's pids");
    let children: Vec<u32> = text.lines().map(|l| l.parse().expect("a pid")).collect();
    assert_eq!(children.len(), 3, "the probe's and two games' children: {text}");
    // The runner has exited: nothing of the engines may be left (SIGKILL is immediate, but the
    // kernel may take a moment to tear a process down).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while children.iter().any(|&p| !is_gone(p)) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    for pid in children {
        assert!(is_gone(pid), "{mode}: the engine's child {pid} outlived the match");
    }
    let _ = std::fs::remove_file(&pids);
    let pgn_text = std::fs::read_to_string(&pgn).expect("PGN written");
    let _ = std::fs::remove_file(&pgn);
    read_pgn(&pgn_text)
        .iter()
        .map(|g| g.comments.last().cloned().unwrap_or_default())
        .collect()
}

#[test]
fn an_engines_children_are_killed_with_it_after_a_normal_game() {
    let endings = children_are_killed("good");
    assert!(endings.iter().all(|e| e.contains("adjudication")), "{endings:?}");
}

#[test]
fn a_crash_counts_and_its_children_are_killed_while_they_hold_the_output_open() {
    let endings = children_are_killed("crash");
    assert!(
        endings.iter().all(|e| e.ends_with("disconnects (exit status 3)")),
        "{endings:?}"
    );
}
