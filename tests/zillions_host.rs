//! `fairybridge zillions-host`: a Zillions plug-in served over CECP. Our own plug-in
//! (libfairybridge.so, feature `zillions`) plays a refereed Wreckage match against fairybridge
//! without an illegal move or forfeit; a plug-in that answers with an illegal move
//! (tests/c/bad_plugin.c, compiled here with `cc`) is refused and forfeits; Wild Rose turns of
//! several moves go through the host both ways.
//!
//! Needs the feature: `cargo test --release --features zillions --test zillions_host` (CI runs it).

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use common::{EngineProcess, LINE_TIMEOUT};

use fairybridge::core::{Color, Move, MoveKind, Position};
use fairybridge::notation::{Coords, fen};
use fairybridge::tournament::pgn::{PgnGame, read_pgn};
use fairybridge::variants::Registry;

fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_fairybridge")
}

fn our_plugin() -> PathBuf {
    let dir = Path::new(exe()).parent().expect("target dir");
    // `cargo test` builds the cdylib into deps/ (fresh with every build of the library); only
    // `cargo build` copies it up beside the binary.
    let lib = [dir.join("deps/libfairybridge.so"), dir.join("libfairybridge.so")]
        .into_iter()
        .find(|p| p.exists());
    lib.unwrap_or_else(|| {
        panic!(
            "libfairybridge.so is missing in {}: the cdylib is built with the library",
            dir.display()
        )
    })
}

fn run_match(plugin: &Path, games: &str, tag: &str) -> (String, String, String) {
    run_match_in(plugin, games, tag, "wreckage", &[])
}

/// A refereed match of `games` games of `variant` between fairybridge and the hosted `plugin`;
/// stdout, stderr and the PGN.
fn run_match_in(plugin: &Path, games: &str, tag: &str, variant: &str, extra: &[&str]) -> (String, String, String) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let pgn = dir.join(format!("zillions-host-{tag}-{}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&pgn);
    let host = format!("cmd={} zillions-host --plugin {}", exe(), plugin.display());
    let out = Command::new(exe())
        .args([
            "match",
            "--engine",
            &format!("cmd={}", exe()),
            "--engine",
            &host,
            "name=Plugin",
        ])
        .args([
            "--each",
            "tc=2+0.02",
            "--games",
            games,
            "--variant",
            variant,
            "--maxmoves",
            "60",
        ])
        .args(extra)
        .args(["--timemargin", "300", "--seed", "3", "--pgn"])
        .arg(&pgn)
        .output()
        .expect("fairybridge match runs");
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    let _ = std::fs::remove_file(&pgn);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        text,
    )
}

/// The moves of a game that ended by rule or adjudication (not by a forfeit), replayed in the
/// core; `context` goes with a failure.
fn replay_without_forfeit(g: &PgnGame, registry: &Registry, context: &str) -> Vec<Move> {
    let term = g.tag("Termination").unwrap_or("");
    assert!(
        term == "normal" || term == "adjudication",
        "{term}: {:?}\n{context}",
        g.comments.last()
    );
    let (_, moves) = g.replay(registry).expect("the moves replay");
    moves
}

/// The match table: no forfeit by the plug-in.
fn assert_plugin_never_forfeits(stdout: &str) {
    let row = stdout.lines().find(|l| l.contains(" Plugin ")).expect("table row");
    assert!(row.trim_end().ends_with(" 0"), "forfeits: {row}\n{stdout}");
}

#[test]
fn our_plugin_plays_a_refereed_wreckage_match_without_forfeit() {
    let (stdout, stderr, pgn) = run_match(&our_plugin(), "2", "ours");
    let games = read_pgn(&pgn);
    assert_eq!(games.len(), 2, "{stdout}\n{stderr}\n{pgn}");
    for g in &games {
        let moves = replay_without_forfeit(g, &fairybridge::protocol::builtin_games(), &pgn);
        assert!(moves.len() >= 10, "only {} moves\n{pgn}", moves.len());
    }
    assert_plugin_never_forfeits(&stdout);
}

/// Each side has a pawn about to grow roses (Wild Rose: the pawn leaves the board, an enemy unit
/// becomes a rose, the same side moves again). White wins in one turn of two moves, `dxc8=c7
/// Uxe2`: whoever is White plays it, so each game has one, the plug-in's turn going out to the
/// referee part by part, and fairybridge's reaching the plug-in part by part (the pass that an
/// opponent out of force mode sends is tested in src/zillions/host.rs).
const ROSES: &str = "v1u1wu1v/pppPpppp/8/8/8/8/PPPPpPPP/V1UW1U1V w - - 0 1";

#[test]
fn growing_roses_turns_go_through_the_host_both_ways() {
    let openings = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("roses-{}.fen", std::process::id()));
    std::fs::write(&openings, format!("{ROSES}\n")).expect("write the opening");
    let opening = openings.display().to_string();
    let (stdout, stderr, pgn) = run_match_in(&our_plugin(), "2", "roses", "wildrose", &["--openings", &opening]);
    let _ = std::fs::remove_file(&openings);
    let games = read_pgn(&pgn);
    assert_eq!(games.len(), 2, "{stdout}\n{stderr}\n{pgn}");
    // Which of the two made a turn of several moves: fairybridge, the plug-in.
    let mut grew = [false, false];
    let wildrose = fairybridge::protocol::builtin_games()
        .get("wildrose")
        .expect("wildrose is built in");
    for g in &games {
        let moves = replay_without_forfeit(g, &fairybridge::protocol::builtin_games(), &pgn);
        let plugin_white = g.tag("White") == Some("Plugin");
        let setup = fen::parse_fen(ROSES, Coords::Human).expect("the opening is a FEN");
        let mut pos = Position::from_setup(&wildrose, &setup).expect("the opening is a position");
        for mv in moves {
            if mv.kind() == MoveKind::Grow {
                let white = pos.side_to_move() == Color::White;
                grew[usize::from(white == plugin_white)] = true;
            }
            pos.make(mv);
        }
    }
    assert_eq!(grew, [true, true], "both sides grew roses in these games:\n{pgn}");
    assert_plugin_never_forfeits(&stdout);
}

