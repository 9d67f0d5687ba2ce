//! Match statistics for engine-vs-engine matches, computed the way
//! cutechess-cli and fishtest compute them.
//!
//! All quantities are seen from the point of view of the *first* engine of a
//! pairing: a "win" is a game the first engine won.
//!
//! * [`Score`] holds the W/D/L counts and gives the score fraction, the Elo
//!   difference with its 95 % confidence interval ([`Score::elo_interval`])
//!   and the likelihood of superiority ([`Score::los`]).
//! * [`Sprt`] runs the sequential probability ratio test with cutechess-cli's
//!   trinomial (BayesElo) model, or fishtest's pentanomial normalized-Elo
//!   model on game pairs ([`super::pentanomial`]), as [`Sprt::model`] says;
//!   [`llr_normal`] is fishtest's normal (GSPRT) approximation, provided for
//!   comparison.
//! * [`format_elo`] and the `Display` impls of [`Score`] and [`SprtStatus`]
//!   produce cutechess-cli style report lines.
//!
//! # Representation of degenerate cases
//!
//! * No games played: every statistic that needs data is `None`.
//! * A 100 % (0 %) score gives an Elo difference of `f64::INFINITY`
//!   (`f64::NEG_INFINITY`); the logistic curve only reaches those scores in
//!   the limit. Confidence bounds that fall outside the score range `[0, 1]`
//!   are likewise infinite, and so is the margin of such an interval.

use std::fmt;

use super::pentanomial::Pentanomial;

/// The two-sided 95 % quantile of the standard normal distribution,
/// `Φ⁻¹(0.975)` (Python: `statistics.NormalDist().inv_cdf(0.975)`).
///
/// cutechess-cli obtains this factor from an approximate inverse error
/// function and ends up with 1.95716; margins computed here therefore differ
/// from cutechess-cli's in the second decimal at most (62.59 vs 62.50 for
/// W=50 D=20 L=30) and usually agree with the one decimal it prints.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Win/draw/loss counts of one engine against its opponent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Score {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Score {
    pub const fn new(wins: u32, draws: u32, losses: u32) -> Self {
        Self { wins, draws, losses }
    }

    /// Number of games played, `W + D + L` (as `u64`, so it cannot overflow).
    pub const fn games(&self) -> u64 {
        self.wins as u64 + self.draws as u64 + self.losses as u64
    }

    /// Points scored: 1 per win, ½ per draw, 0 per loss.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + 0.5 * f64::from(self.draws)
    }

    /// Mean score per game, `μ = (W + D/2) / N`, in `[0, 1]`.
    /// `None` if no games were played.
    pub fn score_fraction(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }

    /// Fraction of drawn games, `D / N`. `None` if no games were played.
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| f64::from(self.draws) / n as f64)
    }

    /// Variance of the score of a single game (population variance of the
    /// sample, as cutechess-cli computes it):
    ///
    /// `σ² = w·(1 − μ)² + d·(½ − μ)² + l·(0 − μ)²`
    ///
    /// where `w = W/N`, `d = D/N`, `l = L/N` and `μ` is the
    /// [score fraction](Self::score_fraction). `None` if no games were played.
    pub fn variance_per_game(&self) -> Option<f64> {
        let n = self.games() as f64;
        let mu = self.score_fraction()?;
        let (w, d, l) = (
            f64::from(self.wins) / n,
            f64::from(self.draws) / n,
            f64::from(self.losses) / n,
        );
        Some(w * (1.0 - mu).powi(2) + d * (0.5 - mu).powi(2) + l * mu.powi(2))
    }

    /// Estimated Elo difference, [`elo_from_score`] of the score fraction.
    ///
    /// `None` if no games were played; `±∞` for a 100 % / 0 % score.
    pub fn elo(&self) -> Option<f64> {
        self.score_fraction().map(elo_from_score)
    }

    /// Elo difference with its 95 % confidence interval, computed like
    /// cutechess-cli's `Elo::errorMargin`:
    ///
    /// 1. `μ` = score fraction, `σ²` = [per-game variance](Self::variance_per_game);
    /// 2. standard error of the mean: `se = σ / √N`;
    /// 3. score bounds `μ ± z·se` with `z` = [`Z_95`] (clamped to `[0, 1]`);
    /// 4. Elo bounds: [`elo_from_score`] of the score bounds. Because the Elo
    ///    curve is not linear the interval is not symmetric around the
    ///    estimate; cutechess-cli prints half its width as "+/- margin".
    ///
    /// `None` if no games were played. See [`EloInterval`] for infinite values.
    pub fn elo_interval(&self) -> Option<EloInterval> {
        let mu = self.score_fraction()?;
        let se = (self.variance_per_game()? / self.games() as f64).sqrt();
        let lower = elo_from_score((mu - Z_95 * se).clamp(0.0, 1.0));
        let upper = elo_from_score((mu + Z_95 * se).clamp(0.0, 1.0));
        let margin = if lower.is_finite() && upper.is_finite() {
            (upper - lower) / 2.0
        } else {
            f64::INFINITY
        };
        Some(EloInterval {
            elo: elo_from_score(mu),
            lower,
            upper,
            margin,
        })
    }

    /// Likelihood of superiority: the probability that the first engine is
    /// the stronger one, in `[0, 1]` (cutechess-cli prints it ×100 as a
    /// percentage).
    ///
    /// `LOS = ½ · (1 + erf((W − L) / √(2·(W + L))))`
    ///
    /// i.e. `Φ((W − L) / √(W + L))`: under equal strength each decisive game
    /// is a fair coin flip, so `W − L` is approximately normal with mean 0
    /// and variance `W + L`. Draws carry no information about who is
    /// stronger and are ignored. `None` if there were no decisive games.
    pub fn los(&self) -> Option<f64> {
        let decisive = f64::from(self.wins) + f64::from(self.losses);
        if decisive == 0.0 {
            return None;
        }
        let diff = f64::from(self.wins) - f64::from(self.losses);
        Some(0.5 * (1.0 + erf(diff / (2.0 * decisive).sqrt())))
    }
}

