//! Time controls as cutechess-cli writes them, and the clocks the referee keeps.
//!
//! `tc=[MOVES/]TIME[+INC]` — TIME in seconds (`60`, `2.5`) or `min:sec` (`1:30`); MOVES per
//! session (the clock gets TIME again after every MOVES moves), INC seconds added after each move.
//! `st=SECONDS` — a fixed time per move; nothing accumulates. Every time is at most
//! [`MAX_SECONDS`] (a year): larger values are refused, not clamped, because a typo like `tc=1e20`
//! is better reported than silently played as something else.
//!
//! The referee measures every move itself, from the moment the last command before it was written
//! to the moment the `move` line arrived. A side whose clock falls below zero by more than the
//! time margin (a flag, default 50 ms) loses on time; with `st` the move may take at most
//! `st + margin`.

use std::fmt;
use std::time::Duration;

use crate::protocol::xboard::command::Command;

/// A time control.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// `moves` per session (0 = the whole game), `base` seconds per session, `inc` per move.
    Clock { moves: u32, base: f64, inc: f64 },
    /// At most this many seconds per move.
    PerMove(f64),
}

/// The longest time (base, increment or time per move) a time control may give: a year. Clocks
/// and deadlines stay far inside what `Duration` and `Instant` can hold.
pub const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

fn seconds(text: &str) -> Result<f64, String> {
    let value = match text.split_once(':') {
        Some((m, s)) => {
            let m: u32 = m.parse().map_err(|_| format!("bad minutes in \"{text}\""))?;
            let s: f64 = s.parse().map_err(|_| format!("bad seconds in \"{text}\""))?;
            f64::from(m) * 60.0 + s
        }
        None => text.parse().map_err(|_| format!("bad time \"{text}\""))?,
    };
    if !(value.is_finite() && value >= 0.0) {
        return Err(format!("bad time \"{text}\""));
    }
    if value > MAX_SECONDS {
        return Err(format!("time \"{text}\" is above a year ({MAX_SECONDS} s)"));
    }
    Ok(value)
}

impl TimeControl {
    /// Parses `[MOVES/]TIME[+INC]`.
    ///
    /// # Errors
    ///
    /// Not a time control (`[moves/]seconds[+increment]`, or `inf`), or a time above a year.
    pub fn parse_tc(text: &str) -> Result<TimeControl, String> {
        let bad = |why: &str| format!("invalid time control \"{text}\": {why}");
        let (moves, rest) = match text.split_once('/') {
            // cutechess-cli's `inf/40+0.4`: no moves per session, the whole game.
            Some(("inf", r)) => (0, r),
            Some((m, r)) => (m.parse::<u32>().map_err(|_| bad("moves must be a whole number"))?, r),
            None => (0, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (seconds(b).map_err(|e| bad(&e))?, seconds(i).map_err(|e| bad(&e))?),
            None => (seconds(rest).map_err(|e| bad(&e))?, 0.0),
        };
        if base <= 0.0 && inc <= 0.0 {
            return Err(bad("no time at all"));
        }
        Ok(TimeControl::Clock { moves, base, inc })
    }

    /// cutechess-cli's `tc=inf`: no clock; the engine's `depth=` or `nodes=` ends its search. The
    /// referee gives each move a year (CECP `st`, UCI `go movetime`), so nothing here is unbounded.
    pub fn infinite() -> TimeControl {
        TimeControl::PerMove(MAX_SECONDS)
    }

    pub fn is_infinite(&self) -> bool {
        *self == TimeControl::infinite()
    }

    /// Parses the seconds of `st=SECONDS`.
    ///
    /// # Errors
    ///
    /// Not a positive number of seconds, or one above a year.
    pub fn parse_st(text: &str) -> Result<TimeControl, String> {
        match text.parse::<f64>() {
            Ok(s) if s.is_finite() && s > MAX_SECONDS => Err(format!(
                "invalid time per move \"{text}\": above a year ({MAX_SECONDS} s)"
            )),
            Ok(s) if s.is_finite() && s > 0.0 => Ok(TimeControl::PerMove(s)),
            _ => Err(format!("invalid time per move \"{text}\"")),
        }
    }

    /// The CECP command that announces this time control: `level MPS BASE INC` (BASE rounded up
    /// to whole seconds, written in minutes or `min:sec`; `time`/`otim` carry the exact clocks)
    /// or `st T`; fractions to the millisecond.
    pub fn command(&self) -> Command {
        let ms = |x: f64| (x * 1000.0).round() / 1000.0;
        match *self {
            TimeControl::Clock { moves, base, inc } => Command::Level {
                moves_per_session: moves,
                base_seconds: base.ceil(),
                increment_seconds: ms(inc),
            },
            TimeControl::PerMove(s) => Command::MoveTime { seconds: ms(s) },
        }
    }
}

/// `0.5` → "0.5", `3.0` → "3", `0.030` → "0.03".
fn trim_float(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() { "0".to_string() } else { s.to_string() }
}

impl fmt::Display for TimeControl {
    /// The PGN `TimeControl` tag value: `40/60`, `60+0.5`, `40/90+1`; `st` as `1/move`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Clock { moves, base, inc } => {
                if moves > 0 {
                    write!(f, "{moves}/")?;
                }
                f.write_str(&trim_float(base))?;
                if inc > 0.0 {
                    write!(f, "+{}", trim_float(inc))?;
                }
                Ok(())
            }
            // PGN's "no time control".
            _ if self.is_infinite() => f.write_str("-"),
            TimeControl::PerMove(s) => write!(f, "{}/move", trim_float(s)),
        }
    }
}

