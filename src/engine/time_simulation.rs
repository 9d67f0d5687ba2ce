//! Whole games played on a simulated clock: the budget (`search::time`), the overhead learnt from
//! the referee's clock reports (`engine::latency`) and a referee that charges each move, either
//! exactly (a match runner, cutechess-cli: the thinking and a few ms of pipes) or with a floor
//! (XBoard reading a move only after animating the last one). They check the two things a clock
//! must do at once: spend the time under a precise referee, and never flag under a slow GUI.

use crate::engine::latency::OverheadEstimator;
use crate::search::{Clock, MIN_OVERHEAD_MS, clock_budget};

/// A time control: `base_ms` per session of `moves_per_session` moves (`None`: sudden death),
/// `inc_ms` after every move.
#[derive(Copy, Clone, Debug)]
struct Control {
    base_ms: i64,
    inc_ms: i64,
    moves_per_session: Option<u32>,
}

const fn sudden_death(base_ms: i64, inc_ms: i64) -> Control {
    Control {
        base_ms,
        inc_ms,
        moves_per_session: None,
    }
}

/// What the referee charges a move that thought `thought` ms.
#[derive(Copy, Clone, Debug)]
enum Referee {
    /// The thinking and `lag_ms` more.
    Precise { lag_ms: i64 },
    /// At least `floor_ms` however fast the move, and `lag_ms` more.
    Floor { floor_ms: i64, lag_ms: i64 },
    /// The thinking and, move after move in turn, these lags: a loaded machine, where the
    /// scheduler now and then keeps the engine or the referee waiting.
    Loaded { lags_ms: &'static [i64] },
}

impl Referee {
    fn charge(self, thought: i64, move_number: u32) -> i64 {
        match self {
            Referee::Precise { lag_ms } => thought + lag_ms,
            Referee::Floor { floor_ms, lag_ms } => thought.max(floor_ms) + lag_ms,
            Referee::Loaded { lags_ms } => thought + lags_ms[move_number as usize % lags_ms.len()],
        }
    }
}

/// Where iterative deepening stops, as multiples of the soft limit, in turn (a stable best move
/// stops early, a changing one late, and some iterations run to the hard limit).
const THINK_SHARES: [f64; 8] = [0.55, 0.75, 0.9, 1.1, 1.35, 1.75, 0.75, f64::INFINITY];
/// A search overruns its hard limit by this much (ms) before it sees the deadline.
const OVERRUN_MS: i64 = 2;

/// How a game went for the simulated engine.
#[derive(Debug)]
struct Played {
    /// The move (from 1) on which the clock ran out.
    flagged_at: Option<u32>,
    /// The time thought in all (ms).
    thought_ms: i64,
    /// The clock's whole time over the moves played: base, sessions and increments (ms).
    given_ms: i64,
    /// The least the clock showed after a move (ms).
    lowest_ms: i64,
}

impl Played {
    /// The share of the time given that was thought (percent).
    fn spent_percent(&self) -> i64 {
        self.thought_ms * 100 / self.given_ms.max(1)
    }
}

/// Plays `moves` moves of one side. With `ponder_hit_every`, every n-th move is a ponder hit,
/// answered within 5 ms.
fn play(control: Control, referee: Referee, moves: u32, ponder_hit_every: Option<u32>) -> Played {
    let mut lag = OverheadEstimator::new(MIN_OVERHEAD_MS);
    let mut remaining = control.base_ms;
    let mut played = Played {
        flagged_at: None,
        thought_ms: 0,
        given_ms: control.base_ms,
        lowest_ms: remaining,
    };
    for n in 0..moves {
        let moves_to_go = control.moves_per_session.map(|mps| mps - n % mps);
        let clock = Clock {
            remaining_ms: remaining,
            increment_ms: control.inc_ms,
            moves_to_go,
            moves_played: n,
        };
        let budget = clock_budget(&clock, lag.move_cost());
        let soft = budget.soft.as_millis() as f64;
        let hard = budget.hard.as_millis() as i64;
        let share = THINK_SHARES[n as usize % THINK_SHARES.len()];
        let thought = if ponder_hit_every.is_some_and(|k| n % k == k - 1) {
            5.min(hard)
        } else {
            ((soft * share).min(hard as f64) as i64).min(hard)
        } + OVERRUN_MS;
        let charged = referee.charge(thought, n);
        played.thought_ms += thought;
        if charged > remaining {
            played.flagged_at = Some(n + 1);
            return played;
        }
        let expected = remaining - thought + control.inc_ms;
        remaining += control.inc_ms - charged;
        played.given_ms += control.inc_ms;
        played.lowest_ms = played.lowest_ms.min(remaining);
        if moves_to_go == Some(1) {
            // A new session: its time says nothing of the overhead.
            remaining += control.base_ms;
            if n + 1 < moves {
                played.given_ms += control.base_ms;
            }
        } else {
            lag.observe(expected, remaining, thought);
        }
    }
    played
}

const EXACT: Referee = Referee::Precise { lag_ms: 1 };

#[test]
fn a_precise_referee_sees_the_clock_spent() {
    // (control, moves, the least share of the time given that is thought, in percent):
    // about 60 moves of a side is a long game; a clock meant to last past it keeps some.
    let cases = [
        (sudden_death(1_000, 10), 60, 75),
        (sudden_death(5_000, 50), 60, 85),
        (sudden_death(10_000, 100), 60, 85),
        (sudden_death(60_000, 600), 60, 85),
        (
            Control {
                base_ms: 120_000,
                inc_ms: 0,
                moves_per_session: Some(40),
            },
            40,
            90,
        ),
    ];
    for (control, moves, least_percent) in cases {
        let played = play(control, EXACT, moves, None);
        assert_eq!(played.flagged_at, None, "{control:?}: {played:?}");
        assert!(played.spent_percent() >= least_percent, "{control:?}: {played:?}");
    }
}

#[test]
fn a_precise_referee_never_flags_in_long_games() {
    for control in [
        sudden_death(1_000, 10),
        sudden_death(5_000, 50),
        sudden_death(10_000, 100),
        sudden_death(60_000, 600),
        sudden_death(15_000, 0),
        sudden_death(60_000, 0),
        Control {
            base_ms: 120_000,
            inc_ms: 0,
            moves_per_session: Some(40),
        },
    ] {
        for lag_ms in [1, 5, 30] {
            if (lag_ms - control.inc_ms) * 150 > control.base_ms / 2 {
                // Pipes alone would take half the clock: no engine lasts such a game.
                continue;
            }
            let played = play(control, Referee::Precise { lag_ms }, 150, None);
            assert_eq!(played.flagged_at, None, "{control:?}, {lag_ms} ms: {played:?}");
        }
    }
}

/// Slow GUIs in sudden death: (control, floor, moves of a side). 1 min: 150 moves; 15 s: a
/// 150-ply game (a 120 ms floor over 150 moves of a side is more than the 15 s clock whatever
/// the engine thinks).
const SLOW_GUIS: [(Control, i64, u32); 6] = [
    (sudden_death(15_000, 0), 120, 75),
    (sudden_death(15_000, 0), 180, 75),
    (sudden_death(60_000, 0), 120, 150),
    (sudden_death(60_000, 0), 200, 150),
    (sudden_death(60_000, 0), 300, 150),
    (sudden_death(60_000, 100), 300, 150),
];

fn assert_no_flag_under_slow_guis(ponder_hit_every: Option<u32>) {
    for (control, floor_ms, moves) in SLOW_GUIS {
        let referee = Referee::Floor { floor_ms, lag_ms: 5 };
        let played = play(control, referee, moves, ponder_hit_every);
        assert_eq!(played.flagged_at, None, "{control:?}, floor {floor_ms} ms: {played:?}");
    }
}

#[test]
fn a_slow_gui_never_flags_when_its_floor_shows() {
    // XBoard with pondering on: every fourth move a ponder hit answered at once
    // shows the floor early.
    assert_no_flag_under_slow_guis(Some(4));
}

#[test]
fn without_pondering_the_probe_move_shows_the_floor() {
    // No ponder hits: a long game's moves think longer than the floor until the clock is low,
    // too late to keep it for the moves to come (a 15 s game flagged at move 71, a minute's at
    // move 68-80, before the probe); the second move, answered fast, shows it.
    assert_no_flag_under_slow_guis(None);
}

#[test]
fn a_long_game_on_the_increment_survives_a_loaded_machine() {
    // 350 moves of a side living on the increment, the lag mostly a few ms, now and then 25-40 ms
    // (10.5 ms on average: an increment below that is lost whatever the engine thinks).
    const LAGS: [i64; 10] = [3, 4, 12, 3, 25, 4, 3, 40, 5, 6];
    for control in [
        sudden_death(2_000, 20),
        sudden_death(1_000, 15),
        sudden_death(5_000, 50),
    ] {
        let played = play(control, Referee::Loaded { lags_ms: &LAGS }, 350, None);
        assert_eq!(played.flagged_at, None, "{control:?}: {played:?}");
    }
}
