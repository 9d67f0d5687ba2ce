//! The time a GUI charges on every move beyond the engine's own thinking (pipes, scheduling, and
//! in XBoard its drawing and move animation: 75-165 ms a move measured, issue 15), learnt from the
//! GUI's own clock reports. Protocol-neutral: a door tells it what the engine expected its clock to
//! show after a move, what the GUI then reported and how long the engine took; the engine keeps
//! `overhead_ms` in reserve on every move, and `move_cost()` for every move still to come.
//!
//! Two things are learnt, because XBoard charges a floor, not a sum: it reads our move only after
//! animating the last one, so a move is charged at least 80-150 ms however fast it is, and a move
//! that thinks longer is charged little more than its thinking. The overhead (what a move costs
//! beyond its thinking) is then small while the engine thinks long, and the floor shows only on
//! fast moves, late in a long game, when the clock is low: too late to keep it for the moves to
//! come (a soak game lost on time at move 139 that way). So the least charge per move is learnt
//! apart, from moves the GUI's share dominated, and forgotten only on evidence that a move costs
//! less (a move charged below it), never by moves that thought long.
//!
//! ```
//! use fairybridge::engine::latency::OverheadEstimator;
//! let mut lag = OverheadEstimator::new(40);
//! lag.observe(9_000, 8_880, 5); // 5 ms of thought, and the GUI charged 120 ms more
//! assert!(lag.overhead_ms() >= 120);
//! assert!(lag.move_cost().least_ms >= 125);
//! ```

use crate::search::MoveCost;

/// The largest single observation taken (ms): a GUI that stalled for seconds once (a dialog, a
/// suspended laptop) raises the reserve to this, not to the whole clock.
const MAX_OBSERVED_MS: i64 = 3_000;
/// How much of the gap to a lower observation the estimate closes per move (1/8): a spike is
/// kept for many moves, a lasting improvement is learnt over a few dozen.
const DECAY_DIVISOR: i64 = 8;
/// The least charge per move assumed until a move is seen to cost less (ms): XBoard's floor on a
/// quiet machine (80-100 ms, issue 15). A GUI that charges exactly (a match runner) shows it is
/// lower within a few dozen fast moves.
const LEAST_CHARGE_PRIOR_MS: i64 = 100;

/// Learns the per-move overhead from expected and reported clocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverheadEstimator {
    /// Never less than this (ms): the engine's default, or what the user set (UCI `Move Overhead`).
    floor_ms: i64,
    /// The learnt overhead (ms): a maximum that decays slowly; 0 before any observation.
    learnt_ms: i64,
    /// The least a move is charged in all, thinking included (ms): what the moves to come cost
    /// however fast they are played.
    least_charge_ms: i64,
    observations: u32,
}

impl OverheadEstimator {
    /// An estimator that keeps at least `floor_ms` (negative counts as 0).
    pub fn new(floor_ms: i64) -> OverheadEstimator {
        OverheadEstimator {
            floor_ms: floor_ms.max(0),
            learnt_ms: 0,
            least_charge_ms: LEAST_CHARGE_PRIOR_MS,
            observations: 0,
        }
    }

    /// Sets the least overhead kept (a user's `Move Overhead`), keeping what was learnt.
    pub fn set_floor_ms(&mut self, floor_ms: i64) {
        self.floor_ms = floor_ms.max(0);
    }

