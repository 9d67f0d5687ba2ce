//! Search limits, and time allocation for CECP clocks: `level MPS BASE INC`, `st`, `sd`, `nps`, and
//! the `time` reports (centiseconds left, possibly negative).
//!
//! A budget has a soft limit (no new iteration after it; the search may stop earlier when its best
//! move is stable, or run somewhat longer when it is not) and a hard limit (abort now). Both keep a
//! reserve for the latency between our `move` and the GUI stopping our clock, so that even tiny
//! clocks never run out.

use std::time::Duration;

use crate::core::Move;

/// Kept back on every move for process start-up, pipes and scheduling (ms).
pub(crate) const LAG_MS: i64 = 40;
/// Most of the reserve taken as a fraction of the clock (ms).
const MAX_FRACTION_RESERVE_MS: i64 = 500;

/// Time for one move.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct TimeBudget {
    /// Don't start a new iteration after this (scaled by best-move stability).
    pub soft: Duration,
    /// Abort the search at this point.
    pub hard: Duration,
}

/// What bounds one search. All `None` (the default) means: until stopped (analysis, pondering).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum depth in plies (`sd`).
    pub depth: Option<u32>,
    /// Maximum number of nodes.
    pub nodes: Option<u64>,
    /// Time budget counted from the start of the search.
    pub time: Option<TimeBudget>,
    /// With `nps`, time is counted as nodes / nps seconds instead of by the wall clock.
    pub nps: Option<u64>,
    /// Only these root moves are searched (CECP `exclude`/`include`); `None` = all legal moves.
    /// Moves not legal in the position are ignored; if none is left, all legal moves are searched.
    pub root_moves: Option<Vec<Move>>,
}

impl Limits {
    /// A fixed-depth search.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A search that runs until stopped.
    pub fn infinite() -> Limits {
        Limits::default()
    }

    /// A search with a fixed time per move (both limits equal).
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            time: Some(TimeBudget { soft: time, hard: time }),
            ..Limits::default()
        }
    }
}

/// The clock settings of a game as CECP sets them.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeControl {
    /// `level` MPS: moves per session, 0 = the whole game.
    pub moves_per_session: u32,
    /// `level` BASE.
    pub base: Duration,
    /// `level` INC, added after each move.
    pub increment: Duration,
    /// `st`: exactly this much per move at most (overrides `level`).
    pub per_move: Option<Duration>,
    /// `sd`: maximum depth.
    pub depth: Option<u32>,
    /// `nps`: time is nodes / nps (0 or `None` = wall clock).
    pub nps: Option<u64>,
}

impl Default for TimeControl {
    /// XBoard's default: 40 moves in 5 minutes.
    fn default() -> Self {
        TimeControl {
            moves_per_session: 40,
            base: Duration::from_secs(300),
            increment: Duration::ZERO,
            per_move: None,
            depth: None,
            nps: None,
        }
    }
}

impl TimeControl {
    /// Limits for the engine's next move. `remaining_cs` is the engine's clock from the last `time`
    /// command (centiseconds, may be negative; `None` = unknown, then BASE is assumed);
    /// `moves_played` is the number of moves the engine's side has completed since the time control
    /// started (for MPS sessions and the sudden-death estimate).
    pub fn limits(&self, remaining_cs: Option<i64>, moves_played: u32) -> Limits {
        Limits {
            depth: self.depth,
            nodes: None,
            time: Some(self.budget(remaining_cs, moves_played)),
            nps: self.nps.filter(|&n| n > 0),
            root_moves: None,
        }
    }

    /// The time budget for the next move.
    pub fn budget(&self, remaining_cs: Option<i64>, moves_played: u32) -> TimeBudget {
        if let Some(st) = self.per_move {
            return per_move_budget(st);
        }
        let remaining_ms = match remaining_cs {
            Some(cs) => cs.saturating_mul(10),
            None => self.base.as_millis().min(i64::MAX as u128) as i64,
        };
        let inc_ms = self.increment.as_millis().min(i64::MAX as u128) as i64;
        let mtg = if self.moves_per_session > 0 {
            MovesToGo::Session(self.moves_per_session - moves_played % self.moves_per_session)
        } else {
            MovesToGo::SuddenDeath((40 - moves_played as i64 / 2).max(20) as u32)
        };
        let (soft, hard) = allocate(remaining_ms, inc_ms, mtg);
        TimeBudget {
            soft: Duration::from_millis(soft as u64),
            hard: Duration::from_millis(hard as u64),
        }
    }
}

/// `st`: use the time, minus the latency reserve (at least half of it, for tiny values).
fn per_move_budget(st: Duration) -> TimeBudget {
    let ms = st.as_millis().min(i64::MAX as u128) as i64;
    let hard = (ms - LAG_MS).max(ms / 2).max(0) as u64;
    let t = Duration::from_millis(hard);
    TimeBudget { soft: t, hard: t }
}

/// How many moves the remaining time must last.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum MovesToGo {
    /// Exactly this many moves to the next time control (this one included).
    Session(u32),
    /// No control ahead: an estimate of the moves still to play.
    SuddenDeath(u32),
}

