//! `fairybridge match`: the flags (shaped like cutechess-cli's), their validation, and the run.
//!
//! ```text
//! fairybridge match --engine cmd=CMD [name=NAME] [arg=ARG]... [dir=DIR] [option.NAME=VALUE]...
//!                            [tc=TC | st=SECONDS] [depth=N] [timemargin=MS] [stderr=FILE] [proto=xboard|uci]
//!                   --engine ... (two or more)
//!                   [--each KEY=VALUE...]          keys for every engine (an engine's own win)
//!                   [--variant NAME] [--games N] [--rounds N] [--concurrency N]
//!                   [--openings FILE [order=sequential|random] [start=N]]
//!                   [--pgn FILE] [--sprt elo0=E0 elo1=E1 [alpha=A] [beta=B] [model=pentanomial|trinomial]]
//!                   [--draw movenumber=N movecount=M score=CP] [--resign movecount=N score=CP [twosided=true]]
//!                   [--maxmoves N] [--seed N] [--timemargin MS] [--event TEXT] [--debug]
//!                   [--resume FILE] [--shard K/N] [--tournament round-robin|gauntlet] [--ratinginterval N]
//! ```
//!
//! `cmd` may hold arguments (`cmd="python3 broken-engine.py crash"`). Exit code 0 when the match
//! completed, 2 on bad arguments (one line on stderr), 1 when a game was stopped by an internal
//! error (a bug: the game is in the PGN with the reason), 130 when interrupted by Ctrl-C.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use super::engine::{EngineConfig, Protocol};
use super::game::{Adjudication, DrawRule, ResignRule};
use super::report;
use super::resume::Resume;
use super::runner::{self, MatchConfig, Tournament};
use super::shard::Shard;
use super::stats::{Sprt, SprtModel};
use super::timecontrol::TimeControl;
use crate::core::zobrist::splitmix64;
use crate::variants::Registry;

/// Engine-vs-engine matches refereed by the rules core (CECP and UCI engines).
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    #[command(flatten)]
    pub engine: EngineGroups,
    /// Keys that apply to every engine, e.g. `tc=60+0.5` (an engine's own keys take precedence).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub each: Vec<String>,
    /// The game to play (see `fairybridge variants`).
    #[arg(long, default_value = "normal")]
    pub variant: String,
    /// Games per pairing and round (pairs of games share a start position, colours swapped).
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Rounds.
    #[arg(long, default_value_t = 1)]
    pub rounds: u32,
    /// Start positions: FILE of FEN/EPD lines, then optional order=sequential|random, start=N.
    #[arg(long, value_name = "FILE [KEY=VALUE]", num_args = 1..)]
    pub openings: Vec<String>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Append every game to this PGN file as soon as it ends.
    #[arg(long, alias = "pgnout", value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Also save each game as a Zillions save game (FILE-N.zsg when the match has several games).
    #[arg(long, value_name = "FILE")]
    pub zsg: Option<PathBuf>,
    /// Sequential probability ratio test (two engines): elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05]
    /// [model=pentanomial|trinomial]; the match stops at a verdict. Pentanomial (game pairs,
    /// normalized Elo, as fishtest) is the default with --games 2 or more; trinomial is cutechess's.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub sprt: Vec<String>,
    /// Draw adjudication: movenumber=N movecount=M score=CP.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub draw: Vec<String>,
    /// Resign adjudication: movecount=N score=CP [twosided=true].
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub resign: Vec<String>,
    /// Draw by adjudication after this many moves.
    #[arg(long, value_name = "N")]
    pub maxmoves: Option<u32>,
    /// Seed for random openings and Wild Castle start positions (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Milliseconds a clock may fall below zero before the flag counts (default for every engine).
    #[arg(long, value_name = "MS", default_value_t = 50)]
    pub timemargin: u64,
    /// The PGN Event tag.
    #[arg(long, default_value = "fairybridge match")]
    pub event: String,
    /// Show the engines' traffic on stderr.
    #[arg(long)]
    pub debug: bool,
    /// Keep the match's state in FILE (rewritten after each game); run the same command again to
    /// continue a stopped or killed match: nothing is played twice, nothing lost.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Play only part K of N (disjoint parts: whole game pairs with their openings, same seed),
    /// e.g. on N machines; `fairybridge merge` combines the parts.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Who plays whom: round-robin (everyone against everyone) or gauntlet (the first engine
    /// against each of the others).
    #[arg(long, value_name = "KIND", default_value = "round-robin")]
    pub tournament: String,
    /// Print every pairing's score and Elo after every N games (as cutechess-cli's rating list).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub ratinginterval: u32,
}

