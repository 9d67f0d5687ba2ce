//! `fairybridge bench`: a fixed-depth benchmark over `fixtures/bench.epd` (one `variant;FEN` per line, `#` comments):
//! each position is searched with a fresh searcher, single-threaded, so the node count depends only
//! on the search code — the same on every run and machine.

use std::time::{Duration, Instant};

use crate::core::Position;
use crate::notation::{Coords, fen};
use crate::variants::Registry;

use crate::search::{Limits, SearchControl, Searcher};

/// The bench positions, built into the binary.
const BENCH_EPD: &str = include_str!("../fixtures/bench.epd");
/// The depth of `fairybridge bench` without `--depth`: the node count the search is known by.
pub const DEFAULT_DEPTH: u32 = 10;
/// Hash size for the bench (fixed: it influences the node count).
const BENCH_HASH_MB: usize = 16;

/// Totals of a bench run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    pub positions: usize,
    pub nodes: u64,
    pub elapsed: Duration,
}

impl BenchResult {
    pub fn nodes_per_second(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

/// The bench positions. Lines whose variant is unknown or whose FEN is invalid are skipped (the
/// unit tests check that there are none).
pub fn bench_positions() -> Vec<Position> {
    let registry = Registry::builtin();
    BENCH_EPD
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|line| {
            let (name, fen_text) = line.split_once(';')?;
            let variant = registry.get(name.trim())?;
            let setup = fen::parse_fen(fen_text.trim(), Coords::Human).ok()?;
            Position::from_setup(&variant, &setup).ok()
        })
        .collect()
}

/// Searches every bench position to `depth` plies.
pub fn bench(depth: u32) -> BenchResult {
    let start = Instant::now();
    let mut nodes = 0;
    let positions = bench_positions();
    for pos in &positions {
        let mut pos = pos.clone();
        let mut searcher = Searcher::new(BENCH_HASH_MB);
        let control = SearchControl::new();
        let result = searcher.search(&mut pos, &Limits::depth(depth), &control, &mut |_| {});
        nodes += result.nodes;
    }
    BenchResult {
        positions: positions.len(),
        nodes,
        elapsed: start.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bench_line_is_a_valid_position() {
        let lines = BENCH_EPD
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.trim().starts_with('#'))
            .count();
        let positions = bench_positions();
        assert_eq!(positions.len(), lines);
        assert!(positions.len() >= 8);
        assert!(positions.iter().any(|p| p.variant().name == "wildcastle"));
    }

    #[test]
    fn bench_is_deterministic() {
        let a = bench(4);
        let b = bench(4);
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 1000);
    }
}
