//! Perft suites: every `fixtures/perft/*.perft` file (shakmaty's text format: `id`, `epd`, `perft
//! DEPTH NODES`, blank line between entries, `#` comments). The file name without `.perft` names
//! the variant (`chess` is accepted for `normal`, the registry's name of orthodox chess).
//!
//! Entries with at most `DEFAULT_BUDGET` nodes run by default; bigger ones run with
//! `cargo test --release -- --ignored`.
//!
//! Also: the CLI's `perft --divide` output sums to its `nodes` line and agrees with the library.

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use fairybridge::core::{Position, Variant};
use fairybridge::notation::{Coords, fen};
use fairybridge::perft::Perft;
use fairybridge::variants::Registry;

use common::{cli_divide, perft_fixture_files, registry_with_examples};

/// Largest node count run by the default (not ignored) test.
const DEFAULT_BUDGET: u64 = 5_000_000;

struct Entry {
    file: String,
    line: usize,
    id: String,
    epd: String,
    checks: Vec<(u32, u64)>,
}

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join("perft")
}

/// Parses one suite file; malformed lines fail the test with file and line number.
fn parse_suite(path: &Path) -> Vec<Entry> {
    let file = path.file_name().unwrap().to_string_lossy().to_string();
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{file}: cannot read: {e}"));
    let mut entries: Vec<Entry> = Vec::new();
    let mut current: Option<Entry> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let n = i + 1;
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match key {
            "id" => {
                entries.extend(current.take());
                assert!(!rest.is_empty(), "{file}:{n}: empty id");
                assert!(
                    entries.iter().all(|e| e.id != rest),
                    "{file}:{n}: duplicate id {rest:?}"
                );
                current = Some(Entry {
                    file: file.clone(),
                    line: n,
                    id: rest.to_string(),
                    epd: String::new(),
                    checks: Vec::new(),
                });
            }
            "epd" => {
                let e = current
                    .as_mut()
                    .unwrap_or_else(|| panic!("{file}:{n}: `epd` before `id`"));
                assert!(e.epd.is_empty(), "{file}:{n}: second `epd` in entry {:?}", e.id);
                e.epd = rest.to_string();
            }
            "perft" => {
                let e = current
                    .as_mut()
                    .unwrap_or_else(|| panic!("{file}:{n}: `perft` before `id`"));
                let mut parts = rest.split_whitespace();
                let depth: u32 = parts
                    .next()
                    .and_then(|d| d.parse().ok())
                    .unwrap_or_else(|| panic!("{file}:{n}: bad depth in {line:?}"));
                let nodes: u64 = parts
                    .next()
                    .and_then(|d| d.parse().ok())
                    .unwrap_or_else(|| panic!("{file}:{n}: bad node count in {line:?}"));
                assert!(parts.next().is_none(), "{file}:{n}: trailing text in {line:?}");
                e.checks.push((depth, nodes));
            }
            _ => panic!("{file}:{n}: unknown keyword {key:?}"),
        }
    }
    entries.extend(current);
    for e in &entries {
        assert!(
            !e.epd.is_empty(),
            "{}:{}: entry {:?} has no `epd`",
            e.file,
            e.line,
            e.id
        );
        assert!(
            !e.checks.is_empty(),
            "{}:{}: entry {:?} has no `perft` line",
            e.file,
            e.line,
            e.id
        );
    }
    entries
}

fn variant_for(registry: &Registry, file: &str) -> Arc<Variant> {
    let stem = file.trim_end_matches(".perft");
    registry
        .get(stem)
        .or_else(|| (stem == "chess").then(|| registry.get("normal")).flatten())
        .unwrap_or_else(|| panic!("{file}: no variant named {stem:?} (known: {:?})", registry.names()))
}

fn position(variant: &Arc<Variant>, fen_text: &str) -> Result<Position, String> {
    let setup = fen::parse_fen(fen_text, Coords::Human).map_err(|e| e.to_string())?;
    Position::from_setup(variant, &setup).map_err(|e| e.to_string())
}

