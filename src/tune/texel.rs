//! Texel-style tuning: the weights that make the static evaluation of quiet positions predict
//! their games' results best. The prediction for White is `1 / (1 + 10^(-K * eval / 400))` with
//! the scale `K` fitted first (to the starting weights, then kept); the error is the mean squared
//! difference from the results. Weights move by coordinate descent: each in turn up or down while
//! that lowers the error, its step doubling while it does and halving where neither direction
//! does, until no step of one moves any weight. A weight that changes no evaluation of the
//! training positions either way in the first pass (a piece's value in hand in a game without
//! hands, a piece kind the games never show) is left alone after it.

use std::sync::Arc;
use std::time::Instant;

use crate::core::{Color, Variant};
use crate::search::{EvalParams, EvalTables, evaluate};

use super::selfplay::Sample;

/// How long to tune.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// Most passes over all weights.
    pub passes: u32,
    /// Stop after the pass during which this moment passes.
    pub deadline: Option<Instant>,
    /// The scale `K`, if known; else it is fitted to the starting weights.
    pub k: Option<f64>,
    /// Weight of the prior that holds the weights near the starting ones (0: none).
    pub prior: f64,
}

/// What tuning did, for the user.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneReport {
    pub k: f64,
    pub train: usize,
    pub test: usize,
    /// Mean squared error on the training and the held-out positions, before and after.
    pub train_before: f64,
    pub train_after: f64,
    pub test_before: f64,
    pub test_after: f64,
    pub passes: u32,
    /// Weights that moved.
    pub changed: usize,
    /// Weights that changed no training position's evaluation, tried only in the first pass.
    pub inert: usize,
}

/// A weight's change counts in the prior relative to its starting size, but at least this.
const PRIOR_SCALE_FLOOR: f64 = 32.0;

/// The prior's penalty of the weights `vector` that started as `start`: `weight` times the mean
/// squared relative change.
pub(super) fn prior_penalty(weight: f64, vector: &[i32], start: &[i32]) -> f64 {
    if weight == 0.0 || vector.is_empty() {
        return 0.0;
    }
    let sum: f64 = vector
        .iter()
        .zip(start)
        .map(|(&w, &w0)| (f64::from(w - w0) / prior_scale(w0)).powi(2))
        .sum();
    weight * sum / vector.len() as f64
}

/// What a change of a weight that started at `start` is measured against in the prior.
pub(super) fn prior_scale(start: i32) -> f64 {
    f64::from(start.unsigned_abs()).max(PRIOR_SCALE_FLOOR)
}

/// The largest step of one weight in one try.
const MAX_STEP: i32 = 256;

/// The last tenth of the positions is held out: its error shows whether the fit generalises.
/// Positions come in game order, so a tail is (but for one game) from games the fit never saw;
/// positions of one game are alike, and holding out every tenth one would test on the games the
/// weights were fitted to.
pub(super) fn split(samples: &[Sample]) -> (Vec<&Sample>, Vec<&Sample>) {
    let at = samples.len() - samples.len() / 10;
    (samples[..at].iter().collect(), samples[at..].iter().collect())
}

/// The evaluations for White of `samples` under `params`.
pub(super) fn white_evals(variant: &Arc<Variant>, params: &EvalParams, samples: &[&Sample]) -> Vec<f64> {
    let tables = EvalTables::with_params(variant, params.clone());
    samples
        .iter()
        .map(|s| {
            let e = evaluate(&s.position, &tables);
            f64::from(if s.position.side_to_move() == Color::White {
                e
            } else {
                -e
            })
        })
        .collect()
}

