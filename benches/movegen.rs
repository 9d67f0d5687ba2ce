//! `cargo bench --bench movegen`: legal move generation alone (no make, no unmake) over the
//! `bench` command's positions and the start position of every built-in game, each generated
//! `ROUNDS` times: the moves generated, the time, and generations per second. To compare two
//! builds, see docs/benchmarks.md.

use std::time::{Duration, Instant};

use fairybridge::core::{MoveList, Position};
use fairybridge::variants::Registry;

/// Generations of each position: enough for a part of a second per position.
const ROUNDS: u32 = 20_000;

fn main() {
    let registry = Registry::builtin();
    let mut positions = fairybridge::bench::bench_positions();
    positions.extend(
        registry
            .names()
            .iter()
            .filter_map(|name| registry.get(name))
            .map(|v| Position::start(&v)),
    );
    let mut list = MoveList::new();
    let (mut generations, mut moves, mut time) = (0u64, 0u64, Duration::ZERO);
    for pos in &positions {
        let pos = pos.clone();
        let start = Instant::now();
        for _ in 0..ROUNDS {
            pos.generate_legal(std::hint::black_box(&mut list));
            moves += list.len() as u64;
        }
        time += start.elapsed();
        generations += u64::from(ROUNDS);
    }
    let secs = time.as_secs_f64().max(1e-9);
    println!(
        "movegen {} positions x {ROUNDS}: {moves} moves {:.3} s {} generations/s {} moves/s",
        positions.len(),
        secs,
        (generations as f64 / secs) as u64,
        (moves as f64 / secs) as u64
    );
}
