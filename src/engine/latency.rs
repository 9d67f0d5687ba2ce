//! The time a GUI charges on every move beyond the engine's own thinking (pipes, scheduling, and
//! in XBoard its drawing and move animation: 75-165 ms a move measured), learnt from the GUI's own
//! clock reports. Protocol-neutral: a door tells it what the engine expected its clock to show
//! after a move, what the GUI then reported and how long the engine took; the engine keeps
//! `overhead_ms` in reserve on every move, and `move_cost()` for every move still to come.
//!
//! Two things are learnt, because XBoard charges a floor, not a sum: it reads our move only after
//! animating the last one, so a move is charged at least 80-150 ms however fast it is, and a move
//! that thinks longer is charged little more than its thinking. The overhead (what a move costs
//! beyond its thinking) is then small while the engine thinks long, and the floor shows only on
//! fast moves. So the least charge per move is learnt apart, from moves the GUI charged well
//! beyond their thinking, and forgotten only on evidence that a move costs less (a move charged
//! below it), never by moves that thought long. Before such evidence there is no floor: under a
//! precise referee (a match runner, cutechess-cli) a move is charged its thinking, and a floor
//! assumed there would leave most of a short clock unspent.
//!
//! ```
//! use fairybridge::engine::latency::OverheadEstimator;
//! let mut lag = OverheadEstimator::new(10);
//! assert_eq!(lag.move_cost().least_ms, 0); // no floor before the GUI shows one
//! lag.observe(9_000, 8_880, 5); // 5 ms of thought, and the GUI charged 120 ms more
//! assert!(lag.overhead_ms() >= 120);
//! assert!(lag.move_cost().least_ms >= 125);
//! ```

use crate::search::{DEFAULT_OVERHEAD_MS, MoveCost, PROBE_MS};

/// The largest single observation taken (ms): a GUI that stalled for seconds once (a dialog, a
/// suspended laptop) raises the reserve to this, not to the whole clock.
const MAX_OBSERVED_MS: i64 = 3_000;
/// How much of the gap to a lower observation the estimate closes per move (1/8): a spike is
/// kept for many moves, a lasting improvement is learnt over a few dozen.
const DECAY_DIVISOR: i64 = 8;
/// The most a precise referee's report may exceed the engine's expectation (ms): centiseconds
/// rounded up, a clock started when the move arrived rather than when it was sent.
const MAX_ROUNDING_MS: i64 = 100;
/// A move is evidence of a GUI's floor when the GUI charged at least this much beyond its
/// thinking (ms) — more than a quiet machine's pipes and scheduling — and more than the thinking
/// itself.
const FLOOR_EVIDENCE_MS: i64 = 20;

/// Learns the per-move overhead from expected and reported clocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverheadEstimator {
    /// Never less than this (ms): the least kept, or what the user set (UCI `Move Overhead`).
    floor_ms: i64,
    /// The learnt overhead (ms): a maximum that decays slowly; 0 before any observation.
    learnt_ms: i64,
    /// The least a move is charged in all, thinking included (ms): what the moves to come cost
    /// however fast they are played; 0 until a move shows a floor.
    least_charge_ms: i64,
    observations: u32,
    /// A move has thought less than any GUI floor (`PROBE_MS`), so its charge showed whether
    /// there is one.
    fast_move_seen: bool,
}

impl OverheadEstimator {
    /// An estimator that keeps at least `floor_ms` (negative counts as 0).
    pub fn new(floor_ms: i64) -> OverheadEstimator {
        OverheadEstimator {
            floor_ms: floor_ms.max(0),
            learnt_ms: 0,
            least_charge_ms: 0,
            observations: 0,
            fast_move_seen: false,
        }
    }

    /// Sets the least overhead kept (a user's `Move Overhead`), keeping what was learnt.
    pub fn set_floor_ms(&mut self, floor_ms: i64) {
        self.floor_ms = floor_ms.max(0);
    }

    /// One move's evidence: the clock (ms) the engine expected after its move (its clock when
    /// the move was asked for, minus the time it took, plus any increment), the clock the GUI
    /// reported next, and the time the move took (ms). A report a little above the expectation
    /// is a precise referee's, which rounds to its unit or starts the clock after we do: no
    /// overhead. One far above (a new time control) says nothing about the overhead and is
    /// ignored.
    pub fn observe(&mut self, expected_ms: i64, reported_ms: i64, thought_ms: i64) {
        let lag = expected_ms.saturating_sub(reported_ms);
        if lag < -MAX_ROUNDING_MS {
            return;
        }
        let lag = lag.clamp(0, MAX_OBSERVED_MS);
        self.learnt_ms = decayed_max(self.learnt_ms, lag);
        let thought_ms = thought_ms.clamp(0, MAX_OBSERVED_MS);
        let charged = lag.saturating_add(thought_ms);
        if lag > thought_ms && lag >= FLOOR_EVIDENCE_MS && charged >= self.least_charge_ms {
            // The GUI's share dominated: a move costs at least this, whatever it thinks.
            self.least_charge_ms = charged;
        } else if charged < self.least_charge_ms {
            self.least_charge_ms = decayed_max(self.least_charge_ms, charged);
        }
        self.observations = self.observations.saturating_add(1);
        self.fast_move_seen |= thought_ms <= PROBE_MS;
    }