impl fmt::Display for Score {
    /// cutechess-cli's score line format: `W - L - D  [score] N`,
    /// e.g. `869 - 646 - 357  [0.560] 1872` (`[-]` when no games were played).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} - {} - {}  ", self.wins, self.losses, self.draws)?;
        match self.score_fraction() {
            Some(s) => write!(f, "[{s:.3}] {}", self.games()),
            None => write!(f, "[-] {}", self.games()),
        }
    }
}

/// An Elo estimate with its 95 % confidence interval; see
/// [`Score::elo_interval`].
///
/// Any of the values may be infinite: `elo` for a 100 % / 0 % score, `lower`
/// (`upper`) when the score interval reaches 0 (1). `margin` is
/// `f64::INFINITY` whenever either bound is infinite (an unbounded interval,
/// including the degenerate all-wins / all-losses case).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloInterval {
    /// Point estimate of the Elo difference.
    pub elo: f64,
    /// Lower end of the 95 % confidence interval.
    pub lower: f64,
    /// Upper end of the 95 % confidence interval.
    pub upper: f64,
    /// Half the width of the interval, `(upper − lower) / 2`: the "+/-"
    /// value cutechess-cli prints.
    pub margin: f64,
}

/// Elo difference corresponding to an expected score `p` under the logistic
/// Elo model: `elo = −400 · log10(1/p − 1)`, evaluated as the equivalent
/// `400 · log10(p / (1 − p))` (which gives `+0.0`, not `-0.0`, at `p = ½`).
///
/// Examples: 0.5 → 0, 0.75 → 190.85, 0.25 → −190.85. Returns
/// `f64::INFINITY` for `p = 1`, `f64::NEG_INFINITY` for `p = 0`, and NaN for
/// `p` outside `[0, 1]` or NaN.
pub fn elo_from_score(p: f64) -> f64 {
    if p.is_nan() || !(0.0..=1.0).contains(&p) {
        f64::NAN
    } else if p == 1.0 {
        f64::INFINITY
    } else if p == 0.0 {
        f64::NEG_INFINITY
    } else {
        400.0 * (p / (1.0 - p)).log10()
    }
}

/// Expected score for an Elo difference (inverse of [`elo_from_score`]):
/// `p = 1 / (1 + 10^(−elo/400))`. Maps `±∞` to 1 and 0.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function `erf(x) = 2/√π · ∫₀ˣ e^(−t²) dt`.
///
/// `std` has no `erf`, so it is evaluated here (for `|x|`, then given the
/// sign of `x`, as erf is odd) with two expansions:
///
/// * `|x| < 3`: the everywhere-convergent series (Abramowitz & Stegun 7.1.6)
///   `erf(x) = 2/√π · e^(−x²) · Σₙ 2ⁿ · x^(2n+1) / (1·3·5···(2n+1))`,
///   whose terms are all positive, so there is no cancellation;
/// * `3 ≤ |x| < 6`: `1 − erfc(x)` with the continued fraction (A&S 7.1.14)
///   `erfc(x) = e^(−x²)/√π · 1/(x + ½/(x + 1/(x + (3/2)/(x + 2/(x + …)))))`,
///   evaluated bottom-up from 60 levels; it gives erfc to a relative
///   accuracy of ~1e-15 there, which keeps erf monotone as it approaches 1;
/// * `|x| ≥ 6`: `1 − erf(x) < 2.2e-17` is below the resolution of `f64`
///   near 1, so the result is exactly `±1`.
///
/// Compared to Python's `math.erf` on `[-8, 8]` (step 1e-5) the absolute
/// error is below 1.5e-15 and the result is non-decreasing. NaN gives NaN.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let ax = x.abs();
    let magnitude = if ax >= 6.0 {
        1.0
    } else if ax >= 3.0 {
        let mut t = ax;
        for k in (1..=60).rev() {
            t = ax + f64::from(k) / 2.0 / t;
        }
        1.0 - (-ax * ax).exp() / (std::f64::consts::PI.sqrt() * t)
    } else {
        let x2 = ax * ax;
        let mut term = ax;
        let mut sum = ax;
        // The terms grow while 2n+1 < 2x², then shrink geometrically; for
        // |x| < 3 fewer than 60 terms are needed (the cap is a safety net).
        for n in 1..200 {
            term *= 2.0 * x2 / f64::from(2 * n + 1);
            sum += term;
            if term <= sum * 1e-17 {
                break;
            }
        }
        (std::f64::consts::FRAC_2_SQRT_PI * (-x2).exp() * sum).min(1.0)
    };
    magnitude.copysign(x)
}

