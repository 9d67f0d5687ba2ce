//! The final table of a match, on stdout: for every pairing cutechess-cli's three lines (score,
//! Elo difference with its margin, LOS and draw ratio, the SPRT line), then one row per engine with
//! W/D/L, score, the Elo difference against the field with its 95 % interval, LOS and the number of
//! games it lost by forfeit.

use std::collections::HashMap;
use std::fmt::Write;

use super::pentanomial::Pentanomial;
use super::results::ScoredGame;
use super::stats::{Score, Sprt, SprtModel, SprtVerdict, format_elo};
use crate::core::GameResult;

/// One pairing's result, from the first engine's side.
#[derive(Clone, Debug, PartialEq)]
pub struct PairResult {
    pub first: usize,
    pub second: usize,
    pub score: Score,
    /// Finished pairs (both games of one opening) by the first engine's points.
    pub ptnml: Pentanomial,
}

/// Everything the report needs.
#[derive(Clone, Debug)]
pub struct Standings {
    pub names: Vec<String>,
    pub pairs: Vec<PairResult>,
    /// Games each engine lost by forfeit (illegal move, crash, time, false claim…).
    pub forfeits: Vec<u32>,
    /// Games are played in pairs (the `Ptnml` line is shown).
    pub paired: bool,
    /// Games without a result (aborted).
    pub aborted: u32,
    /// The first finished game of each pair whose partner has not finished yet.
    open_pairs: HashMap<u32, ScoredGame>,
}

impl Standings {
    /// A round robin: every engine against every other.
    pub fn new(names: Vec<String>) -> Standings {
        let n = names.len();
        let all = (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).collect();
        Standings::with_pairings(names, all)
    }

    /// These pairings `(first, second)`, in this order.
    pub fn with_pairings(names: Vec<String>, pairings: Vec<(usize, usize)>) -> Standings {
        let n = names.len();
        let pairs = pairings
            .into_iter()
            .map(|(first, second)| PairResult {
                first,
                second,
                score: Score::default(),
                ptnml: Pentanomial::default(),
            })
            .collect();
        Standings {
            names,
            pairs,
            forfeits: vec![0; n],
            paired: false,
            aborted: 0,
            open_pairs: HashMap::new(),
        }
    }

    /// Counts a finished game: its score, its forfeit, and its pair once both games are in.
    /// The order games are added in does not matter.
    pub fn add(&mut self, game: &ScoredGame) {
        if game.result == GameResult::Unfinished {
            self.aborted += 1;
            return;
        }
        self.record(game.white, game.black, game.winner());
        if let (true, Some(loser)) = (game.forfeit, game.loser()) {
            self.forfeits[loser] += 1;
        }
        let Some(pair) = game.pair else { return };
        let Some(partner) = self.open_pairs.remove(&pair) else {
            self.open_pairs.insert(pair, game.clone());
            return;
        };
        let engines = |g: &ScoredGame| (g.white.min(g.black), g.white.max(g.black));
        for p in &mut self.pairs {
            if (p.first, p.second) == engines(game) && engines(&partner) == engines(game) {
                p.ptnml.add_pair(game.points_of(p.first) + partner.points_of(p.first));
            }
        }
    }

    /// A pairing's status under `sprt`'s model.
    pub fn sprt_status(&self, sprt: &Sprt, pairing: usize) -> super::stats::SprtStatus {
        let p = &self.pairs[pairing];
        sprt.status_of(&p.score, &p.ptnml)
    }

    /// Records a game: `winner` is `Some(engine index)` or `None` for a draw.
    pub fn record(&mut self, a: usize, b: usize, winner: Option<usize>) {
        for p in &mut self.pairs {
            let (first_won, second_won) = if (p.first, p.second) == (a, b) || (p.first, p.second) == (b, a) {
                (winner == Some(p.first), winner == Some(p.second))
            } else {
                continue;
            };
            match (first_won, second_won) {
                (true, _) => p.score.wins += 1,
                (_, true) => p.score.losses += 1,
                _ => p.score.draws += 1,
            }
        }
    }

    /// An engine's score against everyone.
    pub fn total(&self, engine: usize) -> Score {
        let mut s = Score::default();
        for p in &self.pairs {
            if p.first == engine {
                s.wins += p.score.wins;
                s.draws += p.score.draws;
                s.losses += p.score.losses;
            } else if p.second == engine {
                s.wins += p.score.losses;
                s.draws += p.score.draws;
                s.losses += p.score.wins;
            }
        }
        s
    }

    pub fn games(&self) -> u64 {
        self.pairs.iter().map(|p| p.score.games()).sum()
    }
}