/// Soft and hard limits in ms from the clock (ms, may be negative) and the increment (ms).
fn allocate(remaining_ms: i64, inc_ms: i64, mtg: MovesToGo) -> (i64, i64) {
    let remaining = remaining_ms.max(0);
    let reserve = LAG_MS + (remaining / 50).min(MAX_FRACTION_RESERVE_MS);
    let usable = (remaining - reserve).max(0);
    // Every move also costs the GUI's and the pipes' latency, which the increment has to pay for
    // first: on a short clock with a small increment, spending the whole increment drains it.
    let inc = (inc_ms - LAG_MS).max(0);
    let inc_part = inc * 3 / 4;
    let (ideal, cap) = match mtg {
        MovesToGo::Session(n) => {
            let n = n.max(1) as i64;
            // The moves after this one each cost latency too: keep it for them.
            let usable = (usable - (n - 1) * LAG_MS / 2).max(usable / (2 * n));
            let cap_frac = match n {
                1 => 90,
                2 => 60,
                3 => 45,
                _ => 35,
            };
            (usable / n + inc_part, usable * cap_frac / 100 + inc / 2)
        }
        MovesToGo::SuddenDeath(n) => (usable / n.max(1) as i64 + inc_part, usable * 3 / 10 + inc / 2),
    };
    let cap = cap.min(usable);
    let soft = ideal.min(cap);
    let hard = (ideal * 4).min(cap).max(soft);
    (soft, hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Duration) -> i64 {
        d.as_millis() as i64
    }

    fn level(mps: u32, base_s: u64, inc_ms: u64) -> TimeControl {
        TimeControl {
            moves_per_session: mps,
            base: Duration::from_secs(base_s),
            increment: Duration::from_millis(inc_ms),
            ..TimeControl::default()
        }
    }

    #[test]
    fn st_is_an_exact_maximum_minus_latency() {
        let tc = TimeControl {
            per_move: Some(Duration::from_secs(2)),
            ..TimeControl::default()
        };
        let b = tc.budget(Some(100), 5);
        assert_eq!(ms(b.hard), 2000 - LAG_MS);
        assert_eq!(b.soft, b.hard);
        // Tiny st: half of it.
        let b = per_move_budget(Duration::from_millis(50));
        assert_eq!(ms(b.hard), 25);
    }

    #[test]
    fn sudden_death_with_increment() {
        // 10 s + 0.1 s at the start: 9760 ms usable / 40 moves + 3/4 of the increment left after
        // the per-move latency (100 - 40 ms).
        let b = level(0, 10, 100).budget(Some(1000), 0);
        assert_eq!(ms(b.soft), 9760 / 40 + 45);
        assert_eq!(ms(b.hard), (9760 / 40 + 45) * 4);
        assert!(b.hard < Duration::from_millis(9760 * 3 / 10 + 30));
    }

    #[test]
    fn a_short_clock_lives_on_its_increment() {
        // 0.12 s left and 0.03 s increment: the increment only pays the latency, so the move must
        // be nearly free, or the clock drains move after move.
        let b = level(0, 3, 30).budget(Some(12), 40);
        assert!(ms(b.soft) <= 5 && ms(b.hard) <= 12, "{b:?}");
    }

    #[test]
    fn tiny_clocks_never_overrun() {
        for cs in [-500, -1, 0, 1, 5, 10, 30, 50, 100] {
            for inc in [0u64, 100, 1000] {
                let remaining = (cs * 10).max(0);
                let b = level(0, 1, inc).budget(Some(cs), 30);
                assert!(b.soft <= b.hard);
                assert!(ms(b.hard) <= (remaining - LAG_MS).max(0), "cs {cs} inc {inc}: {b:?}");
            }
        }
        // 0.5 s left, 0.1 s increment: well under the clock.
        let b = level(0, 1, 100).budget(Some(50), 60);
        assert!(ms(b.hard) <= 500 * 3 / 10 + 50);
        assert!(ms(b.soft) >= 50);
    }

    #[test]
    fn a_short_session_keeps_time_for_its_last_moves() {
        // level 20 0:04 near the end of a session: two moves to go with 0.15 s left must leave
        // the last move more than the latency.
        let tc = level(20, 4, 0);
        let b = tc.budget(Some(15), 18);
        assert!(150 - ms(b.hard) - LAG_MS > LAG_MS, "{b:?}");
    }

    #[test]
    fn negative_clock_gives_zero() {
        let b = level(40, 60, 0).budget(Some(-300), 10);
        assert_eq!(b.hard, Duration::ZERO);
    }

    #[test]
    fn sessions_spread_time_over_the_moves_to_go() {
        // level 40 5 0, first move: 300000 - 540 usable, less the latency of the 39 moves after
        // this one (20 ms each), / 40.
        let tc = level(40, 300, 0);
        let b = tc.budget(Some(30_000), 0);
        assert_eq!(ms(b.soft), (300_000 - 540 - 39 * 20) / 40);
        // Last move of the session may use most of the clock, but not all of it.
        let b = tc.budget(Some(500), 39);
        let usable = 5000 - 40 - 100;
        assert_eq!(ms(b.hard), usable * 90 / 100);
        // The counter wraps into the next session.
        assert_eq!(tc.budget(Some(30_000), 40), tc.budget(Some(30_000), 0));
    }

    #[test]
    fn unknown_clock_uses_base_and_limits_carry_sd_and_nps() {
        let mut tc = level(0, 60, 0);
        tc.depth = Some(7);
        tc.nps = Some(1000);
        let l = tc.limits(None, 0);
        assert_eq!(l.depth, Some(7));
        assert_eq!(l.nps, Some(1000));
        let b = l.time.unwrap();
        assert_eq!(ms(b.soft), (60_000 - 40 - 500) / 40);
        tc.nps = Some(0);
        assert_eq!(tc.limits(None, 0).nps, None);
    }
}
