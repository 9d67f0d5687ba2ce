//! `fairybridge tune`: an evaluation fitted to one game, built-in or defined in a file, with one
//! command. It plays the engine against itself at a fixed number of nodes a move (`selfplay`),
//! keeps the quiet positions with their games' results, fits the evaluation's weights to them
//! (`texel`), and writes the weights as the definition's `[eval]` section, which the engine reads
//! when it loads the definition.
//!
//! ```text
//! fairybridge [--variants FILE] tune --variant NAME [--games N] [--nodes N] [--random-plies N]
//!             [--data FILE] [--from-data FILE] [--passes N] [--prior P] [--minutes M] [--seed N]
//!             [--write | --out FILE]
//! ```
//!
//! Without `--write` or `--out` the section goes to stdout.

pub mod selfplay;
pub mod texel;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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
    /// Also save the positions (`RESULT;FEN` lines) to this file.
    #[arg(long, value_name = "FILE")]
    pub data: Option<PathBuf>,
    /// Learn from the positions in this file instead of playing games.
    #[arg(long, value_name = "FILE", conflicts_with = "data")]
    pub from_data: Option<PathBuf>,
    /// Most passes over all weights.
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
    let lines: Vec<String> = match &args.from_data {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => vec![text],
            Err(e) => return fail(format!("cannot read {}: {e}", path.display())),
        },
        None => {
            let config = PlayConfig {
                games: args.games.clamp(1, 1_000_000),
                nodes: args.nodes.clamp(1, 100_000_000),
                random_plies: args.random_plies.min(1000),
                max_plies: args.max_plies.clamp(1, 100_000),
                seed: args.seed,
                hash_mb: 16,
            };
            let started = Instant::now();
            let lines = selfplay::play(&variant, &config, &mut |games, positions| {
                if games % 50 == 0 || games == config.games {
                    eprintln!(
                        "tune: {games}/{} games, {positions} positions, {:.0} s",
                        config.games,
                        started.elapsed().as_secs_f64()
                    );
                }
            });
            if let Some(path) = &args.data {
                let mut text = lines.join("\n");
                text.push('\n');
                if let Err(e) = std::fs::write(path, text) {
                    return fail(format!("cannot write {}: {e}", path.display()));
                }
            }
            vec![lines.join("\n")]
        }
    };
    let samples = match selfplay::read_samples(&variant, &lines.concat()) {
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
    let (tuned, report) = texel::tune(&variant, &samples, &start, &config, &mut |pass, error| {
        eprintln!(
            "tune: pass {pass}, training error {error:.6}, {:.0} s",
            began.elapsed().as_secs_f64()
        );
    });
    eprintln!(
        "tune: K {:.3}; {} training positions, error {:.6} -> {:.6}; {} held out, error {:.6} -> {:.6}; \
         {} weights changed in {} passes",
        report.k,
        report.train,
        report.train_before,
        report.train_after,
        report.test,
        report.test_before,
        report.test_after,
        report.changed,
        report.passes
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