fn signed(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf".into() } else { "-inf".into() }
    } else {
        format!("{x:+.1}")
    }
}

/// The SPRT line with its verdict in words.
pub fn sprt_lines(sprt: &Sprt, pair: &PairResult, first: &str, second: &str) -> String {
    let st = sprt.status_of(&pair.score, &pair.ptnml);
    let words = match st.verdict {
        SprtVerdict::AcceptH1 => format!(
            "H1 accepted: {first} is stronger than {second} (Elo difference >= {} rather than <= {})",
            sprt.elo1, sprt.elo0
        ),
        SprtVerdict::AcceptH0 => format!(
            "H0 accepted: {first} is not stronger than {second} by {} Elo (difference <= {})",
            sprt.elo1, sprt.elo0
        ),
        SprtVerdict::Continue => "no verdict yet".to_string(),
    };
    let model = match sprt.model {
        SprtModel::Trinomial => "",
        SprtModel::Pentanomial => " (pentanomial, normalized Elo)",
    };
    format!(
        "SPRT{model}: elo0={} elo1={} alpha={} beta={}: llr {:.3} [{:.3}, {:.3}] - {words}",
        sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta, st.llr, st.lower, st.upper
    )
}

/// The whole report.
pub fn render(st: &Standings, sprt: Option<&Sprt>) -> String {
    let mut out = String::new();
    for p in &st.pairs {
        let (a, b) = (&st.names[p.first], &st.names[p.second]);
        let _ = writeln!(out, "Score of {a} vs {b}: {}", p.score);
        let _ = writeln!(out, "{}", format_elo(&p.score));
        if let Some(ci) = p.score.elo_interval() {
            let _ = writeln!(out, "Elo 95% interval: [{}, {}]", signed(ci.lower), signed(ci.upper));
        }
        if st.paired {
            let _ = writeln!(out, "{}", p.ptnml);
        }
        if let Some(s) = sprt {
            let _ = writeln!(out, "{}", s.status_of(&p.score, &p.ptnml));
            let _ = writeln!(out, "{}", sprt_lines(s, p, a, b));
        }
        out.push('\n');
    }
    let width = st.names.iter().map(|n| n.len()).max().unwrap_or(4).max(4);
    let _ = writeln!(
        out,
        "{:>4} {:<width$} {:>6} {:>5} {:>5} {:>5} {:>7} {:>7} {:>17} {:>6} {:>8}",
        "Rank", "Name", "Games", "W", "D", "L", "Score", "Elo", "95% interval", "LOS", "Forfeits"
    );
    let mut order: Vec<usize> = (0..st.names.len()).collect();
    order.sort_by(|&x, &y| {
        let (sx, sy) = (st.total(x), st.total(y));
        let fx = sx.score_fraction().unwrap_or(0.0);
        let fy = sy.score_fraction().unwrap_or(0.0);
        fy.partial_cmp(&fx).unwrap_or(std::cmp::Ordering::Equal)
    });
    for (rank, &e) in order.iter().enumerate() {
        let s = st.total(e);
        let score = s
            .score_fraction()
            .map_or("-".to_string(), |f| format!("{:.1}%", 100.0 * f));
        let (elo, interval) = match s.elo_interval() {
            Some(ci) => (signed(ci.elo), format!("[{}, {}]", signed(ci.lower), signed(ci.upper))),
            None => ("-".to_string(), "-".to_string()),
        };
        let los = s.los().map_or("-".to_string(), |l| format!("{:.1}%", 100.0 * l));
        let _ = writeln!(
            out,
            "{:>4} {:<width$} {:>6} {:>5} {:>5} {:>5} {:>7} {:>7} {:>17} {:>6} {:>8}",
            rank + 1,
            st.names[e],
            s.games(),
            s.wins,
            s.draws,
            s.losses,
            score,
            elo,
            interval,
            los,
            st.forfeits[e]
        );
    }
    if st.names.len() > 2 {
        out.push('\n');
        out.push_str(&super::crosstable::crosstable(st, &order));
    }
    if st.aborted > 0 {
        let _ = writeln!(out, "{} game(s) aborted (no result)", st.aborted);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_from_either_side() {
        let mut st = Standings::new(vec!["a".into(), "b".into(), "c".into()]);
        st.record(0, 1, Some(0));
        st.record(1, 0, Some(0));
        st.record(1, 0, None);
        st.record(2, 1, Some(1));
        assert_eq!(st.pairs[0].score, Score::new(2, 1, 0));
        assert_eq!(st.pairs[2].score, Score::new(1, 0, 0)); // b vs c
        assert_eq!(st.total(1), Score::new(1, 1, 2));
        assert_eq!(st.games(), 4);
    }
}
