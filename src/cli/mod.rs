//! Command-line interface: the CECP engine by default, and the tools `perft`, `variants`, `tune`.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use clap::{Parser, Subcommand};

use crate::core::{Position, Variant};
use crate::notation::{Coords, fen};
use crate::perft::Perft;
use crate::variants::Registry;

#[derive(Parser)]
#[command(
    name = "fairybridge",
    version = crate::version::VERSION,
    long_version = crate::version::LONG_VERSION,
    about = "A chess-variant engine speaking the XBoard protocol (CECP v2) and UCI"
)]
struct Cli {
    /// Extra variant definition files, or folders of `*.toml` files, to load at start-up
    /// (repeatable; read as one set, so a file may come before the one it inherits).
    #[arg(long = "variants", value_name = "FILE", global = true)]
    variant_files: Vec<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal-move tree.
    Perft {
        /// Variant name (see `fairybridge variants`).
        #[arg(long, default_value = crate::variants::NORMAL)]
        variant: String,
        /// Start from this position instead of the variant's start (canonical coordinates).
        #[arg(long)]
        fen: Option<String>,
        /// Depth in plies (turns).
        #[arg(long, allow_hyphen_values = true)]
        depth: u32,
        /// One line per legal root move: `<move> <count>`.
        #[arg(long)]
        divide: bool,
    },
    /// List the games this engine plays.
    Variants,
    /// Play a match between CECP and UCI engines, refereed by the rules core (cutechess-cli's
    /// single-dash form is read too: `match -engine cmd=A -engine cmd=B -each tc=10+0.1`).
    Match(Box<crate::tournament::cli::MatchArgs>),
    /// Replay a Zillions save game (.zsg): the FEN of every position, or the first illegal move.
    Zsg {
        /// The save game.
        file: PathBuf,
        /// Variant name (ours or Zillions'), instead of the file's `VariantName=`.
        #[arg(long)]
        variant: Option<String>,
    },
    /// Make an opening suite (EPD for `match --openings`): random short lines from the start,
    /// optionally kept only where a short search scores them near equal.
    Openings(crate::tournament::suite::OpeningsArgs),
    /// Combine the PGN or state files of several runs of one match (shards) into one report.
    Merge(crate::tournament::merge::MergeArgs),
    /// Serve a Zillions of Games engine plug-in (a library with the DLL_* calls) over CECP.
    ZillionsHost {
        /// The plug-in library (.so / .dll).
        #[arg(long)]
        plugin: PathBuf,
        /// The game `new` starts (ours or Zillions' name); default: chess.
        #[arg(long)]
        variant: Option<String>,
    },
    /// Fit the evaluation of one game to self-play games and keep it in the definition's `[eval]`.
    Tune(Box<crate::tune::TuneArgs>),
    /// Fixed-depth search of the bench positions: a deterministic node count and the speed.
    Bench {
        /// Depth in plies.
        #[arg(long, default_value_t = crate::bench::DEFAULT_DEPTH, allow_hyphen_values = true)]
        depth: u32,
    },
}

/// A one-line error for stderr, with the exit code 2.
fn fail(message: impl std::fmt::Display) -> i32 {
    eprintln!("fairybridge: {message}");
    2
}

/// The definition folder loaded without being named: `variants` beside the program
/// (`fairybridge.exe`'s folder on Windows), as the release bundles lay it out, so that a GUI's
/// engine command needs no path to it.
pub const FOLDER_BESIDE_PROGRAM: &str = "variants";

/// `variants` beside the running program (its real path: symbolic links followed), if it is a
/// folder.
fn folder_beside_program() -> Option<PathBuf> {
    let program = std::env::current_exe().ok()?;
    let folder = program.parent()?.join(FOLDER_BESIDE_PROGRAM);
    folder.is_dir().then_some(folder)
}

