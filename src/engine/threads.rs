//! How many threads a search takes: what a GUI asks for (`cores N`, option `Threads`) is clamped
//! to what the machine runs at once and to the search's own limit, so that no number from outside
//! starts more threads than there are cores to run them.

use std::num::NonZeroUsize;

use crate::search::MAX_THREADS;

/// Threads a search takes until a GUI asks for more: one, the search exactly as `bench` counts it.
pub const DEFAULT_THREADS: usize = 1;

/// The most threads a search is given on this machine: its available parallelism (1 where that
/// cannot be read), at most the search's `MAX_THREADS`.
pub fn max_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, NonZeroUsize::get)
        .clamp(1, MAX_THREADS)
}

/// A requested count (any number a GUI sends; 0 means 1) clamped to `1..=max_threads()`. A
/// request cut down is logged, never answered on stdout: it is no protocol error.
pub fn clamp_threads(requested: u64) -> usize {
    let max = max_threads();
    let taken = clamp_to(requested, max);
    if requested != taken as u64 {
        log::info!("{requested} search threads asked for, {taken} taken (this machine runs {max} at once)");
    }
    taken
}

fn clamp_to(requested: u64, max: usize) -> usize {
    usize::try_from(requested)
        .unwrap_or(usize::MAX)
        .clamp(1, max.clamp(1, MAX_THREADS))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_clamped_to_the_machine_and_the_search() {
        assert_eq!(clamp_to(0, 8), 1);
        assert_eq!(clamp_to(1, 8), 1);
        assert_eq!(clamp_to(5, 8), 5);
        assert_eq!(clamp_to(9, 8), 8);
        assert_eq!(clamp_to(u64::MAX, 8), 8);
        assert_eq!(clamp_to(3, 0), 1);
        assert_eq!(clamp_to(100_000, 100_000), MAX_THREADS);
        let max = max_threads();
        assert!((1..=MAX_THREADS).contains(&max));
        assert_eq!(clamp_threads(u64::MAX), max);
        assert_eq!(clamp_threads(0), 1);
    }
}
