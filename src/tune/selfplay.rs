//! Training positions from self-play: games of the engine against itself at a fixed number of nodes
//! a move (deterministic, so it needs no clock), each from a few random opening moves, every quiet
//! position kept with the game's result.

use std::sync::Arc;

use crate::core::zobrist::splitmix64;
use crate::core::{Color, Move, Position, Variant};
use crate::notation::{Coords, fen};
use crate::search::{Limits, Score, SearchControl, Searcher};

/// How the games are played.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    pub games: u32,
    /// Search nodes per move.
    pub nodes: u64,
    /// Random legal moves at the start of each game (the opening's variety).
    pub random_plies: u32,
    /// A game still going after this many plies is scored a draw.
    pub max_plies: u32,
    pub seed: u64,
    /// Hash table per searcher, MB.
    pub hash_mb: usize,
}

/// A position and White's expected score there: its game's result (1, 0.5 or 0), or a label from
/// 0 to 1 given by other means (a stronger engine's evaluation made a score, blended with it).
#[derive(Clone, Debug)]
pub struct Sample {
    pub position: Position,
    pub result: f64,
}

/// A search score at least this large (for either side) on this many plies in a row ends the game
/// for the side it favours: the engine that sees it would not lose it at these node counts often
/// enough to matter for labels, and decided games are long.
const DECIDED_CP: i32 = 1000;
const DECIDED_PLIES: u32 = 8;
/// Positions with a larger search score teach nothing about the balance of terms.
const QUIET_CP: i32 = 1500;

/// Plays `config.games` games; `progress` hears after each game (games done, positions so far).
/// The positions come as data-file lines (`RESULT;FEN`, see `read_samples`): a FEN keeps a position without the
/// game's history, which a clone would drag along.
pub fn play(variant: &Arc<Variant>, config: &PlayConfig, progress: &mut dyn FnMut(u32, usize)) -> Vec<String> {
    let mut searcher = Searcher::new(config.hash_mb);
    let control = SearchControl::new();
    let limits = Limits {
        nodes: Some(config.nodes.max(1)),
        ..Limits::default()
    };
    let mut samples = Vec::new();
    let mut rng = config.seed;
    for game in 0..config.games {
        searcher.new_game();
        let mut pos = Position::start(variant);
        let mut kept = GamePositions::default();
        let mut white_score = None;
        for _ in 0..config.random_plies {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome_with(moves.len()).is_some() {
                break;
            }
            let pick = (splitmix64(&mut rng) % moves.len() as u64) as usize;
            pos.make(moves.0[pick]);
        }
        for _ply in 0..config.max_plies {
            if let Some(outcome) = pos.outcome() {
                white_score = Some(match outcome.winner {
                    Some(Color::White) => 1.0,
                    Some(Color::Black) => 0.0,
                    None => 0.5,
                });
                break;
            }
            let result = searcher.search(&mut pos, &limits, &control, &mut |_| {});
            let Some(best) = result.best else { break };
            let cp = match result.score {
                Score::Cp(c) => c,
                Score::Mate(n) if n > 0 => MATE_CP,
                Score::Mate(_) => -MATE_CP,
            };
            if let Some(decided) = kept.ply(&pos, &best, Some(cp)) {
                white_score = Some(decided);
                break;
            }
            pos.make(best);
        }
        samples.extend(kept.lines(white_score.unwrap_or(0.5)));
        progress(game + 1, samples.len());
    }
    samples
}

/// A mate's score, for either side, as [`GamePositions::ply`] hears it.
pub const MATE_CP: i32 = 30_000;

/// The positions of one game that the fit learns from, gathered move by move as the game is
/// played (`play`) or replayed (`super::pgn`), so that both kinds of data are chosen alike: a
/// position is kept if its side to move is not in check, the move played from it is no capture or
/// promotion, its search score is below `QUIET_CP`, and it is not in the middle of a turn of
/// several moves; once the score has said the game is decided (`DECIDED_CP` for `DECIDED_PLIES`
/// plies) no more are kept.
#[derive(Default)]
pub struct GamePositions {
    /// FENs: a FEN keeps a position without the game's history, which a clone would drag along.
    kept: Vec<String>,
    /// The sign of the last decided score for White and for how many plies in a row it has held.
    decided: (i32, u32),
}

