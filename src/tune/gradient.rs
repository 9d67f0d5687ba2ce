//! Gradient tuning, for many weights and many positions: the evaluation is made linear around the
//! current weights (for each weight, how much each training position's evaluation moves per unit
//! of it, measured by moving it `STEP`), and Adam descends the error of that linear model over all
//! weights at once. Most terms are sums of weights (material, placement, mobility, pawns), so the
//! model is exact for them; for the others (king danger's square and cap) it is the local slope,
//! and each round starts from a new linearisation at the weights the last one reached, kept only
//! when the real evaluation's error agrees that they are better.
//!
//! A round costs one evaluation of every training position per weight (on every core), where
//! coordinate descent (`texel`) costs several per weight and pass: what makes a full piece-square
//! table (hundreds of weights) affordable.

use std::sync::Arc;
use std::time::Instant;

use crate::core::Variant;
use crate::search::EvalParams;

use super::selfplay::Sample;
use super::texel::{
    TuneConfig, TuneReport, mean_error, predicted, prior_penalty, prior_scale, scale, split, white_evals,
};

/// How far a weight is moved to measure its slope: far enough that the evaluation's integer
/// rounding (the middle/end-game blend) is a small part of the change.
const STEP: i32 = 16;
/// Adam's steps over the linear model in one round.
const EPOCHS: u32 = 400;
/// Adam's step size, in evaluation units (centipawns) per epoch.
const LEARNING_RATE: f64 = 1.0;

/// The training positions' evaluations as a linear function of the weights near `at`.
struct Linear {
    at: Vec<i32>,
    /// Each training position's evaluation for White at `at`.
    base: Vec<f64>,
    /// Per weight, the positions whose evaluation it moves and by how much per unit.
    slopes: Vec<Vec<(u32, f32)>>,
}

/// Measures every weight's slope at `params`, the weights shared out among the machine's cores.
fn linearise(variant: &Arc<Variant>, params: &EvalParams, train: &[&Sample]) -> Linear {
    let at = params.to_vector();
    let base = white_evals(variant, params, train);
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, at.len().max(1));
    let mut slopes: Vec<Vec<(u32, f32)>> = vec![Vec::new(); at.len()];
    std::thread::scope(|scope| {
        let chunk = at.len().div_ceil(workers).max(1);
        for (w, part) in slopes.chunks_mut(chunk).enumerate() {
            let (at, base) = (&at, &base);
            scope.spawn(move || {
                let mut moved = params.clone();
                let mut vector = at.clone();
                for (j, slope) in part.iter_mut().enumerate() {
                    let i = w * chunk + j;
                    vector[i] += STEP;
                    moved.set_vector(&vector);
                    let evals = white_evals(variant, &moved, train);
                    vector[i] -= STEP;
                    *slope = evals
                        .iter()
                        .zip(base)
                        .enumerate()
                        .filter(|(_, (e, b))| e != b)
                        .map(|(s, (e, b))| (s as u32, ((e - b) / f64::from(STEP)) as f32))
                        .collect();
                }
            });
        }
    });
    Linear { at, base, slopes }
}

/// The linear model's evaluations of the training positions at `at + delta`.
fn model_evals(linear: &Linear, delta: &[f64]) -> Vec<f64> {
    let mut evals = linear.base.clone();
    for (slope, &d) in linear.slopes.iter().zip(delta) {
        if d != 0.0 {
            for &(s, c) in slope {
                evals[s as usize] += f64::from(c) * d;
            }
        }
    }
    evals
}

/// Adam on the linear model's error plus the prior; returns the change of the weights.
fn descend(linear: &Linear, start: &[i32], k: f64, prior: f64, train: &[&Sample]) -> Vec<f64> {
    let n = linear.at.len();
    let (b1, b2, eps) = (0.9, 0.999, 1e-12);
    let mut delta = vec![0.0; n];
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let slope_of_logistic = k * std::f64::consts::LN_10 / 400.0;
    let count = train.len() as f64;
    for epoch in 1..=EPOCHS {
        let evals = model_evals(linear, &delta);
        // d error / d evaluation, for each position.
        let pull: Vec<f64> = evals
            .iter()
            .zip(train)
            .map(|(&e, s)| {
                let p = predicted(k, e);
                -2.0 * (s.result - p) * p * (1.0 - p) * slope_of_logistic / count
            })
            .collect();
        for i in 0..n {
            let mut g: f64 = linear.slopes[i]
                .iter()
                .map(|&(s, c)| f64::from(c) * pull[s as usize])
                .sum();
            if prior > 0.0 {
                let scale = prior_scale(start[i]);
                let moved = f64::from(linear.at[i]) + delta[i] - f64::from(start[i]);
                g += 2.0 * prior * moved / (scale * scale) / n as f64;
            }
            if g == 0.0 && m[i] == 0.0 {
                continue;
            }
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let m_hat = m[i] / (1.0 - b1.powi(epoch as i32));
            let v_hat = v[i] / (1.0 - b2.powi(epoch as i32));
            delta[i] -= LEARNING_RATE * m_hat / (v_hat.sqrt() + eps);
        }
    }
    delta
}