/// Loads the built-in variants, the folder beside the program and any definition files named on
/// the command line. A bad file is reported on stderr; the built-in games remain available.
fn registry(files: &[PathBuf]) -> (Registry, bool) {
    let mut reg = crate::protocol::builtin_games();
    let mut paths: Vec<PathBuf> = folder_beside_program().into_iter().collect();
    paths.extend_from_slice(files);
    // One set: a file may come before the one it inherits. The doors' sections are read with the
    // rest of each file, and the evaluation's `[eval]` section is checked.
    let loaded = reg.load_paths(&paths, crate::search::EvalParams::check);
    for e in &loaded.errors {
        eprintln!("fairybridge: {e}");
    }
    (reg, loaded.errors.is_empty())
}

fn variant(reg: &Registry, name: &str) -> Result<Arc<Variant>, String> {
    reg.get(name)
        .ok_or_else(|| format!("unknown variant {name:?} (known: {})", reg.names().join(", ")))
}

/// clap's error as one line, like every other error of ours: its message with what it lists
/// (`--depth <DEPTH>`) and its tip (`a similar subcommand exists: 'perft'`), without the usage.
fn one_line(text: &str) -> String {
    let mut message = String::new();
    let mut items = Vec::new();
    let mut tips = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        if line.is_empty() {
            continue;
        }
        if message.is_empty() {
            message = line.trim_start_matches("error: ").to_string();
        } else if let Some(tip) = line.strip_prefix("tip: ") {
            tips.push(tip);
        } else {
            items.push(line);
        }
    }
    if !items.is_empty() {
        message = format!("{} {}", message, items.join(", "));
    }
    if !tips.is_empty() {
        message = format!("{message} ({})", tips.join("; "));
    }
    if message.is_empty() {
        "invalid arguments".to_string()
    } else {
        message
    }
}

/// The command line, with a `match` in cutechess-cli's single-dash form rewritten into ours.
fn arguments() -> Result<Vec<std::ffi::OsString>, String> {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // XBoard splits an engine command at spaces and, when its last word is quoted (a path with
    // spaces: `-fcp "fairybridge --variants '/my games/x.toml'"`), passes an empty word after it.
    while args.len() > 1 && args.last().is_some_and(|a| a.is_empty()) {
        args.pop();
    }
    let Some(words) = args
        .iter()
        .map(|a| a.to_str().map(str::to_string))
        .collect::<Option<Vec<String>>>()
    else {
        return Ok(args);
    };
    // The subcommand: after the global `--variants FILE`s.
    let mut i = 1;
    while i < words.len() && (words[i] == "--variants" || words[i].starts_with("--variants=")) {
        i += if words[i] == "--variants" { 2 } else { 1 };
    }
    if words.get(i).map(String::as_str) != Some("match")
        || !crate::tournament::cutechess::is_cutechess_form(&words[i + 1..])
    {
        return Ok(args);
    }
    let rest = crate::tournament::cutechess::translate(&words[i + 1..])?;
    Ok(words[..=i].iter().cloned().chain(rest).map(Into::into).collect())
}