    /// One move's evidence: the clock (ms) the engine expected after its move (its clock when
    /// the move was asked for, minus the time it took, plus any increment), the clock the GUI
    /// reported next, and the time the move took (ms). A report above the expectation (a new
    /// time control, a GUI that rounds generously) says nothing about the overhead and is ignored.
    pub fn observe(&mut self, expected_ms: i64, reported_ms: i64, thought_ms: i64) {
        let lag = expected_ms.saturating_sub(reported_ms);
        if lag < 0 {
            return;
        }
        let lag = lag.min(MAX_OBSERVED_MS);
        self.learnt_ms = decayed_max(self.learnt_ms, lag);
        let charged = lag.saturating_add(thought_ms.clamp(0, MAX_OBSERVED_MS));
        if lag > thought_ms && charged >= self.least_charge_ms {
            // The GUI's share dominated: a move costs at least this, whatever it thinks.
            self.least_charge_ms = charged;
        } else if charged < self.least_charge_ms {
            self.least_charge_ms = decayed_max(self.least_charge_ms, charged);
        }
        self.observations = self.observations.saturating_add(1);
    }

    /// The overhead (ms) to keep on every move: the learnt one with a quarter more for its
    /// jitter, never below the floor.
    pub fn overhead_ms(&self) -> i64 {
        self.floor_ms.max(self.learnt_ms + self.learnt_ms / 4)
    }

    /// What each move still to come costs beyond its thinking, and at the least in all; both
    /// with a quarter more for their jitter.
    pub fn move_cost(&self) -> MoveCost {
        MoveCost {
            overhead_ms: self.overhead_ms(),
            least_ms: self.least_charge_ms + self.least_charge_ms / 4,
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
    use crate::search::{Clock, clock_budget};

    /// A 150-move game at 1 min sudden death under a GUI that charges a move at least 140 ms
    /// (XBoard reading our move only after animating the last one), the engine thinking one and
    /// a half times its soft limit (at most its hard one). With `keep_floor` the moves to come
    /// are budgeted at the learnt least charge; without, at the overhead alone. The clock left
    /// after each move, or the move on which it ran out.
    fn long_game_under_a_floor(keep_floor: bool) -> Result<i64, usize> {
        const FLOOR_MS: i64 = 140;
        let mut e = OverheadEstimator::new(40);
        let mut remaining = 60_000;
        for moves_played in 0..150 {
            let clock = Clock {
                remaining_ms: remaining,
                increment_ms: 0,
                moves_to_go: None,
                moves_played,
            };
            let cost = if keep_floor {
                e.move_cost()
            } else {
                e.overhead_ms().into()
            };
            let budget = clock_budget(&clock, cost);
            let thought = (budget.soft.as_millis() as i64 * 3 / 2).min(budget.hard.as_millis() as i64);
            let charged = (thought + 5).max(FLOOR_MS);
            e.observe(remaining - thought, remaining - charged, thought);
            remaining -= charged;
            if remaining <= 0 {
                return Err(moves_played as usize + 1);
            }
        }
        Ok(remaining)
    }

    #[test]
    fn a_long_game_under_a_gui_floor_keeps_the_floor_for_the_moves_to_come() {
        // The overhead alone is small while the engine thinks long: the clock ran out (a soak
        // game under XBoard lost on time at move 139 so).
        assert!(long_game_under_a_floor(false).is_err());
        let left = long_game_under_a_floor(true).expect("the floor kept, no flag");
        assert!(left > 0);
    }

    #[test]
    fn the_floor_holds_until_more_is_seen() {
        let mut e = OverheadEstimator::new(40);
        assert_eq!(e.overhead_ms(), 40);
        e.observe(10_000, 9_990, 300);
        assert_eq!(e.overhead_ms(), 40);
        assert_eq!(e.observations(), 1);
        assert_eq!(OverheadEstimator::new(-5).overhead_ms(), 0);
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
        // Before any evidence: XBoard's quiet-machine floor, with its margin.
        assert_eq!(e.move_cost().least_ms, 125);
        let mut clock = 60_000;
        // A ponder hit answered in 5 ms, charged 140 ms in all (XBoard animating).
        e.observe(clock, clock - 135, 5);
        assert_eq!(e.move_cost().least_ms, 175);
        // Long moves are charged their thinking and a little more: the overhead falls to the
        // floor, but they say nothing of what a fast move costs (the soak's move-139 flag).
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
