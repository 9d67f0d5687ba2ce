//! The CECP clock: `level MPS BASE INC`, `st`, `sd`, `nps` and the `time` reports (centiseconds
//! left, possibly negative), turned into the search's neutral limits. Numbers from the GUI are
//! clamped here, so that no value it sends can overflow a duration.

use crate::engine::latency::OverheadEstimator;
use crate::search::{Clock, Limits, MIN_OVERHEAD_MS, MoveCost, TimeBudget, clock_budget, movetime_budget};

/// The clock settings of a game as CECP sets them, and the engine's clock as last reported.
#[derive(Clone, Debug, PartialEq)]
pub struct CecpClock {
    /// `level` MPS: moves per session, 0 = the whole game.
    moves_per_session: u32,
    /// `level` BASE (ms).
    base_ms: u64,
    /// `level` INC (ms), added after each move.
    increment_ms: u64,
    /// `st`: exactly this much per move at most (ms; overrides `level`).
    per_move_ms: Option<u64>,
    /// `sd`: maximum depth.
    depth: Option<u32>,
    /// `nps`: time is nodes / nps.
    nps: Option<u64>,
    /// The engine's clock from the last `time` command (centiseconds); `None` = BASE.
    engine_cs: Option<i64>,
}

impl Default for CecpClock {
    /// XBoard's default: 40 moves in 5 minutes.
    fn default() -> Self {
        CecpClock {
            moves_per_session: 40,
            base_ms: 300_000,
            increment_ms: 0,
            per_move_ms: None,
            depth: None,
            nps: None,
            engine_cs: None,
        }
    }
}

/// Seconds from the GUI in ms: negative, NaN and absurd values are clamped (saturating cast).
fn seconds_to_ms(seconds: f64) -> u64 {
    if seconds > 0.0 { (seconds * 1000.0) as u64 } else { 0 }
}

impl CecpClock {
    /// `level MPS BASE INC` (BASE and INC in seconds).
    pub fn level(&mut self, moves_per_session: u32, base_seconds: f64, increment_seconds: f64) {
        self.moves_per_session = moves_per_session;
        self.base_ms = seconds_to_ms(base_seconds);
        self.increment_ms = seconds_to_ms(increment_seconds);
        self.per_move_ms = None;
    }

    /// `st SECONDS`.
    pub fn move_time(&mut self, seconds: f64) {
        self.per_move_ms = Some(seconds_to_ms(seconds));
    }

    /// `sd PLIES`.
    pub fn depth_limit(&mut self, plies: u32) {
        self.depth = Some(plies.max(1));
    }

    /// The `sd` limit, if one is set: every search of ours stops there, pondering too.
    pub fn max_depth(&self) -> Option<u32> {
        self.depth
    }

    /// `nps N` (0: back to the wall clock).
    pub fn nodes_per_second(&mut self, nps: u64) {
        self.nps = (nps > 0).then_some(nps);
    }

    /// `time CS`.
    pub fn engine_time(&mut self, centiseconds: i64) {
        self.engine_cs = Some(centiseconds);
    }

    /// `new`: the depth and nps limits and the clock report end with the game; `level` stays.
    pub fn new_game(&mut self) {
        self.depth = None;
        self.nps = None;
        self.engine_cs = None;
    }

    /// Limits for the engine's next move; `moves_played` counts the moves its side has completed
    /// since the time control started, `cost` is what each move costs beyond thinking.
    pub fn limits(&self, moves_played: u32, cost: impl Into<MoveCost>) -> Limits {
        Limits {
            depth: self.depth,
            nodes: None,
            time: Some(self.budget(moves_played, cost)),
            nps: self.nps,
            root_moves: None,
            mate: None,
            multi_pv: None,
        }
    }

