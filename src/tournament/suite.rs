//! `fairybridge openings`: an opening suite for any game — random short lines from the start
//! position (a shuffled start where the game has a shuffle rule), deduplicated, seeded, and
//! optionally kept only where a short search of our own scores them near equal. The output is EPD
//! that `fairybridge match --openings FILE` reads: four FEN fields, then `ce` (the search's score,
//! centipawns for the side to move) when balanced and `c0` (the line played, canonical moves).
//!
//! A line is a number of turns (plies) of uniformly random legal moves; a turn of several moves
//! (Wild Rose's growing roses) is played to its end, so that every position written is one a FEN
//! describes. Lines that end the game, or leave the side to move without a legal move, are dropped.
//! Only the random generator (splitmix64 from the seed) and a fixed-depth or fixed-node search on a
//! fresh hash table decide what is kept, so a seed gives the same file on every machine — for the
//! same search code (a change of `bench`'s node count may change which lines pass the bound).

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use crate::core::zobrist::splitmix64;
use crate::core::{Position, Variant};
use crate::notation::{Coords, fen, movetext};
use crate::search::{Limits, Score, SearchControl, Searcher};
use crate::variants::{Registry, shuffle};

/// Hash table of the balancing search (fixed: it influences the score).
const BALANCE_HASH_MB: usize = 8;
/// Depth of the balancing search when only `--max-score` is given.
const DEFAULT_BALANCE_DEPTH: u32 = 6;
/// Tries per position asked for, before giving up on a game whose lines rarely pass.
const TRIES_PER_POSITION: u64 = 200;

/// Make an opening suite: random short lines from the start, deduplicated, optionally balanced.
#[derive(clap::Args, Debug, Clone)]
pub struct OpeningsArgs {
    /// The game (see `fairybridge variants`; user-defined games with `--variants FILE`).
    #[arg(long, default_value = crate::variants::NORMAL)]
    pub variant: String,
    /// Positions to write.
    #[arg(long, default_value_t = 100)]
    pub count: u32,
    /// Turns (plies) of random moves from the start.
    #[arg(long, default_value_t = 8)]
    pub plies: u32,
    /// Keep only lines a search to this depth scores within --max-score.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Keep only lines a search of this many nodes scores within --max-score.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// The balance bound in centipawns, side to move's view (default 50 when balancing; alone it
    /// balances with a depth-6 search).
    #[arg(long, value_name = "CP", allow_hyphen_values = true)]
    pub max_score: Option<i32>,
    /// Seed of the random lines (and of Wild Castle's shuffled starts).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the suite here instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// What decides which lines are kept.
#[derive(Clone, Debug, PartialEq)]
pub struct SuiteSpec {
    pub count: usize,
    pub plies: u32,
    pub seed: u64,
    /// The balancing search and bound (`None`: every playable line is kept).
    pub balance: Option<Balance>,
}

/// A short search and the largest absolute score it may give.
#[derive(Clone, Debug, PartialEq)]
pub struct Balance {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub max_cp: i32,
}

/// One position of a suite.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    /// The position as a FEN (six fields, human coordinates).
    pub fen: String,
    /// The line from the start that led here, canonical turns separated by spaces.
    pub line: String,
    /// The balancing search's score for the side to move, when balanced.
    pub score: Option<i32>,
}

impl Opening {
    /// The EPD line: the FEN's four position fields, then the operations.
    pub fn epd(&self) -> String {
        let fields: Vec<&str> = self.fen.split_whitespace().take(4).collect();
        let mut s = fields.join(" ");
        if let Some(cp) = self.score {
            s.push_str(&format!(" ce {cp};"));
        }
        s.push_str(&format!(" c0 \"{}\";", self.line));
        s
    }

    /// The key two openings are the same position by: the FEN without its move counters.
    fn key(&self) -> String {
        self.fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
    }
}

/// The suite and how many lines were tried for it.
#[derive(Clone, Debug)]
pub struct Suite {
    pub openings: Vec<Opening>,
    pub tried: u64,
}

/// Plays one random line of `plies` turns from a start chosen by `rng`; `None` when the game ends
/// on the way or has no legal move at its end.
fn random_line(variant: &Arc<Variant>, plies: u32, rng: &mut u64) -> Option<(Position, String)> {
    let start = shuffle::random_start(variant, splitmix64(rng));
    let setup = fen::parse_fen(&start, Coords::Human).ok()?;
    let mut pos = Position::from_setup(variant, &setup).ok()?;
    let mut turns = Vec::new();
    for _ in 0..plies {
        let before = pos.clone();
        let mut turn = Vec::new();
        loop {
            if pos.outcome().is_some() {
                return None;
            }
            let moves = pos.legal_moves();
            let n = moves.len() as u64;
            let mv = *moves.iter().nth((splitmix64(rng) % n) as usize)?;
            pos.make(mv);
            turn.push(mv);
            if !pos.in_continuation() {
                break;
            }
        }
        turns.push(movetext::turn_canonical(&before, &turn));
    }
    if pos.outcome().is_some() {
        return None;
    }
    Some((pos, turns.join(" ")))
}

