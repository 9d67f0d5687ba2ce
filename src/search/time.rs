//! Search limits, and time allocation from a neutral clock (milliseconds left, increment, moves
//! to go). Each door converts its own clock commands into a `Clock` or a move time.
//!
//! A budget has a soft limit, the time a move should take (no new iteration after it; the search
//! stops earlier when its best move is stable, later when it changes or the score drops), and a
//! hard limit (abort now). The soft limit is a share of the time left for the moves up to a
//! horizon, their increments counted, growing as the game goes on, as strong engines spend it; the
//! hard limit is a few times that, never most of the clock. What a move costs beyond its thinking
//! (pipes, scheduling, a GUI's own work) is kept back for this move and each one to come, and a
//! GUI's per-move floor only where its clock reports have shown one (`engine::latency`): under a
//! precise referee the charge is the thinking time, and a reserve for a floor that is not there
//! would leave the clock unspent.

use std::time::Duration;

use crate::core::Move;

/// Kept back on every move for process start-up, pipes and scheduling (ms) before a door has
/// measured what the GUI charges.
pub const DEFAULT_OVERHEAD_MS: i64 = 40;
/// The least overhead kept once measured (ms): scheduling jitter the reports do not show.
pub const MIN_OVERHEAD_MS: i64 = 10;
/// The largest clock, increment or overhead taken at face value (about 35 years, in ms).
const MAX_CLOCK_MS: i64 = 1 << 40;

/// Time for one move.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct TimeBudget {
    /// Don't start a new iteration after this (scaled by best-move stability).
    pub soft: Duration,
    /// Abort the search at this point, once its first iteration is complete.
    pub hard: Duration,
    /// The most this move may take: a first iteration not yet complete runs on past `hard` up to
    /// this. A move played before one ply is searched is chosen blind, and can lose at once
    /// (Wild Rose's first moves at 1 s a game did) where one ply sees it.
    pub most: Duration,
}

impl TimeBudget {
    /// One time for every limit (`st`, `movetime`: an exact maximum).
    pub fn fixed(time: Duration) -> TimeBudget {
        TimeBudget {
            soft: time,
            hard: time,
            most: time,
        }
    }

    /// What is left of the budget once `spent` has gone by before the search began (the clock
    /// ran from the GUI's line: a busy machine, a stopped search).
    pub fn less(self, spent: Duration) -> TimeBudget {
        TimeBudget {
            soft: self.soft.saturating_sub(spent),
            hard: self.hard.saturating_sub(spent),
            most: self.most.saturating_sub(spent),
        }
    }
}

/// What the GUI charges on every move beyond the engine's thinking, as a door has measured it
/// (`engine::latency`).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct MoveCost {
    /// Added to a move's thinking: pipes, scheduling, the GUI's own work (ms).
    pub overhead_ms: i64,
    /// The least a move costs in all, however fast it is played (ms): XBoard reads a move only
    /// after animating the last one. 0 until a GUI's reports show such a floor; then kept for
    /// the moves still to come.
    pub least_ms: i64,
    /// No fast move has yet shown whether the GUI charges a floor: a floor shows only on a move
    /// that thinks less than it, which a long game's moves may not do until too late, so the
    /// budget answers this move fast (`PROBE_MS`) where the increment would not pay a floor.
    pub probe: bool,
}

impl From<i64> for MoveCost {
    /// An overhead alone, with no floor beyond it.
    fn from(overhead_ms: i64) -> MoveCost {
        MoveCost {
            overhead_ms,
            least_ms: 0,
            probe: false,
        }
    }
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
    /// Only these root moves are searched (a door's move filter); `None` = all legal moves.
    /// Moves not legal in the position are ignored; if none is left, all legal moves are searched.
    pub root_moves: Option<Vec<Move>>,
    /// Stop once an iteration proves a mate for the side to move in at most this many moves
    /// (UCI `go mate N`).
    pub mate: Option<u32>,
    /// Report this many best lines per iteration (UCI `MultiPV`); `None` or 1: the best only.
    /// The move played is always the first line's.
    pub multi_pv: Option<u32>,
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
            time: Some(TimeBudget::fixed(time)),
            ..Limits::default()
        }
    }
}