/// Parameters of a sequential probability ratio test, `H0: elo = elo0`
/// against `H1: elo = elo1`, with false-positive rate `alpha` (accepting H1
/// when H0 holds) and false-negative rate `beta` (accepting H0 when H1
/// holds). Elo values are logistic Elo, as in `-sprt elo0=0 elo1=5
/// alpha=0.05 beta=0.05` of cutechess-cli.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: SprtModel,
}

/// Which likelihood the test uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SprtModel {
    /// cutechess-cli's: games one by one, W/D/L, logistic Elo ([`Sprt::llr`]).
    Trinomial,
    /// fishtest's and OpenBench's: game pairs, `Ptnml(0-2)`, normalized Elo
    /// ([`super::pentanomial::llr`]).
    Pentanomial,
}

impl SprtModel {
    pub fn name(self) -> &'static str {
        match self {
            SprtModel::Trinomial => "trinomial",
            SprtModel::Pentanomial => "pentanomial",
        }
    }
}

/// Why [`Sprt::new`] rejected its parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SprtError {
    /// `elo0` and `elo1` must be finite with `elo0 < elo1`.
    InvalidElo { elo0: f64, elo1: f64 },
    /// `alpha` and `beta` must lie in `(0, 1)` with `alpha + beta < 1`
    /// (otherwise the lower bound is not below the upper one).
    InvalidErrorRates { alpha: f64, beta: f64 },
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::InvalidElo { elo0, elo1 } => {
                write!(
                    f,
                    "invalid SPRT Elo bounds elo0={elo0} elo1={elo1}: need finite elo0 < elo1"
                )
            }
            Self::InvalidErrorRates { alpha, beta } => write!(
                f,
                "invalid SPRT error rates alpha={alpha} beta={beta}: need 0 < alpha, beta < 1 and alpha + beta < 1"
            ),
        }
    }
}

impl std::error::Error for SprtError {}

/// Outcome of an SPRT check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SprtVerdict {
    /// Neither bound crossed: keep playing.
    Continue,
    /// The LLR fell below the lower bound: H0 (`elo = elo0`) is accepted.
    AcceptH0,
    /// The LLR rose above the upper bound: H1 (`elo = elo1`) is accepted.
    AcceptH1,
}

/// The state of an SPRT after some games; see [`Sprt::status`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtStatus {
    /// Log-likelihood ratio of H1 versus H0.
    pub llr: f64,
    /// Lower bound `ln(β / (1 − α))`.
    pub lower: f64,
    /// Upper bound `ln((1 − β) / α)`.
    pub upper: f64,
    pub verdict: SprtVerdict,
}

impl fmt::Display for SprtStatus {
    /// cutechess-cli style: `SPRT: llr 2.95, lbound -2.94, ubound 2.94 - H1 was accepted`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SPRT: llr {:.2}, lbound {:.2}, ubound {:.2}",
            self.llr, self.lower, self.upper
        )?;
        match self.verdict {
            SprtVerdict::Continue => Ok(()),
            SprtVerdict::AcceptH0 => f.write_str(" - H0 was accepted"),
            SprtVerdict::AcceptH1 => f.write_str(" - H1 was accepted"),
        }
    }
}