/// Runs every check selected by `want` (`which` says which ones, for the message if there are
/// none); all of them must pass.
fn run_suites(want: impl Fn(u64) -> bool, which: &str) {
    let registry = registry_with_examples();
    let files = perft_fixture_files();
    assert!(!files.is_empty(), "no .perft files in {}", fixture_dir().display());
    let mut ran = 0;
    let mut failures = Vec::new();
    let mut perft = Perft::new();
    for path in files {
        let entries = parse_suite(&path);
        let Some(first) = entries.first() else {
            failures.push(format!("{}: no entries", path.display()));
            continue;
        };
        let variant = variant_for(&registry, &first.file);
        for e in &entries {
            let mut pos = match position(&variant, &e.epd) {
                Ok(p) => p,
                Err(err) => {
                    failures.push(format!("{} id {}: cannot set up {:?}: {err}", e.file, e.id, e.epd));
                    continue;
                }
            };
            let fen_before = fen::to_fen(&pos, Coords::Human);
            for &(depth, expected) in &e.checks {
                if !want(expected) {
                    continue;
                }
                ran += 1;
                let got = perft.count(&mut pos, depth);
                if got != expected {
                    failures.push(format!(
                        "{} id {} depth {depth}: expected {expected}, got {got}",
                        e.file, e.id
                    ));
                }
                assert_eq!(
                    fen::to_fen(&pos, Coords::Human),
                    fen_before,
                    "{} id {}: perft did not restore the position",
                    e.file,
                    e.id
                );
            }
        }
    }
    assert!(ran > 0, "no perft check {which}");
    assert!(
        failures.is_empty(),
        "{} of {ran} perft checks failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn perft_suites_within_budget() {
    run_suites(|nodes| nodes <= DEFAULT_BUDGET, "within the budget");
}

#[test]
#[ignore = "big perft counts: run with `cargo test --release -- --ignored`"]
fn perft_suites_beyond_budget() {
    run_suites(|nodes| nodes > DEFAULT_BUDGET, "beyond the budget");
}

/// The suites are what the brief promises: both games present, chess start to depth 5 in the
/// default run, every entry with a depth-1 count.
#[test]
fn suites_cover_both_games_and_chess_start_depth_5_runs_by_default() {
    let names: Vec<String> = perft_fixture_files()
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    assert!(names.contains(&"chess.perft".to_string()), "{names:?}");
    assert!(names.contains(&"wildcastle.perft".to_string()), "{names:?}");
    let chess = parse_suite(&fixture_dir().join("chess.perft"));
    let start = chess
        .iter()
        .find(|e| {
            e.epd
                .starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -")
        })
        .expect("chess start position in chess.perft");
    assert!(start.checks.contains(&(5, 4_865_609)) && 4_865_609 <= DEFAULT_BUDGET);
    for path in perft_fixture_files() {
        for e in parse_suite(&path) {
            assert!(
                e.checks.iter().any(|&(d, _)| d == 1),
                "{} id {}: no depth-1 count",
                e.file,
                e.id
            );
        }
    }
}

// ----- CLI `perft --divide` -----

fn cli_perft_divide(variant: &str, fen_text: &str, depth: u32) -> (Vec<(String, u64)>, u64) {
    let depth = depth.to_string();
    cli_divide(&[
        "perft",
        "--variant",
        variant,
        "--fen",
        fen_text,
        "--depth",
        &depth,
        "--divide",
    ])
}

#[test]
fn cli_divide_sums_to_nodes_and_matches_library() {
    let registry = Registry::builtin();
    let cases = [
        // Kiwipete: castling both ways, promotions and e.p. in the tree.
        (
            "normal",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            3,
            97_862,
        ),
        // Wild Castle, d-file kings (wildcastle.md T4): both d-file castlings at the root.
        (
            "wildcastle",
            "r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R w KQkq - 0 1",
            2,
            625,
        ),
        ("normal", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43_238),
    ];
    for (name, fen_text, depth, expected) in cases {
        let (rows, nodes) = cli_perft_divide(name, fen_text, depth);
        let sum: u64 = rows.iter().map(|r| r.1).sum();
        assert_eq!(
            sum, nodes,
            "{name} {fen_text}: divide rows sum to {sum}, `nodes` says {nodes}"
        );
        assert_eq!(nodes, expected, "{name} {fen_text} depth {depth}");
        let variant = registry.get(name).unwrap();
        let mut pos = position(&variant, fen_text).unwrap();
        let mut lib = Perft::new().divide(&mut pos, depth);
        let mut cli = rows.clone();
        lib.sort();
        cli.sort();
        assert_eq!(cli, lib, "{name} {fen_text}: CLI divide differs from the library's");
        assert_eq!(cli.len(), pos.legal_moves().len(), "one divide row per legal root move");
        assert_eq!(Perft::new().count(&mut pos, depth), nodes);
    }
}

#[test]
fn cli_divide_rows_are_moves_the_library_accepts() {
    // Every move text of the divide output parses back to a legal move, and making it and counting
    // one ply less gives that row's count.
    let registry = Registry::builtin();
    let variant = registry.get("wildcastle").unwrap();
    let fen_text = "r2kr3/pppp1ppp/8/8/8/8/PPPP1PPP/R2K3R w KQq - 0 1";
    let (rows, _) = cli_perft_divide("wildcastle", fen_text, 2);
    let mut pos = position(&variant, fen_text).unwrap();
    for (text, count) in rows {
        let mv = fairybridge::notation::movetext::parse_move(&pos, &text, Coords::Human)
            .unwrap_or_else(|e| panic!("divide row {text:?} does not parse: {e:?}"));
        pos.make(mv);
        assert_eq!(Perft::new().count(&mut pos, 1), count, "row {text}");
        pos.unmake();
    }
}
