//! fairybridge against Fairy-Max (`/usr/games/fairymax`, installed on demand by scripts/install-deps.sh) in
//! orthodox chess: a short match that must finish every game with a result the rules core agrees
//! with, written to a PGN that both our reader and python-chess replay to the same positions.
//! Fairy-Max has no `setboard`, so this also drives the `edit` protocol.

mod common;

use fairybridge::notation::{Coords, fen};
use fairybridge::tournament::pgn::read_pgn;

use common::{fresh_temp_file, python_chess_pgn, require_fairymax, run_match};

#[test]
fn fairybridge_vs_fairymax_in_normal_chess() {
    let fairymax = require_fairymax();
    let pgn = fresh_temp_file("match-fairymax", "pgn");
    // Two openings (one with Black to move, which `edit` reaches with XBoard's first-move trick),
    // each played with both colours.
    let openings = fresh_temp_file("match-fairymax", "epd");
    std::fs::write(
        &openings,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
         rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\n",
    )
    .unwrap();
    let out = run_match(
        [
            "--engine",
            &format!("cmd={}", env!("CARGO_BIN_EXE_fairybridge")),
            "--engine",
            &format!("cmd={fairymax}"),
            "--each",
            "tc=2+0.05",
            "timemargin=300",
            "--games",
            "4",
            "--seed",
            "11",
            "--maxmoves",
            "120",
            "--openings",
            &openings.display().to_string(),
        ],
        &pgn,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // The name it announces (`feature myname`): version and commit of this build.
    let score = format!("Score of fairybridge {} vs Fairy-Max", env!("FAIRYBRIDGE_VERSION"));
    assert!(stdout.contains(&score), "{stdout}");
    assert_eq!(stderr.matches("Game ").count(), 4, "{stderr}");

    let text = std::fs::read_to_string(&pgn).expect("PGN written");
    let games = read_pgn(&text);
    assert_eq!(games.len(), 4, "{text}");
    let reg = fairybridge::protocol::builtin_games();
    let mut ours = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let result = g.tag("Result").unwrap();
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&result), "game {}: {result}", i + 1);
        let term = g.tag("Termination").unwrap();
        // Fairy-Max sometimes lets its clock run out at fast controls on a loaded machine; that is
        // its loss, recorded as such. fairybridge must never forfeit.
        let fairymax_colour = if g.tag("White").unwrap().starts_with("Fairy-Max") {
            "White"
        } else {
            "Black"
        };
        let fairymax_flagged = term == "time forfeit"
            && g.comments
                .last()
                .is_some_and(|c| c.starts_with(&format!("{fairymax_colour} loses on time")));
        assert!(
            term == "normal" || term == "adjudication" || fairymax_flagged,
            "game {}: {term}: {:?}",
            i + 1,
            g.comments.last()
        );
        assert_eq!(g.tag("Variant"), Some("normal"));
        assert_eq!(g.tag("SetUp"), Some("1"));
        let (end, moves) = g.replay(&reg).unwrap_or_else(|e| panic!("game {}: {e}", i + 1));
        assert_eq!(g.tag("PlyCount"), Some(moves.len().to_string().as_str()));
        if term == "normal" {
            // Over by rule: the core must see it over with the same result. Or a resignation: the
            // core must see the game still going, and the side that resigned lose.
            let last = g.comments.last().map(String::as_str).unwrap_or_default();
            match end.outcome() {
                Some(o) => assert_eq!(o.result().as_str(), result, "game {}: {last}", i + 1),
                None => {
                    let resigned = if result == "1-0" {
                        "Black resigns"
                    } else {
                        "White resigns"
                    };
                    assert!(last.starts_with(resigned), "game {}: {result} {last:?}", i + 1);
                }
            }
        }
        ours.push(fen::to_fen(&end, Coords::Human));
    }
    // The openings: games 1-2 from the first line, 3-4 from the second.
    assert!(games[0].tag("FEN").unwrap().starts_with("rnbqkbnr/pppppppp/8/8/4P3/"));
    assert_eq!(games[0].tag("FEN"), games[1].tag("FEN"));
    assert_eq!(games[2].tag("FEN"), games[3].tag("FEN"));
    assert_ne!(games[0].tag("White"), games[1].tag("White"));

    // python-chess reads the same games to the same positions.
    let py = python_chess_pgn(&pgn, "g.end().board().fen()");
    let py_out = String::from_utf8_lossy(&py.stdout);
    assert!(
        py.status.success(),
        "python-chess: {}",
        String::from_utf8_lossy(&py.stderr)
    );
    let theirs: Vec<&str> = py_out.lines().collect();
    assert_eq!(theirs.len(), 4, "{py_out}");
    for (a, b) in ours.iter().zip(&theirs) {
        // Placement, side to move and castling rights must agree (e.p. fields are written by
        // different conventions).
        let key = |f: &str| f.split(' ').take(3).collect::<Vec<_>>().join(" ");
        assert_eq!(key(a), key(b), "ours {a}, python-chess {b}");
    }
    let _ = std::fs::remove_file(&pgn);
    let _ = std::fs::remove_file(&openings);
}
