//! Threads: a shared-table parallel search (Lazy SMP). The main thread searches as it would alone
//! (its iterations, time decisions and reports are the search's); helper threads search the same
//! position at the same time, each with its own histories and stacks but the main searcher's hash
//! table, so that what they find fills the table the main search reads. Half the helpers start an
//! iteration deeper, so that they are often ahead of the main search. When the main search stops,
//! the helpers are stopped; the move played is the main search's.
//!
//! Searches limited by nodes (`go nodes`, `nps`) run alone, so that their node counts stay exact
//! and reproducible; so does every search at one thread, the default, which is the search exactly
//! (the `bench` node count is one thread's).

use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use crate::core::Position;

use super::alphabeta::{SearchInfo, SearchResult, Searcher, Team};
use super::control::SearchControl;
use super::time::Limits;

/// Most threads a search takes.
pub const MAX_THREADS: usize = 256;
/// Stack of a helper thread: as deep as the search thread's (`engine::thinker`).
const HELPER_STACK_BYTES: usize = 64 << 20;

impl Searcher {
    /// Sets the threads a search uses, clamped to `1..=MAX_THREADS`; returns the number taken.
    pub fn set_threads(&mut self, threads: usize) -> usize {
        self.threads = threads.clamp(1, MAX_THREADS);
        self.helpers.truncate(self.threads - 1);
        self.threads
    }

    /// The threads a search uses.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Searches `pos` within `limits` until done or stopped through `control`; `report` receives
    /// progress (nodes counted over all threads). The position is unchanged afterwards.
    pub fn search(
        &mut self,
        pos: &mut Position,
        limits: &Limits,
        control: &SearchControl,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        if self.threads <= 1 || limits.nodes.is_some() || limits.nps.is_some() {
            return self.think(pos, limits, control, report, Team::ALONE);
        }
        // First the tables (a new game may clear the table, which lets the helpers go).
        let et = self.tables_for(pos);
        while self.helpers.len() < self.threads - 1 {
            self.helpers.push(Searcher::with_table(Arc::clone(&self.tt)));
        }
        let mut helpers = std::mem::take(&mut self.helpers);
        for h in &mut helpers {
            h.adopt_tables(&et, pos);
        }
        self.tt.new_search();
        let counts: Vec<AtomicU64> = helpers.iter().map(|_| AtomicU64::new(0)).collect();
        let halt = SearchControl::new();
        let helper_limits = Limits {
            root_moves: limits.root_moves.clone(),
            ..Limits::default()
        };
        let result = std::thread::scope(|scope| {
            let mut running = Vec::with_capacity(helpers.len());
            for (i, (helper, count)) in helpers.iter_mut().zip(&counts).enumerate() {
                let mut p = pos.clone();
                let (halt, helper_limits) = (&halt, &helper_limits);
                let team = Team {
                    publish: Some(count),
                    helper_nodes: &[],
                    first_depth: 1 + (i as u32 + 1) % 2,
                    ages_table: false,
                };
                let spawned = std::thread::Builder::new()
                    .name(format!("helper-{}", i + 1))
                    .stack_size(HELPER_STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        helper.think(&mut p, helper_limits, halt, &mut |_| {}, team).nodes
                    });
                match spawned {
                    Ok(handle) => running.push(handle),
                    Err(e) => log::warn!("cannot start search helper {}: {e}", i + 1),
                }
            }
            let team = Team {
                publish: None,
                helper_nodes: &counts,
                first_depth: 1,
                ages_table: false,
            };
            // Stops the helpers however the main search ends: were it to panic, the scope would
            // otherwise wait for helpers that search on forever, and the engine would hang
            // instead of reporting the panic.
            let halt_helpers = HaltOnDrop(&halt);
            let mut result = self.think(pos, limits, control, report, team);
            drop(halt_helpers);
            for handle in running {
                match handle.join() {
                    Ok(nodes) => result.nodes += nodes,
                    Err(_) => log::error!("a search helper panicked"),
                }
            }
            result
        });
        self.helpers = helpers;
        result
    }
}

/// Stops a search when dropped, also while unwinding.
struct HaltOnDrop<'a>(&'a SearchControl);