/// The balancing search's centipawn score, or `None` for a mate score.
fn balance_score(searcher: &mut Searcher, pos: &Position, balance: &Balance) -> Option<i32> {
    searcher.new_game();
    let limits = Limits {
        depth: balance.depth,
        nodes: balance.nodes,
        ..Limits::default()
    };
    let control = SearchControl::new();
    let mut pos = pos.clone();
    match searcher.search(&mut pos, &limits, &control, &mut |_| {}).score {
        Score::Cp(cp) => Some(cp),
        Score::Mate(_) => None,
    }
}

/// Makes the suite: lines are tried in the seed's order until `count` distinct ones are kept or
/// `count * TRIES_PER_POSITION` were tried. `progress` gets (kept, tried) after each kept line.
pub fn generate(variant: &Arc<Variant>, spec: &SuiteSpec, progress: &mut dyn FnMut(usize, u64)) -> Suite {
    let mut rng = spec.seed;
    let mut searcher = spec.balance.as_ref().map(|_| Searcher::new(BALANCE_HASH_MB));
    let mut seen = HashSet::new();
    let mut openings = Vec::new();
    let max_tries = (spec.count as u64).saturating_mul(TRIES_PER_POSITION);
    let mut tried = 0;
    while openings.len() < spec.count && tried < max_tries {
        tried += 1;
        // Each try draws from its own stream, so the lines do not depend on how long the last was.
        let mut line_rng = splitmix64(&mut rng);
        let Some((pos, line)) = random_line(variant, spec.plies, &mut line_rng) else {
            continue;
        };
        let mut opening = Opening {
            fen: fen::to_fen(&pos, Coords::Human),
            line,
            score: None,
        };
        if !seen.insert(opening.key()) {
            continue;
        }
        if let (Some(balance), Some(searcher)) = (&spec.balance, searcher.as_mut()) {
            // Games start from the FEN, without the line's history (a piece going back to where
            // the line moved it from is no repetition there): the score is that position's.
            let Some(start) = fen::parse_fen(&opening.fen, Coords::Human)
                .ok()
                .and_then(|setup| Position::from_setup(variant, &setup).ok())
            else {
                continue;
            };
            match balance_score(searcher, &start, balance) {
                Some(cp) if cp.abs() <= balance.max_cp => opening.score = Some(cp),
                _ => continue,
            }
        }
        openings.push(opening);
        progress(openings.len(), tried);
    }
    Suite { openings, tried }
}

/// The spec of the command line, or why it is not one.
fn spec_of(args: &OpeningsArgs) -> Result<SuiteSpec, String> {
    if args.count == 0 || args.count > 1_000_000 {
        return Err(format!("--count {} must be between 1 and 1000000", args.count));
    }
    if args.plies > 200 {
        return Err(format!("--plies {} is too large (at most 200)", args.plies));
    }
    if let Some(d) = args.depth
        && !(1..=64).contains(&d)
    {
        return Err(format!("--depth {d} must be between 1 and 64"));
    }
    if args.nodes == Some(0) {
        return Err("--nodes must be at least 1".to_string());
    }
    if let Some(cp) = args.max_score
        && !(0..=100_000).contains(&cp)
    {
        return Err(format!("--max-score {cp} must be between 0 and 100000 centipawns"));
    }
    let balancing = args.depth.is_some() || args.nodes.is_some() || args.max_score.is_some();
    let balance = balancing.then(|| Balance {
        depth: match (args.depth, args.nodes) {
            (None, None) => Some(DEFAULT_BALANCE_DEPTH),
            (d, _) => d,
        },
        nodes: args.nodes,
        max_cp: args.max_score.unwrap_or(50),
    });
    Ok(SuiteSpec {
        count: args.count as usize,
        plies: args.plies,
        seed: args.seed,
        balance,
    })
}

/// The header of a suite file: how to make it again.
fn header(args: &OpeningsArgs, spec: &SuiteSpec, suite: &Suite) -> String {
    let mut cmd = format!(
        "fairybridge openings --variant {} --count {} --plies {} --seed {}",
        args.variant, spec.count, spec.plies, spec.seed
    );
    if let Some(b) = &spec.balance {
        if let Some(d) = b.depth {
            cmd.push_str(&format!(" --depth {d}"));
        }
        if let Some(n) = b.nodes {
            cmd.push_str(&format!(" --nodes {n}"));
        }
        cmd.push_str(&format!(" --max-score {}", b.max_cp));
    }
    format!(
        "# {} opening suite: {} positions after {} random plies from the start{}.\n\
         # Made by fairybridge {} ({} lines tried) with:\n#   {cmd}\n",
        args.variant,
        suite.openings.len(),
        spec.plies,
        match &spec.balance {
            Some(b) => format!(", kept where a short search scores |ce| <= {} cp", b.max_cp),
            None => String::new(),
        },
        env!("CARGO_PKG_VERSION"),
        suite.tried,
    )
}

