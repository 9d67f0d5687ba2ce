//! The time a GUI charges on every move beyond the engine's own thinking (pipes, scheduling, and
//! in XBoard its drawing and move animation: 75-165 ms a move measured, issue 15), learnt from the
//! GUI's own clock reports. Protocol-neutral: a door tells it what the engine expected its clock to
//! show after a move and what the GUI then reported; the engine keeps `overhead_ms` in reserve on
//! every move, and on every move still to come.
//!
//! ```
//! use fairybridge::engine::latency::OverheadEstimator;
//! let mut lag = OverheadEstimator::new(40);
//! lag.observe(9_000, 8_880); // the GUI charged 120 ms more than we spent
//! assert!(lag.overhead_ms() >= 120);
//! ```

/// The largest single observation taken (ms): a GUI that stalled for seconds once (a dialog, a
/// suspended laptop) raises the reserve to this, not to the whole clock.
const MAX_OBSERVED_MS: i64 = 3_000;
/// How much of the gap to a lower observation the estimate closes per move (1/8): a spike is
/// kept for many moves, a lasting improvement is learnt over a few dozen.
const DECAY_DIVISOR: i64 = 8;

/// Learns the per-move overhead from expected and reported clocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverheadEstimator {
    /// Never less than this (ms): the engine's default, or what the user set (UCI `Move Overhead`).
    floor_ms: i64,
    /// The learnt overhead (ms): a maximum that decays slowly; 0 before any observation.
    learnt_ms: i64,
    observations: u32,
}

impl OverheadEstimator {
    /// An estimator that keeps at least `floor_ms` (negative counts as 0).
    pub fn new(floor_ms: i64) -> OverheadEstimator {
        OverheadEstimator {
            floor_ms: floor_ms.max(0),
            learnt_ms: 0,
            observations: 0,
        }
    }

    /// Sets the least overhead kept (a user's `Move Overhead`), keeping what was learnt.
    pub fn set_floor_ms(&mut self, floor_ms: i64) {
        self.floor_ms = floor_ms.max(0);
    }

    /// One move's evidence: the clock (ms) the engine expected after its move (its clock when
    /// the move was asked for, minus the time it took, plus any increment) and the clock the GUI
    /// reported next. A report above the expectation (a new time control, a GUI that rounds
    /// generously) says nothing about the overhead and is ignored.
    pub fn observe(&mut self, expected_ms: i64, reported_ms: i64) {
        let lag = expected_ms.saturating_sub(reported_ms);
        if lag < 0 {
            return;
        }
        let lag = lag.min(MAX_OBSERVED_MS);
        self.learnt_ms = if lag >= self.learnt_ms {
            lag
        } else {
            self.learnt_ms - (self.learnt_ms - lag) / DECAY_DIVISOR
        };
        self.observations = self.observations.saturating_add(1);
    }

    /// The overhead (ms) to keep on every move: the learnt one with a quarter more for its
    /// jitter, never below the floor.
    pub fn overhead_ms(&self) -> i64 {
        self.floor_ms.max(self.learnt_ms + self.learnt_ms / 4)
    }

    /// How many moves have been observed.
    pub fn observations(&self) -> u32 {
        self.observations
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_floor_holds_until_more_is_seen() {
        let mut e = OverheadEstimator::new(40);
        assert_eq!(e.overhead_ms(), 40);
        e.observe(10_000, 9_990);
        assert_eq!(e.overhead_ms(), 40);
        assert_eq!(e.observations(), 1);
        assert_eq!(OverheadEstimator::new(-5).overhead_ms(), 0);
    }

    #[test]
    fn a_gui_charging_120_ms_a_move_is_learnt_at_once_and_kept() {
        let mut e = OverheadEstimator::new(40);
        let mut clock = 20_000;
        for _ in 0..5 {
            e.observe(clock, clock - 120);
            clock -= 300;
        }
        assert_eq!(e.overhead_ms(), 150);
        // One quick move does not drop the reserve.
        e.observe(clock, clock - 20);
        assert!(e.overhead_ms() >= 130, "{}", e.overhead_ms());
        // A lasting improvement is learnt over some dozens of moves.
        for _ in 0..60 {
            e.observe(clock, clock - 20);
        }
        assert!(e.overhead_ms() < 45, "{}", e.overhead_ms());
    }

    #[test]
    fn reports_above_the_expectation_and_absurd_gaps_are_bounded() {
        let mut e = OverheadEstimator::new(40);
        e.observe(1_000, 300_000); // a new session's time added
        assert_eq!((e.overhead_ms(), e.observations()), (40, 0));
        e.observe(i64::MAX, i64::MIN);
        assert_eq!(e.overhead_ms(), MAX_OBSERVED_MS + MAX_OBSERVED_MS / 4);
        e.observe(i64::MIN, i64::MAX);
        e.set_floor_ms(10_000);
        assert_eq!(e.overhead_ms(), 10_000);
    }
}
