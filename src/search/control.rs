//! Control of a running search from another thread: the stop flag and the deadlines.
//!
//! Use one `SearchControl` per search (behind an `Arc`), created or `reset` by the protocol thread
//! *before* it starts the search thread, so that a `?` or `force` arriving at once is never lost.
//! Deadlines are milliseconds since the search started; `set_budget` may be called while the search
//! runs (a ponder hit turns an infinite search into a timed one).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::time::TimeBudget;
use crate::core::Move;

/// "No deadline".
const NEVER: u64 = u64::MAX;

/// Shared between the search thread and whoever may stop it.
#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    /// When the search started (set by the search; `None` before).
    start: Mutex<Option<Instant>>,
    /// Don't start a new iteration after this many ms.
    soft_ms: AtomicU64,
    /// Abort at once after this many ms, once the first iteration is complete.
    hard_ms: AtomicU64,
    /// Abort a first iteration not yet complete after this many ms.
    most_ms: AtomicU64,
    /// The root move being searched (written once per root move: cheap).
    current: Mutex<Option<RootProgress>>,
}

/// Which root move the search is on, for a door to show (UCI `currmove`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RootProgress {
    pub mv: Move,
    /// Its place in this iteration's order, from 1 (UCI `currmovenumber`).
    pub number: u32,
    /// The iteration's depth.
    pub depth: u32,
}

impl Default for SearchControl {
    fn default() -> Self {
        SearchControl::new()
    }
}

