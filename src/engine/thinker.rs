//! The search running beside a front end: one search thread at a time, identified by a number so
//! that the results of a search that was called off can be recognised and dropped.

use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;

use crate::core::Position;
use crate::search::{Limits, SearchControl, SearchInfo, SearchResult, Searcher};

/// What a search thread reports.
#[derive(Debug)]
pub enum ThinkerEvent {
    Info { id: u64, info: SearchInfo },
    Done { id: u64, result: SearchResult },
}

struct Running {
    id: u64,
    control: Arc<SearchControl>,
    handle: JoinHandle<()>,
}

/// Owns the searcher (transposition table, heuristics) and the running search, if any.
pub struct Thinker {
    searcher: Arc<Mutex<Searcher>>,
    next_id: u64,
    running: Option<Running>,
    /// Threads of the next search: set at any time, taken by the search when it starts, so that a
    /// count given while a search runs neither waits for it nor changes it.
    threads: usize,
}

impl Thinker {
    pub fn new(hash_mb: usize) -> Thinker {
        Thinker {
            searcher: Arc::new(Mutex::new(Searcher::new(hash_mb))),
            next_id: 1,
            running: None,
            threads: super::threads::DEFAULT_THREADS,
        }
    }

    fn lock(searcher: &Mutex<Searcher>) -> MutexGuard<'_, Searcher> {
        // A search thread that panicked leaves a usable searcher behind.
        searcher.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts searching `pos`; events go to `sink`. Stops any search still running first.
    pub fn start(
        &mut self,
        mut pos: Position,
        limits: Limits,
        sink: impl Fn(ThinkerEvent) + Send + 'static,
    ) -> (u64, Arc<SearchControl>) {
        self.stop();
        let id = self.next_id;
        self.next_id += 1;
        let control = Arc::new(SearchControl::new());
        let searcher = Arc::clone(&self.searcher);
        let thread_control = Arc::clone(&control);
        let threads = self.threads;
        let handle = std::thread::Builder::new()
            .name(format!("search-{id}"))
            .stack_size(64 << 20)
            .spawn(move || {
                let mut searcher = Thinker::lock(&searcher);
                searcher.set_threads(threads);
                let mut report = |info: &SearchInfo| sink(ThinkerEvent::Info { id, info: info.clone() });
                let result = searcher.search(&mut pos, &limits, &thread_control, &mut report);
                drop(searcher);
                sink(ThinkerEvent::Done { id, result });
            });
        match handle {
            Ok(handle) => {
                self.running = Some(Running {
                    id,
                    control: Arc::clone(&control),
                    handle,
                });
            }
            Err(e) => log::error!("cannot start a search thread: {e}"),
        }
        (id, control)
    }

    /// Stops the running search (if any) and waits for its thread.
    pub fn stop(&mut self) {
        if let Some(r) = self.running.take() {
            r.control.stop();
            if r.handle.join().is_err() {
                log::error!("search {} panicked", r.id);
            }
        }
    }

    /// Forgets a finished search (its `Done` event has been handled).
    pub fn finished(&mut self, id: u64) {
        if self.running.as_ref().is_some_and(|r| r.id == id)
            && let Some(r) = self.running.take()
            && r.handle.join().is_err()
        {
            log::error!("search {id} panicked");
        }
    }

    /// Stops any search and resizes the hash table to `requested_mb` as a GUI sends it (any
    /// number), clamped to what the machine can hold; returns the size taken (MB).
    pub fn set_hash_mb(&mut self, requested_mb: u64) -> usize {
        self.stop();
        let mb = super::memory::clamp_hash_mb(requested_mb);
        self.with_searcher(|s| s.set_hash_mb(mb))
    }

    /// Sets the threads of the next search to `requested` as a GUI sends it (any number), clamped
    /// to what the machine runs at once; returns the number taken. A running search keeps its own.
    pub fn set_threads(&mut self, requested: u64) -> usize {
        self.threads = super::threads::clamp_threads(requested);
        self.threads
    }

    /// The threads of the next search.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `f` on the idle searcher (waits for a running search to release it).
    pub fn with_searcher<R>(&mut self, f: impl FnOnce(&mut Searcher) -> R) -> R {
        f(&mut Thinker::lock(&self.searcher))
    }
}

impl Drop for Thinker {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::*;

    #[test]
    fn a_thread_count_is_taken_by_the_next_search_and_it_plays_a_legal_move() {
        let variant = crate::variants::Registry::builtin()
            .get("normal")
            .expect("a built-in game");
        let pos = crate::test_fixtures::position_of(
            &variant,
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        );
        let mut thinker = Thinker::new(8);
        assert_eq!(thinker.threads(), 1);
        assert_eq!(thinker.set_threads(0), 1, "0 means 1");
        let taken = thinker.set_threads(2);
        assert_eq!(taken, 2.min(super::super::threads::max_threads()));
        // Nothing changes in the idle searcher until a search starts.
        assert_eq!(thinker.with_searcher(|s| s.threads()), 1);
        let (tx, rx) = mpsc::channel();
        let (id, _) = thinker.start(pos.clone(), Limits::depth(5), move |e| {
            if let ThinkerEvent::Done { result, .. } = e {
                let _ = tx.send(result);
            }
        });
        let result = rx.recv().expect("the search ends by itself");
        thinker.finished(id);
        assert!(pos.legal_moves().0.contains(&result.best.expect("a move")));
        assert_eq!(thinker.with_searcher(|s| s.threads()), taken);
    }
}