impl GamePositions {
    /// Hears the position `pos` before `played` is made from it, with the search score of the side
    /// to move (centipawns, a mate as ±[`MATE_CP`]) if known; a position without one is judged by
    /// the rest. Returns the result for White (1 or 0) once the scores have decided the game: a
    /// self-play game ends there, and a replayed one keeps no more positions.
    pub fn ply(&mut self, pos: &Position, played: &Move, cp: Option<i32>) -> Option<f64> {
        let us = pos.side_to_move();
        let quiet = !pos.in_check() && !pos.is_capture(played) && played.promotion().is_none();
        // In the middle of a turn of several moves (after growing roses) a FEN cannot say so.
        let mid_turn = matches!(pos.last_move(), Some(Move::Grow { .. }));
        if quiet && cp.is_none_or(|c| c.abs() < QUIET_CP) && !mid_turn {
            self.kept.push(fen::to_fen(pos, Coords::Human));
        }
        let white_cp = cp.map_or(0, |c| if us == Color::White { c } else { -c });
        let sign = white_cp.signum();
        if white_cp.abs() >= DECIDED_CP && sign == self.decided.0 {
            self.decided.1 += 1;
        } else {
            self.decided = (if white_cp.abs() >= DECIDED_CP { sign } else { 0 }, 1);
        }
        if self.decided.0 != 0 && self.decided.1 >= DECIDED_PLIES {
            return Some(if self.decided.0 > 0 { 1.0 } else { 0.0 });
        }
        None
    }

    /// The positions kept, as data-file lines with the game's result for White (1, 0.5 or 0).
    pub fn lines(self, white_score: f64) -> impl Iterator<Item = String> {
        self.kept.into_iter().map(move |f| format!("{white_score};{f}"))
    }
}

/// Reads a data file of `RESULT;FEN` lines (`#` comments), as `play` writes them; RESULT is
/// White's score from 0 to 1 (a game's 1, 0.5 or 0, or any label between); errors name the line.
///
/// # Errors
///
/// A line that is not a sample (a position of the variant and its result).
pub fn read_samples(variant: &Arc<Variant>, text: &str) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: String| format!("line {}: {why}", i + 1);
        let (result, fen_text) = line.split_once(';').ok_or_else(|| bad("expected RESULT;FEN".into()))?;
        let result = result.trim();
        let result = result
            .parse::<f64>()
            .ok()
            .filter(|r| (0.0..=1.0).contains(r))
            .ok_or_else(|| bad(format!("result {result:?} is not a score from 0 to 1")))?;
        let setup = fen::parse_fen(fen_text.trim(), Coords::Human).map_err(|e| bad(e.to_string()))?;
        let position = Position::from_setup(variant, &setup).map_err(|e| bad(e.to_string()))?;
        samples.push(Sample { position, result });
    }
    Ok(samples)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Registry;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn a_data_line_reads_any_score_from_0_to_1() {
        let v = Registry::builtin().get("normal").expect("normal");
        let text = format!("# labels\n1;{START}\n0.5;{START}\n0;{START}\n0.731;{START}\n");
        let results: Vec<f64> = read_samples(&v, &text)
            .expect("samples")
            .iter()
            .map(|s| s.result)
            .collect();
        assert_eq!(results, vec![1.0, 0.5, 0.0, 0.731]);
    }

    #[test]
    fn a_data_line_outside_0_to_1_is_refused_with_its_line() {
        let v = Registry::builtin().get("normal").expect("normal");
        for bad in ["1.5", "-0.1", "NaN", "inf", "win", ""] {
            let text = format!("1;{START}\n{bad};{START}\n");
            let err = read_samples(&v, &text).expect_err(bad);
            assert!(
                err.starts_with("line 2: result") && err.contains("from 0 to 1"),
                "{bad}: {err}"
            );
        }
    }
}