/// Runs `fairybridge openings`; returns the exit code (2: bad arguments, 1: no position found or
/// the output could not be written).
pub fn run(args: OpeningsArgs, reg: &Registry) -> i32 {
    let fail = |code: i32, message: String| {
        eprintln!("fairybridge: {message}");
        code
    };
    let Some(variant) = reg.get(&args.variant) else {
        return fail(
            2,
            format!("unknown variant {:?} (known: {})", args.variant, reg.names().join(", ")),
        );
    };
    let spec = match spec_of(&args) {
        Ok(s) => s,
        Err(e) => return fail(2, e),
    };
    let step = (spec.count / 10).max(1);
    let suite = generate(&variant, &spec, &mut |kept, tried| {
        if kept % step == 0 {
            eprintln!("openings: {kept}/{} kept, {tried} tried", spec.count);
        }
    });
    if suite.openings.is_empty() {
        return fail(1, format!("no position found in {} tries", suite.tried));
    }
    if suite.openings.len() < spec.count {
        eprintln!(
            "fairybridge: warning: only {} of {} positions found in {} tries",
            suite.openings.len(),
            spec.count,
            suite.tried
        );
    }
    let mut text = header(&args, &spec, &suite);
    for o in &suite.openings {
        text.push_str(&o.epd());
        text.push('\n');
    }
    let written = match &args.out {
        Some(path) => std::fs::write(path, &text).map_err(|e| format!("cannot write {}: {e}", path.display())),
        None => std::io::stdout()
            .lock()
            .write_all(text.as_bytes())
            .map_err(|e| format!("cannot write the suite: {e}")),
    };
    match written {
        Ok(()) => 0,
        Err(e) => fail(1, e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::openings;

    fn spec(count: usize, plies: u32, seed: u64, balance: Option<Balance>) -> SuiteSpec {
        SuiteSpec {
            count,
            plies,
            seed,
            balance,
        }
    }

    fn balanced(depth: u32, max_cp: i32) -> Option<Balance> {
        Some(Balance {
            depth: Some(depth),
            nodes: None,
            max_cp,
        })
    }

    /// The suite's EPD as `--openings` reads it: every line a legal position of the game.
    fn read_back(variant: &Arc<Variant>, suite: &Suite) -> Vec<String> {
        let text: String = suite.openings.iter().map(|o| o.epd() + "\n").collect();
        let starts = openings::parse(&text, variant).unwrap();
        starts.iter().map(|s| s.fen().to_string()).collect()
    }

    #[test]
    fn every_builtin_game_gets_distinct_playable_positions_the_runner_reads() {
        let reg = Registry::builtin();
        for name in ["normal", "crazyhouse", "wildcastle", "pillage", "wreckage", "wildrose"] {
            let v = reg.get(name).unwrap();
            let suite = generate(&v, &spec(12, 6, 7, None), &mut |_, _| {});
            assert_eq!(suite.openings.len(), 12, "{name}");
            let fens = read_back(&v, &suite);
            assert_eq!(fens.len(), 12, "{name}");
            let keys: HashSet<String> = suite.openings.iter().map(Opening::key).collect();
            assert_eq!(keys.len(), 12, "{name}: duplicates");
            for (o, f) in suite.openings.iter().zip(&fens) {
                // The runner's reading gives back the position written (EPD: without the move
                // counters), and it is still playable.
                let read = Opening {
                    fen: f.clone(),
                    ..o.clone()
                };
                assert_eq!(read.key(), o.key(), "{name}");
                let setup = fen::parse_fen(f, Coords::Human).unwrap();
                let pos = Position::from_setup(&v, &setup).unwrap();
                assert!(pos.outcome().is_none(), "{name}: {f}");
                assert!(!pos.legal_moves().is_empty(), "{name}: {f}");
                assert!(o.line.split(' ').count() >= 6, "{name}: {}", o.line);
            }
        }
    }

    #[test]
    fn the_line_leads_from_the_start_to_the_position() {
        let v = Registry::builtin().get("normal").unwrap();
        let suite = generate(&v, &spec(5, 8, 3, None), &mut |_, _| {});
        for o in &suite.openings {
            let mut pos = Position::start(&v);
            for mv in o.line.split(' ') {
                let m = movetext::parse_move(&pos, mv, Coords::Human).unwrap();
                pos.make(m);
            }
            assert_eq!(fen::to_fen(&pos, Coords::Human), o.fen);
        }
    }

    #[test]
    fn a_seed_gives_the_same_suite_and_another_seed_another() {
        let v = Registry::builtin().get("wildcastle").unwrap();
        let a = generate(&v, &spec(20, 8, 42, balanced(2, 80)), &mut |_, _| {});
        let b = generate(&v, &spec(20, 8, 42, balanced(2, 80)), &mut |_, _| {});
        let c = generate(&v, &spec(20, 8, 43, balanced(2, 80)), &mut |_, _| {});
        assert_eq!(a.openings, b.openings);
        assert_eq!(a.tried, b.tried);
        assert_ne!(a.openings, c.openings);
        // Wild Castle's lines start from shuffled starts: with no plies, the suite is 10 of them.
        let starts = generate(&v, &spec(10, 0, 42, None), &mut |_, _| {});
        assert_eq!(starts.openings.len(), 10);
        let all = shuffle::arrangements(v.shuffle.as_ref().unwrap());
        for o in &starts.openings {
            assert!(
                all.iter().any(|rank| shuffle::start_fen(&v, rank) == o.fen),
                "{}",
                o.fen
            );
        }
    }

    #[test]
    fn balanced_positions_obey_the_bound_and_unbalanced_ones_are_dropped() {
        let v = Registry::builtin().get("normal").unwrap();
        let all = generate(&v, &spec(30, 8, 5, None), &mut |_, _| {});
        let kept = generate(&v, &spec(30, 8, 5, balanced(3, 30)), &mut |_, _| {});
        assert_eq!(kept.openings.len(), 30);
        for o in &kept.openings {
            let cp = o.score.unwrap();
            assert!(cp.abs() <= 30, "{cp}: {}", o.fen);
            // The score written is the search's own, again.
            let setup = fen::parse_fen(&o.fen, Coords::Human).unwrap();
            let pos = Position::from_setup(&v, &setup).unwrap();
            let mut searcher = Searcher::new(BALANCE_HASH_MB);
            assert_eq!(balance_score(&mut searcher, &pos, &balanced(3, 30).unwrap()), Some(cp));
        }
        // Random lines are often lopsided: the bound drops some, so more lines were tried.
        assert!(kept.tried > all.tried, "{} vs {}", kept.tried, all.tried);
        assert!(kept.openings.iter().any(|o| !all.openings.contains(&Opening {
            score: None,
            ..o.clone()
        })));
    }

    #[test]
    fn a_user_defined_game_works() {
        let mut reg = Registry::builtin();
        let path =
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/variants/examples/knightmate.toml");
        let loaded = reg.load_paths(&[path], |_| Ok(()));
        assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
        let v = reg.get("knightmate").unwrap();
        let suite = generate(&v, &spec(10, 6, 1, balanced(2, 200)), &mut |_, _| {});
        assert_eq!(suite.openings.len(), 10);
        assert_eq!(read_back(&v, &suite).len(), 10);
        // Knightmate's start has manns, not knights.
        assert!(suite.openings.iter().all(|o| !o.fen.contains('N')));
    }

    #[test]
    fn an_impossible_bound_yields_fewer_positions_not_a_hang() {
        let v = Registry::builtin().get("normal").unwrap();
        // Few random lines score exactly 0: the tries are capped, and what is kept obeys the bound.
        let suite = generate(&v, &spec(3, 8, 1, balanced(1, 0)), &mut |_, _| {});
        assert!(suite.tried <= 3 * TRIES_PER_POSITION);
        assert!(suite.openings.iter().all(|o| o.score == Some(0)));
    }

    #[test]
    fn bad_arguments_are_refused() {
        let args = |count, plies, depth, nodes, max_score| OpeningsArgs {
            variant: "normal".into(),
            count,
            plies,
            depth,
            nodes,
            max_score,
            seed: 1,
            out: None,
        };
        assert!(spec_of(&args(0, 8, None, None, None)).is_err());
        assert!(spec_of(&args(10, 500, None, None, None)).is_err());
        assert!(spec_of(&args(10, 8, Some(0), None, None)).is_err());
        assert!(spec_of(&args(10, 8, None, Some(0), None)).is_err());
        assert!(spec_of(&args(10, 8, None, None, Some(-1))).is_err());
        let s = spec_of(&args(10, 8, None, None, Some(40))).unwrap();
        assert_eq!(s.balance, balanced(DEFAULT_BALANCE_DEPTH, 40));
        assert_eq!(spec_of(&args(10, 8, None, None, None)).unwrap().balance, None);
        let n = spec_of(&args(10, 8, None, Some(5000), None)).unwrap();
        assert_eq!(
            n.balance,
            Some(Balance {
                depth: None,
                nodes: Some(5000),
                max_cp: 50
            })
        );
    }
}