/// Tunes `start` to `samples` by rounds of linearisation and descent (at most `config.passes`);
/// `progress` hears after each round (round, training error).
pub fn tune(
    variant: &Arc<Variant>,
    samples: &[Sample],
    start: &EvalParams,
    config: &TuneConfig,
    progress: &mut dyn FnMut(u32, f64),
) -> (EvalParams, TuneReport) {
    let (train, test) = split(samples);
    let k = scale(variant, start, &train, config);
    let start_vector = start.to_vector();
    let objective = |params: &EvalParams| {
        let e = mean_error(k, &white_evals(variant, params, &train), &train);
        (e + prior_penalty(config.prior, &params.to_vector(), &start_vector), e)
    };
    let (mut best_objective, train_before) = objective(start);
    let mut best_error = train_before;
    let mut params = start.clone();
    let mut rounds = 0;
    let mut inert = 0;
    while rounds < config.passes {
        rounds += 1;
        let linear = linearise(variant, &params, &train);
        if rounds == 1 {
            inert = linear.slopes.iter().filter(|s| s.is_empty()).count();
        }
        let delta = descend(&linear, &start_vector, k, config.prior, &train);
        let vector: Vec<i32> = linear
            .at
            .iter()
            .zip(&delta)
            .map(|(&w, &d)| (f64::from(w) + d).round().clamp(-100_000.0, 100_000.0) as i32)
            .collect();
        let mut next = params.clone();
        next.set_vector(&vector);
        let (o, e) = objective(&next);
        let better = o < best_objective;
        if better {
            (best_objective, best_error, params) = (o, e, next);
        }
        progress(rounds, best_error);
        if !better || config.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
    }
    let changed = params
        .to_vector()
        .iter()
        .zip(&start_vector)
        .filter(|(a, b)| a != b)
        .count();
    let report = TuneReport {
        k,
        train: train.len(),
        test: test.len(),
        train_before,
        train_after: best_error,
        test_before: mean_error(k, &white_evals(variant, start, &test), &test),
        test_after: mean_error(k, &white_evals(variant, &params, &test), &test),
        passes: rounds,
        changed,
        inert,
    };
    (params, report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::S;
    use crate::tune::texel::material_samples;
    use crate::variants::Registry;

    /// Started from a knight worth almost nothing, all weights moving at once must give it back a
    /// clear value; a weight no position shows (a value in hand in chess, a square no knight
    /// stands on) has no slope and stays.
    #[test]
    fn gradient_tuning_learns_a_material_value_the_results_demand() {
        let v = Registry::builtin().get("normal").expect("normal");
        let samples = material_samples(&v);
        let knight = v.kind_by_letter('N').expect("knight").index();
        let mut start = EvalParams::defaults(&v);
        start.kinds[knight].material = S { mg: 20, eg: 20 };
        let config = TuneConfig {
            passes: 4,
            deadline: None,
            k: Some(1.0),
            prior: 0.0,
        };
        let mut rounds = Vec::new();
        let (tuned, report) = tune(&v, &samples, &start, &config, &mut |r, e| rounds.push((r, e)));
        assert!(report.train_after < report.train_before, "{report:?}");
        assert!(rounds.windows(2).all(|w| w[1].1 <= w[0].1), "{rounds:?}");
        // The knight's worth comes back, shared among its material, placement and mobility
        // weights, which all move together: the knight positions (the first sixty, White's
        // knight in the first and third twenty) evaluate to a clear advantage again.
        let refs: Vec<&Sample> = samples.iter().take(60).collect();
        let before = white_evals(&v, &start, &refs);
        let after = white_evals(&v, &tuned, &refs);
        for (i, (b, a)) in before.iter().zip(&after).enumerate() {
            let sign = if i < 20 || (40..50).contains(&i) { 1.0 } else { -1.0 };
            assert!(
                b * sign < 100.0 && a * sign > 200.0,
                "position {i}: {b} -> {a}, {report:?}"
            );
        }
        assert!(report.inert >= 2 * tuned.kinds.len(), "{report:?}");
        for (a, b) in tuned.kinds.iter().zip(&start.kinds) {
            assert_eq!((a.hand.mg, a.hand.eg), (b.hand.mg, b.hand.eg));
        }
        // No knight of these positions stands on a1's neighbour b1 (as White sees it): its
        // square weight has no slope.
        assert_eq!(tuned.kinds[knight].square[1], S::default());

        let held = TuneConfig { prior: 1e6, ..config };
        let (kept, report) = tune(&v, &samples, &start, &held, &mut |_, _| {});
        assert_eq!(kept.to_vector(), start.to_vector(), "{report:?}");
        assert_eq!(report.changed, 0);
    }

    /// The slopes are the evaluation's own: a material weight moves each position's evaluation
    /// by the count of that piece on the board (White's less Black's), blended by the phase.
    #[test]
    fn a_slope_is_the_evaluation_s_change_per_unit() {
        let v = Registry::builtin().get("normal").expect("normal");
        let samples = material_samples(&v);
        let refs: Vec<&Sample> = samples.iter().collect();
        let params = EvalParams::defaults(&v);
        let linear = linearise(&v, &params, &refs);
        let knight = v.kind_by_letter('N').expect("knight").index();
        let mut index = None;
        let mut at = 0;
        params.clone().for_each_group(|name, values| {
            if name == format!("piece.{}.material", params.kind_names[knight]) {
                index = Some(at + 1); // the end-game value
            }
            if !EvalParams::is_setting(name) {
                at += values.len();
            }
        });
        let slope = &linear.slopes[index.expect("the knight's material")];
        // The knight positions are the first sixty, ten of each board; White has the knight in
        // the first twenty and in the fifth ten.
        assert_eq!(slope.len(), 60, "{slope:?}");
        for &(s, c) in slope {
            let sign = if s < 20 || (40..50).contains(&s) { 1.0 } else { -1.0 };
            let c = f64::from(c) * sign;
            assert!(c > 0.5 && c <= 1.0, "position {s}: {c}");
        }
        let delta = vec![0.0; linear.at.len()];
        assert_eq!(model_evals(&linear, &delta), linear.base);
    }
}