/// The words of every `--engine` occurrence, one group per engine.
#[derive(Debug, Clone, Default)]
pub struct EngineGroups(pub Vec<Vec<String>>);

impl clap::FromArgMatches for EngineGroups {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let groups = m
            .get_occurrences::<String>("engine")
            .map(|occ| occ.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineGroups(groups))
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for EngineGroups {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.arg(
            clap::Arg::new("engine")
                .long("engine")
                .value_name("KEY=VALUE")
                .num_args(1..)
                .action(clap::ArgAction::Append)
                .help(
                    "An engine (give two or more): cmd=COMMAND [name=NAME] [arg=ARG]... [dir=DIR] \
                     [option.NAME=VALUE]... [tc=[MOVES/]SECONDS[+INC] | st=SECONDS] [depth=N] [timemargin=MS] [stderr=FILE] \
                     [proto=xboard|uci]",
                ),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

fn key_values<'a>(words: &'a [String], what: &str) -> Result<Vec<(&'a str, &'a str)>, String> {
    words
        .iter()
        .map(|w| {
            w.split_once('=')
                .ok_or_else(|| format!("{what}: expected KEY=VALUE, got \"{w}\""))
        })
        .collect()
}

fn number<T: std::str::FromStr>(key: &str, value: &str, what: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("{what}: bad value for {key}: \"{value}\""))
}

/// A time margin in milliseconds, at most a year like every time of a time control.
fn margin(ms: u64) -> Result<Duration, String> {
    let d = Duration::from_millis(ms);
    if d.as_secs_f64() > super::timecontrol::MAX_SECONDS {
        return Err(format!("timemargin {ms} ms is above a year"));
    }
    Ok(d)
}

/// Builds one engine's configuration from `--each` keys followed by its own.
fn engine_config(words: &[String], each: &[String], default_margin: u64) -> Result<EngineConfig, String> {
    let mut cfg = EngineConfig {
        name: String::new(),
        cmd: String::new(),
        args: Vec::new(),
        dir: None,
        options: Vec::new(),
        tc: TimeControl::PerMove(1.0),
        margin: margin(default_margin)?,
        stderr: None,
        depth: None,
        proto: Protocol::Cecp,
    };
    let mut tc = None;
    let mut extra_args = Vec::new();
    let pairs = key_values(each, "--each")?
        .into_iter()
        .chain(key_values(words, "--engine")?);
    for (k, v) in pairs {
        match k {
            "cmd" => {
                let mut parts = v.split_whitespace().map(str::to_string);
                cfg.cmd = parts.next().unwrap_or_default();
                cfg.args = parts.collect();
            }
            "name" => cfg.name = v.to_string(),
            "arg" => extra_args.push(v.to_string()),
            "dir" => cfg.dir = Some(PathBuf::from(v)),
            "tc" => tc = Some(TimeControl::parse_tc(v)?),
            "st" => tc = Some(TimeControl::parse_st(v)?),
            "timemargin" => cfg.margin = margin(number(k, v, "--engine")?)?,
            "stderr" => cfg.stderr = Some(PathBuf::from(v)),
            "depth" => match number::<u32>(k, v, "--engine")? {
                0 => return Err("--engine: depth= must be at least 1".to_string()),
                // No engine searches deeper than a few hundred plies.
                d => cfg.depth = Some(d.min(1000)),
            },
            "proto" => cfg.proto = Protocol::parse(v)?,
            _ => match k.strip_prefix("option.") {
                Some(name) if !name.is_empty() => cfg.options.push((name.to_string(), v.to_string())),
                _ => return Err(format!("--engine: unknown key \"{k}\"")),
            },
        }
    }
    if cfg.cmd.is_empty() {
        return Err("--engine: cmd=COMMAND is missing".to_string());
    }
    cfg.args.extend(extra_args);
    cfg.tc = tc.ok_or_else(|| format!("engine \"{}\": no time control (tc=... or st=...)", cfg.cmd))?;
    Ok(cfg)
}

/// `--sprt elo0=E0 elo1=E1 [alpha=A] [beta=B] [model=pentanomial|trinomial]`; the model defaults
/// to pentanomial when games are paired.
pub fn parse_sprt(words: &[String], paired: bool) -> Result<Option<Sprt>, String> {
    if words.is_empty() {
        return Ok(None);
    }
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
    let mut model = if paired {
        SprtModel::Pentanomial
    } else {
        SprtModel::Trinomial
    };
    for (k, v) in key_values(words, "--sprt")? {
        match (k, v) {
            ("elo0", _) => elo0 = Some(number(k, v, "--sprt")?),
            ("elo1", _) => elo1 = Some(number(k, v, "--sprt")?),
            ("alpha", _) => alpha = number(k, v, "--sprt")?,
            ("beta", _) => beta = number(k, v, "--sprt")?,
            ("model", "pentanomial") if !paired => {
                return Err("--sprt: model=pentanomial needs game pairs (--games 2 or more)".to_string());
            }
            ("model", "pentanomial") => model = SprtModel::Pentanomial,
            ("model", "trinomial") => model = SprtModel::Trinomial,
            ("model", _) => return Err(format!("--sprt: model must be pentanomial or trinomial, not \"{v}\"")),
            _ => return Err(format!("--sprt: unknown key \"{k}\"")),
        }
    }
    let (Some(e0), Some(e1)) = (elo0, elo1) else {
        return Err("--sprt: elo0= and elo1= are required".to_string());
    };
    Sprt::new(e0, e1, alpha, beta)
        .map(|s| Some(s.with_model(model)))
        .map_err(|e| format!("--sprt: {e}"))
}

fn parse_adjudication(args: &MatchArgs) -> Result<Adjudication, String> {
    let mut adj = Adjudication {
        max_moves: args.maxmoves,
        ..Adjudication::default()
    };
    if !args.draw.is_empty() {
        let mut rule = DrawRule {
            move_number: 0,
            move_count: 0,
            score: 0,
        };
        for (k, v) in key_values(&args.draw, "--draw")? {
            match k {
                "movenumber" => rule.move_number = number(k, v, "--draw")?,
                "movecount" => rule.move_count = number(k, v, "--draw")?,
                "score" => rule.score = number(k, v, "--draw")?,
                _ => return Err(format!("--draw: unknown key \"{k}\"")),
            }
        }
        if rule.move_count == 0 {
            return Err("--draw: movecount= must be at least 1".to_string());
        }
        adj.draw = Some(rule);
    }
    if !args.resign.is_empty() {
        let mut rule = ResignRule {
            move_count: 0,
            score: 0,
            two_sided: false,
        };
        for (k, v) in key_values(&args.resign, "--resign")? {
            match k {
                "movecount" => rule.move_count = number(k, v, "--resign")?,
                "score" => rule.score = number(k, v, "--resign")?,
                "twosided" => rule.two_sided = number(k, v, "--resign")?,
                _ => return Err(format!("--resign: unknown key \"{k}\"")),
            }
        }
        if rule.move_count == 0 || rule.score <= 0 {
            return Err("--resign: movecount= and a positive score= are required".to_string());
        }
        adj.resign = Some(rule);
    }
    Ok(adj)
}

/// Everything that can be checked without starting an engine.
pub fn config(args: &MatchArgs, reg: &Registry) -> Result<MatchConfig, String> {
    if args.engine.0.len() < 2 {
        return Err("a match needs at least two --engine".to_string());
    }
    let engines = args
        .engine
        .0
        .iter()
        .map(|words| engine_config(words, &args.each, args.timemargin))
        .collect::<Result<Vec<_>, _>>()?;
    let variant = reg
        .get(&args.variant)
        .ok_or_else(|| format!("unknown variant {:?} (known: {})", args.variant, reg.names().join(", ")))?;
    if args.games == 0 || args.rounds == 0 {
        return Err("--games and --rounds must be at least 1".to_string());
    }
    if args.concurrency == 0 {
        return Err("--concurrency must be at least 1".to_string());
    }
    let sprt = parse_sprt(&args.sprt, args.games >= 2)?;
    if sprt.is_some() && engines.len() != 2 {
        return Err("--sprt needs exactly two engines".to_string());
    }
    let previous = match &args.resume {
        Some(path) => super::resume::MatchState::read(path)?,
        None => None,
    };
    if let (Some(p), Some(seed), Some(path)) = (&previous, args.seed, &args.resume)
        && p.seed != seed
    {
        return Err(format!(
            "--seed {seed} differs from the seed {} of the state file {}",
            p.seed,
            path.display()
        ));
    }
    let shard = args.shard.as_deref().map(Shard::parse).transpose()?;
    let tournament = match args.tournament.as_str() {
        "round-robin" | "roundrobin" => Tournament::RoundRobin,
        "gauntlet" => Tournament::Gauntlet,
        other => return Err(format!("--tournament: round-robin or gauntlet, not \"{other}\"")),
    };
    // A resumed match keeps its seed (the openings' order and Wild Castle starts depend on it).
    let seed = previous.as_ref().map(|p| p.seed).or(args.seed).unwrap_or_else(|| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1);
        let mut s = nanos ^ u64::from(std::process::id());
        splitmix64(&mut s) % 1_000_000_000
    });
    let mut openings = Vec::new();
    if let Some((file, rest)) = args.openings.split_first() {
        let file = file.strip_prefix("file=").unwrap_or(file);
        openings = super::openings::load(std::path::Path::new(file), &variant)?;
        let mut random = false;
        let mut start = 0usize;
        for (k, v) in key_values(rest, "--openings")? {
            match (k, v) {
                ("order", "random") => random = true,
                ("order", "sequential") => random = false,
                ("start", _) => start = number::<usize>(k, v, "--openings")?.saturating_sub(1),
                ("format", "epd" | "fen") => {}
                _ => return Err(format!("--openings: unknown key or value \"{k}={v}\"")),
            }
        }
        if random {
            let mut s = seed;
            for i in (1..openings.len()).rev() {
                let j = (splitmix64(&mut s) % (i as u64 + 1)) as usize;
                openings.swap(i, j);
            }
        }
        let n = openings.len();
        openings.rotate_left(start % n);
    }
    Ok(MatchConfig {
        engines,
        variant,
        games: args.games,
        rounds: args.rounds,
        openings,
        concurrency: args.concurrency,
        pgn: args.pgn.clone(),
        zsg: args.zsg.clone(),
        sprt,
        adjudication: parse_adjudication(args)?,
        seed,
        debug: args.debug,
        event: args.event.clone(),
        resume: args.resume.clone().map(|path| Resume { path, previous }),
        shard,
        tournament,
        rating_interval: args.ratinginterval,
    })
}