#[test]
fn an_illegal_plugin_move_is_refused_and_forfeits() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/bad_plugin.c");
    let lib = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("libbad_plugin.so");
    let out = Command::new("cc")
        .args(["-shared", "-fPIC", "-Wall", "-Werror", "-o"])
        .arg(&lib)
        .arg(&src)
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C compiler `cc` ({e}): scripts/install-deps.sh installs it"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Talk to the host directly: the plug-in's move never reaches the GUI.
    let lib_arg = lib.to_str().expect("a UTF-8 temporary path");
    let mut host = EngineProcess::start(&["zillions-host", "--plugin", lib_arg], false);
    for line in ["xboard", "protover 2", "new", "usermove e2e4"] {
        host.send(line);
    }
    // The plug-in's move is refused: it resigns, and then still answers.
    let mut said: Vec<String> = Vec::new();
    while said.last().map(String::as_str) != Some("resign") {
        let line = host
            .next_line_before(Instant::now() + LINE_TIMEOUT)
            .unwrap_or_else(|| panic!("no resign from the host: {said:?}"));
        said.push(line);
    }
    host.send("ping 7");
    while said.last().map(String::as_str) != Some("pong 7") {
        let line = host
            .next_line_before(Instant::now() + LINE_TIMEOUT)
            .unwrap_or_else(|| panic!("no pong from the host: {said:?}"));
        said.push(line);
    }
    host.send("quit");
    let status = host.wait_for_exit(LINE_TIMEOUT);
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    assert!(!said.iter().any(|l| l.starts_with("move ")), "{said:?}");
    assert!(
        said.iter()
            .any(|l| l.starts_with("tellusererror") && l.contains("illegal move \"Pawn e2 - e5\"")),
        "{said:?}"
    );
    // A missing library is a one-line error, exit 2.
    let out = Command::new(exe())
        .args(["zillions-host", "--plugin", "/nonexistent/libnothing.so"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
}

#[test]
fn the_plugin_plays_a_user_game_named_by_fairybridge_variants() {
    // Zillions starts a plug-in with no command line: user definition files reach it through
    // FAIRYBRIDGE_VARIANTS. The host (our rules) and the runner get the same file with --variants.
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/variants/examples/minicannon.toml");
    let file = file.display().to_string();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let pgn = dir.join(format!("zillions-host-user-{}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&pgn);
    let host = format!(
        "cmd={} --variants {file} zillions-host --plugin {}",
        exe(),
        our_plugin().display()
    );
    let out = Command::new(exe())
        .env(fairybridge::zillions::VARIANTS_ENV, &file)
        .args(["match", "--variants", &file, "--engine"])
        .arg(format!("cmd={} --variants {file}", exe()))
        .args(["--engine", &host, "name=Plugin"])
        .args([
            "--each",
            "tc=2+0.02",
            "--games",
            "2",
            "--variant",
            "minicannon",
            "--maxmoves",
            "60",
        ])
        .args(["--timemargin", "300", "--pgn"])
        .arg(&pgn)
        .output()
        .expect("fairybridge match runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    let _ = std::fs::remove_file(&pgn);
    let games = read_pgn(&text);
    assert_eq!(games.len(), 2, "{stdout}\n{stderr}\n{text}");
    let mut registry = fairybridge::protocol::builtin_games();
    registry.load_file(Path::new(&file)).expect("minicannon loads");
    for g in &games {
        assert_eq!(g.tag("Variant"), Some("minicannon"));
        let moves = replay_without_forfeit(g, &registry, &format!("{stderr}\n{text}"));
        assert!(moves.len() >= 10, "only {} moves\n{text}", moves.len());
    }
}

/// The host reads its GUI through the engine's bounded reader: an over-long line is answered
/// with the very error line the engine's own CECP door gives, and the next line is answered.
#[test]
fn the_host_refuses_an_overlong_line_as_the_engine_does() {
    let mut input = "x".repeat(3 << 20);
    input.push_str("\nping 1\nquit\n");
    let answer = |args: &[&str]| -> Vec<String> {
        let mut child = Command::new(exe())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("fairybridge starts");
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(input.as_bytes()).expect("input written");
        drop(stdin);
        let out = child.wait_with_output().expect("fairybridge ends");
        assert!(out.status.success(), "{args:?}: {:?}", out.status);
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect()
    };
    let plugin = our_plugin();
    let host = answer(&["zillions-host", "--plugin", plugin.to_str().expect("a UTF-8 path")]);
    assert_eq!(host.len(), 2, "{host:?}");
    assert!(
        host[0].starts_with("Error (line too long): line of 3145728 bytes"),
        "{host:?}"
    );
    assert!(host[0].len() < 200, "{host:?}");
    assert_eq!(host[1], "pong 1");
    assert_eq!(host, answer(&[]), "the engine's door answers the same");
}
