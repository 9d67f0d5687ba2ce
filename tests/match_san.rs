//! The PGN notation against an outside reader: random orthodox games (promotions, castling,
//! en passant, disambiguation come up by chance over many plies) written by the match runner's PGN
//! writer must read back in python-chess to the same moves. python-chess must be importable
//! (scripts/install-deps.sh installs it).

mod common;

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use fairybridge::core::Position;
use fairybridge::notation::movetext;
use fairybridge::tournament::game::{Ending, GameRecord, MoveRecord, Start, Turn};
use fairybridge::tournament::pgn::write_game;
use fairybridge::tournament::timecontrol::TimeControl;

use common::{XorShift, python_chess_pgn};

#[test]
fn python_chess_reads_our_san() {
    let v = fairybridge::protocol::builtin_games().get("normal").unwrap();
    let mut rng = XorShift::from_state(0x1234_5678_9abc_def1);
    let mut pgn = String::new();
    let mut expected = Vec::new();
    for game in 0..40 {
        let mut pos = Position::start(&v);
        let mut rec = GameRecord {
            white: "a".into(),
            black: "b".into(),
            start: Arc::new(Start::new(pos.clone())),
            turns: Vec::new(),
            ending: Ending::Aborted("random game".into()),
            time_controls: [TimeControl::parse_tc("1+0").unwrap(); 2],
            started: SystemTime::now(),
            duration: Duration::ZERO,
        };
        let mut ucis = Vec::new();
        for _ in 0..300 {
            if pos.outcome().is_some() {
                break;
            }
            let legal = pos.legal_moves();
            let pick = legal.0[rng.below(legal.len())];
            ucis.push(movetext::canonical(&pos, &pick));
            rec.turns.push(Turn {
                moves: vec![MoveRecord {
                    mv: pick,
                    comment: "0.01s".into(),
                }],
            });
            pos.make(pick);
        }
        pgn.push_str(&write_game(&rec, "san", game + 1, None));
        expected.push(ucis.join(" "));
    }
    let path =
        std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("match-san-{}.pgn", std::process::id()));
    std::fs::write(&path, &pgn).unwrap();
    let out = python_chess_pgn(&path, r#"" ".join(m.uci() for m in g.mainline_moves())"#);
    assert!(
        out.status.success(),
        "python-chess must be importable: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let got: Vec<&str> = text.lines().collect();
    assert_eq!(got.len(), expected.len(), "{text}");
    for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
        assert_eq!(g, e, "game {}", i + 1);
    }
    let _ = std::fs::remove_file(&path);
}
