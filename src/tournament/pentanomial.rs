//! Game pairs: the two games of one opening with colours swapped, scored together 0, ½, 1, 1½ or
//! 2 points for the first engine; their five counts (`Ptnml(0-2)`), and the log-likelihood ratio
//! of the normalized-Elo SPRT on them, as fishtest (`LLR_normalized` in
//! `server/fishtest/stats/LLRcalc.py`) and OpenBench (`PentanomialSPRT`) compute it.
//!
//! The model (M. Van den Bergh, "Normalized Elo", cantate.be/Fishtest): a pair's score divided by
//! two is a value `aᵢ ∈ {0, ¼, ½, ¾, 1}` with observed frequencies `pᵢ` (a zero count replaced by
//! 0.001 pairs). The hypotheses fix the *normalized t-value* `t = (μ − ½) / σ` of the pair score
//! (`μ`, `σ²` its mean and variance); normalized Elo `nElo = t / √2 · 800 / ln 10` per game. Under
//! each hypothesis `tₖ` the maximum-likelihood distribution `qₖ` with `t(qₖ) = tₖ` is found by a
//! fixed-point iteration, each step solving the secular equation `Σ pᵢ bᵢ / (1 + x bᵢ) = 0`; the
//! LLR is `N · Σ pᵢ ln(q1ᵢ / q0ᵢ)` over the N pairs.

use std::fmt;

/// Normalized Elo per unit of normalized t-value of one game: `800 / ln 10`.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// The counts of pairs by the first engine's points: `[LL, LD, WL+DD, WD, WW]` (index = points × 2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Counts a finished pair from the first engine's points in it (0, 0.5, …, 2).
    pub fn add_pair(&mut self, points: f64) {
        let index = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[index] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.0.iter().map(|&c| u64::from(c)).sum()
    }
}

impl fmt::Display for Pentanomial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c, d, e] = self.0;
        write!(f, "Ptnml(0-2): [{a}, {b}, {c}, {d}, {e}]")
    }
}

/// Mean and variance of a distribution of `(value, probability)`.
fn mean_variance(pdf: &[(f64, f64)]) -> (f64, f64) {
    let mean: f64 = pdf.iter().map(|(a, p)| a * p).sum();
    let var = pdf.iter().map(|(a, p)| p * (a - mean) * (a - mean)).sum();
    (mean, var)
}

/// The root `x` of `f(x) = Σ pᵢ bᵢ / (1 + x bᵢ)` between the poles `−1/max b` and `−1/min b`
/// (`f` falls from +∞ to −∞ there). `None` unless `min b < 0 < max b`.
fn secular(p: &[f64], b: &[f64]) -> Option<f64> {
    let lo_b = b.iter().copied().fold(f64::INFINITY, f64::min);
    let hi_b = b.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(lo_b < 0.0 && hi_b > 0.0) {
        return None;
    }
    let f = |x: f64| -> f64 { p.iter().zip(b).map(|(p, b)| p * b / (1.0 + x * b)).sum() };
    let f_slope = |x: f64| -> f64 {
        p.iter()
            .zip(b)
            .map(|(p, b)| -p * b * b / ((1.0 + x * b) * (1.0 + x * b)))
            .sum()
    };
    // Newton steps kept inside a shrinking bracket (bisection when a step leaves it).
    // x = 0 lies between the poles (one is negative, the other positive).
    let (mut lo, mut hi) = (-1.0 / hi_b, -1.0 / lo_b);
    let mut x = 0.0;
    for _ in 0..200 {
        let fx = f(x);
        if fx == 0.0 {
            return Some(x);
        }
        if fx > 0.0 {
            lo = x;
        } else {
            hi = x;
        }
        let step = x - fx / f_slope(x);
        let next = if step > lo && step < hi { step } else { 0.5 * (lo + hi) };
        if (next - x).abs() <= 1e-15 * x.abs().max(1e-300) || next == lo || next == hi {
            return Some(next);
        }
        x = next;
    }
    Some(x)
}

