//! `cargo bench --bench search`: the `fairybridge bench` command's search, the bench positions
//! each searched to a fixed depth by a fresh single-threaded searcher: the node count (the
//! search's signature, the same on every machine) and nodes per second. A depth other than the
//! command's default: `cargo bench --bench search -- 8`. To compare two builds, see
//! docs/benchmarks.md.

use fairybridge::bench::{DEFAULT_DEPTH, bench};

fn main() {
    // `cargo bench` adds its own `--bench` flag: the depth is the first argument that is a number.
    let depth = std::env::args()
        .skip(1)
        .find_map(|a| a.parse::<u32>().ok())
        .unwrap_or(DEFAULT_DEPTH)
        .clamp(1, 64);
    let result = bench(depth);
    println!(
        "search {} positions depth {depth}: {} nodes {:.3} s {} nps",
        result.positions,
        result.nodes,
        result.elapsed.as_secs_f64(),
        result.nodes_per_second()
    );
}