impl Sprt {
    /// Validated constructor (the fields are public, so a struct literal
    /// also works; the formulas then assume the same constraints).
    ///
    /// # Errors
    ///
    /// Bounds that make no test: `elo0 >= elo1`, or `alpha`/`beta` outside (0, 1).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Self, SprtError> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(SprtError::InvalidElo { elo0, elo1 });
        }
        let in_unit = |p: f64| p > 0.0 && p < 1.0;
        if !(in_unit(alpha) && in_unit(beta) && alpha + beta < 1.0) {
            return Err(SprtError::InvalidErrorRates { alpha, beta });
        }
        Ok(Self {
            elo0,
            elo1,
            alpha,
            beta,
            model: SprtModel::Trinomial,
        })
    }

    /// The same test with another model.
    pub fn with_model(self, model: SprtModel) -> Self {
        Self { model, ..self }
    }

    /// The status under the test's model: the trinomial one reads the W/D/L counts, the
    /// pentanomial one the pair counts (elo0/elo1 then are normalized Elo, as in fishtest).
    pub fn status_of(&self, score: &Score, pairs: &Pentanomial) -> SprtStatus {
        match self.model {
            SprtModel::Trinomial => self.status(score),
            SprtModel::Pentanomial => {
                let llr = super::pentanomial::llr(pairs, self.elo0, self.elo1);
                SprtStatus {
                    llr,
                    lower: self.lower_bound(),
                    upper: self.upper_bound(),
                    verdict: self.verdict(llr),
                }
            }
        }
    }

    /// Wald's lower bound `ln(β / (1 − α))`; −2.944 for α = β = 0.05.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Wald's upper bound `ln((1 − β) / α)`; +2.944 for α = β = 0.05.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// Log-likelihood ratio of H1 versus H0 under cutechess-cli's trinomial
    /// model (`Sprt::status` in cutechess's `projects/lib/src/sprt.cpp`).
    /// This is the LLR of `model=trinomial`, as cutechess-cli prints it and
    /// tests it against the bounds.
    ///
    /// The model is BayesElo's: with a rating difference `b` ("BayesElo") and
    /// a draw parameter `δ` ("drawElo"),
    ///
    /// * `P(win)  = 1 / (1 + 10^((δ − b)/400))`
    /// * `P(loss) = 1 / (1 + 10^((δ + b)/400))`
    /// * `P(draw) = 1 − P(win) − P(loss)`
    ///
    /// Steps:
    ///
    /// 1. Fit `b, δ` to the sample frequencies `w = W/N`, `l = L/N`:
    ///    `b = 200·log10(w/l · (1−l)/(1−w))`, `δ = 200·log10((1−l)/l · (1−w)/w)`.
    ///    Only `δ` is used further: the draw rate is estimated from the sample
    ///    and taken to be the same under H0 and H1.
    /// 2. Convert the hypotheses from logistic Elo to BayesElo. Near equal
    ///    strength the expected score changes `s = 4x/(1+x)²` times as fast
    ///    with BayesElo as with logistic Elo (`x = 10^(−δ/400)`), hence
    ///    `b0 = elo0 / s`, `b1 = elo1 / s`.
    /// 3. Compute the W/D/L probabilities `p0`, `p1` of `(b0, δ)` and `(b1, δ)`.
    /// 4. `LLR = W·ln(p1_win/p0_win) + D·ln(p1_draw/p0_draw) + L·ln(p1_loss/p0_loss)`.
    ///
    /// If any of W, D, L is zero the fit of step 1 is undefined; cutechess-cli
    /// then reports an LLR of 0 ("not enough data") and so does this function.
    pub fn llr(&self, score: &Score) -> f64 {
        if score.wins == 0 || score.draws == 0 || score.losses == 0 {
            return 0.0;
        }
        let n = score.games() as f64;
        let w = f64::from(score.wins) / n;
        let l = f64::from(score.losses) / n;
        let draw_elo = 200.0 * ((1.0 - l) / l * (1.0 - w) / w).log10();
        let x = 10f64.powf(-draw_elo / 400.0);
        let scale = 4.0 * x / ((1.0 + x) * (1.0 + x));
        let (w0, d0, l0) = bayes_elo_probabilities(self.elo0 / scale, draw_elo);
        let (w1, d1, l1) = bayes_elo_probabilities(self.elo1 / scale, draw_elo);
        f64::from(score.wins) * (w1 / w0).ln()
            + f64::from(score.draws) * (d1 / d0).ln()
            + f64::from(score.losses) * (l1 / l0).ln()
    }

    /// The [LLR](Self::llr), both bounds and the verdict: `AcceptH1` if
    /// `llr > upper`, `AcceptH0` if `llr < lower` (strict comparisons, as in
    /// cutechess-cli), `Continue` otherwise. Unlike cutechess-cli, which
    /// reports zero bounds while W, D or L is still zero, the bounds are
    /// always filled in.
    pub fn status(&self, score: &Score) -> SprtStatus {
        let llr = self.llr(score);
        SprtStatus {
            llr,
            lower: self.lower_bound(),
            upper: self.upper_bound(),
            verdict: self.verdict(llr),
        }
    }

    /// Verdict for a given LLR: `AcceptH1` if `llr > upper`, `AcceptH0` if
    /// `llr < lower`, `Continue` otherwise (including exactly on a bound).
    pub fn verdict(&self, llr: f64) -> SprtVerdict {
        if llr > self.upper_bound() {
            SprtVerdict::AcceptH1
        } else if llr < self.lower_bound() {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}

/// `(P(win), P(draw), P(loss))` of the BayesElo model for BayesElo `b` and
/// drawElo `draw_elo`.
fn bayes_elo_probabilities(b: f64, draw_elo: f64) -> (f64, f64, f64) {
    let win = 1.0 / (1.0 + 10f64.powf((draw_elo - b) / 400.0));
    let loss = 1.0 / (1.0 + 10f64.powf((draw_elo + b) / 400.0));
    (win, 1.0 - win - loss, loss)
}

/// Normal-approximation (GSPRT) log-likelihood ratio for the logistic Elo
/// hypotheses `elo0` / `elo1`, as in fishtest's `LLR_alt2` (`server/fishtest/
/// stats/LLRcalc.py`, see M. Van den Bergh, "GSPRT approximation"):
///
/// `LLR ≈ N · (s1 − s0) · (2s − s0 − s1) / (2σ²)`
///
/// where `s` and `σ²` are the per-game mean score and variance of the sample
/// and `s0`, `s1` = [`score_from_elo`] of `elo0`, `elo1`. Like fishtest's
/// `results_to_pdf`, a zero W, D or L count is replaced by 0.001 games
/// (which also enters `N`), so the result is always finite.
///
/// This is a second opinion only: for realistic samples it is within a few
/// tenths of a percent of fishtest's exact generalized LLR and of
/// [`Sprt::llr`], but for tiny or one-sided samples the normal approximation
/// breaks down (ten straight wins give an LLR of about 286). The runner
/// acts on [`Sprt::status_of`] (trinomial or pentanomial), never on this.
pub fn llr_normal(score: &Score, elo0: f64, elo1: f64) -> f64 {
    let regularize = |count: u32| if count == 0 { 1e-3 } else { f64::from(count) };
    let (w, d, l) = (
        regularize(score.wins),
        regularize(score.draws),
        regularize(score.losses),
    );
    let n = w + d + l;
    let (pw, pd, pl) = (w / n, d / n, l / n);
    let s = pw + 0.5 * pd;
    let var = pw * (1.0 - s).powi(2) + pd * (0.5 - s).powi(2) + pl * s.powi(2);
    let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
    n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
}

/// cutechess-cli's rating line, e.g.
/// `Elo difference: 41.6 +/- 14.2, LOS: 100.0 %, DrawRatio: 19.1 %`.
///
/// Infinite values print as `inf` / `-inf`; quantities that are undefined
/// (no games, or LOS without decisive games) print as `n/a`.
pub fn format_elo(score: &Score) -> String {
    let elo = match score.elo_interval() {
        Some(ci) => format!("{:.1} +/- {:.1}", ci.elo, ci.margin),
        None => "n/a".to_owned(),
    };
    let percent = |v: Option<f64>| v.map_or_else(|| "n/a".to_owned(), |v| format!("{:.1} %", 100.0 * v));
    format!(
        "Elo difference: {elo}, LOS: {}, DrawRatio: {}",
        percent(score.los()),
        percent(score.draw_ratio())
    )
}

#[cfg(test)]
mod tests {
    //! Reference values were computed independently in Python 3 (float64);
    //! the expression that produced each one is quoted next to it.
    //! `elo(p)` below means `-400*math.log10(1/p-1)` and `z` means
    //! `statistics.NormalDist().inv_cdf(0.975)`.

    use super::*;

    fn close(actual: f64, expected: f64, tol: f64) -> bool {
        (actual - expected).abs() <= tol * expected.abs().max(1.0)
    }

    #[track_caller]
    fn assert_close(actual: f64, expected: f64, tol: f64) {
        assert!(
            close(actual, expected, tol),
            "got {actual:.15}, expected {expected:.15} (tol {tol:e})"
        );
    }

    #[test]
    fn score_basics() {
        let s = Score::new(50, 20, 30);
        assert_eq!(s.games(), 100);
        assert_eq!(s.points(), 60.0);
        assert_eq!(s.score_fraction(), Some(0.6));
        assert_eq!(s.draw_ratio(), Some(0.2));
        // 0.5*0.4**2 + 0.2*0.1**2 + 0.3*0.6**2 = 0.19
        assert_close(s.variance_per_game().unwrap(), 0.19, 1e-14);

        let max = Score::new(u32::MAX, u32::MAX, u32::MAX);
        assert_eq!(max.games(), 3 * u64::from(u32::MAX));

        let empty = Score::default();
        assert_eq!(empty.games(), 0);
        assert_eq!(empty.points(), 0.0);
        assert_eq!(empty.score_fraction(), None);
        assert_eq!(empty.draw_ratio(), None);
        assert_eq!(empty.variance_per_game(), None);
        assert_eq!(empty.elo(), None);
        assert_eq!(empty.elo_interval(), None);
        assert_eq!(empty.los(), None);
    }

    #[test]
    fn elo_from_score_known_values() {
        // elo(0.75) = 190.848501887865
        assert_close(elo_from_score(0.75), 190.848501887865, 1e-12);
        // elo(0.25) = -190.84850188786498
        assert_close(elo_from_score(0.25), -190.84850188786498, 1e-12);
        // elo(0.6) = 70.43650362227247
        assert_close(elo_from_score(0.6), 70.43650362227247, 1e-12);
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(elo_from_score(0.5).is_sign_positive(), "no \"-0.0\" in reports");
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        assert!(elo_from_score(1.5).is_nan());
        assert!(elo_from_score(-0.1).is_nan());
        assert!(elo_from_score(f64::NAN).is_nan());

        assert_close(Score::new(3, 0, 1).elo().unwrap(), 190.848501887865, 1e-12);
        assert_eq!(Score::new(5, 0, 0).elo(), Some(f64::INFINITY));
        assert_eq!(Score::new(0, 0, 5).elo(), Some(f64::NEG_INFINITY));
        assert_eq!(Score::new(0, 7, 0).elo(), Some(0.0));
    }

    #[test]
    fn score_from_elo_inverts_elo_from_score() {
        // 1/(1+10**(-5/400)) = 0.5071950817090514
        assert_close(score_from_elo(5.0), 0.5071950817090514, 1e-14);
        assert_close(score_from_elo(190.848501887865), 0.75, 1e-14);
        assert_eq!(score_from_elo(0.0), 0.5);
        assert_eq!(score_from_elo(f64::INFINITY), 1.0);
        assert_eq!(score_from_elo(f64::NEG_INFINITY), 0.0);
        for p in [0.01, 0.2, 0.5, 0.77, 0.99] {
            assert_close(score_from_elo(elo_from_score(p)), p, 1e-13);
        }
    }

    #[test]
    fn z_95_is_the_normal_quantile() {
        // statistics.NormalDist().inv_cdf(0.975) = 1.9599639845400536
        assert_close(Z_95, 1.9599639845400536, 1e-15);
        // and consistent with our erf: Φ(z) = ½(1 + erf(z/√2)) = 0.975
        assert_close(0.5 * (1.0 + erf(Z_95 / std::f64::consts::SQRT_2)), 0.975, 1e-13);
    }

    #[test]
    fn elo_interval_w50_d20_l30() {
        // n=100; mu=0.6; var=0.19; se=math.sqrt(0.19)/10=0.04358898943540673
        // elo(mu-z*se) = 10.125158404040864, elo(mu+z*se) = 135.30061830185437,
        // margin = (135.30061830185437-10.125158404040864)/2 = 62.587729948906755
        let ci = Score::new(50, 20, 30).elo_interval().unwrap();
        assert_close(ci.elo, 70.43650362227247, 1e-12);
        assert_close(ci.lower, 10.125158404040864, 1e-10);
        assert_close(ci.upper, 135.30061830185437, 1e-10);
        assert_close(ci.margin, 62.587729948906755, 1e-10);
        assert!(ci.lower < ci.elo && ci.elo < ci.upper);
    }

    #[test]
    fn elo_interval_w628_d277_l416() {
        // Same formulas for W=628 D=277 L=416:
        // elo=56.244243482086084, lower=39.54559559691633, upper=73.20473872918876,
        // margin=16.829571566136217
        let ci = Score::new(628, 277, 416).elo_interval().unwrap();
        assert_close(ci.elo, 56.244243482086084, 1e-12);
        assert_close(ci.lower, 39.54559559691633, 1e-10);
        assert_close(ci.upper, 73.20473872918876, 1e-10);
        assert_close(ci.margin, 16.829571566136217, 1e-10);
    }

    #[test]
    fn elo_interval_edge_cases() {
        // W=9 L=1: mu=0.9, var=0.09, se=0.09486832980505139; mu+z*se > 1 so the
        // upper bound is +inf; lower = elo(0.9-z*se) = 158.98518507251032.
        let ci = Score::new(9, 0, 1).elo_interval().unwrap();
        assert_close(ci.elo, 381.69700377572985, 1e-12);
        assert_close(ci.lower, 158.98518507251032, 1e-10);
        assert_eq!(ci.upper, f64::INFINITY);
        assert_eq!(ci.margin, f64::INFINITY);

        // Mirror image: W=1 L=9 -> lower = -inf, upper = -158.98518507251035.
        let ci = Score::new(1, 0, 9).elo_interval().unwrap();
        assert_eq!(ci.lower, f64::NEG_INFINITY);
        assert_close(ci.upper, -158.98518507251035, 1e-10);
        assert_eq!(ci.margin, f64::INFINITY);

        // All wins / all losses: zero variance, infinite estimate and margin.
        let ci = Score::new(10, 0, 0).elo_interval().unwrap();
        assert_eq!(
            (ci.elo, ci.lower, ci.upper, ci.margin),
            (f64::INFINITY, f64::INFINITY, f64::INFINITY, f64::INFINITY)
        );
        let ci = Score::new(0, 0, 10).elo_interval().unwrap();
        assert_eq!(ci.elo, f64::NEG_INFINITY);
        assert_eq!(ci.margin, f64::INFINITY);

        // All draws: zero variance, a degenerate but finite interval.
        let ci = Score::new(0, 10, 0).elo_interval().unwrap();
        assert_eq!((ci.elo, ci.lower, ci.upper, ci.margin), (0.0, 0.0, 0.0, 0.0));
    }

    #[test]
    fn erf_known_values() {
        // Python: math.erf(x)
        let table = [
            (0.1, 0.1124629160182849),
            (0.5, 0.5204998778130465),
            (1.0, 0.8427007929497149),
            (-1.0, -0.8427007929497149),
            (2.0, 0.9953222650189527),
            (-2.5, -0.999593047982555),
            (3.0, 0.9999779095030014),
            (4.5, 0.9999999998033839),
            (5.9, 0.9999999999999999),
        ];
        for (x, expected) in table {
            let got = erf(x);
            assert!(
                (got - expected).abs() < 2e-15,
                "erf({x}) = {got:.17}, expected {expected:.17}"
            );
        }
        assert_eq!(erf(0.0), 0.0);
        assert_eq!(erf(6.0), 1.0);
        assert_eq!(erf(-40.0), -1.0);
        assert_eq!(erf(f64::INFINITY), 1.0);
        assert_eq!(erf(f64::NEG_INFINITY), -1.0);
        assert!(erf(f64::NAN).is_nan());
        for i in 0..=800 {
            let x = f64::from(i) / 100.0;
            assert_eq!(erf(-x), -erf(x), "erf must be odd at {x}");
            assert!(erf(x).abs() <= 1.0);
            if i > 0 {
                assert!(erf(x) >= erf(x - 0.01), "erf must be non-decreasing at {x}");
            }
        }
    }

    #[test]
    fn los_known_values() {
        // 0.5*(1+math.erf((60-40)/math.sqrt(2*(60+40)))) = 0.9772498680518208
        // (= statistics.NormalDist().cdf(2))
        assert_close(Score::new(60, 0, 40).los().unwrap(), 0.9772498680518208, 1e-13);
        // Draws are ignored.
        assert_close(Score::new(60, 1000, 40).los().unwrap(), 0.9772498680518208, 1e-13);
        // 0.5*(1+math.erf((40-60)/math.sqrt(200))) = 0.02275013194817921
        assert_close(Score::new(40, 0, 60).los().unwrap(), 0.02275013194817921, 1e-12);
        assert_eq!(Score::new(7, 3, 7).los(), Some(0.5));
        assert_eq!(Score::new(0, 12, 0).los(), None);
    }

    #[test]
    fn sprt_bounds() {
        // math.log(0.05/0.95) = -2.9444389791664403, math.log(0.95/0.05) = 2.9444389791664403
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        assert_close(sprt.lower_bound(), -2.9444389791664403, 1e-14);
        assert_close(sprt.upper_bound(), 2.9444389791664403, 1e-14);
        // alpha=0.05 beta=0.1: math.log(0.1/0.95) = -2.251291798606495,
        // math.log(0.9/0.05) = 2.8903717578961645
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.1).unwrap();
        assert_close(sprt.lower_bound(), -2.251291798606495, 1e-14);
        assert_close(sprt.upper_bound(), 2.8903717578961645, 1e-14);
    }

    #[test]
    fn sprt_rejects_invalid_parameters() {
        assert!(matches!(
            Sprt::new(5.0, 0.0, 0.05, 0.05),
            Err(SprtError::InvalidElo { .. })
        ));
        assert!(matches!(
            Sprt::new(5.0, 5.0, 0.05, 0.05),
            Err(SprtError::InvalidElo { .. })
        ));
        assert!(matches!(
            Sprt::new(f64::NAN, 5.0, 0.05, 0.05),
            Err(SprtError::InvalidElo { .. })
        ));
        assert!(matches!(
            Sprt::new(0.0, 5.0, 0.0, 0.05),
            Err(SprtError::InvalidErrorRates { .. })
        ));
        assert!(matches!(
            Sprt::new(0.0, 5.0, 0.05, 1.0),
            Err(SprtError::InvalidErrorRates { .. })
        ));
        assert!(matches!(
            Sprt::new(0.0, 5.0, 0.6, 0.5),
            Err(SprtError::InvalidErrorRates { .. })
        ));
        assert!(Sprt::new(-3.0, 1.0, 0.05, 0.05).is_ok());
    }

    /// Reference LLRs from a separate Python re-implementation of cutechess-cli's
    /// `Sprt::status`:
    ///
    /// ```python
    /// def cutechess_llr(W, D, L, elo0, elo1):
    ///     if W <= 0 or D <= 0 or L <= 0: return 0.0
    ///     n = W + D + L; pw, pl = W / n, L / n
    ///     delo = 200 * math.log10((1 - pl) / pl * (1 - pw) / pw)
    ///     x = 10 ** (-delo / 400); scale = 4 * x / (1 + x) ** 2
    ///     def probs(be):
    ///         w = 1 / (1 + 10 ** ((delo - be) / 400)); l = 1 / (1 + 10 ** ((delo + be) / 400))
    ///         return w, 1 - w - l, l
    ///     p0, p1 = probs(elo0 / scale), probs(elo1 / scale)
    ///     return sum(c * math.log(a / b) for c, a, b in zip((W, D, L), p1, p0))
    /// ```
    #[test]
    fn sprt_llr_matches_cutechess_reimplementation() {
        let cases = [
            // (W, D, L, elo0, elo1, cutechess_llr(...))
            (4307, 8620, 4063, 0.0, 5.0, 3.557675787951112),
            (50, 20, 30, 0.0, 5.0, 0.3507437359257992),
            (900, 1000, 1100, 0.0, 5.0, -4.794705996715834),
            (1000, 1000, 1000, 0.0, 5.0, -0.4659735674845784),
            (4307, 8620, 4063, -3.0, 1.0, 6.846815382600823),
            (869, 357, 646, 0.0, 10.0, 6.999515703601077),
        ];
        for (w, d, l, elo0, elo1, expected) in cases {
            let sprt = Sprt::new(elo0, elo1, 0.05, 0.05).unwrap();
            let llr = sprt.llr(&Score::new(w, d, l));
            assert!(
                close(llr, expected, 1e-9),
                "W={w} D={d} L={l} [{elo0}, {elo1}]: llr {llr}, expected {expected}"
            );
        }
    }

    #[test]
    fn sprt_zero_count_means_no_data() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        for score in [
            Score::default(),
            Score::new(100, 0, 1),
            Score::new(0, 5, 5),
            Score::new(30, 30, 0),
        ] {
            let st = sprt.status(&score);
            assert_eq!(st.llr, 0.0, "{score:?}");
            assert_eq!(st.verdict, SprtVerdict::Continue);
            assert_close(st.lower, -2.9444389791664403, 1e-14);
            assert_close(st.upper, 2.9444389791664403, 1e-14);
        }
    }

    #[test]
    fn sprt_verdict_transitions() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();

        // Raising W with D=600 L=250 fixed: cutechess_llr(360, 600, 250, 0, 5) =
        // 2.9243695757849872 (below 2.944), cutechess_llr(361, 600, 250, 0, 5) =
        // 2.951118621217711 (above).
        let st = sprt.status(&Score::new(360, 600, 250));
        assert_close(st.llr, 2.9243695757849872, 1e-9);
        assert_eq!(st.verdict, SprtVerdict::Continue);
        let st = sprt.status(&Score::new(361, 600, 250));
        assert_close(st.llr, 2.951118621217711, 1e-9);
        assert_eq!(st.verdict, SprtVerdict::AcceptH1);

        // Raising L with W=250 D=600 fixed: cutechess_llr(250, 600, 342, 0, 5) =
        // -2.9376578009934544, cutechess_llr(250, 600, 343, 0, 5) = -2.9649919163484455.
        let st = sprt.status(&Score::new(250, 600, 342));
        assert_close(st.llr, -2.9376578009934544, 1e-9);
        assert_eq!(st.verdict, SprtVerdict::Continue);
        let st = sprt.status(&Score::new(250, 600, 343));
        assert_close(st.llr, -2.9649919163484455, 1e-9);
        assert_eq!(st.verdict, SprtVerdict::AcceptH0);

        // Far past both bounds.
        assert_eq!(
            sprt.status(&Score::new(4307, 8620, 4063)).verdict,
            SprtVerdict::AcceptH1
        );
        assert_eq!(sprt.status(&Score::new(900, 1000, 1100)).verdict, SprtVerdict::AcceptH0);

        // The comparisons are strict: an LLR exactly on a bound continues.
        let (lower, upper) = (sprt.lower_bound(), sprt.upper_bound());
        assert_eq!(sprt.verdict(upper), SprtVerdict::Continue);
        assert_eq!(sprt.verdict(lower), SprtVerdict::Continue);
        assert_eq!(sprt.verdict(upper.next_up()), SprtVerdict::AcceptH1);
        assert_eq!(sprt.verdict(lower.next_down()), SprtVerdict::AcceptH0);
    }

    /// Reference values from fishtest's own `LLR_alt2`, transcribed to Python from
    /// official-stockfish/fishtest `server/fishtest/stats/LLRcalc.py`:
    ///
    /// ```python
    /// N, pdf = results_to_pdf([L, D, W])   # zero counts -> 1e-3
    /// N * LLR_alt2(pdf, L_(elo0), L_(elo1))
    /// # LLR_alt2: s, var = stats(pdf); (s1 - s0) * (2 * s - s0 - s1) / var / 2.0
    /// ```
    #[test]
    fn llr_normal_matches_fishtest_alt2() {
        let cases = [
            (4307, 8620, 4063, 0.0, 5.0, 3.5579866573202006),
            (50, 20, 30, 0.0, 5.0, 0.3650650371079861),
            (900, 1000, 1100, 0.0, 5.0, -4.8150723147283365),
            (4307, 8620, 4063, -3.0, 1.0, 6.847713065204013),
            // regularized zero counts
            (0, 10, 0, 0.0, 5.0, -5.17899105510119),
            (10, 0, 0, 0.0, 5.0, 285.81188236243975),
        ];
        for (w, d, l, elo0, elo1, expected) in cases {
            let llr = llr_normal(&Score::new(w, d, l), elo0, elo1);
            assert!(
                close(llr, expected, 1e-9),
                "W={w} D={d} L={l} [{elo0}, {elo1}]: llr {llr}, expected {expected}"
            );
        }
        // For a large realistic sample both models agree to within 0.1 %.
        let score = Score::new(4307, 8620, 4063);
        let trinomial = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap().llr(&score);
        assert!(close(llr_normal(&score, 0.0, 5.0), trinomial, 1e-3));
    }

    /// Expected strings are real cutechess-cli output quoted in
    /// mvanthoor/rustic-book `src/progress/sprt_results.md`.
    #[test]
    fn report_lines_match_cutechess_output() {
        let s = Score::new(869, 357, 646);
        assert_eq!(s.to_string(), "869 - 646 - 357  [0.560] 1872");
        assert_eq!(
            format_elo(&s),
            "Elo difference: 41.6 +/- 14.2, LOS: 100.0 %, DrawRatio: 19.1 %"
        );

        let s = Score::new(409, 133, 197);
        assert_eq!(s.to_string(), "409 - 197 - 133  [0.643] 739");
        assert_eq!(
            format_elo(&s),
            "Elo difference: 102.5 +/- 23.5, LOS: 100.0 %, DrawRatio: 18.0 %"
        );

        let s = Score::new(628, 277, 416);
        assert_eq!(
            format_elo(&s),
            "Elo difference: 56.2 +/- 16.8, LOS: 100.0 %, DrawRatio: 21.0 %"
        );
    }

    #[test]
    fn report_lines_edge_cases() {
        // Values from the tests above: elo 70.436..., margin 62.587...; LOS of 50 vs 30
        // = 0.5*(1+math.erf(20/math.sqrt(160))) = 0.9873263406612658 -> 98.7 %
        assert_close(Score::new(50, 20, 30).los().unwrap(), 0.9873263406612658, 1e-13);
        assert_eq!(
            format_elo(&Score::new(50, 20, 30)),
            "Elo difference: 70.4 +/- 62.6, LOS: 98.7 %, DrawRatio: 20.0 %"
        );
        assert_eq!(
            format_elo(&Score::default()),
            "Elo difference: n/a, LOS: n/a, DrawRatio: n/a"
        );
        assert_eq!(Score::default().to_string(), "0 - 0 - 0  [-] 0");
        assert_eq!(
            format_elo(&Score::new(4, 0, 0)),
            "Elo difference: inf +/- inf, LOS: 97.7 %, DrawRatio: 0.0 %"
        );
        assert_eq!(
            format_elo(&Score::new(0, 3, 0)),
            "Elo difference: 0.0 +/- 0.0, LOS: n/a, DrawRatio: 100.0 %"
        );

        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        assert_eq!(
            sprt.status(&Score::new(361, 600, 250)).to_string(),
            "SPRT: llr 2.95, lbound -2.94, ubound 2.94 - H1 was accepted"
        );
        assert_eq!(
            sprt.status(&Score::new(250, 600, 343)).to_string(),
            "SPRT: llr -2.96, lbound -2.94, ubound 2.94 - H0 was accepted"
        );
        assert_eq!(
            sprt.status(&Score::new(50, 20, 30)).to_string(),
            "SPRT: llr 0.35, lbound -2.94, ubound 2.94"
        );
    }
}
