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

/// A position and the result of its game for White (1, 0.5 or 0).
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
        let mut kept: Vec<String> = Vec::new();
        let mut white_score = None;
        for _ in 0..config.random_plies {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome_with(moves.len()).is_some() {
                break;
            }
            let pick = (splitmix64(&mut rng) % moves.len() as u64) as usize;
            pos.make(moves.0[pick]);
        }
        let mut decided: (i32, u32) = (0, 0);
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
            let us = pos.side_to_move();
            let cp = match result.score {
                Score::Cp(c) => c,
                Score::Mate(n) if n > 0 => 30_000,
                Score::Mate(_) => -30_000,
            };
            let white_cp = if us == Color::White { cp } else { -cp };
            let quiet = !pos.in_check() && !pos.is_capture(&best) && best.promotion().is_none();
            // In the middle of a turn of several moves (after growing roses) a FEN cannot say so.
            let mid_turn = matches!(pos.last_move(), Some(Move::Grow { .. }));
            if quiet && cp.abs() < QUIET_CP && !mid_turn {
                kept.push(fen::to_fen(&pos, Coords::Human));
            }
            let sign = white_cp.signum();
            if white_cp.abs() >= DECIDED_CP && sign == decided.0 {
                decided.1 += 1;
            } else {
                decided = (if white_cp.abs() >= DECIDED_CP { sign } else { 0 }, 1);
            }
            if decided.0 != 0 && decided.1 >= DECIDED_PLIES {
                white_score = Some(if decided.0 > 0 { 1.0 } else { 0.0 });
                break;
            }
            pos.make(best);
        }
        let result = white_score.unwrap_or(0.5);
        samples.extend(kept.into_iter().map(|f| format!("{result};{f}")));
        progress(game + 1, samples.len());
    }
    samples
}

/// Reads a data file of `RESULT;FEN` lines (RESULT for White: 1, 0.5 or 0; `#` comments), as
/// `play` writes them; errors name the line.
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
        let result: f64 = match result.trim() {
            "1" => 1.0,
            "0.5" => 0.5,
            "0" => 0.0,
            other => return Err(bad(format!("result {other:?} is not 1, 0.5 or 0"))),
        };
        let setup = fen::parse_fen(fen_text.trim(), Coords::Human).map_err(|e| bad(e.to_string()))?;
        let position = Position::from_setup(variant, &setup).map_err(|e| bad(e.to_string()))?;
        samples.push(Sample { position, result });
    }
    Ok(samples)
}
