//! The match's progress on stderr: after each game its line (`Game N of M: …`) with the match so
//! far — games done of the total, the score, Elo ± its margin, the LLR and the time left — which
//! on a terminal also stays as a status line redrawn in place; with `--ratinginterval N`, the
//! pairings' score and Elo lines every N games, as cutechess-cli prints its rating list.

use std::fmt::Write as _;
use std::io::Write;
use std::time::{Duration, Instant};

use super::report::Standings;
use super::stats::{Sprt, format_elo};

pub struct Progress {
    /// Games this run plays in all (a shard's part, resumed games included).
    pub total: usize,
    pub done: usize,
    /// Games already done when this run started (a resumed match): not timed.
    done_at_start: usize,
    tty: bool,
    start: Instant,
    rating_interval: usize,
}

fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

impl Progress {
    pub fn new(total: usize, done: usize, tty: bool, rating_interval: u32) -> Progress {
        Progress {
            total,
            done,
            done_at_start: done,
            tty,
            start: Instant::now(),
            rating_interval: rating_interval as usize,
        }
    }

    /// Time left at the pace of this run's games so far.
    fn eta(&self) -> Option<Duration> {
        let played = self.done.checked_sub(self.done_at_start).filter(|&n| n > 0)?;
        let left = self.total.saturating_sub(self.done);
        Some(self.start.elapsed().mul_f64(left as f64 / played as f64))
    }

    /// `12/16 games, 8 - 2 - 2 [0.750], Elo +190.8 +/- 279.1, LLR 0.03 (-2.94, 2.94), ETA 0:05`;
    /// the score, Elo and LLR only for a match of one pairing.
    pub fn status(&self, st: &Standings, sprt: Option<&Sprt>, running: usize) -> String {
        let mut out = format!("{}/{} games", self.done, self.total);
        if running > 0 {
            let _ = write!(out, " ({running} running)");
        }
        if let [p] = &st.pairs[..] {
            let _ = write!(out, ", {}", p.score);
            if let Some(ci) = p.score.elo_interval() {
                let _ = write!(out, ", Elo {:+.1} +/- {:.1}", ci.elo, ci.margin);
            }
            if let Some(s) = sprt {
                let status = s.status_of(&p.score, &p.ptnml);
                let _ = write!(
                    out,
                    ", LLR {:.2} ({:.2}, {:.2})",
                    status.llr, status.lower, status.upper
                );
            }
        }
        match self.eta() {
            Some(eta) => {
                let _ = write!(out, ", ETA {}", clock(eta));
            }
            None => {
                let _ = write!(out, ", {} elapsed", clock(self.start.elapsed()));
            }
        }
        out
    }

    /// The status line alone, redrawn in place (terminal only).
    pub fn redraw(&self, st: &Standings, sprt: Option<&Sprt>, running: usize) {
        if self.tty {
            eprint!("\r\x1b[K{}", self.status(st, sprt, running));
            let _ = std::io::stderr().flush();
        }
    }

    /// A finished game: its line, the rating lines when they are due, and the status.
    pub fn game(&mut self, game_line: &str, st: &Standings, sprt: Option<&Sprt>, running: usize) {
        self.done += 1;
        let status = self.status(st, sprt, running);
        if self.tty {
            eprintln!("\r\x1b[K{game_line}");
        } else {
            eprintln!("{game_line}  | {status}");
        }
        if self.rating_interval > 0 && self.done.is_multiple_of(self.rating_interval) {
            self.line(&rating_lines(st));
        }
        self.redraw(st, sprt, running);
    }

    /// A message of its own line (the status line is drawn again after the next game).
    pub fn line(&self, text: &str) {
        if self.tty {
            eprint!("\r\x1b[K");
        }
        eprintln!("{}", text.trim_end());
    }

    /// Leaves the terminal's status line behind.
    pub fn finish(&self) {
        if self.tty {
            eprintln!();
        }
    }
}

/// Every pairing's score, Elo and pair counts (`--ratinginterval`).
pub fn rating_lines(st: &Standings) -> String {
    let mut out = String::new();
    for p in &st.pairs {
        let _ = writeln!(
            out,
            "Score of {} vs {}: {}",
            st.names[p.first], st.names[p.second], p.score
        );
        let _ = writeln!(out, "{}", format_elo(&p.score));
        if st.paired {
            let _ = writeln!(out, "{}", p.ptnml);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::stats::Score;

    #[test]
    fn status_names_games_score_elo_llr_and_time() {
        let mut st = Standings::new(vec!["A".into(), "B".into()]);
        st.pairs[0].score = Score::new(50, 20, 30);
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        let mut p = Progress::new(200, 100, false, 0);
        let text = p.status(&st, Some(&sprt), 2);
        // Elo and LLR as the final report computes them (70.4 +/- 62.6, llr 0.35).
        assert!(
            text.starts_with(
                "100/200 games (2 running), 50 - 30 - 20  [0.600] 100, Elo +70.4 +/- 62.6, LLR 0.35 (-2.94, 2.94), "
            ),
            "{text}"
        );
        // No game played by this run yet: elapsed time, no estimate.
        assert!(text.ends_with(" elapsed"), "{text}");
        p.done = 150;
        assert!(p.status(&st, None, 0).contains(", ETA "), "{}", p.status(&st, None, 0));
        assert_eq!(clock(Duration::from_secs(3725)), "1:02:05");
        assert_eq!(clock(Duration::from_secs(65)), "1:05");
        // Several pairings: counts only.
        let three = Standings::new(vec!["A".into(), "B".into(), "C".into()]);
        assert!(p.status(&three, None, 0).starts_with("150/200 games, ETA"));
    }

    #[test]
    fn rating_lines_per_pairing() {
        let mut st = Standings::new(vec!["A".into(), "B".into(), "C".into()]);
        st.paired = true;
        st.pairs[1].score = Score::new(3, 1, 0);
        let text = rating_lines(&st);
        assert!(
            text.contains("Score of A vs C: 3 - 0 - 1  [0.875] 4\nElo difference: "),
            "{text}"
        );
        assert_eq!(text.matches("Ptnml(0-2)").count(), 3);
    }
}
