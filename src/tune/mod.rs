//! `fairybridge tune`: an evaluation fitted to one game, built-in or defined in a file, with one
//! command. It plays the engine against itself at a fixed number of nodes a move (`selfplay`), or
//! replays games already played (`--from-pgn`, `pgn`), keeps the quiet positions with their games'
//! results, fits the evaluation's weights to them (`texel`), and writes the weights as the
//! definition's `[eval]` section, which the engine reads when it loads the definition.
//!
//! ```text
//! fairybridge [--variants FILE] tune --variant NAME [--games N] [--nodes N] [--random-plies N]
//!             [--from-pgn FILE]... [--data FILE] [--from-data FILE] [--method descent|gradient]
//!             [--passes N] [--prior P] [--minutes M] [--seed N] [--write | --out FILE]
//! ```
//!
//! Without `--write` or `--out` the section goes to stdout.

pub mod gradient;
pub mod pgn;
pub mod selfplay;
pub mod texel;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::core::Variant;
use crate::search::{EvalParams, with_section};
use crate::variants::{DefinitionSource, Registry};

use selfplay::PlayConfig;
use texel::TuneConfig;

/// Fits the evaluation of one game to self-play games.
#[derive(clap::Args, Debug, Clone)]
pub struct TuneArgs {
    /// The game (see `fairybridge variants`; `--variants FILE` loads your own).
    #[arg(long)]
    pub variant: String,
    /// Self-play games to learn from.
    #[arg(long, default_value_t = 1000)]
    pub games: u32,
    /// Search nodes per move in the self-play games.
    #[arg(long, default_value_t = 4000)]
    pub nodes: u64,
    /// Random legal moves at the start of each game.
    #[arg(long, default_value_t = 8)]
    pub random_plies: u32,
    /// A game longer than this (plies) counts as a draw.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Learn from the games of this PGN file (repeatable) instead of playing games: games of
    /// other variants, without a result, or lost by a forfeit are skipped; positions are chosen as
    /// in self-play, each move's search score read from its comment (`{+0.25/12 0.81s}`).
    #[arg(long = "from-pgn", value_name = "FILE", conflicts_with = "from_data")]
    pub from_pgn: Vec<PathBuf>,
    /// Also save the positions (`RESULT;FEN` lines) to this file.
    #[arg(long, value_name = "FILE")]
    pub data: Option<PathBuf>,
    /// Learn from the positions in this file instead of playing games: `RESULT;FEN` lines, RESULT
    /// White's score from 0 to 1 (a game's result as `--data` saves it, or a label of your own,
    /// e.g. a stronger engine's evaluation made a score).
    #[arg(long, value_name = "FILE", conflicts_with = "data")]
    pub from_data: Option<PathBuf>,
    /// How the weights are fitted: `descent` moves one weight at a time (slow, for a few dozen
    /// weights); `gradient` moves all at once on a linear model of the evaluation, measured anew
    /// each pass (for hundreds of weights, such as piece-square tables, and large data).
    #[arg(long, value_enum, default_value_t = TuneMethod::Descent)]
    pub method: TuneMethod,
    /// Most passes: over all weights (`descent`), or linearisations (`gradient`).
    #[arg(long, default_value_t = 12)]
    pub passes: u32,
    /// How strongly the weights are held near the ones they start from: this times the mean of
    /// each moved weight's squared change relative to its size (at least 32) is added to the
    /// error. 0 lets the data alone decide; with few or alike games, 0.001-0.01 keeps a weight the
    /// data barely supports from running off.
    #[arg(long, default_value_t = 0.0)]
    pub prior: f64,
    /// Stop tuning after the pass that ends past this many minutes of tuning.
    #[arg(long)]
    pub minutes: Option<f64>,
    /// Seed of the random opening moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rewrite the variant's definition file with the tuned `[eval]` section.
    #[arg(long, conflicts_with = "out")]
    pub write: bool,
    /// Write the definition with the tuned `[eval]` section to this file.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// How `tune` fits the weights.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TuneMethod {
    /// Coordinate descent (`texel`).
    Descent,
    /// Adam on the linearised evaluation (`gradient`).
    Gradient,
}

/// The positions of `args.games` self-play games.
fn play(variant: &Arc<Variant>, args: &TuneArgs) -> Vec<String> {
    let config = PlayConfig {
        games: args.games.clamp(1, 1_000_000),
        nodes: args.nodes.clamp(1, 100_000_000),
        random_plies: args.random_plies.min(1000),
        max_plies: args.max_plies.clamp(1, 100_000),
        seed: args.seed,
        hash_mb: 16,
    };
    let started = Instant::now();
    selfplay::play(variant, &config, &mut |games, positions| {
        if games % 50 == 0 || games == config.games {
            eprintln!(
                "tune: {games}/{} games, {positions} positions, {:.0} s",
                config.games,
                started.elapsed().as_secs_f64()
            );
        }
    })
}

