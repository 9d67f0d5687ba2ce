//! scripts/fsf-perft.py, which compares our perft counts with Fairy-Stockfish's: a Fairy-Stockfish
//! that crashes, gives no count or does not know the variant is an error that says so (exit 2),
//! never a count of `None`; and against the real Fairy-Stockfish (installed on demand by
//! scripts/install-deps.sh) the chess start agrees.

mod common;

use std::path::Path;
use std::process::{Command, Output};

const FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// `scripts/fsf-perft.py --fsf FSF normal FSF_VARIANT DEPTH START`, fairybridge the other side;
/// `fake` is the stand-in's FAKE_FSF.
fn fsf_perft(fsf: &str, fake: &str, fsf_variant: &str, depth: &str) -> Output {
    Command::new("python3")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/fsf-perft.py"))
        .args(["--fsf", fsf, "--binary", env!("CARGO_BIN_EXE_fairybridge")])
        .args(["normal", fsf_variant, depth, START])
        .env("FAKE_FSF", fake)
        .output()
        .expect("python3 runs")
}

/// The script run against tests/support/fake-fairy-stockfish.sh failing as `fake`: it must exit 2
/// with one line on stderr that contains `wanted`, and print no count.
fn fails_with_fake(fake: &str, fsf_variant: &str, wanted: &str) {
    let fsf = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/support/fake-fairy-stockfish.sh");
    let out = fsf_perft(fsf, fake, fsf_variant, "1");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{fake}: {stdout}\n{stderr}");
    assert_eq!(stdout, "", "{fake}: no count");
    assert_eq!(stderr.lines().count(), 1, "{fake}: {stderr}");
    assert!(
        stderr.starts_with("fsf-perft: Fairy-Stockfish on ") && stderr.contains(wanted),
        "{fake}: {stderr:?} should say {wanted:?}"
    );
    assert!(!stderr.contains("None"), "{fake}: {stderr}");
}

#[test]
fn a_crash_of_fairy_stockfish_is_an_error() {
    fails_with_fake("crash", "chess", "crashed (SIGSEGV)");
}

#[test]
fn a_missing_count_is_an_error() {
    fails_with_fake("no-count", "chess", "no count (no `Nodes searched:` line)");
}

#[test]
fn a_variant_fairy_stockfish_does_not_list_is_an_error() {
    // Fairy-Stockfish would play chess instead, without a word.
    fails_with_fake("no-count", "crazyhouse", "does not know the variant 'crazyhouse'");
}

#[test]
fn a_missing_fairy_stockfish_is_an_error_naming_install_deps() {
    let out = fsf_perft("/nonexistent/fairy-stockfish", "", "chess", "1");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("/nonexistent/fairy-stockfish not found")
            && stderr.contains("scripts/install-deps.sh fairy-stockfish"),
        "{stderr}"
    );
}

#[test]
fn the_chess_start_agrees_with_fairy_stockfish() {
    common::require_peer("fairy-stockfish", || Path::new(FAIRY_STOCKFISH).exists());
    let out = fsf_perft(FAIRY_STOCKFISH, "", "chess", "2");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout,
        format!("{START} depth 1: 20 (both)\n{START} depth 2: 400 (both)\n")
    );
}
