//! Zillions notation round trip: in every position of every perft fixture (fixtures/perft/*.perft),
//! every legal move prints as Zillions text that reads back as the same move; and the forms of real
//! Zillions save games (shared/design/zillions.md A4/A7) read as the moves they describe.

mod common;

use fairybridge::core::{Move, MoveKind, Position};
use fairybridge::notation::zillions::{move_text, parse_move};
use fairybridge::notation::{Coords, fen};

fn variant_of(file: &str) -> &str {
    match file {
        "chess" => "normal",
        other => other,
    }
}

/// (file, line, variant, epd) of every entry of every perft fixture.
fn fixture_positions() -> Vec<(String, usize, String, String)> {
    let mut out = Vec::new();
    for path in common::perft_fixture_files() {
        let stem = path.file_stem().expect("stem").to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).expect("readable fixture");
        for (i, line) in text.lines().enumerate() {
            if let Some(epd) = line.trim().strip_prefix("epd ") {
                out.push((
                    stem.clone(),
                    i + 1,
                    variant_of(&stem).to_string(),
                    epd.trim().to_string(),
                ));
            }
        }
    }
    out
}

#[test]
fn every_generated_move_prints_and_reads_back_in_every_perft_position() {
    // Built-in games and the example user files (minishogi.perft runs on its example file).
    let reg = common::registry_with_examples();
    let positions = fixture_positions();
    assert!(
        positions.len() >= 20,
        "found only {} fixture positions",
        positions.len()
    );
    let mut checked = 0usize;
    let mut kinds = std::collections::HashSet::new();
    for (file, line, variant, epd) in positions {
        let v = reg
            .get(&variant)
            .unwrap_or_else(|| panic!("{file}: unknown variant {variant}"));
        let setup = fen::parse_fen(&epd, Coords::Human).unwrap_or_else(|e| panic!("{file}:{line}: {e}"));
        let pos = Position::from_setup(&v, &setup).unwrap_or_else(|e| panic!("{file}:{line}: {e}"));
        let moves = pos.legal_moves();
        for mv in moves.iter() {
            let text = move_text(&pos, mv);
            let back = parse_move(&pos, &text).unwrap_or_else(|e| panic!("{file}:{line}: {text:?} does not read: {e}"));
            assert_eq!(back, *mv, "{file}:{line}: {text:?} reads as another move");
            // Any case reads too (Zillions users type names as they like).
            assert_eq!(
                parse_move(&pos, &text.to_lowercase()).ok(),
                Some(*mv),
                "{file}:{line}: {text:?}"
            );
            kinds.insert(format!("{:?}", mv.kind()));
            checked += 1;
        }
    }
    for kind in ["Normal", "MultiStep", "EnPassant", "Castle", "Drop", "Special", "Grow"] {
        assert!(kinds.contains(kind), "no {kind} move in the fixtures");
    }
    assert!(checked > 1000, "only {checked} moves checked");
}

/// A built-in game's start, or the position of a FEN in it.
fn start(variant: &str, fen_text: Option<&str>) -> Position {
    let v = common::builtin(variant);
    fen_text.map_or_else(|| Position::start(&v), |f| common::position(&v, f))
}

fn play(pos: &mut Position, text: &str) -> Move {
    let mv = parse_move(pos, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    pos.make(mv);
    mv
}

#[test]
fn save_game_forms_read_as_their_moves() {
    // Orthodox chess as Zillions writes it, with the clause forms of real save games: a capture
    // `x`, an attribute clause `@ h7 0 0` (moves nothing), a `partial N` prefix (ignored: our rules
    // know whose turn it is), parentheses.
    let mut pos = start("normal", None);
    for line in [
        "Pawn e2 - e4",
        "Pawn f7 - f6",
        "Queen d1 - h5 @ h5 0 0",
        "Pawn g7 - g6",
        "Queen h5 x g6",
        "(Pawn h7 x g6)",
        "partial 2 Knight g1 - f3",
    ] {
        play(&mut pos, line);
    }
    assert_eq!(
        fen::to_fen(&pos, Coords::Human),
        "rnbqkbnr/ppppp3/5pp1/8/4P3/5N2/PPPP1PPP/RNB1KB1R b KQkq - 1 4"
    );
}

#[test]
fn hook_captures_castling_and_growing_roses_use_clauses() {
    // Dragon approach and withdrawal, Guillotine double capture, flexible castling, growing roses.
    let pos = start("wreckage", Some("4k5/10/10/3b6/10/10/3D6/10/10/5K4[-] w - - 0 1"));
    let approach = parse_move(&pos, "Dragon d4 - d6 x d7").expect("approach");
    assert_eq!(approach.kind(), MoveKind::Special);
    let pos = start("wreckage", Some("4k5/10/10/10/10/10/10/4p5/4q5/4GK4[-] w - - 0 1"));
    let double = parse_move(&pos, "Flying-Guillotine e1 x e3 x e2").expect("double capture");
    assert_eq!(pos.captures_of(&double).count(), 2);
    let pos = start("wreckage", Some("4k5/10/10/10/10/10/10/10/10/1R3K2R1[-] w KQ - 0 1"));
    let castle = parse_move(&pos, "King f1 - h1 Rook i1 - g1").expect("castling");
    assert_eq!(castle.kind(), MoveKind::Castle);
    assert_eq!(move_text(&pos, &castle), "King f1 - h1 Rook i1 - g1");
    let mut pos = start("wildrose", Some("1n2w3/2P5/8/8/8/8/8/W2W3w w - - 0 1"));
    let grow = parse_move(&pos, "Pawn c7 - c8 = Wild-Rose on b8").expect("growing roses");
    assert_eq!(grow.kind(), MoveKind::Grow);
    pos.make(grow);
    assert!(pos.in_continuation(), "the same side moves again");
}