/// Gives engines without `name=` the name they announce (`myname`), or their file name; repeated
/// names get ` (2)`, ` (3)`.
fn settle_names(cfg: &mut MatchConfig, announced: &[Option<String>]) {
    for (e, name) in cfg.engines.iter_mut().zip(announced) {
        if e.name.is_empty() {
            e.name = name.clone().unwrap_or_else(|| {
                std::path::Path::new(&e.cmd)
                    .file_name()
                    .map_or(e.cmd.clone(), |f| f.to_string_lossy().into_owned())
            });
        }
    }
    for i in 1..cfg.engines.len() {
        let base = cfg.engines[i].name.clone();
        let mut n = 1;
        while cfg.engines[..i].iter().any(|e| e.name == cfg.engines[i].name) {
            n += 1;
            cfg.engines[i].name = format!("{base} ({n})");
        }
    }
}

/// Runs `fairybridge match`; returns the exit code.
pub fn run(args: MatchArgs, reg: Registry) -> i32 {
    let fail = |e: String| {
        eprintln!("fairybridge: {e}");
        2
    };
    let mut cfg = match config(&args, &reg) {
        Ok(c) => c,
        Err(e) => return fail(e),
    };
    if let Err(e) = super::outputs::check_writable(&cfg) {
        return fail(e);
    }
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => return fail(format!("cannot start the runtime: {e}")),
    };
    rt.block_on(async move {
        // Start every engine once: a command that does not run is a bad argument, not a forfeit.
        let probes = cfg
            .engines
            .iter()
            .cloned()
            .map(|e| {
                let v = Arc::clone(&cfg.variant);
                async move { runner::probe(&e, &v).await }
            })
            .collect();
        let mut announced = Vec::new();
        for p in futures_join_all(probes).await {
            match p {
                Ok(name) => announced.push(name),
                Err(e) => return fail(e),
            }
        }
        settle_names(&mut cfg, &announced);
        if let Some(Resume {
            path,
            previous: Some(state),
        }) = &cfg.resume
            && let Err(e) = state.check(&cfg, path)
        {
            return fail(e);
        }
        eprintln!(
            "Match: {} in {}, {} game(s) per pairing x {} round(s), seed {}",
            cfg.engines
                .iter()
                .map(|e| e.name.as_str())
                .collect::<Vec<_>>()
                .join(" vs "),
            cfg.variant.name,
            cfg.games,
            cfg.rounds,
            cfg.seed
        );
        let sprt = cfg.sprt;
        let summary = runner::run(cfg).await;
        print!("{}", report::render(&summary.standings, sprt.as_ref()));
        if summary.interrupted {
            eprintln!("fairybridge: interrupted");
            130
        } else if summary.internal_errors > 0 {
            eprintln!(
                "fairybridge: {} game(s) stopped by an internal error (a bug in fairybridge; see the PGN)",
                summary.internal_errors
            );
            1
        } else {
            0
        }
    })
}