/// The maximum-likelihood distribution on the values of `pdf` whose t-value `(μ − reference) / σ`
/// is `t`, for the observed `pdf` (a fixed-point iteration on the secular equation).
fn mle_t_value(pdf: &[(f64, f64)], reference: f64, t: f64) -> Option<Vec<f64>> {
    let p: Vec<f64> = pdf.iter().map(|&(_, p)| p).collect();
    let mut q = vec![1.0 / pdf.len() as f64; pdf.len()];
    for _ in 0..100 {
        let with_q: Vec<(f64, f64)> = pdf.iter().zip(&q).map(|(&(a, _), &q)| (a, q)).collect();
        let (mu, var) = mean_variance(&with_q);
        let sigma = var.sqrt();
        let b: Vec<f64> = pdf
            .iter()
            .map(|&(a, _)| a - reference - t * sigma * (1.0 + ((mu - a) / sigma).powi(2)) / 2.0)
            .collect();
        let x = secular(&p, &b)?;
        let next: Vec<f64> = p.iter().zip(&b).map(|(p, b)| p / (1.0 + x * b)).collect();
        let change = next.iter().zip(&q).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        q = next;
        if change < 1e-13 {
            break;
        }
    }
    Some(q)
}

/// The log-likelihood ratio of `nelo1` against `nelo0` (normalized Elo) for these pair counts.
/// 0 while no pair is complete (no data), and 0 where the maximum-likelihood fit has no solution
/// (hypotheses far outside what five outcomes can express).
pub fn llr(counts: &Pentanomial, nelo0: f64, nelo1: f64) -> f64 {
    if counts.pairs() == 0 {
        return 0.0;
    }
    // fishtest's and OpenBench's regularization: an empty class counts 0.001 pairs.
    let regularized: Vec<f64> = counts
        .0
        .iter()
        .map(|&c| if c == 0 { 1e-3 } else { f64::from(c) })
        .collect();
    let n: f64 = regularized.iter().sum();
    let pdf: Vec<(f64, f64)> = regularized
        .iter()
        .enumerate()
        .map(|(i, c)| (i as f64 / 4.0, c / n))
        .collect();
    // A pair's t-value is √2 times a game's.
    let t = |nelo: f64| nelo / NELO_PER_T * std::f64::consts::SQRT_2;
    let (Some(q0), Some(q1)) = (mle_t_value(&pdf, 0.5, t(nelo0)), mle_t_value(&pdf, 0.5, t(nelo1))) else {
        return 0.0;
    };
    n * pdf
        .iter()
        .zip(q0.iter().zip(&q1))
        .map(|(&(_, p), (q0, q1))| p * (q1.ln() - q0.ln()))
        .sum::<f64>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_counted_by_points() {
        let mut p = Pentanomial::default();
        for points in [0.0, 0.5, 1.0, 1.0, 1.5, 2.0, 2.0, 2.0] {
            p.add_pair(points);
        }
        assert_eq!(p.0, [1, 1, 2, 1, 3]);
        assert_eq!(p.pairs(), 8);
        assert_eq!(p.to_string(), "Ptnml(0-2): [1, 1, 2, 1, 3]");
    }

    #[test]
    fn llr_is_antisymmetric_and_zero_without_data() {
        assert_eq!(llr(&Pentanomial::default(), 0.0, 5.0), 0.0);
        let p = Pentanomial([10, 40, 100, 45, 12]);
        let forward = llr(&p, 0.0, 5.0);
        let backward = llr(&p, 5.0, 0.0);
        assert!((forward + backward).abs() < 1e-9, "{forward} {backward}");
        // Mirrored counts with mirrored hypotheses give the same LLR.
        let mirrored = Pentanomial([12, 45, 100, 40, 10]);
        assert!((llr(&mirrored, -5.0, 0.0) - backward).abs() < 1e-9);
    }

    #[test]
    fn secular_root_solves_the_equation() {
        let p = [0.1, 0.2, 0.4, 0.2, 0.1];
        let b = [-0.5, -0.2, 0.05, 0.3, 0.5];
        let x = secular(&p, &b).unwrap();
        let f: f64 = p.iter().zip(&b).map(|(p, b)| p * b / (1.0 + x * b)).sum();
        assert!(f.abs() < 1e-14, "{f}");
        assert_eq!(secular(&p, &[0.1, 0.2, 0.3, 0.4, 0.5]), None);
    }
}