    /// The overhead (ms) to keep on every move: before any report the engine's default, then the
    /// learnt one with a quarter more for its jitter; never below the floor.
    pub fn overhead_ms(&self) -> i64 {
        if self.observations == 0 {
            return self.floor_ms.max(DEFAULT_OVERHEAD_MS);
        }
        self.floor_ms.max(self.learnt_ms + self.learnt_ms / 4)
    }

    /// What each move still to come costs beyond its thinking, and at the least in all, both
    /// with a quarter more for their jitter; and whether the next move should probe for a floor.
    pub fn move_cost(&self) -> MoveCost {
        MoveCost {
            overhead_ms: self.overhead_ms(),
            least_ms: self.least_charge_ms + self.least_charge_ms / 4,
            // From the second move: the first may come before the GUI has anything to animate.
            probe: self.observations > 0 && !self.fast_move_seen,
        }
    }

    /// How many moves have been observed.
    pub fn observations(&self) -> u32 {
        self.observations
    }
}

/// A maximum that falls slowly: `observed` if it is higher, else `current` moved a part of the
/// way down to it (a spike is kept for many moves, a lasting improvement learnt over a few dozen).
fn decayed_max(current: i64, observed: i64) -> i64 {
    if observed >= current {
        observed
    } else {
        current - (current - observed) / DECAY_DIVISOR
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_holds_until_a_report_and_the_floor_always() {
        let mut e = OverheadEstimator::new(10);
        assert_eq!(e.overhead_ms(), DEFAULT_OVERHEAD_MS);
        // A precise referee: charged 2 ms beyond 300 ms of thinking.
        e.observe(10_000, 9_998, 300);
        assert_eq!(e.overhead_ms(), 10);
        assert_eq!(e.observations(), 1);
        e.set_floor_ms(100);
        assert_eq!(e.overhead_ms(), 100);
        assert_eq!(OverheadEstimator::new(-5).floor_ms, 0);
    }

    #[test]
    fn a_gui_charging_120_ms_a_move_is_learnt_at_once_and_kept() {
        let mut e = OverheadEstimator::new(40);
        let mut clock = 20_000;
        for _ in 0..5 {
            e.observe(clock, clock - 120, 180);
            clock -= 300;
        }
        assert_eq!(e.overhead_ms(), 150);
        // One quick move does not drop the reserve.
        e.observe(clock, clock - 20, 280);
        assert!(e.overhead_ms() >= 130, "{}", e.overhead_ms());
        // A lasting improvement is learnt over some dozens of moves.
        for _ in 0..60 {
            e.observe(clock, clock - 20, 280);
        }
        assert!(e.overhead_ms() < 45, "{}", e.overhead_ms());
    }

    #[test]
    fn a_floor_seen_on_fast_moves_is_kept_through_long_thinking() {
        let mut e = OverheadEstimator::new(40);
        // Before any evidence there is no floor.
        assert_eq!(e.move_cost().least_ms, 0);
        let mut clock = 60_000;
        // A ponder hit answered in 5 ms, charged 140 ms in all (XBoard animating).
        e.observe(clock, clock - 135, 5);
        assert_eq!(e.move_cost().least_ms, 175);
        // Long moves are charged their thinking and a little more: the overhead falls to the
        // floor, but they say nothing of what a fast move costs: a floor learnt from them alone
        // would let a fast move flag.
        for _ in 0..60 {
            clock -= 410;
            e.observe(clock, clock - 10, 400);
        }
        assert_eq!(e.overhead_ms(), 40);
        assert_eq!(e.move_cost().least_ms, 175);
        // A fast move charged less shows the floor is lower, and it is learnt over some moves.
        for _ in 0..40 {
            e.observe(clock, clock - 3, 5);
        }
        assert!(e.move_cost().least_ms < 25, "{:?}", e.move_cost());
    }

    #[test]
    fn a_report_a_little_above_the_expectation_is_a_precise_referee() {
        // The clock rounded up to its centisecond: no overhead, and the default is dropped.
        let mut e = OverheadEstimator::new(10);
        e.observe(4_979, 4_980, 71);
        assert_eq!((e.overhead_ms(), e.observations()), (10, 1));
    }

    #[test]
    fn a_precise_referee_shows_no_floor() {
        // Charged the thinking and 1-15 ms of pipes and scheduling, fast moves and slow ones.
        let mut e = OverheadEstimator::new(10);
        let mut clock = 10_000;
        for (n, thought) in [2, 40, 7, 300, 15, 1, 90].iter().cycle().take(200).enumerate() {
            let lag = 1 + (n as i64 * 7) % 15;
            e.observe(clock - thought, clock - thought - lag, *thought);
            clock -= 3;
        }
        assert_eq!(e.move_cost().least_ms, 0, "{e:?}");
        assert!(e.overhead_ms() <= 20, "{e:?}");
    }

    #[test]
    fn reports_above_the_expectation_and_absurd_gaps_are_bounded() {
        let mut e = OverheadEstimator::new(40);
        e.observe(1_000, 300_000, 0); // a new session's time added
        assert_eq!((e.overhead_ms(), e.observations()), (40, 0));
        e.observe(i64::MAX, i64::MIN, i64::MAX);
        assert_eq!(e.overhead_ms(), MAX_OBSERVED_MS + MAX_OBSERVED_MS / 4);
        e.observe(i64::MIN, i64::MAX, i64::MIN);
        e.set_floor_ms(10_000);
        assert_eq!(e.overhead_ms(), 10_000);
    }
}