/// One side's clock.
#[derive(Clone, Debug)]
pub struct Clock {
    pub tc: TimeControl,
    /// Seconds left (may be negative after a flag within the margin).
    left: f64,
    moves: u32,
}

impl Clock {
    pub fn new(tc: TimeControl) -> Clock {
        let left = match tc {
            TimeControl::Clock { base, .. } => base,
            TimeControl::PerMove(s) => s,
        };
        Clock { tc, left, moves: 0 }
    }

    /// Seconds the side may use for the coming move before its flag falls.
    pub fn available(&self) -> f64 {
        match self.tc {
            TimeControl::Clock { .. } => self.left,
            TimeControl::PerMove(s) => s,
        }
    }

    /// Centiseconds for `time`/`otim`.
    pub fn centis(&self) -> i64 {
        (self.available() * 100.0).round() as i64
    }

    /// What an engine is told of this clock when `spent` of the coming move has gone already.
    pub fn reading(&self, spent: Duration) -> ClockReading {
        let (increment, moves_to_go, per_move) = match self.tc {
            TimeControl::Clock { moves, inc, .. } => (inc, (moves > 0).then(|| moves - self.moves % moves), false),
            TimeControl::PerMove(_) => (0.0, None, true),
        };
        ClockReading {
            left: self.available() - spent.as_secs_f64(),
            increment,
            moves_to_go,
            per_move,
        }
    }

    /// Charges a move that took `used`; returns false if the flag fell (beyond `margin`).
    pub fn spend(&mut self, used: Duration, margin: Duration) -> bool {
        let used = used.as_secs_f64();
        let margin = margin.as_secs_f64();
        match self.tc {
            TimeControl::Clock { moves, base, inc } => {
                self.left -= used;
                let ok = self.left >= -margin;
                self.left += inc;
                self.moves += 1;
                if moves > 0 && self.moves.is_multiple_of(moves) {
                    self.left += base;
                }
                ok
            }
            TimeControl::PerMove(s) => used <= s + margin,
        }
    }
}

/// A clock as an engine is told it (CECP `time`/`otim`, UCI `go wtime … movestogo`/`movetime`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClockReading {
    /// Seconds left (for the coming move with a time per move); negative after a flag within the
    /// margin.
    pub left: f64,
    /// Seconds added after each move.
    pub increment: f64,
    /// Moves until the next session's time (`None`: the rest of the game).
    pub moves_to_go: Option<u32>,
    /// A fixed time per move (`st`): `left` is this move's.
    pub per_move: bool,
}

impl ClockReading {
    /// Centiseconds left, never negative.
    pub fn centis(&self) -> i64 {
        (self.left * 100.0).round().max(0.0) as i64
    }

    /// Milliseconds left, never negative.
    pub fn millis(&self) -> i64 {
        (self.left * 1000.0).round().max(0.0) as i64
    }