    /// The clock (ms) the GUI should report after our move, which took `spent` since the command
    /// that asked for it: the last `time` report, less `spent`, plus the increment. `None` where
    /// the clock does not run down (`st`, `nps`) or was never reported.
    pub fn expected_after_move(&self, spent: std::time::Duration) -> Option<i64> {
        if self.per_move_ms.is_some() || self.nps.is_some() {
            return None;
        }
        let reported_ms = self.engine_cs?.saturating_mul(10);
        let spent_ms = i64::try_from(spent.as_millis()).unwrap_or(i64::MAX);
        let increment_ms = i64::try_from(self.increment_ms).unwrap_or(i64::MAX);
        Some(reported_ms.saturating_sub(spent_ms).saturating_add(increment_ms))
    }

    /// Is time counted in nodes (`nps`) rather than by the wall clock?
    pub fn counts_nodes(&self) -> bool {
        self.nps.is_some()
    }

    /// The time budget for the next move.
    pub fn budget(&self, moves_played: u32, cost: impl Into<MoveCost>) -> TimeBudget {
        let cost = cost.into();
        if let Some(st) = self.per_move_ms {
            return movetime_budget(st, cost.overhead_ms);
        }
        let remaining_ms = match self.engine_cs {
            Some(cs) => cs.saturating_mul(10),
            None => self.base_ms.min(i64::MAX as u64) as i64,
        };
        let moves_to_go =
            (self.moves_per_session > 0).then(|| self.moves_per_session - moves_played % self.moves_per_session);
        let clock = Clock {
            remaining_ms,
            increment_ms: self.increment_ms.min(i64::MAX as u64) as i64,
            moves_to_go,
            moves_played,
        };
        clock_budget(&clock, cost)
    }
}

/// The GUI's per-move overhead, learnt from its `time` reports: after each move of ours whose
/// clock the GUI had told us, the next report is compared with the clock we expected.
pub struct OverheadWatch {
    estimator: OverheadEstimator,
    /// After our move: the clock (ms) we expect the GUI's next `time` to report, and how long the
    /// move took (ms).
    expected: Option<(i64, i64)>,
    /// A `time` report has come since our last move (our clock is known for this one).
    reported: bool,
}

impl Default for OverheadWatch {
    fn default() -> Self {
        OverheadWatch {
            estimator: OverheadEstimator::new(MIN_OVERHEAD_MS),
            expected: None,
            reported: false,
        }
    }
}

impl OverheadWatch {
    /// What each move costs beyond thinking, as learnt so far.
    pub fn overhead_ms(&self) -> i64 {
        self.estimator.overhead_ms()
    }

    /// What each move to come costs: beyond thinking, and at the least.
    pub fn move_cost(&self) -> MoveCost {
        self.estimator.move_cost()
    }

    /// `time CS`: compared with the clock expected after our last move, if any.
    pub fn time_report(&mut self, centiseconds: i64) {
        if let Some((expected, thought)) = self.expected.take() {
            self.estimator
                .observe(expected, centiseconds.saturating_mul(10), thought);
        }
        self.reported = true;
    }

    /// Our move went out `spent` after the command that asked for it: what should the GUI's next
    /// `time` report show, if it told us our clock for this move?
    pub fn after_move(&mut self, clock: &CecpClock, spent: std::time::Duration) {
        self.expected = None;
        if std::mem::take(&mut self.reported) {
            let thought = i64::try_from(spent.as_millis()).unwrap_or(i64::MAX);
            self.expected = clock.expected_after_move(spent).map(|ms| (ms, thought));
        }
    }