impl Drop for HaltOnDrop<'_> {
    fn drop(&mut self) {
        self.0.stop();
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::search::TimeBudget;
    use crate::test_fixtures;

    fn pos(fen: &str) -> Position {
        let v = crate::variants::Registry::builtin()
            .get("normal")
            .expect("a built-in game");
        test_fixtures::position_of(&v, fen)
    }

    #[test]
    fn thread_counts_are_clamped() {
        let mut s = Searcher::new(1);
        assert_eq!(s.threads(), 1);
        assert_eq!(s.set_threads(0), 1);
        assert_eq!(s.set_threads(3), 3);
        assert_eq!(s.set_threads(usize::MAX), MAX_THREADS);
    }

    #[test]
    fn helpers_share_the_table_and_their_nodes_count() {
        let mut p = pos("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let (hash, plies) = (p.hash(), p.history().len());
        let mut team = Searcher::new(8);
        team.set_threads(3);
        let mut reported = 0;
        let r = team.search(&mut p, &Limits::depth(7), &SearchControl::new(), &mut |i| {
            reported = reported.max(i.nodes)
        });
        assert_eq!(
            (p.hash(), p.history().len()),
            (hash, plies),
            "the position is unchanged"
        );
        assert!(p.legal_moves().0.contains(&r.best.expect("a move")));
        assert_eq!(r.depth, 7);
        assert_eq!(team.helpers.len(), 2, "the helpers are kept for the next search");
        assert!(team.helpers.iter().all(|h| Arc::ptr_eq(&h.tt, &team.tt)));
        let helpers: u64 = team.helpers.iter().map(Searcher::nodes).sum();
        assert_eq!(r.nodes, team.nodes() + helpers);
        assert!(
            reported >= team.nodes() && reported <= r.nodes,
            "{reported} of {}",
            r.nodes
        );
        // A new game lets the helpers go; the next search makes them again.
        team.new_game();
        assert!(team.helpers.is_empty());
        let again = team.search(&mut p, &Limits::depth(5), &SearchControl::new(), &mut |_| {});
        assert!(again.best.is_some());
        assert_eq!(team.helpers.len(), 2);
        // Fewer threads: fewer helpers.
        team.set_threads(2);
        assert_eq!(team.helpers.len(), 1);
    }

    #[test]
    fn a_stop_or_the_clock_ends_the_helpers_too() {
        let mut p = pos("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let mut team = Searcher::new(8);
        team.set_threads(2);
        // Stopped before it starts: the search returns at once with a legal move, and so must
        // its helper (else `search` would never return).
        let control = SearchControl::new();
        control.stop();
        let r = team.search(&mut p, &Limits::infinite(), &control, &mut |_| {});
        assert!(p.legal_moves().0.contains(&r.best.expect("a move")));
        // A budget of a few ms: the search and its helper end.
        let limits = Limits {
            time: Some(TimeBudget {
                soft: Duration::from_millis(5),
                hard: Duration::from_millis(10),
                most: Duration::from_millis(10),
            }),
            ..Limits::default()
        };
        let r = team.search(&mut p, &limits, &SearchControl::new(), &mut |_| {});
        assert!(r.best.is_some());
    }

    #[test]
    fn a_main_search_that_panics_still_stops_its_helpers() {
        let halt = SearchControl::new();
        let helper_saw_the_stop = std::thread::scope(|scope| {
            let helper = scope.spawn(|| {
                while !halt.is_stopped() {
                    std::thread::yield_now();
                }
                true
            });
            let main = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let _halt_helpers = HaltOnDrop(&halt);
                panic!("a search that fails");
            }));
            assert!(main.is_err());
            helper.join().unwrap_or(false)
        });
        assert!(helper_saw_the_stop);
    }

    #[test]
    fn node_limited_searches_run_alone_and_stay_reproducible() {
        let mut p = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        let mut a = Searcher::new(4);
        let one = a.search(&mut p, &limits, &SearchControl::new(), &mut |_| {});
        let mut b = Searcher::new(4);
        b.set_threads(4);
        let four = b.search(&mut p, &limits, &SearchControl::new(), &mut |_| {});
        assert_eq!((one.nodes, one.best), (four.nodes, four.best));
        assert!(b.helpers.is_empty(), "no helper was made");
    }
}