    /// Milliseconds of increment.
    pub fn increment_millis(&self) -> i64 {
        (self.increment * 1000.0).round().max(0.0) as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_cutechess_forms() {
        assert_eq!(
            TimeControl::parse_tc("40/60").unwrap(),
            TimeControl::Clock {
                moves: 40,
                base: 60.0,
                inc: 0.0
            }
        );
        assert_eq!(
            TimeControl::parse_tc("60+0.5").unwrap(),
            TimeControl::Clock {
                moves: 0,
                base: 60.0,
                inc: 0.5
            }
        );
        assert_eq!(
            TimeControl::parse_tc("40/1:30+1").unwrap(),
            TimeControl::Clock {
                moves: 40,
                base: 90.0,
                inc: 1.0
            }
        );
        assert!(TimeControl::parse_tc("x/60").is_err());
        assert!(TimeControl::parse_tc("0").is_err());
        assert!(TimeControl::parse_tc("-3").is_err());
        assert_eq!(TimeControl::parse_st("0.05").unwrap(), TimeControl::PerMove(0.05));
        assert!(TimeControl::parse_st("0").is_err());
    }

    #[test]
    fn times_above_a_year_are_refused() {
        for tc in ["1e20", "1e19", "1+1e20", "40/1e20", "1:1e20", "31536001"] {
            let err = TimeControl::parse_tc(tc).unwrap_err();
            assert!(err.contains("above a year"), "{tc}: {err}");
        }
        assert!(TimeControl::parse_st("1e20").unwrap_err().contains("above a year"));
        assert!(TimeControl::parse_tc("31536000").is_ok());
        assert!(TimeControl::parse_st("31536000").is_ok());
    }

    #[test]
    fn cecp_and_pgn_forms() {
        let tc = TimeControl::parse_tc("3+0.03").unwrap();
        assert_eq!(tc.command().to_string(), "level 0 0:03 0.03");
        assert_eq!(tc.to_string(), "3+0.03");
        let tc = TimeControl::parse_tc("40/120").unwrap();
        assert_eq!(tc.command().to_string(), "level 40 2 0");
        assert_eq!(tc.to_string(), "40/120");
        assert_eq!(TimeControl::PerMove(0.5).command().to_string(), "st 0.5");
        assert_eq!(TimeControl::PerMove(1.0).to_string(), "1/move");
        assert_eq!(TimeControl::PerMove(0.05).command().to_string(), "st 0.05");
        let tc = TimeControl::parse_tc("1:30+1").unwrap();
        assert_eq!(tc.command().to_string(), "level 0 1:30 1");
        let tc = TimeControl::parse_tc("2.5+0.0333").unwrap();
        assert_eq!(tc.command().to_string(), "level 0 0:03 0.033");
    }

    #[test]
    fn clocks_flag_beyond_the_margin_and_refill_per_session() {
        let margin = Duration::from_millis(50);
        let mut c = Clock::new(TimeControl::parse_tc("2/1+0.5").unwrap());
        assert!(c.spend(Duration::from_millis(600), margin));
        assert!((c.available() - 0.9).abs() < 1e-9);
        // Second move ends the session: +1 s.
        assert!(c.spend(Duration::from_millis(940), margin));
        assert!((c.available() - (0.9 - 0.94 + 0.5 + 1.0)).abs() < 1e-9);
        let mut c = Clock::new(TimeControl::parse_tc("1").unwrap());
        assert!(!c.spend(Duration::from_millis(1051), margin));
        let mut c = Clock::new(TimeControl::PerMove(0.1));
        assert!(c.spend(Duration::from_millis(149), margin));
        assert!(!c.spend(Duration::from_millis(151), margin));
        assert_eq!(c.centis(), 10);
    }

    #[test]
    fn readings_count_the_moves_to_go_and_the_time_spent() {
        let margin = Duration::from_millis(50);
        let mut c = Clock::new(TimeControl::parse_tc("3/10+0.5").unwrap());
        let r = c.reading(Duration::ZERO);
        assert_eq!(
            (r.millis(), r.increment_millis(), r.moves_to_go, r.per_move),
            (10_000, 500, Some(3), false)
        );
        c.spend(Duration::from_millis(1000), margin);
        let r = c.reading(Duration::from_millis(250));
        assert_eq!((r.millis(), r.centis(), r.moves_to_go), (9_250, 925, Some(2)));
        c.spend(Duration::ZERO, margin);
        c.spend(Duration::ZERO, margin);
        assert_eq!(c.reading(Duration::ZERO).moves_to_go, Some(3));
        let c = Clock::new(TimeControl::parse_tc("1").unwrap());
        let r = c.reading(Duration::from_secs(5));
        assert_eq!((r.millis(), r.centis(), r.moves_to_go), (0, 0, None));
        let r = Clock::new(TimeControl::PerMove(0.25)).reading(Duration::ZERO);
        assert_eq!((r.millis(), r.per_move), (250, true));
    }
}
