//! Zillions save games: `fairybridge zsg` on the examples of fixtures/zsg (good ones replay, broken
//! ones name their line and exit 2), and the round trip: games that `fairybridge match --zsg` plays
//! in each of the five games read back as the same moves as their PGN.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use fairybridge::notation::{Coords, fen, zillions};
use fairybridge::tournament::pgn::read_pgn;
use fairybridge::variants::Registry;
use fairybridge::zillions::zsg;

use common::{run, stderr, stdout};

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/zsg")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn good_save_games_print_every_position() {
    // (file, moves, last FEN worked out by hand)
    let cases = [
        (
            "chess-scholars-mate.zsg",
            7,
            "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4",
        ),
        (
            "chess-castling-en-passant.zsg",
            14,
            "2kr1bnr/1p1qpppp/p1np4/8/6b1/3P1N2/PPP1BPPP/RNBQ1RK1 w - - 1 8",
        ),
        ("chess-setup-placements.zsg", 5, "4Q3/2k5/8/8/8/8/8/5RK1 b - - 0 3"),
        (
            "wreckage-drops.zsg",
            8,
            "xrwbqkbfrd/pppjp2ppp/10/3p2p3/5P4/10/4J5/10/PPPP1PPPPP/XRWBQKBFRD[JJJJGjjjjg] w KQkq - 0 5",
        ),
    ];
    for (file, moves, last) in cases {
        let out = run(&["zsg", &fixture(file)]);
        assert_eq!(out.status.code(), Some(0), "{file}: {}", stderr(&out));
        let text = stdout(&out);
        let fens: Vec<&str> = text.lines().collect();
        assert_eq!(fens.len(), moves + 1, "{file}: {text}");
        assert_eq!(fens.last().copied(), Some(last), "{file}");
    }
}

#[test]
fn broken_save_games_name_the_first_bad_line_and_exit_2() {
    let cases = [
        ("broken-illegal-move.zsg", "line 6: move 2 \"Pawn e4 - e5\": illegal", 3),
        (
            "broken-unknown-piece.zsg",
            "line 5: move 1 \"Elephant h10 - f8\": unknown piece",
            2,
        ),
        ("broken-not-a-save-game.zsg", "line 1: not a Zillions save game", 0),
        ("broken-unknown-variant.zsg", "unknown variant \"Checkers\"", 0),
        (
            "broken-setup.zsg",
            "line 6: move 1 \"Pawn e2 - e4\": the setup before this move",
            0,
        ),
    ];
    for (file, message, fens) in cases {
        let out = run(&["zsg", &fixture(file)]);
        assert_eq!(out.status.code(), Some(2), "{file}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{file}: {err}");
        assert!(err.contains(message), "{file}: {err}");
        assert_eq!(
            stdout(&out).lines().count(),
            fens,
            "{file}: positions before the bad move"
        );
    }
    // --variant overrides the file's VariantName; an unknown one is an error too.
    let out = run(&["zsg", &fixture("broken-unknown-variant.zsg"), "--variant", "nonesuch"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["zsg", &fixture("chess-scholars-mate.zsg"), "--variant", "wildcastle"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// Plays one self-play game with `--pgn` and `--zsg`; returns the two files' texts.
fn play_game(variant: &str) -> Result<(String, String), String> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let pgn = dir.join(format!("zsg-roundtrip-{variant}-{}.pgn", std::process::id()));
    let zsg_path = dir.join(format!("zsg-roundtrip-{variant}-{}.zsg", std::process::id()));
    let _ = std::fs::remove_file(&pgn);
    let _ = std::fs::remove_file(&zsg_path);
    let engine = format!("cmd={}", env!("CARGO_BIN_EXE_fairybridge"));
    let out = Command::new(env!("CARGO_BIN_EXE_fairybridge"))
        .args(["match", "--engine", &engine, "--engine", &engine, "--each", "tc=1+0.01"])
        .args([
            "--games",
            "1",
            "--seed",
            "11",
            "--maxmoves",
            "80",
            "--timemargin",
            "300",
        ])
        .args(["--variant", variant, "--pgn"])
        .arg(&pgn)
        .arg("--zsg")
        .arg(&zsg_path)
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.code() != Some(0) {
        return Err(format!(
            "{variant}: exit {:?}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("{variant}: {}: {e}", p.display()));
    let texts = (read(&pgn)?, read(&zsg_path)?);
    let _ = std::fs::remove_file(&pgn);
    let _ = std::fs::remove_file(&zsg_path);
    Ok(texts)
}

fn round_trip(variant: &str) -> Result<(), String> {
    let (pgn_text, zsg_text) = play_game(variant)?;
    let reg = Registry::builtin();
    let games = read_pgn(&pgn_text);
    let [game] = &games[..] else {
        return Err(format!("{variant}: {} games in the PGN", games.len()));
    };
    let (pgn_end, pgn_moves) = game.replay(&reg).map_err(|e| format!("{variant}: PGN: {e}"))?;
    let saved = zsg::read(&zsg_text).map_err(|e| format!("{variant}: {e}\n{zsg_text}"))?;
    let replay = zsg::replay(&saved, &reg, None);
    if let Some(e) = replay.error {
        return Err(format!("{variant}: {e}\n{zsg_text}"));
    }
    if replay.moves != pgn_moves || pgn_moves.is_empty() {
        return Err(format!(
            "{variant}: the save game has other moves than the PGN\n{zsg_text}"
        ));
    }
    let zsg_end = replay.positions.last().map(|p| fen::to_fen(p, Coords::Human));
    if zsg_end != Some(fen::to_fen(&pgn_end, Coords::Human)) {
        return Err(format!("{variant}: other end position {zsg_end:?}"));
    }
    // The variant is named as Zillions names it.
    let v = reg.get(variant).ok_or("unknown variant")?;
    if saved.header("VariantName") != Some(zillions::game_name(&v)) {
        return Err(format!("{variant}: VariantName {:?}", saved.header("VariantName")));
    }
    Ok(())
}

#[test]
fn games_the_match_runner_saves_read_back_identically_in_every_game() {
    let variants: [&'static str; 5] = ["normal", "wildcastle", "pillage", "wreckage", "wildrose"];
    let mut failures = Vec::new();
    // Two games at a time on two cores.
    for pair in variants.chunks(2) {
        let handles: Vec<_> = pair
            .iter()
            .map(|&v| std::thread::spawn(move || round_trip(v)))
            .collect();
        for h in handles {
            match h.join() {
                Ok(Ok(())) => {}
                Ok(Err(e)) => failures.push(e),
                Err(_) => failures.push("a round trip panicked".into()),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn several_games_go_to_numbered_files() {
    let p = Path::new("/tmp/games.zsg");
    assert_eq!(zsg::game_path(p, 3, 1), PathBuf::from("/tmp/games.zsg"));
    assert_eq!(zsg::game_path(p, 3, 4), PathBuf::from("/tmp/games-3.zsg"));
}
