//! `cargo bench --bench perft`: perft of the start positions of the built-in games and of a few
//! middlegames, at fixed depths: per position its nodes, time and nodes per second, then the
//! totals. The node counts never change (the perft suites of `tests/perft.rs` check them); the
//! times measure the move generator, make and unmake. To compare two builds, see
//! docs/benchmarks.md.

use std::time::{Duration, Instant};

use fairybridge::core::Position;
use fairybridge::notation::{Coords, fen};
use fairybridge::perft::Perft;
use fairybridge::variants::Registry;

/// (variant, FEN or `None` for the game's start, depth): a few million nodes each, so that each
/// takes a good part of a second on a desktop machine.
const CASES: &[(&str, Option<&str>, u32)] = &[
    ("normal", None, 5),
    (
        "normal",
        Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        4,
    ),
    ("wildcastle", None, 5),
    ("pillage", None, 4),
    ("wildrose", None, 4),
    ("wreckage", None, 4),
    ("crazyhouse", None, 5),
];

fn position(registry: &Registry, variant: &str, fen_text: Option<&str>) -> Position {
    let v = registry
        .get(variant)
        .unwrap_or_else(|| panic!("{variant} is a built-in game"));
    match fen_text {
        None => Position::start(&v),
        Some(text) => {
            let setup = fen::parse_fen(text, Coords::Human).unwrap_or_else(|e| panic!("{text}: {e}"));
            Position::from_setup(&v, &setup).unwrap_or_else(|e| panic!("{text}: {e}"))
        }
    }
}

fn per_second(nodes: u64, time: Duration) -> u64 {
    (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64
}

fn main() {
    let registry = Registry::builtin();
    let mut perft = Perft::new();
    let (mut nodes, mut time) = (0, Duration::ZERO);
    println!(
        "{:<12} {:<8} {:>5} {:>12} {:>9} {:>12}",
        "variant", "position", "depth", "nodes", "s", "nodes/s"
    );
    for &(variant, fen_text, depth) in CASES {
        let mut pos = position(&registry, variant, fen_text);
        let start = Instant::now();
        let n = std::hint::black_box(perft.count(&mut pos, depth));
        let took = start.elapsed();
        nodes += n;
        time += took;
        let which = if fen_text.is_some() { "fen" } else { "start" };
        println!(
            "{variant:<12} {which:<8} {depth:>5} {n:>12} {:>9.3} {:>12}",
            took.as_secs_f64(),
            per_second(n, took)
        );
    }
    println!(
        "perft {nodes} nodes {:.3} s {} nodes/s",
        time.as_secs_f64(),
        per_second(nodes, time)
    );
}