/// Awaits futures concurrently, keeping their order (no extra crate for `join_all`).
async fn futures_join_all<F>(futures: Vec<F>) -> Vec<F::Output>
where
    F: std::future::Future + Send + 'static,
    F::Output: Send + 'static,
{
    let mut out = Vec::with_capacity(futures.len());
    let handles: Vec<_> = futures.into_iter().map(tokio::spawn).collect();
    for h in handles {
        match h.await {
            Ok(v) => out.push(v),
            Err(e) => std::panic::resume_unwind(e.into_panic()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(clap::Parser)]
    struct Wrapper {
        #[command(flatten)]
        args: MatchArgs,
    }

    fn parse(line: &[&str]) -> Result<MatchConfig, String> {
        let w =
            Wrapper::try_parse_from(std::iter::once("match").chain(line.iter().copied())).map_err(|e| e.to_string())?;
        config(&w.args, &Registry::builtin())
    }

    /// A command line of two engines `a` and `b` at `tc=1` each, then `rest`.
    fn two_engines<'a>(rest: &[&'a str]) -> Vec<&'a str> {
        let mut line = vec!["--engine", "cmd=a", "--engine", "cmd=b", "--each", "tc=1"];
        line.extend_from_slice(rest);
        line
    }

    #[test]
    fn engines_each_and_keys() {
        let cfg = parse(&[
            "--engine",
            "cmd=a -x",
            "name=A",
            "arg=-y",
            "option.Hash=16",
            "--engine",
            "cmd=b",
            "st=0.5",
            "timemargin=200",
            "--each",
            "tc=40/60+1",
            "--games",
            "4",
            "--sprt",
            "elo0=0",
            "elo1=10",
            "--seed",
            "7",
        ])
        .unwrap();
        assert_eq!(cfg.engines[0].cmd, "a");
        assert_eq!(cfg.engines[0].args, ["-x", "-y"]);
        assert_eq!(cfg.engines[0].name, "A");
        assert_eq!(cfg.engines[0].options, [("Hash".to_string(), "16".to_string())]);
        assert_eq!(
            cfg.engines[0].tc,
            TimeControl::Clock {
                moves: 40,
                base: 60.0,
                inc: 1.0
            }
        );
        assert_eq!(cfg.engines[1].tc, TimeControl::PerMove(0.5));
        assert_eq!(cfg.engines[1].margin, Duration::from_millis(200));
        assert_eq!(cfg.engines[0].margin, Duration::from_millis(50));
        assert_eq!(cfg.sprt.unwrap().elo1, 10.0);
        // Paired games: pentanomial unless asked otherwise.
        assert_eq!(cfg.sprt.unwrap().model, SprtModel::Pentanomial);
        assert_eq!(cfg.seed, 7);
        let games = runner::schedule(&cfg);
        assert_eq!(games.len(), 4);
        assert_eq!((games[0].white, games[1].white, games[2].white), (0, 1, 0));
    }

    #[test]
    fn bad_arguments_are_errors() {
        for (line, wanted) in [
            (vec!["--engine", "cmd=a", "tc=1"], "two"),
            (two_engines(&["--variant", "xx"]), "unknown variant"),
            (vec!["--engine", "cmd=a", "--engine", "cmd=b"], "no time control"),
            (
                vec!["--engine", "cmd=a", "--engine", "cmd=b", "--each", "tc=abc"],
                "invalid time control",
            ),
            (vec!["--engine", "name=x", "--engine", "cmd=b", "--each", "tc=1"], "cmd"),
            (two_engines(&["--sprt", "elo0=5", "elo1=0"]), "--sprt"),
            (two_engines(&["color=3"]), "unknown key"),
            (
                two_engines(&["--games", "1", "--sprt", "elo0=0", "elo1=5", "model=pentanomial"]),
                "needs game pairs",
            ),
            (
                two_engines(&["--sprt", "elo0=0", "elo1=5", "model=binomial"]),
                "model must be",
            ),
        ] {
            let err = parse(&line).unwrap_err();
            assert!(err.contains(wanted), "{line:?}: {err}");
        }
    }

    #[test]
    fn gauntlet_and_round_robin_schedules() {
        let line = |kind: &'static str| {
            [
                "--engine",
                "cmd=a",
                "--engine",
                "cmd=b",
                "--engine",
                "cmd=c",
                "--each",
                "tc=1",
                "depth=4",
                "--games",
                "3",
                "--tournament",
                kind,
            ]
        };
        let cfg = parse(&line("gauntlet")).unwrap();
        assert_eq!(cfg.engines[2].depth, Some(4));
        let games = runner::schedule(&cfg);
        let opponents: Vec<(usize, usize)> = games.iter().map(|g| (g.white, g.black)).collect();
        assert_eq!(opponents, [(0, 1), (1, 0), (0, 1), (0, 2), (2, 0), (0, 2)]);
        // Two pairs and a lone game per pairing; units numbered through the match.
        let units: Vec<(u32, bool)> = games.iter().map(|g| (g.pair, g.paired)).collect();
        assert_eq!(
            units,
            [(0, true), (0, true), (1, false), (2, true), (2, true), (3, false)]
        );
        let games = runner::schedule(&parse(&line("round-robin")).unwrap());
        assert_eq!(games.len(), 9);
        assert_eq!((games[6].white, games[6].black), (1, 2));
    }

    #[test]
    fn wildcastle_pairs_share_a_shuffled_start() {
        let line = two_engines(&["--variant", "wildcastle", "--games", "6", "--seed", "3"]);
        let games = runner::schedule(&parse(&line).unwrap());
        assert_eq!(games[0].fen, games[1].fen);
        assert_eq!(games[2].fen, games[3].fen);
        let distinct: std::collections::HashSet<_> = games.iter().map(|g| &g.fen).collect();
        assert!(distinct.len() >= 2, "{distinct:?}");
        // Same seed, same starts.
        let again = runner::schedule(&parse(&line).unwrap());
        assert_eq!(games, again);
    }
}