    /// The next report measures nothing (a new game or time control; a pass inside our turn).
    pub fn forget_expected(&mut self) {
        self.expected = None;
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::search::DEFAULT_OVERHEAD_MS as LAG;

    fn ms(d: Duration) -> i64 {
        d.as_millis() as i64
    }

    #[test]
    fn st_is_an_exact_maximum_minus_latency() {
        let mut c = CecpClock::default();
        c.move_time(2.0);
        c.engine_time(100);
        let b = c.budget(5, LAG);
        assert_eq!(ms(b.hard), 2000 - LAG);
        assert_eq!(b.soft, b.hard);
    }

    #[test]
    fn time_reports_are_centiseconds_and_sessions_wrap() {
        let mut c = CecpClock::default();
        c.level(40, 300.0, 0.0);
        c.engine_time(30_000);
        let first = c.budget(0, LAG);
        let clock = Clock {
            remaining_ms: 300_000,
            increment_ms: 0,
            moves_to_go: Some(40),
            moves_played: 0,
        };
        assert_eq!(first, clock_budget(&clock, LAG));
        // The moves to go wrap into the next session.
        let next_session = Clock {
            moves_played: 40,
            ..clock
        };
        assert_eq!(c.budget(40, LAG), clock_budget(&next_session, LAG));
    }

    #[test]
    fn unknown_clock_uses_base_and_limits_carry_sd_and_nps() {
        let mut c = CecpClock::default();
        c.level(0, 60.0, 0.0);
        c.depth_limit(7);
        c.nodes_per_second(1000);
        let l = c.limits(0, LAG);
        assert_eq!(l.depth, Some(7));
        assert_eq!(l.nps, Some(1000));
        // Sudden death on the base, before any `time` report.
        let clock = Clock {
            remaining_ms: 60_000,
            increment_ms: 0,
            moves_to_go: None,
            moves_played: 0,
        };
        assert_eq!(l.time, Some(clock_budget(&clock, LAG)));
        c.nodes_per_second(0);
        assert_eq!(c.limits(0, LAG).nps, None);
        c.new_game();
        assert_eq!(c.limits(0, LAG).depth, None);
    }

    #[test]
    fn the_clock_expected_after_a_move() {
        let mut c = CecpClock::default();
        c.level(0, 60.0, 2.0);
        assert_eq!(c.expected_after_move(Duration::from_millis(300)), None, "no report yet");
        c.engine_time(5_000);
        assert_eq!(
            c.expected_after_move(Duration::from_millis(300)),
            Some(50_000 - 300 + 2_000)
        );
        c.move_time(1.0);
        assert_eq!(
            c.expected_after_move(Duration::from_millis(300)),
            None,
            "st: no running clock"
        );
    }

    /// Reliability issue: `st`/`level` with absurd numbers panicked in `Duration::from_secs_f64`.
    #[test]
    fn absurd_numbers_from_the_gui_are_clamped() {
        let mut c = CecpClock::default();
        for s in [1e20, 1e300, f64::INFINITY, f64::NAN, -1.0, f64::NEG_INFINITY] {
            c.move_time(s);
            let b = c.budget(0, LAG);
            assert!(b.soft <= b.hard);
            c.level(40, s, s);
            c.engine_time(i64::MAX);
            assert!(c.budget(3, LAG).soft <= c.budget(3, LAG).hard);
            c.engine_time(i64::MIN);
            assert_eq!(c.budget(3, LAG).hard, Duration::ZERO);
        }
    }

    #[test]
    fn overhead_learnt_only_from_reports_after_a_reported_move() {
        let mut c = CecpClock::default();
        c.level(0, 60.0, 0.0);
        let mut w = OverheadWatch::default();
        // No report before the move: nothing to compare the next one with.
        w.after_move(&c, Duration::from_millis(100));
        w.time_report(1_000);
        assert_eq!(w.overhead_ms(), LAG);
        // Reported clock 10 s, 100 ms spent: 9.9 s expected; the GUI says 9.5 s.
        c.engine_time(1_000);
        for _ in 0..8 {
            w.after_move(&c, Duration::from_millis(100));
            w.time_report(950);
        }
        assert!(w.overhead_ms() > LAG, "{} ms", w.overhead_ms());
        let learnt = w.overhead_ms();
        w.after_move(&c, Duration::from_millis(100));
        w.forget_expected();
        w.time_report(0);
        assert_eq!(w.overhead_ms(), learnt, "a forgotten expectation measures nothing");
    }
}
