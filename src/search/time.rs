//! Search limits, and time allocation from a neutral clock (milliseconds left, increment, moves
//! to go). Each door converts its own clock commands into a `Clock` or a move time.
//!
//! A budget has a soft limit (no new iteration after it; the search may stop earlier when its best
//! move is stable, or run somewhat longer when it is not) and a hard limit (abort now). Both keep a
//! reserve for the latency between our `move` and the GUI stopping our clock, so that even tiny
//! clocks never run out.

use std::time::Duration;

use crate::core::Move;

/// Kept back on every move for process start-up, pipes and scheduling (ms), until a door has
/// measured more.
pub const DEFAULT_OVERHEAD_MS: i64 = 40;
/// The largest clock, increment or overhead taken at face value (about 35 years, in ms).
const MAX_CLOCK_MS: i64 = 1 << 40;
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

/// What the GUI charges on every move beyond the engine's thinking, as a door has measured it
/// (`engine::latency`).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct MoveCost {
    /// Added to a move's thinking: pipes, scheduling, the GUI's own work (ms).
    pub overhead_ms: i64,
    /// The least a move costs in all, however fast it is played (ms): XBoard reads a move only
    /// after animating the last one. Kept for every move still to come.
    pub least_ms: i64,
}

impl From<i64> for MoveCost {
    /// An overhead alone, with no floor beyond it.
    fn from(overhead_ms: i64) -> MoveCost {
        MoveCost {
            overhead_ms,
            least_ms: 0,
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
            time: Some(TimeBudget { soft: time, hard: time }),
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

/// The budget for one move on `clock`, keeping the overhead back on this move, and on every move
/// still to come the overhead or the least a move costs, whichever is more, for what the GUI, the
/// pipes and the scheduler charge on top of our thinking time.
pub fn clock_budget(clock: &Clock, cost: impl Into<MoveCost>) -> TimeBudget {
    let cost = cost.into();
    let half_played = (clock.moves_played / 2) as i64;
    let mtg = match clock.moves_to_go {
        Some(n) => MovesToGo::Session(n.max(1)),
        None => MovesToGo::SuddenDeath {
            think: (SUDDEN_DEATH_THINK_MOVES - half_played).max(SUDDEN_DEATH_THINK_MOVES_MIN) as u32,
            pay: (SUDDEN_DEATH_PAY_MOVES - half_played).max(SUDDEN_DEATH_PAY_MOVES_MIN) as u32,
        },
    };
    let (soft, hard) = allocate(clock.remaining_ms, clock.increment_ms.max(0), mtg, cost);
    TimeBudget {
        soft: Duration::from_millis(soft as u64),
        hard: Duration::from_millis(hard as u64),
    }
}

/// A fixed time per move (`st`, `movetime`): use it, minus the overhead (at least half of it, for
/// tiny values).
pub fn movetime_budget(movetime_ms: u64, overhead_ms: i64) -> TimeBudget {
    let ms = movetime_ms.min(MAX_CLOCK_MS as u64) as i64;
    let hard = (ms - overhead_ms.clamp(0, MAX_CLOCK_MS)).max(ms / 2) as u64;
    let t = Duration::from_millis(hard);
    TimeBudget { soft: t, hard: t }
}

/// Sudden death, first move: the clock is shared as if this many moves were still to play; the
/// count falls by one every two moves played, down to `SUDDEN_DEATH_THINK_MOVES_MIN`.
const SUDDEN_DEATH_THINK_MOVES: i64 = 60;
const SUDDEN_DEATH_THINK_MOVES_MIN: i64 = 40;
/// Sudden death, first move: the overhead the increment does not pay is kept for this many moves
/// (falling in the same way, down to `SUDDEN_DEATH_PAY_MOVES_MIN`): a GUI charging 90 ms a move
/// (XBoard animating its moves, issue 15) takes 9 s of a 15 s clock over 100 moves, and 200 ms a
/// move on a loaded machine 24 s of a minute over 120, whatever the engine thinks. A game that
/// goes on past the estimate lives on the reserve for as many moves again, at a few ms of
/// thought a move.
const SUDDEN_DEATH_PAY_MOVES: i64 = 140;
const SUDDEN_DEATH_PAY_MOVES_MIN: i64 = 60;

/// How many moves the remaining time must last.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum MovesToGo {
    /// Exactly this many moves to the next time control (this one included).
    Session(u32),
    /// No control ahead: the thinking time is shared over `think` moves, and the overhead of
    /// `pay` moves is kept back.
    SuddenDeath { think: u32, pay: u32 },
}

/// Soft and hard limits in ms from the clock (ms, may be negative), the increment (ms) and what
/// a move costs beyond its thinking.
fn allocate(remaining_ms: i64, inc_ms: i64, mtg: MovesToGo, cost: MoveCost) -> (i64, i64) {
    // Clocks past decades mean "no limit" in practice; clamping keeps the arithmetic in range.
    let remaining = remaining_ms.clamp(0, MAX_CLOCK_MS);
    let inc_ms = inc_ms.clamp(0, MAX_CLOCK_MS);
    let lag_ms = cost.overhead_ms.clamp(0, MAX_CLOCK_MS);
    // Each move to come costs its overhead, or the GUI's floor if that is more (thinking under
    // the floor is not charged twice, but the moves to come are played fast: keep the floor).
    let future_ms = lag_ms.max(cost.least_ms.clamp(0, MAX_CLOCK_MS));
    let reserve = lag_ms + (remaining / 50).min(MAX_FRACTION_RESERVE_MS);
    let usable = (remaining - reserve).max(0);
    // Every move also costs the GUI's and the pipes' latency, which the increment has to pay for
    // first: on a short clock with a small increment, spending the whole increment drains it.
    let inc = (inc_ms - lag_ms).max(0);
    let inc_part = inc * 3 / 4;
    let (ideal, cap) = match mtg {
        MovesToGo::Session(n) => {
            let n = n.max(1) as i64;
            // The moves after this one each cost latency too: keep it for them.
            let usable = usable
                .saturating_sub((n - 1).saturating_mul(future_ms) / 2)
                .max(usable / (2 * n));
            let cap_frac = match n {
                1 => 90,
                2 => 60,
                3 => 45,
                _ => 35,
            };
            (usable / n + inc_part, usable * cap_frac / 100 + inc / 2)
        }
        MovesToGo::SuddenDeath { think, pay } => {
            let n = think.max(1) as i64;
            let pay = (pay.max(1) as i64).max(n);
            // The moves still to come each cost the overhead too, as far as the increment does
            // not pay it: keep it for them.
            // A quarter of the clock stays for thinking whatever the overhead: on 1 s + 0.01 s
            // with the default overhead kept for the moves to come more than the clock, a floor
            // of `usable / (2n)` (then shared over n moves again) left 0 ms a move (first legal
            // move played, soak of issue 15).
            let unpaid = (future_ms - inc_ms).max(0);
            let usable = usable.saturating_sub((pay - 1).saturating_mul(unpaid)).max(usable / 4);
            // An iteration under way is finished up to the hard limit: three times the share,
            // not four, or a run of such moves spends the clock of the moves to come.
            let share = usable / n + inc_part;
            (share, (usable * 3 / 10 + inc / 2).min(share.saturating_mul(3)))
        }
    };
    let cap = cap.min(usable);
    let soft = ideal.min(cap);
    let hard = (ideal * 4).min(cap).max(soft);
    (soft, hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAG_MS: i64 = DEFAULT_OVERHEAD_MS;

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

    #[test]
    fn movetime_is_an_exact_maximum_minus_latency() {
        let b = movetime_budget(2000, LAG_MS);
        assert_eq!(ms(b.hard), 2000 - LAG_MS);
        assert_eq!(b.soft, b.hard);
        // Tiny move time: half of it.
        assert_eq!(ms(movetime_budget(50, LAG_MS).hard), 25);
        // Huge values are clamped, never overflow.
        assert_eq!(ms(movetime_budget(u64::MAX, LAG_MS).hard), MAX_CLOCK_MS - LAG_MS);
        assert_eq!(ms(movetime_budget(100, i64::MAX).hard), 50);
    }

    #[test]
    fn the_least_charge_changes_nothing_at_one_second_plus_ten_ms() {
        // The soak's refereed games: at 1 s + 0.01 s, on clocks up to 2 s, the default overhead
        // kept for the moves to come already exceeds the clock, so a quarter of it is shared,
        // with or without XBoard's floor kept (the least charge before any evidence, with its
        // margin). Past about 2.4 s late in a game the floor keeps a little more.
        let floor = MoveCost {
            overhead_ms: LAG_MS,
            least_ms: 125,
        };
        for remaining_ms in (0..=2_000).step_by(25) {
            for moves_played in 0..200 {
                let clock = Clock {
                    remaining_ms,
                    increment_ms: 10,
                    moves_to_go: None,
                    moves_played,
                };
                assert_eq!(clock_budget(&clock, floor), clock_budget(&clock, LAG_MS), "{clock:?}");
            }
        }
        // Where the overhead does not exceed the clock, the floor is kept.
        let minute = Clock {
            remaining_ms: 60_000,
            increment_ms: 0,
            moves_to_go: None,
            moves_played: 0,
        };
        assert!(clock_budget(&minute, floor).soft < clock_budget(&minute, LAG_MS).soft);
    }

    #[test]
    fn sudden_death_with_increment() {
        // 10 s + 0.1 s at the start: 9760 ms usable / 60 moves + 3/4 of the increment left after
        // the per-move latency (100 - 40 ms); an unfinished iteration may take three times that.
        let b = sudden(10_000, 100, 0);
        assert_eq!(ms(b.soft), 9760 / 60 + 45);
        assert_eq!(ms(b.hard), (9760 / 60 + 45) * 3);
        assert!(b.hard < Duration::from_millis(9760 * 3 / 10 + 30));
    }

    #[test]
    fn a_short_clock_lives_on_its_increment() {
        // 0.12 s left and 0.03 s increment: the increment only pays the latency, so the move must
        // be nearly free, or the clock drains move after move.
        let b = sudden(120, 30, 40);
        assert!(ms(b.soft) <= 5 && ms(b.hard) <= 12, "{b:?}");
    }

    #[test]
    fn a_one_second_clock_still_thinks() {
        // 1 s + 0.01 s: the default overhead kept for 140 moves (140 x 30 ms) is more than the
        // clock; a quarter of it is still shared out (it was 0 ms, and the engine played its
        // first move).
        let b = sudden(1000, 10, 0);
        assert_eq!(ms(b.soft), (1000 - LAG_MS - 20) / 4 / 60);
        assert!(ms(b.soft) >= 3 && b.hard >= b.soft, "{b:?}");
        // Once a quick GUI's 5 ms was measured, the increment pays it and the clock is shared.
        let quick = |remaining_ms, moves_played| {
            let clock = Clock {
                remaining_ms,
                increment_ms: 10,
                moves_to_go: None,
                moves_played,
            };
            clock_budget(&clock, 5)
        };
        assert!(ms(quick(1000, 0).soft) >= 15, "{:?}", quick(1000, 0));
        assert!(ms(quick(400, 60).soft) >= 10, "{:?}", quick(400, 60));
    }

    #[test]
    fn tiny_clocks_never_overrun() {
        for remaining in [-5000, -10, 0, 10, 50, 100, 300, 500, 1000] {
            for inc in [0, 100, 1000] {
                let b = sudden(remaining, inc, 30);
                assert!(b.soft <= b.hard);
                assert!(
                    ms(b.hard) <= (remaining - LAG_MS).max(0),
                    "{remaining} ms inc {inc}: {b:?}"
                );
            }
        }
        // 0.5 s left, 0.1 s increment: well under the clock.
        let b = sudden(500, 100, 60);
        assert!(ms(b.hard) <= 500 * 3 / 10 + 50);
        assert!(ms(b.soft) >= 50);
    }

    #[test]
    fn a_larger_overhead_is_kept_back() {
        let clock = Clock {
            remaining_ms: 2000,
            increment_ms: 0,
            moves_to_go: Some(10),
            moves_played: 0,
        };
        let small = clock_budget(&clock, 40);
        let large = clock_budget(&clock, 150);
        assert!(large.hard < small.hard, "{small:?} {large:?}");
        // At its pace, ten moves leave half the overhead for each later move and all of it for this one.
        assert!(ms(large.soft) * 10 + 9 * 75 + 150 <= 2000, "{large:?}");
    }

    /// Sudden death with a GUI that charges at least 120 ms a move (XBoard reads our move only
    /// after animating the last one, issue 15): the overhead of the moves to come is kept back,
    /// so that a 15 s clock lasts a 100-move game, and a minute 120 moves of a loaded machine's
    /// 200 ms (simulated: the GUI charges the think time, up to the hard limit, or its overhead
    /// if more, and a few ms on top). The 15 s game flagged at move 60 before the thinking was
    /// shared over 60 moves and the overhead kept for 140.
    #[test]
    fn sudden_death_keeps_the_overhead_of_the_moves_to_come() {
        for (clock_ms, floor, moves) in [(15_000, 120, 100), (60_000, 200, 120)] {
            for overshoot in [10, 20, 30] {
                let mut remaining = clock_ms;
                for played in 0..moves {
                    let clock = Clock {
                        remaining_ms: remaining,
                        increment_ms: 0,
                        moves_to_go: None,
                        moves_played: played,
                    };
                    let b = clock_budget(&clock, floor + floor / 4);
                    let thought = (ms(b.soft) * overshoot / 10).min(ms(b.hard));
                    remaining -= thought.max(floor) + 5;
                    assert!(
                        remaining > 0,
                        "{clock_ms} ms, {floor} ms a move: flag at move {played}, thinking {overshoot}/10 of the share"
                    );
                }
            }
        }
        // With the overhead paid by the increment, nothing more is kept.
        let with_inc = Clock {
            remaining_ms: 10_000,
            increment_ms: 200,
            moves_to_go: None,
            moves_played: 0,
        };
        assert_eq!(ms(clock_budget(&with_inc, 150).soft), (10_000 - 150 - 200) / 60 + 37);
    }

    #[test]
    fn a_short_session_keeps_time_for_its_last_moves() {
        // Two moves to go with 0.15 s left must leave the last move more than the latency.
        let b = session(150, 2);
        assert!(150 - ms(b.hard) - LAG_MS > LAG_MS, "{b:?}");
    }

    #[test]
    fn negative_clock_gives_zero() {
        assert_eq!(session(-3000, 30).hard, Duration::ZERO);
    }

    #[test]
    fn extreme_clocks_do_not_overflow() {
        for remaining in [i64::MIN, i64::MAX] {
            for inc in [i64::MIN, 0, i64::MAX] {
                for mtg in [None, Some(0), Some(1), Some(u32::MAX)] {
                    let clock = Clock {
                        remaining_ms: remaining,
                        increment_ms: inc,
                        moves_to_go: mtg,
                        moves_played: u32::MAX,
                    };
                    let b = clock_budget(&clock, i64::MAX);
                    assert!(b.soft <= b.hard);
                    let b = clock_budget(&clock, LAG_MS);
                    assert!(b.soft <= b.hard);
                }
            }
        }
    }

    #[test]
    fn sessions_spread_time_over_the_moves_to_go() {
        // 40 moves in 5 minutes, first move: 300000 - 540 usable, less the latency of the 39
        // moves after this one (20 ms each), / 40.
        let b = session(300_000, 40);
        assert_eq!(ms(b.soft), (300_000 - 540 - 39 * 20) / 40);
        // Last move of the session may use most of the clock, but not all of it.
        let b = session(5000, 1);
        let usable = 5000 - 40 - 100;
        assert_eq!(ms(b.hard), usable * 90 / 100);
    }
}
