//! `fairybridge merge FILE...`: the games of several runs of one match (shards, or a stopped run
//! and its continuation) — PGN files written by `fairybridge match`, or its `--resume` state files
//! — combined into one report and one SPRT verdict, the same as a single run of those games.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;

use super::pgn::read_pgn;
use super::report::{Standings, render};
use super::results::ScoredGame;
use super::resume::{MatchState, is_state};
use super::stats::Sprt;

/// Combine the games of several runs of one match into one report.
#[derive(clap::Args, Debug, Clone)]
pub struct MergeArgs {
    /// PGN files of `fairybridge match`, or its `--resume` state files.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// The SPRT to judge the games by (as for `match`); default: the one the state files name.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub sprt: Vec<String>,
}

/// Games of all files, engines' names, and the SPRT the state files carry.
struct Collected {
    names: Vec<String>,
    games: Vec<ScoredGame>,
    sprt: Option<Sprt>,
    /// A state file says the match plays game pairs.
    paired: bool,
}

fn collect(files: &[PathBuf]) -> Result<Collected, String> {
    let mut states = Vec::new();
    let mut pgn_games = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if is_state(&text) {
            states.push(MatchState::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?);
        } else {
            let games = read_pgn(&text);
            if games.is_empty() {
                return Err(format!("{}: neither a state file nor PGN with games", path.display()));
            }
            pgn_games.extend(games.into_iter().map(|g| (path.clone(), g)));
        }
    }
    let mut names: Vec<String> = Vec::new();
    let mut sprt = None;
    let mut games = Vec::new();
    if let Some(first) = states.first() {
        names = first.names.clone();
        sprt = first.sprt;
        for s in &states {
            if s.names != first.names || s.seed != first.seed {
                return Err(format!(
                    "the state files come from different matches ({} seed {} and {} seed {})",
                    first.names.join(" vs "),
                    first.seed,
                    s.names.join(" vs "),
                    s.seed
                ));
            }
            if s.sprt != first.sprt {
                return Err("the state files name different SPRTs (give one with --sprt)".to_string());
            }
            games.extend(s.games.iter().cloned());
        }
    }
    // PGN games: engines in the order they first play in (by game number), which is the match's
    // order, unless state files named them already.
    let mut parsed = Vec::new();
    for (path, g) in &pgn_games {
        let number: u32 = g.tag("Round").and_then(|r| r.parse().ok()).unwrap_or(u32::MAX);
        parsed.push((number, path, g));
    }
    parsed.sort_by_key(|(n, _, _)| *n);
    let fixed_names = !states.is_empty();
    let mut unknown = None;
    for (_, path, g) in parsed {
        let mut index_of = |name: &str| match names.iter().position(|n| n == name) {
            Some(i) => i,
            None if fixed_names => {
                unknown.get_or_insert_with(|| name.to_string());
                0
            }
            None => {
                names.push(name.to_string());
                names.len() - 1
            }
        };
        let game = ScoredGame::from_pgn(g, &mut index_of).map_err(|e| format!("{}: {e}", path.display()))?;
        if let Some(name) = unknown {
            return Err(format!(
                "{}: engine \"{name}\" is not in the state files",
                path.display()
            ));
        }
        games.push(game);
    }
    let mut seen = HashMap::new();
    for g in &games {
        if seen.insert(g.number, ()).is_some() {
            return Err(format!("game {} is in more than one file (or twice in one)", g.number));
        }
        if g.white == g.black {
            return Err(format!("game {}: an engine against itself", g.number));
        }
    }
    if names.len() < 2 {
        return Err("fewer than two engines in the games".to_string());
    }
    games.sort_by_key(|g| g.number);
    let paired = states.iter().any(|s| s.paired) || games.iter().any(|g| g.pair.is_some());
    Ok(Collected {
        names,
        games,
        sprt,
        paired,
    })
}

/// The merged report's text.
///
/// # Errors
///
/// A file that cannot be read, or a line in one that is not a game's result.
pub fn merged_report(args: &MergeArgs) -> Result<String, String> {
    let c = collect(&args.files)?;
    let paired = c.paired;
    let sprt = match super::cli::parse_sprt(&args.sprt, paired)? {
        Some(s) => Some(s),
        None => c.sprt,
    };
    if sprt.is_some() && c.names.len() != 2 {
        return Err("--sprt needs exactly two engines".to_string());
    }
    let pairings: BTreeSet<(usize, usize)> = c
        .games
        .iter()
        .map(|g| (g.white.min(g.black), g.white.max(g.black)))
        .collect();
    let mut standings = Standings::with_pairings(c.names, pairings.into_iter().collect());
    standings.paired = paired;
    for g in &c.games {
        standings.add(g);
    }
    Ok(render(&standings, sprt.as_ref()))
}

/// Runs `fairybridge merge`; returns the exit code.
pub fn run(args: MergeArgs) -> i32 {
    match merged_report(&args) {
        Ok(text) => {
            print!("{text}");
            0
        }
        Err(e) => {
            eprintln!("fairybridge: merge: {e}");
            2
        }
    }
}