/// Messages of games that do not replay shown for each file; the rest are counted.
const SHOWN_UNREADABLE: usize = 20;

/// The positions of the games of `variant` in the PGN files `paths`, in the files' order; a line
/// on stderr for each file says what it gave and what it skipped.
///
/// # Errors
///
/// A file that cannot be read.
fn from_pgn(variant: &Arc<Variant>, paths: &[PathBuf]) -> Result<Vec<String>, String> {
    let mut lines = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let shown = path.display().to_string();
        let got = pgn::positions(variant, &text, &shown);
        for why in got.unreadable.iter().take(SHOWN_UNREADABLE) {
            eprintln!("tune: skipped {why}");
        }
        if got.unreadable.len() > SHOWN_UNREADABLE {
            eprintln!(
                "tune: skipped {} more games of {shown} that do not replay",
                got.unreadable.len() - SHOWN_UNREADABLE
            );
        }
        eprintln!(
            "tune: {shown}: {} positions of {} games of {}; skipped {} of other variants, {} without \
             a result, {} forfeited, {} that do not replay",
            got.lines.len(),
            got.games,
            variant.name,
            got.other_variant,
            got.unfinished,
            got.forfeited,
            got.unreadable.len()
        );
        lines.extend(got.lines);
    }
    Ok(lines)
}

fn fail(message: impl std::fmt::Display) -> i32 {
    eprintln!("fairybridge: {message}");
    2
}

/// Runs `fairybridge tune`; returns the exit code.
pub fn run(args: TuneArgs, reg: &Registry) -> i32 {
    let Some(variant) = reg.get(&args.variant) else {
        return fail(format!(
            "unknown variant {:?} (known: {})",
            args.variant,
            reg.names().join(", ")
        ));
    };
    let source = DefinitionSource::of(&variant);
    // Where the result goes, checked before hours of play.
    let target: Option<PathBuf> = if args.write {
        let path = Path::new(&source.file);
        let same = std::fs::read_to_string(path).is_ok_and(|t| t == *source.text);
        if !same {
            return fail(format!(
                "--write: {} is not a file on disk holding this definition (a built-in game is \
                 embedded: use --out FILE, e.g. --out fixtures/variants/{}.toml, and rebuild)",
                source.file, variant.name
            ));
        }
        Some(path.to_path_buf())
    } else {
        args.out.clone()
    };
    let text = if let Some(path) = &args.from_data {
        match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => return fail(format!("cannot read {}: {e}", path.display())),
        }
    } else {
        let lines = if args.from_pgn.is_empty() {
            play(&variant, &args)
        } else {
            match from_pgn(&variant, &args.from_pgn) {
                Ok(lines) => lines,
                Err(e) => return fail(e),
            }
        };
        let mut text = lines.join("\n");
        text.push('\n');
        if let Some(path) = &args.data
            && let Err(e) = std::fs::write(path, &text)
        {
            return fail(format!("cannot write {}: {e}", path.display()));
        }
        text
    };
    let samples = match selfplay::read_samples(&variant, &text) {
        Ok(s) => s,
        Err(e) => return fail(format!("positions: {e}")),
    };
    if samples.len() < 10 {
        return fail(format!("{} positions: too few to tune from", samples.len()));
    }
    let start = EvalParams::of(&variant);
    let config = TuneConfig {
        passes: args.passes.min(10_000),
        deadline: args
            .minutes
            .map(|m| Instant::now() + Duration::from_secs_f64((m.clamp(0.0, 1e6)) * 60.0)),
        k: None,
        prior: if args.prior.is_finite() {
            args.prior.clamp(0.0, 1e6)
        } else {
            0.0
        },
    };
    let began = Instant::now();
    let mut progress = |pass: u32, error: f64| {
        eprintln!(
            "tune: pass {pass}, training error {error:.6}, {:.0} s",
            began.elapsed().as_secs_f64()
        );
    };
    let (tuned, report) = match args.method {
        TuneMethod::Descent => texel::tune(&variant, &samples, &start, &config, &mut progress),
        TuneMethod::Gradient => gradient::tune(&variant, &samples, &start, &config, &mut progress),
    };
    eprintln!(
        "tune: K {:.3}; {} training positions, error {:.6} -> {:.6}; {} held out, error {:.6} -> {:.6}; \
         {} weights changed in {} passes ({} changed no training position's evaluation: tried once)",
        report.k,
        report.train,
        report.train_before,
        report.train_after,
        report.test,
        report.test_before,
        report.test_after,
        report.changed,
        report.passes,
        report.inert
    );
    let section = tuned.to_toml_section();
    match target {
        None => {
            print!("{section}");
            0
        }
        Some(path) => {
            let text = with_section(&source.text, &section);
            match std::fs::write(&path, text) {
                Ok(()) => {
                    eprintln!("tune: wrote {}", path.display());
                    0
                }
                Err(e) => fail(format!("cannot write {}: {e}", path.display())),
            }
        }
    }
}
