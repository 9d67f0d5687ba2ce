//! Opening suites: the committed ones in `fixtures/openings/` (one per built-in game, read as
//! `match --openings` reads them, distinct, within the balance bound their header names; chess's
//! part that Fairy-Stockfish finds balanced, for matches against it), and
//! `fairybridge openings` from the command line (a user-defined game, a seed's reproducibility,
//! bad arguments, a match played from its output).

mod common;

use std::collections::HashSet;
use std::path::PathBuf;

use common::{fresh_temp_file, run, run_match, stderr, stdout};
use fairybridge::tournament::{openings, pgn::read_pgn};
use fairybridge::variants::Registry;

const GAMES: [&str; 6] = ["normal", "crazyhouse", "wildcastle", "pillage", "wreckage", "wildrose"];

fn suite_path(game: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("fixtures/openings/{game}.epd"))
}

/// The value after `key` in a text of words (`--max-score 50`).
fn value_after(text: &str, key: &str) -> Option<i64> {
    let mut words = text.split_whitespace();
    words.find(|w| *w == key)?;
    words.next()?.parse().ok()
}

/// The lines of a suite's text (`game`'s, for messages), each asserted to have a `ce` within
/// `bound`: how many there are.
fn scored_within(game: &str, text: &str, bound: i64) -> usize {
    let mut scores = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let ce = value_after(&line.replace(';', " "), "ce").unwrap_or_else(|| panic!("{game}: {line}"));
        assert!(ce.abs() <= bound, "{game}: {line}");
        scores += 1;
    }
    scores
}

#[test]
fn every_builtin_game_has_a_balanced_suite_of_distinct_positions() {
    let reg = Registry::builtin();
    for game in GAMES {
        let path = suite_path(game);
        let variant = reg.get(game).unwrap();
        let fens = openings::load(&path, &variant, Some(openings::Format::Epd), None)
            .unwrap_or_else(|e| panic!("{game}: {e}"));
        assert!(fens.len() >= 300, "{game}: only {} positions", fens.len());
        let distinct: HashSet<&str> = fens.iter().map(|s| s.fen()).collect();
        assert_eq!(distinct.len(), fens.len(), "{game}: duplicate positions");
        // Each start's FEN reads back as itself: the FENs the match's resume fingerprint hashes
        // are the ones a match set up from these texts would hash.
        for start in &fens {
            let again = fairybridge::tournament::game::Start::parse(&variant, start.fen())
                .unwrap_or_else(|e| panic!("{game}: {e}"));
            assert_eq!(again.fen(), start.fen(), "{game}");
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let command = text
            .lines()
            .find(|l| l.contains("fairybridge openings"))
            .unwrap_or_else(|| panic!("{game}: the header names no command"));
        assert!(command.contains(&format!("--variant {game} ")), "{game}: {command}");
        let bound = value_after(command, "--max-score").unwrap_or_else(|| panic!("{game}: unbalanced"));
        assert_eq!(scored_within(game, &text, bound), fens.len(), "{game}");
    }
}

#[test]
fn the_chess_suite_balanced_by_fairy_stockfish_is_part_of_the_chess_suite_within_its_bound() {
    let reg = Registry::builtin();
    let variant = reg.get("normal").unwrap();
    let load = |game: &str| {
        openings::load(&suite_path(game), &variant, Some(openings::Format::Epd), None)
            .unwrap_or_else(|e| panic!("{game}: {e}"))
    };
    let (all, balanced) = (load("normal"), load("normal-fsf"));
    let all: HashSet<&str> = all.iter().map(|s| s.fen()).collect();
    assert!(balanced.len() >= 300, "only {} positions", balanced.len());
    for start in &balanced {
        assert!(all.contains(start.fen()), "not in normal.epd: {}", start.fen());
    }
    let text = std::fs::read_to_string(suite_path("normal-fsf")).unwrap();
    let command = text
        .lines()
        .find(|l| l.contains("label-positions.py suite"))
        .expect("its command");
    let bound = value_after(command, "--max-score").expect("its bound");
    assert_eq!(scored_within("normal-fsf", &text, bound), balanced.len());
}

fn knightmate() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/variants/examples/knightmate.toml")
        .display()
        .to_string()
}

#[test]
fn a_user_defined_game_gets_a_reproducible_suite_a_match_plays_from() {
    let km = knightmate();
    let args = [
        "--variants",
        &km,
        "openings",
        "--variant",
        "knightmate",
        "--count",
        "4",
        "--plies",
        "6",
        "--depth",
        "3",
        "--max-score",
        "80",
        "--seed",
        "11",
    ];
    let first = run(&args);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let again = run(&args);
    assert_eq!(stdout(&first), stdout(&again), "the same seed, another suite");
    let mut other_args = args;
    other_args[args.len() - 1] = "12";
    assert_ne!(stdout(&first), stdout(&run(&other_args)));

    let suite = fresh_temp_file("knightmate-suite", "epd");
    let mut to_file: Vec<&str> = args.to_vec();
    let suite_text = suite.display().to_string();
    to_file.extend(["--out", &suite_text]);
    let written = run(&to_file);
    assert_eq!(written.status.code(), Some(0), "{}", stderr(&written));
    assert_eq!(stdout(&written), "", "--out writes nothing on stdout");
    let text = std::fs::read_to_string(&suite).unwrap();
    assert_eq!(text, stdout(&first));
    let mut reg = Registry::builtin();
    assert!(reg.load_paths(&[PathBuf::from(&km)], |_| Ok(())).errors.is_empty());
    let fens = openings::parse(&text, &reg.get("knightmate").unwrap()).unwrap();
    assert_eq!(fens.len(), 4);

    // Two pairs from the suite's first two positions, colours swapped within each pair.
    let pgn = fresh_temp_file("knightmate-suite", "pgn");
    let fb = format!("cmd={}", env!("CARGO_BIN_EXE_fairybridge"));
    let with_km = format!("arg={km}");
    let out = run_match(
        [
            "--variants",
            &km,
            "--engine",
            &fb,
            "--engine",
            &fb,
            "--each",
            "arg=--variants",
            &with_km,
            "depth=1",
            "tc=10",
            "--variant",
            "knightmate",
            "--games",
            "4",
            "--openings",
            &suite_text,
            "--maxmoves",
            "20",
        ],
        &pgn,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let games = read_pgn(&std::fs::read_to_string(&pgn).unwrap());
    assert_eq!(games.len(), 4);
    let starts: Vec<&str> = games.iter().map(|g| g.tag("FEN").unwrap_or("")).collect();
    assert_eq!(starts[0], starts[1]);
    assert_eq!(starts[2], starts[3]);
    assert_ne!(starts[0], starts[2]);
    for s in &starts {
        assert!(fens.iter().any(|f| f.fen() == *s), "{s} is not in the suite");
    }
}

#[test]
fn bad_arguments_exit_2_with_one_line() {
    for (args, wanted) in [
        (vec!["openings", "--variant", "nosuch"], "unknown variant"),
        (vec!["openings", "--count", "0"], "--count"),
        (vec!["openings", "--depth", "99"], "--depth"),
        (vec!["openings", "--max-score", "-5"], "--max-score"),
        (vec!["openings", "--plies", "many"], "--plies"),
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(stdout(&out), "", "{args:?}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(wanted), "{args:?}: {err}");
    }
}