/// The clock of the side to move, as any door reports it (UCI `wtime`/`winc`/`movestogo`, CECP
/// `level` + `time`, a Zillions time limit): milliseconds, neutral of protocol.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Clock {
    /// Time left on the clock (may be negative: the flag has fallen, play at once).
    pub remaining_ms: i64,
    /// Added after each move.
    pub increment_ms: i64,
    /// Moves to the next time control, this one included; `None`: sudden death.
    pub moves_to_go: Option<u32>,
    /// Moves this side has played in the game (for the sudden-death estimate).
    pub moves_played: u32,
}

/// The budget for one move on `clock`, keeping back what this move and each one to come cost
/// beyond their thinking (`cost`).
pub fn clock_budget(clock: &Clock, cost: impl Into<MoveCost>) -> TimeBudget {
    let (soft, hard, most) = allocate(clock, cost.into());
    TimeBudget {
        soft: Duration::from_millis(soft as u64),
        hard: Duration::from_millis(hard as u64),
        most: Duration::from_millis(most as u64),
    }
}

/// A fixed time per move (`st`, `movetime`): use it, minus the overhead (at least half of it, for
/// tiny values).
pub fn movetime_budget(movetime_ms: u64, overhead_ms: i64) -> TimeBudget {
    let ms = movetime_ms.min(MAX_CLOCK_MS as u64) as i64;
    let hard = (ms - overhead_ms.clamp(0, MAX_CLOCK_MS)).max(ms / 2) as u64;
    TimeBudget::fixed(Duration::from_millis(hard))
}

/// The clock is planned over at most this many moves (this one included), with their increments:
/// in sudden death a game's length is unknown, and a session longer than this is spent as if it
/// ended here (the share of each move grows as the moves go by).
const HORIZON_MOVES: i64 = 50;
/// Sudden death: what a move costs beyond its thinking and the increment does not pay is kept for
/// this many moves to come on the first move, one fewer every two moves played, down to
/// `FLOOR_PAY_MOVES_MIN`: a game that goes on past the horizon is played fast, and charged its
/// overhead or the GUI's floor whatever the engine thinks (XBoard charging 140 ms a move takes
/// 20 s of a minute over 140 moves).
const FLOOR_PAY_MOVES: i64 = 140;
const FLOOR_PAY_MOVES_MIN: i64 = 60;
/// A probe move's thinking (ms): under every GUI floor measured (80-300 ms), so that the GUI's
/// charge shows it.
pub const PROBE_MS: i64 = 30;
/// An increment of at least this (ms) pays any GUI floor measured: no probe is needed.
const FLOOR_PAID_INC_MS: i64 = 300;
/// The cushion: this many increments and `CUSHION_MS` more, at most half the clock.
const CUSHION_INCREMENTS: i64 = 4;
const CUSHION_MS: i64 = 100;
/// Taken off the hard limit for the time between the search seeing its deadline and the move
/// leaving the process (ms).
const HARD_MARGIN_MS: i64 = 5;

