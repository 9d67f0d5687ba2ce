//! The match runner referees crazyhouse: fairybridge against Fairy-Stockfish over CECP
//! (`/usr/games/fairy-stockfish`, installed on demand by scripts/install-deps.sh), every game
//! judged by our core, written as PGN with drops (`P@e4`) that our reader and python-chess's
//! crazyhouse reader both replay to the same final position (hands and promoted pieces too).

mod common;

use std::path::Path;

use fairybridge::notation::{Coords, fen};
use fairybridge::tournament::pgn::read_pgn;

use common::{fresh_temp_file, python_chess_pgn, require_peer, run_match};

const FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";

/// Board and hands of a FEN, hands sorted: python-chess writes `[]` and its own hand order.
fn placement_and_hands(fen_text: &str) -> (String, String) {
    let board = fen_text.split(' ').next().unwrap_or_default();
    let (placement, hands) = match board.split_once('[') {
        Some((p, h)) => (p, h.trim_end_matches(']').trim_matches('-')),
        None => (board, ""),
    };
    let mut letters: Vec<char> = hands.chars().collect();
    letters.sort_unstable();
    (placement.to_string(), letters.into_iter().collect())
}

#[test]
fn fairybridge_vs_fairy_stockfish_in_crazyhouse() {
    require_peer("fairy-stockfish", || Path::new(FAIRY_STOCKFISH).exists());
    let pgn = fresh_temp_file("match-crazyhouse", "pgn");
    let out = run_match(
        [
            "--variant",
            "crazyhouse",
            "--engine",
            &format!("cmd={}", env!("CARGO_BIN_EXE_fairybridge")),
            "--engine",
            &format!("cmd={FAIRY_STOCKFISH}"),
            "--each",
            "tc=2+0.05",
            "timemargin=300",
            "--games",
            "2",
            "--maxmoves",
            "150",
        ],
        &pgn,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert_eq!(stderr.matches("Game ").count(), 2, "{stderr}");

    let text = std::fs::read_to_string(&pgn).expect("PGN written");
    let games = read_pgn(&text);
    assert_eq!(games.len(), 2, "{text}");
    let reg = fairybridge::protocol::builtin_games();
    let mut ours = Vec::new();
    let mut drops = 0;
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g.tag("Variant"), Some("crazyhouse"));
        let result = g.tag("Result").expect("Result tag");
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&result), "game {}: {result}", i + 1);
        let term = g.tag("Termination").expect("Termination tag");
        assert!(
            term == "normal" || term == "adjudication",
            "game {}: {term}: {:?}",
            i + 1,
            g.comments.last()
        );
        let (end, moves) = g.replay(&reg).unwrap_or_else(|e| panic!("game {}: {e}", i + 1));
        assert_eq!(g.tag("PlyCount"), Some(moves.len().to_string().as_str()));
        drops += moves.iter().filter(|m| m.dropped().is_some()).count();
        if term == "normal" {
            // Over by rule: the core sees the same result; else a resignation of the loser.
            let last = g.comments.last().map(String::as_str).unwrap_or_default();
            match end.outcome() {
                Some(o) => assert_eq!(o.result().as_str(), result, "game {}: {last}", i + 1),
                None => assert!(last.contains("resigns"), "game {}: {result} {last:?}", i + 1),
            }
        }
        ours.push(fen::to_fen(&end, Coords::Human));
    }
    assert!(drops > 0, "two crazyhouse games without a single drop:\n{text}");

    // python-chess reads the games as crazyhouse (from the Variant tag) to the same positions.
    let py = python_chess_pgn(&pgn, "g.end().board().fen()");
    assert!(
        py.status.success(),
        "python-chess: {}",
        String::from_utf8_lossy(&py.stderr)
    );
    let py_out = String::from_utf8_lossy(&py.stdout);
    assert!(!py_out.contains("ERRORS"), "{py_out}");
    let theirs: Vec<&str> = py_out.lines().collect();
    assert_eq!(theirs.len(), 2, "{py_out}");
    for (a, b) in ours.iter().zip(&theirs) {
        assert_eq!(
            placement_and_hands(a),
            placement_and_hands(b),
            "ours {a}, python-chess {b}"
        );
        assert_eq!(
            a.split(' ').nth(1),
            b.split(' ').nth(1),
            "side to move: ours {a}, python-chess {b}"
        );
    }
    let _ = std::fs::remove_file(&pgn);
}