/// Runs the command line; returns the process exit code.
pub fn run() -> i32 {
    let args = match arguments() {
        Ok(a) => a,
        Err(e) => return fail(e),
    };
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) if e.use_stderr() => return fail(one_line(&e.to_string())),
        Err(e) => {
            // --help, --version.
            let _ = e.print();
            return 0;
        }
    };
    match cli.command {
        None => {
            crate::logging::init();
            let (reg, _) = registry(&cli.variant_files);
            crate::protocol::run(Arc::new(reg))
        }
        Some(Command::Match(args)) => {
            let (reg, ok) = registry(&cli.variant_files);
            if !ok {
                return 2;
            }
            crate::tournament::cli::run(*args, reg, &cli.variant_files)
        }
        Some(Command::Tune(args)) => {
            let (reg, ok) = registry(&cli.variant_files);
            if !ok {
                return 2;
            }
            crate::tune::run(*args, &reg)
        }
        Some(Command::Merge(args)) => crate::tournament::merge::run(args),
        Some(Command::Openings(args)) => {
            let (reg, ok) = registry(&cli.variant_files);
            if !ok {
                return 2;
            }
            crate::tournament::suite::run(args, &reg)
        }
        Some(Command::Variants) => {
            let (reg, ok) = registry(&cli.variant_files);
            let mut out = std::io::stdout().lock();
            for v in reg.all() {
                let _ = writeln!(
                    out,
                    "{:<12} {}x{}  {}",
                    v.name, v.shape.files, v.shape.ranks, v.description
                );
            }
            if ok { 0 } else { 2 }
        }
        Some(Command::Zsg { file, variant }) => {
            let (reg, ok) = registry(&cli.variant_files);
            if !ok {
                return 2;
            }
            replay_zsg(&reg, &file, variant.as_deref())
        }
        Some(Command::ZillionsHost { plugin, variant }) => {
            crate::logging::init();
            let (reg, ok) = registry(&cli.variant_files);
            if !ok {
                return 2;
            }
            crate::zillions::host::run(Arc::new(reg), &plugin, variant.as_deref())
        }
        Some(Command::Bench { depth }) => {
            if !(1..=64).contains(&depth) {
                return fail(format!("depth {depth} must be between 1 and 64"));
            }
            let result = crate::bench::bench(depth);
            eprintln!(
                "{} positions, depth {depth}, {:.3} s",
                result.positions,
                result.elapsed.as_secs_f64()
            );
            println!("bench {} nodes {} nps", result.nodes, result.nodes_per_second());
            0
        }
        Some(Command::Perft {
            variant: name,
            fen: fen_text,
            depth,
            divide,
        }) => {
            let (reg, ok) = registry(&cli.variant_files);
            if !ok {
                return 2;
            }
            let v = match variant(&reg, &name) {
                Ok(v) => v,
                Err(e) => return fail(e),
            };
            if depth > 64 {
                return fail(format!("depth {depth} is too large (at most 64)"));
            }
            let mut pos = match &fen_text {
                None => Position::start(&v),
                Some(text) => {
                    let setup = match fen::parse_fen(text, Coords::Human) {
                        Ok(s) => s,
                        Err(e) => return fail(e),
                    };
                    match Position::from_setup(&v, &setup) {
                        Ok(p) => p,
                        Err(e) => return fail(format!("invalid position \"{text}\": {e}")),
                    }
                }
            };
            let start = Instant::now();
            let mut perft = Perft::new();
            let mut out = std::io::stdout().lock();
            let nodes = if divide {
                let rows = perft.divide(&mut pos, depth);
                for (mv, n) in &rows {
                    let _ = writeln!(out, "{mv} {n}");
                }
                if depth == 0 { 1 } else { rows.iter().map(|r| r.1).sum() }
            } else {
                perft.count(&mut pos, depth)
            };
            let _ = writeln!(out, "nodes {nodes}");
            let secs = start.elapsed().as_secs_f64();
            eprintln!("time {:.3} s, {:.0} nodes/s", secs, nodes as f64 / secs.max(1e-9));
            0
        }
    }
}

/// `fairybridge zsg`: one FEN per position on stdout (the start, then after each move); the first
/// move that cannot be played on stderr with exit code 2.
fn replay_zsg(reg: &Registry, file: &std::path::Path, variant: Option<&str>) -> i32 {
    use crate::zillions::zsg;
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => return fail(format!("cannot read {}: {e}", file.display())),
    };
    let game = match zsg::read(&text) {
        Ok(g) => g,
        Err(e) => return fail(format!("{}: {e}", file.display())),
    };
    let replay = zsg::replay(&game, reg, variant);
    let mut out = std::io::stdout().lock();
    for p in &replay.positions {
        let _ = writeln!(out, "{}", fen::to_fen(p, Coords::Human));
    }
    match replay.error {
        Some(e) => fail(format!("{}: {e}", file.display())),
        None => 0,
    }
}