pub(super) fn predicted(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

pub(super) fn mean_error(k: f64, evals: &[f64], samples: &[&Sample]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = evals
        .iter()
        .zip(samples)
        .map(|(&e, s)| (s.result - predicted(k, e)).powi(2))
        .sum();
    sum / samples.len() as f64
}

/// The `K` that fits `evals` to the results best (a scan, then a finer one around the best).
fn fit_k(evals: &[f64], samples: &[&Sample]) -> f64 {
    let mut best = (f64::INFINITY, 1.0);
    let scan = |from: f64, to: f64, step: f64, best: &mut (f64, f64)| {
        let mut k = from;
        while k <= to {
            let e = mean_error(k, evals, samples);
            if e < best.0 {
                *best = (e, k);
            }
            k += step;
        }
    };
    scan(0.05, 4.0, 0.05, &mut best);
    let around = best.1;
    scan((around - 0.05).max(0.005), around + 0.05, 0.005, &mut best);
    best.1
}

/// The scale `K` of a fit: the configured one, else the one that fits `start` to `train` best.
pub(super) fn scale(variant: &Arc<Variant>, start: &EvalParams, train: &[&Sample], config: &TuneConfig) -> f64 {
    config
        .k
        .unwrap_or_else(|| fit_k(&white_evals(variant, start, train), train))
}

/// Tunes `start` to `samples`; `progress` hears after each pass (pass, training error).
pub fn tune(
    variant: &Arc<Variant>,
    samples: &[Sample],
    start: &EvalParams,
    config: &TuneConfig,
    progress: &mut dyn FnMut(u32, f64),
) -> (EvalParams, TuneReport) {
    let (train, test) = split(samples);
    let k = scale(variant, start, &train, config);
    let error = |params: &EvalParams, set: &[&Sample]| mean_error(k, &white_evals(variant, params, set), set);
    let mut current_evals = white_evals(variant, start, &train);
    let train_before = mean_error(k, &current_evals, &train);
    let test_before = error(start, &test);
    let mut params = start.clone();
    let mut vector = params.to_vector();
    let start_vector = vector.clone();
    let mut steps: Vec<i32> = vector.iter().map(|x| (x.abs() / 8).max(2)).collect();
    let mut inert = vec![false; vector.len()];
    let mut best = train_before;
    let mut best_objective = train_before;
    let mut passes = 0;
    while passes < config.passes {
        passes += 1;
        let mut improved = false;
        for i in 0..vector.len() {
            if inert[i] {
                continue;
            }
            let mut moved = false;
            let mut unchanged_both_ways = true;
            for dir in [1, -1] {
                // Along a direction that helps, on with doubled steps while it still does.
                loop {
                    vector[i] += dir * steps[i];
                    params.set_vector(&vector);
                    let evals = white_evals(variant, &params, &train);
                    let e = mean_error(k, &evals, &train);
                    let o = e + prior_penalty(config.prior, &vector, &start_vector);
                    if o < best_objective {
                        best_objective = o;
                        best = e;
                        moved = true;
                        steps[i] = (steps[i] * 2).min(MAX_STEP);
                        current_evals = evals;
                    } else {
                        unchanged_both_ways &= evals == current_evals;
                        vector[i] -= dir * steps[i];
                        break;
                    }
                }
                if moved {
                    break;
                }
            }
            if moved {
                improved = true;
            } else {
                inert[i] = passes == 1 && unchanged_both_ways;
                steps[i] = (steps[i] / 2).max(1);
            }
        }
        params.set_vector(&vector);
        progress(passes, best);
        let settled = steps.iter().zip(&inert).all(|(&s, &dead)| dead || s == 1);
        if config.deadline.is_some_and(|d| Instant::now() >= d) || (!improved && settled) {
            break;
        }
    }
    let changed = vector.iter().zip(start.to_vector()).filter(|(a, b)| **a != *b).count();
    let report = TuneReport {
        k,
        train: train.len(),
        test: test.len(),
        train_before,
        train_after: best,
        test_before,
        test_after: error(&params, &test),
        passes,
        changed,
        inert: inert.iter().filter(|&&dead| dead).count(),
    };
    (params, report)
}

/// Positions with one side a pawn, knight, bishop or rook up, each ten times with results in the
/// proportion the default weights predict at K = 1: a fit must find the defaults' values again.
#[cfg(test)]
pub(super) fn material_samples(v: &Arc<Variant>) -> Vec<Sample> {
    let tables = EvalTables::with_params(v, EvalParams::defaults(v));
    let boards = [
        "4k3/pp6/8/8/3N4/8/PP6/4K3 w - - 0 1",
        "4k3/pp6/8/8/8/8/PP6/N3K3 b - - 0 1",
        "4k3/pp5n/8/8/8/8/PP6/4K3 w - - 0 1",
        "4k3/pp6/8/2n5/8/8/PP6/4K3 b - - 0 1",
        "4k3/pp6/8/8/8/6N1/PP6/4K3 w - - 0 1",
        "n3k3/pp6/8/8/8/8/PP6/4K3 b - - 0 1",
        "4k3/pp6/8/8/3B4/8/PP6/4K3 w - - 0 1",
        "4k3/pp3b2/8/8/8/8/PP6/4K3 b - - 0 1",
        "4k3/pp6/8/8/8/8/PP6/R3K3 w - - 0 1",
        "4k2r/pp6/8/8/8/8/PP6/4K3 b - - 0 1",
        "4k3/p7/8/8/8/8/PP6/4K3 w - - 0 1",
        "4k3/pp6/8/8/8/8/P7/4K3 b - - 0 1",
        "4k3/pp6/8/8/8/8/PPP5/4K3 w - - 0 1",
        "4k3/ppp5/8/8/8/8/PP6/4K3 b - - 0 1",
    ];
    let mut lines = String::new();
    for fen_text in boards {
        let pos = crate::test_fixtures::position_of(v, fen_text);
        let e = evaluate(&pos, &tables);
        let white = f64::from(if pos.side_to_move() == Color::White { e } else { -e });
        let wins = (predicted(1.0, white) * 10.0).round() as usize;
        for i in 0..10 {
            lines += &format!("{};{fen_text}\n", if i < wins { "1" } else { "0" });
        }
    }
    super::selfplay::read_samples(v, &lines).expect("fixture lines")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Registry;

    #[test]
    fn the_held_out_positions_are_the_last_tenth() {
        let v = Registry::builtin().get("normal").expect("normal");
        let samples: Vec<Sample> = (0..25)
            .map(|i| Sample {
                position: crate::core::Position::start(&v),
                result: f64::from(i),
            })
            .collect();
        let (train, test) = split(&samples);
        let results = |set: &[&Sample]| set.iter().map(|s| s.result).collect::<Vec<_>>();
        assert_eq!(results(&train), (0..23).map(f64::from).collect::<Vec<_>>());
        assert_eq!(results(&test), vec![23.0, 24.0]);
    }

    /// Started from a knight worth almost nothing, tuning must give it back a clear value.
    #[test]
    fn tuning_learns_a_material_value_the_results_demand() {
        let v = Registry::builtin().get("normal").expect("normal");
        let defaults = EvalParams::defaults(&v);
        let samples = material_samples(&v);
        let knight = v.kind_by_letter('N').expect("knight").index();
        let mut start = defaults;
        start.kinds[knight].material = crate::search::S { mg: 20, eg: 20 };
        // K as the results were made: a knight worth nothing would fit a steeper one.
        let config = TuneConfig {
            passes: 20,
            deadline: None,
            k: Some(1.0),
            prior: 0.0,
        };
        let (tuned, report) = tune(&v, &samples, &start, &config, &mut |_, _| {});
        assert!(report.train_after < report.train_before, "{report:?}");
        let m = tuned.kinds[knight].material;
        // These endgames weigh the endgame value almost alone.
        assert!(m.eg > 150, "knight {m:?}, {report:?}");
        // Chess has no hands: every kind's value in hand (mg and eg) changes no evaluation, is
        // tried in the first pass only, and stays where it began.
        let kinds = tuned.kinds.len();
        assert!(report.inert >= 2 * kinds, "{report:?}");
        for (a, b) in tuned.kinds.iter().zip(&start.kinds) {
            assert_eq!((a.hand.mg, a.hand.eg), (b.hand.mg, b.hand.eg));
        }

        // A prior far stronger than anything the data says keeps every weight where it began.
        let held = TuneConfig { prior: 1e6, ..config };
        let (kept, report) = tune(&v, &samples, &start, &held, &mut |_, _| {});
        assert_eq!(kept.to_vector(), start.to_vector(), "{report:?}");
        assert_eq!(report.changed, 0);
    }

    /// Eight short games, seven won by an attack on the king and a quiet draw: one pass of the fit
    /// moves the king safety weights. They enter the evaluation non-linearly (the middlegame
    /// danger is quadratic in their sum, capped, and counts only past a number of attackers); the
    /// fit needs no gradient, it compares the error of whole evaluations.
    #[test]
    fn tuning_moves_the_king_safety_weights() {
        let v = Registry::builtin().get("normal").expect("normal");
        let games = include_str!("../../fixtures/tune/king-attacks.pgn");
        let read = crate::tune::pgn::positions(&v, games, "king-attacks.pgn");
        assert_eq!((read.games, read.unreadable.len()), (8, 0), "{read:?}");
        let samples = crate::tune::selfplay::read_samples(&v, &read.lines.join("\n")).expect("positions");
        let mut start = EvalParams::defaults(&v);
        start.set_trial_king_safety(&v);
        let config = TuneConfig {
            passes: 1,
            deadline: None,
            k: Some(1.0),
            prior: 0.0,
        };
        let (tuned, report) = tune(&v, &samples, &start, &config, &mut |_, _| {});
        assert!(report.train_after < report.train_before, "{report:?}");
        let groups = |p: &EvalParams| {
            let mut out = Vec::new();
            p.clone()
                .for_each_group(|name, values| out.push((name.to_string(), values.to_vec())));
            out
        };
        let new_terms = [
            "king_danger_eg",
            "king_danger_base",
            "king_weak_square",
            "king_no_queen",
            "king_storm",
            ".safe_check",
        ];
        let moved: Vec<String> = groups(&tuned)
            .into_iter()
            .zip(groups(&start))
            .filter(|((name, a), (_, b))| a != b && new_terms.iter().any(|t| name.ends_with(t)))
            .map(|((name, _), _)| name)
            .collect();
        assert_eq!(tuned.king_attackers, start.king_attackers, "a setting, not fitted");
        // Which of them the eight games move depends on where the fit starts; most must move.
        assert!(moved.len() >= 4, "moved: {moved:?}");
        assert!(
            moved.iter().any(|m| m.ends_with(".safe_check")),
            "no safe_check moved; moved: {moved:?}"
        );
    }

    #[test]
    fn the_prior_penalises_relative_change_with_a_floor() {
        assert_eq!(prior_penalty(0.0, &[500, 10], &[100, 0]), 0.0);
        // 100 -> 150 is half its size; 0 -> 16 half the floor of 32: each 0.25, mean 0.25.
        let p = prior_penalty(2.0, &[150, 16], &[100, 0]);
        assert!((p - 0.5).abs() < 1e-12, "{p}");
        assert_eq!(prior_penalty(3.0, &[7, -7], &[7, -7]), 0.0);
    }
}