/// Soft, hard and most limits (ms) for the move on `clock`.
fn allocate(clock: &Clock, cost: MoveCost) -> (i64, i64, i64) {
    // Clocks past decades mean "no limit" in practice; clamping keeps the arithmetic in range.
    let remaining = clock.remaining_ms.clamp(0, MAX_CLOCK_MS);
    let inc = clock.increment_ms.clamp(0, MAX_CLOCK_MS);
    let overhead = cost.overhead_ms.clamp(0, MAX_CLOCK_MS);
    let floor = cost.least_ms.clamp(0, MAX_CLOCK_MS);
    let played = i64::from(clock.moves_played);
    let session = clock.moves_to_go.map(|n| i64::from(n.max(1)));
    let horizon = session.map_or(HORIZON_MOVES, |n| n.min(HORIZON_MOVES));
    // Each move to come costs its overhead, over the horizon and in sudden death past it as far as
    // the increment does not pay it (a long game is played fast), and a GUI's floor charges every
    // move whatever it thinks.
    let beyond_horizon = match session {
        Some(_) => 0,
        None => ((FLOOR_PAY_MOVES - played / 2).max(FLOOR_PAY_MOVES_MIN) - horizon).max(0),
    };
    // Kept off the plan for a move that takes longer than it should (a loaded machine, a slow
    // pipe): a clock that lives on its increment is never planned down to nothing.
    let cushion = inc
        .saturating_mul(CUSHION_INCREMENTS)
        .saturating_add(CUSHION_MS)
        .min(remaining / 2);
    let usable = remaining - cushion;
    let time_left = usable
        .saturating_add(inc.saturating_mul(horizon - 1))
        .saturating_sub(overhead.saturating_mul(horizon + 2))
        .saturating_sub((overhead - inc).max(0).saturating_mul(beyond_horizon))
        .saturating_sub((floor - inc).max(0).saturating_mul(horizon - 1 + beyond_horizon))
        .max(usable / 20)
        .max(1);
    // The game ply, from this side's moves (which is all a door may know).
    let ply = 2.0 * played as f64;
    let remaining_f = usable as f64;
    let time_left_f = time_left as f64;
    let (optimum_share, max_scale) = match session {
        // A share that grows with the game's length, as a game that went on is nearer its end;
        // never more than a fifth of the clock.
        None => (
            (0.0170 + (ply + 3.0).powf(0.45) * 0.0035).min(0.2 * remaining_f / time_left_f),
            (4.0 + ply / 12.0).min(7.0),
        ),
        Some(_) => (
            ((0.88 + ply / 116.4) / horizon as f64).min(0.88 * remaining_f / time_left_f),
            (1.5 + 0.11 * horizon as f64).min(6.3),
        ),
    };
    let optimum = (optimum_share * time_left_f) as i64;
    // Never most of the clock, nor into the cushion beyond part of this move's increment; this
    // move's overhead kept.
    let cap = (remaining * 4 / 5)
        .min(usable.saturating_add(inc * 3 / 4))
        .saturating_sub(overhead + HARD_MARGIN_MS)
        .max(0);
    let hard = ((max_scale * optimum as f64) as i64).min(cap);
    if cost.probe && inc < FLOOR_PAID_INC_MS {
        let probe = PROBE_MS.min(optimum).min(cap);
        return (probe, probe, cap.max(probe));
    }
    // On a clock down to its cushion the increment is still thought on, in part.
    let soft = optimum.max((inc - overhead) / 2).min(cap);
    let hard = hard.max(soft);
    (soft, hard, cap.max(hard))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAG_MS: i64 = MIN_OVERHEAD_MS;

    fn ms(d: Duration) -> i64 {
        d.as_millis() as i64
    }

    fn sudden(remaining_ms: i64, increment_ms: i64, moves_played: u32) -> TimeBudget {
        let clock = Clock {
            remaining_ms,
            increment_ms,
            moves_to_go: None,
            moves_played,
        };
        clock_budget(&clock, LAG_MS)
    }

    fn session(remaining_ms: i64, moves_to_go: u32) -> TimeBudget {
        let clock = Clock {
            remaining_ms,
            increment_ms: 0,
            moves_to_go: Some(moves_to_go),
            moves_played: 0,
        };
        clock_budget(&clock, LAG_MS)
    }

    /// The first iteration's deadline: at least the hard limit, never most of the clock, and
    /// room for one ply where the plan has next to no time for the move (1 s + 0.01 s before the
    /// overhead is measured keeps 40 ms for each move to come: a soft limit of 1 ms).
    #[test]
    fn the_last_deadline_is_past_the_hard_one_within_the_clock() {
        for (remaining, inc) in [(1000, 10), (5000, 50), (60_000, 600), (100, 0), (30, 0), (0, 0)] {
            for played in [0, 20, 80] {
                let b = sudden(remaining, inc, played);
                assert!(b.most >= b.hard, "{remaining}+{inc}: {b:?}");
                assert!(ms(b.most) <= remaining * 4 / 5, "{remaining}+{inc}: {b:?}");
            }
        }
        let first = Clock {
            remaining_ms: 1000,
            increment_ms: 10,
            moves_to_go: None,
            moves_played: 0,
        };
        let b = clock_budget(&first, DEFAULT_OVERHEAD_MS);
        assert!(ms(b.hard) < 10 && ms(b.most) >= 500, "{b:?}");
        let fixed = movetime_budget(2000, LAG_MS);
        assert_eq!(fixed.most, fixed.hard, "a fixed time is an exact maximum");
    }

    #[test]
    fn movetime_is_an_exact_maximum_minus_latency() {
        let b = movetime_budget(2000, LAG_MS);
        assert_eq!(ms(b.hard), 2000 - LAG_MS);
        assert_eq!(b.soft, b.hard);
        // Tiny move time: half of it.
        assert_eq!(ms(movetime_budget(10, LAG_MS).hard), 5);
        // Huge values are clamped, never overflow.
        assert_eq!(ms(movetime_budget(u64::MAX, LAG_MS).hard), MAX_CLOCK_MS - LAG_MS);
        assert_eq!(ms(movetime_budget(100, i64::MAX).hard), 50);
    }

    #[test]
    fn a_move_of_sudden_death_with_increment_spends_a_share_of_what_is_left() {
        // 5 s + 0.05 s at the start: about 2.3 % of the clock less its cushion (4 increments and
        // 0.1 s) and the 49 increments to come, less the overhead of 52 moves; an unfinished
        // iteration may take four times that.
        let b = sudden(5_000, 50, 0);
        let time_left = 5_000 - 300 + 49 * 50 - 52 * LAG_MS;
        assert_eq!(
            ms(b.soft),
            (time_left as f64 * (0.017 + 3f64.powf(0.45) * 0.0035)) as i64
        );
        assert_eq!(ms(b.hard), (ms(b.soft) as f64 * 4.0) as i64);
        // Later in the game a move gets a larger share of what is left.
        let later = sudden(5_000, 50, 30);
        assert!(later.soft > b.soft * 3 / 2, "{later:?} {b:?}");
    }

    #[test]
    fn the_hard_limit_is_never_most_of_the_clock() {
        for remaining in [0, 10, 50, 100, 300, 1_000, 10_000, 600_000] {
            for inc in [0, 10, 100, 1_000, 10_000] {
                for moves_to_go in [None, Some(1), Some(2), Some(40)] {
                    let clock = Clock {
                        remaining_ms: remaining,
                        increment_ms: inc,
                        moves_to_go,
                        moves_played: 20,
                    };
                    let b = clock_budget(&clock, LAG_MS);
                    assert!(b.soft <= b.hard, "{clock:?}: {b:?}");
                    assert!(ms(b.hard) <= (remaining * 4 / 5 - LAG_MS).max(0), "{clock:?}: {b:?}");
                }
            }
        }
    }

    #[test]
    fn a_gui_floor_is_kept_for_the_moves_to_come() {
        let clock = Clock {
            remaining_ms: 60_000,
            increment_ms: 0,
            moves_to_go: None,
            moves_played: 0,
        };
        let exact = clock_budget(&clock, LAG_MS);
        let floored = clock_budget(
            &clock,
            MoveCost {
                overhead_ms: LAG_MS,
                least_ms: 175,
                probe: false,
            },
        );
        // 139 moves to come at 175 ms are kept back.
        assert!(floored.soft < exact.soft, "{floored:?} {exact:?}");
        // An increment that pays the floor keeps nothing more for it.
        let paid = Clock {
            increment_ms: 200,
            ..clock
        };
        let with_floor = MoveCost {
            overhead_ms: LAG_MS,
            least_ms: 150,
            probe: false,
        };
        assert_eq!(clock_budget(&paid, with_floor), clock_budget(&paid, LAG_MS));
    }

    #[test]
    fn a_probe_answers_fast_unless_the_increment_pays_any_floor() {
        let probe = MoveCost {
            overhead_ms: LAG_MS,
            least_ms: 0,
            probe: true,
        };
        let clock = Clock {
            remaining_ms: 60_000,
            increment_ms: 0,
            moves_to_go: None,
            moves_played: 1,
        };
        let b = clock_budget(&clock, probe);
        assert_eq!((ms(b.soft), ms(b.hard)), (PROBE_MS, PROBE_MS));
        // Never more than the move would have had.
        let tiny = Clock {
            remaining_ms: 200,
            ..clock
        };
        assert!(clock_budget(&tiny, probe).hard <= clock_budget(&tiny, LAG_MS).soft);
        let paid = Clock {
            increment_ms: FLOOR_PAID_INC_MS,
            ..clock
        };
        assert_eq!(clock_budget(&paid, probe), clock_budget(&paid, LAG_MS));
    }

    #[test]
    fn a_larger_overhead_is_kept_back() {
        let clock = Clock {
            remaining_ms: 2000,
            increment_ms: 0,
            moves_to_go: Some(10),
            moves_played: 0,
        };
        let small = clock_budget(&clock, 10);
        let large = clock_budget(&clock, 150);
        assert!(large.soft < small.soft, "{small:?} {large:?}");
        assert!(ms(large.soft) * 10 + 11 * 150 <= 2000, "{large:?}");
    }

    #[test]
    fn sessions_spread_time_over_the_moves_to_go() {
        // 40 moves in 5 minutes, first move: 0.88 / 40 of the clock less its cushion and 42
        // overheads.
        let b = session(300_000, 40);
        assert_eq!(ms(b.soft), ((300_000 - 100 - 42 * LAG_MS) as f64 * 0.88 / 40.0) as i64);
        // The last move of a session may use most of the clock, but not all of it.
        let b = session(5000, 1);
        assert_eq!(ms(b.hard), 5000 * 4 / 5 - LAG_MS - HARD_MARGIN_MS);
        assert!(b.soft <= b.hard);
        // Two moves to go with 0.15 s left leave the last move more than its overhead.
        let b = session(150, 2);
        assert!(150 - ms(b.hard) - LAG_MS > LAG_MS, "{b:?}");
    }

    #[test]
    fn negative_clock_gives_zero() {
        assert_eq!(session(-3000, 30).hard, Duration::ZERO);
        assert_eq!(sudden(-3000, 100, 5).hard, Duration::ZERO);
    }

    #[test]
    fn extreme_clocks_do_not_overflow() {
        for remaining in [i64::MIN, -1, 0, 1, i64::MAX] {
            for inc in [i64::MIN, 0, i64::MAX] {
                for mtg in [None, Some(0), Some(1), Some(u32::MAX)] {
                    for least in [i64::MIN, 0, i64::MAX] {
                        let clock = Clock {
                            remaining_ms: remaining,
                            increment_ms: inc,
                            moves_to_go: mtg,
                            moves_played: u32::MAX,
                        };
                        for overhead in [i64::MIN, LAG_MS, i64::MAX] {
                            let b = clock_budget(
                                &clock,
                                MoveCost {
                                    overhead_ms: overhead,
                                    least_ms: least,
                                    probe: least == 0,
                                },
                            );
                            assert!(b.soft <= b.hard);
                        }
                    }
                }
            }
        }
    }
}