impl SearchControl {
    /// Not stopped, no deadline.
    pub fn new() -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            start: Mutex::new(None),
            soft_ms: AtomicU64::new(NEVER),
            hard_ms: AtomicU64::new(NEVER),
            most_ms: AtomicU64::new(NEVER),
            current: Mutex::new(None),
        }
    }

    /// Back to the state of `new` (call before starting a search, never during one).
    pub fn reset(&self) {
        self.stop.store(false, Ordering::SeqCst);
        *self.lock_start() = None;
        self.soft_ms.store(NEVER, Ordering::SeqCst);
        self.hard_ms.store(NEVER, Ordering::SeqCst);
        self.most_ms.store(NEVER, Ordering::SeqCst);
        *self.lock_current() = None;
    }

    /// The root move the search is on (`None` before its first).
    pub fn current(&self) -> Option<RootProgress> {
        *self.lock_current()
    }

    /// Records the root move the search starts on.
    pub(crate) fn set_current(&self, progress: RootProgress) {
        *self.lock_current() = Some(progress);
    }

    fn lock_current(&self) -> std::sync::MutexGuard<'_, Option<RootProgress>> {
        // As for the start: a plain value, valid after a panic elsewhere.
        self.current.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Asks the search to stop as soon as possible (it still returns its best move).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Gives the search a time budget counted from now (or from its start, if it has not started):
    /// `None` makes it infinite again. Safe to call while the search runs (ponder hit).
    pub fn set_budget(&self, budget: Option<TimeBudget>) {
        match budget {
            None => {
                self.soft_ms.store(NEVER, Ordering::SeqCst);
                self.hard_ms.store(NEVER, Ordering::SeqCst);
                self.most_ms.store(NEVER, Ordering::SeqCst);
            }
            Some(b) => {
                let now = self.elapsed().as_millis() as u64;
                let soft = now.saturating_add(b.soft.as_millis() as u64);
                let hard = now.saturating_add(b.hard.as_millis() as u64).max(soft.min(NEVER - 1));
                let most = now.saturating_add(b.most.as_millis() as u64).max(hard.min(NEVER - 1));
                self.store(soft, hard, most);
            }
        }
    }

    /// A ponder hit: the search becomes a move with `budget`. The time already thought counts
    /// towards the soft limit (the search stops once it has thought as long as the move should
    /// take, at once if it already has); the hard limit runs from now, as the clock does.
    pub fn ponder_hit(&self, budget: TimeBudget) {
        let now = self.elapsed().as_millis().min(NEVER as u128 - 1) as u64;
        let soft = (budget.soft.as_millis().min(NEVER as u128 - 1) as u64).max(now);
        let hard = now
            .saturating_add(budget.hard.as_millis() as u64)
            .clamp(soft, NEVER - 1);
        let most = now
            .saturating_add(budget.most.as_millis() as u64)
            .clamp(hard, NEVER - 1);
        self.store(soft, hard, most);
    }

    /// The deadlines, the widest first, so that a reader never sees one beyond a wider one.
    fn store(&self, soft: u64, hard: u64, most: u64) {
        self.most_ms.store(most, Ordering::SeqCst);
        self.hard_ms.store(hard, Ordering::SeqCst);
        self.soft_ms.store(soft, Ordering::SeqCst);
    }

    /// Sets the budget counted from the start of the search (exact, for node-counted time).
    pub(crate) fn set_budget_from_start(&self, budget: Option<TimeBudget>) {
        match budget {
            None => self.set_budget(None),
            Some(b) => {
                let soft = b.soft.as_millis().min(NEVER as u128 - 1) as u64;
                let hard = (b.hard.as_millis().min(NEVER as u128 - 1) as u64).max(soft);
                let most = (b.most.as_millis().min(NEVER as u128 - 1) as u64).max(hard);
                self.store(soft, hard, most);
            }
        }
    }

    /// Time since the search started (zero before).
    pub fn elapsed(&self) -> Duration {
        self.lock_start().map_or(Duration::ZERO, |s| s.elapsed())
    }

    /// Records the start of the search.
    pub(crate) fn begin(&self) {
        *self.lock_start() = Some(Instant::now());
    }

    /// The soft deadline in ms since the start, if any.
    #[inline]
    pub(crate) fn soft_ms(&self) -> Option<u64> {
        let v = self.soft_ms.load(Ordering::Relaxed);
        (v != NEVER).then_some(v)
    }

    /// The hard deadline in ms since the start, if any.
    #[inline]
    pub(crate) fn hard_ms(&self) -> Option<u64> {
        let v = self.hard_ms.load(Ordering::Relaxed);
        (v != NEVER).then_some(v)
    }

    /// The deadline of a first iteration not yet complete, in ms since the start, if any.
    #[inline]
    pub(crate) fn most_ms(&self) -> Option<u64> {
        let v = self.most_ms.load(Ordering::Relaxed);
        (v != NEVER).then_some(v)
    }

    fn lock_start(&self) -> std::sync::MutexGuard<'_, Option<Instant>> {
        // A poisoned lock only means another thread panicked while holding it; the data is a
        // plain `Option<Instant>` and stays valid.
        self.start.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_is_relative_to_the_start() {
        let c = SearchControl::new();
        assert_eq!(c.soft_ms(), None);
        c.set_budget(Some(TimeBudget {
            soft: Duration::from_millis(100),
            hard: Duration::from_millis(300),
            most: Duration::from_millis(300),
        }));
        assert_eq!(c.soft_ms(), Some(100));
        assert_eq!(c.hard_ms(), Some(300));
        c.stop();
        assert!(c.is_stopped());
        c.reset();
        assert!(!c.is_stopped());
        assert_eq!(c.hard_ms(), None);
    }

    #[test]
    fn a_ponder_hit_counts_the_time_already_thought() {
        let c = SearchControl::new();
        c.begin();
        std::thread::sleep(Duration::from_millis(30));
        let budget = TimeBudget {
            soft: Duration::from_millis(10_000),
            hard: Duration::from_millis(20_000),
            most: Duration::from_millis(20_000),
        };
        c.ponder_hit(budget);
        let now = c.elapsed().as_millis() as u64;
        // The soft limit is counted from the start of the ponder search, the hard one from now.
        assert_eq!(c.soft_ms(), Some(10_000));
        let hard = c.hard_ms().unwrap();
        assert!(hard >= 20_030 && hard <= now + 20_000, "{hard}");
        // Pondered longer than the move should take: stop now, not later.
        c.ponder_hit(TimeBudget {
            soft: Duration::from_millis(5),
            hard: Duration::from_millis(500),
            most: Duration::from_millis(500),
        });
        assert!(c.soft_ms().unwrap() >= 30);
        assert!(c.soft_ms() <= c.hard_ms());
    }
}
