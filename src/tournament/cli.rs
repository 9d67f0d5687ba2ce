//! `fairybridge match`: the flags (shaped like cutechess-cli's), their validation, and the run.
//!
//! ```text
//! fairybridge match --engine cmd=CMD [name=NAME] [arg=ARG]... [dir=DIR] [option.NAME=VALUE]...
//!                            [tc=TC | st=SECONDS] [depth=N] [cores=N] [timemargin=MS] [stderr=FILE] [proto=xboard|uci]
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
use super::game::{Adjudication, DrawRule, ResignRule, Start};
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
    #[arg(long, default_value = crate::variants::NORMAL)]
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
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Who plays whom: round-robin (everyone against everyone) or gauntlet (the first engine
    /// against each of the others).
    #[arg(long, value_name = "KIND", value_enum, default_value_t = Tournament::RoundRobin)]
    pub tournament: Tournament,
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
                     [option.NAME=VALUE]... [tc=[MOVES/]SECONDS[+INC] | st=SECONDS] [depth=N] [cores=N] [timemargin=MS] \
                     [stderr=FILE] [proto=xboard|uci] (cores= is a CECP engine's threads; UCI: option.Threads=N)",
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

/// cutechess-cli engine keys this runner does not support, and why (refused by name).
const UNSUPPORTED_ENGINE_KEYS: &[(&str, &str)] = &[
    (
        "conf",
        "engines.json configurations are not read: give cmd= and the other keys",
    ),
    ("book", "no opening books for engines: use --openings"),
    ("bookdepth", "no opening books for engines: use --openings"),
    ("initstr", "no init strings: use option.NAME=VALUE"),
    ("ponder", "the runner never lets an engine ponder"),
    ("trust", "every result claim is checked by the referee"),
    ("whitepov", "scores are read from the side to move"),
    ("tscale", "no time scaling"),
];

/// The `KEY=VALUE` words of an engine; a bare word (cutechess-cli's `ponder`, `trust`) is refused
/// by name.
fn engine_key_values<'a>(words: &'a [String], what: &str) -> Result<Vec<(&'a str, &'a str)>, String> {
    words
        .iter()
        .map(|w| match w.split_once('=') {
            Some(kv) => Ok(kv),
            None => match UNSUPPORTED_ENGINE_KEYS.iter().find(|(k, _)| k == w) {
                Some((k, why)) => Err(format!("{what}: {k} is not supported ({why})")),
                None => Err(format!("{what}: expected KEY=VALUE, got \"{w}\"")),
            },
        })
        .collect()
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
        nodes: None,
        cores: None,
        proto: Protocol::Cecp,
    };
    let mut tc = None;
    let mut extra_args = Vec::new();
    let pairs = engine_key_values(each, "--each")?
        .into_iter()
        .chain(engine_key_values(words, "--engine")?);
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
            "tc" if v == "inf" || v == "infinite" => tc = Some(TimeControl::infinite()),
            "tc" => tc = Some(TimeControl::parse_tc(v)?),
            "st" => tc = Some(TimeControl::parse_st(v)?),
            "timemargin" => cfg.margin = margin(number(k, v, "--engine")?)?,
            "stderr" => cfg.stderr = Some(PathBuf::from(v)),
            "depth" => match number::<u32>(k, v, "--engine")? {
                0 => return Err("--engine: depth= must be at least 1".to_string()),
                // No engine searches deeper than a few hundred plies.
                d => cfg.depth = Some(d.min(1000)),
            },
            "nodes" => match number::<u64>(k, v, "--engine")? {
                0 => return Err("--engine: nodes= must be at least 1".to_string()),
                n => cfg.nodes = Some(n),
            },
            "cores" => match number::<u32>(k, v, "--engine")? {
                0 => return Err("--engine: cores= must be at least 1".to_string()),
                n => cfg.cores = Some(n),
            },
            "proto" => cfg.proto = Protocol::parse(v)?,
            // Every game starts its engines afresh (restart=on); `auto` leaves that to the runner.
            "restart" if v == "on" || v == "auto" => {}
            "restart" => {
                return Err(format!(
                    "--engine: restart={v} is not supported (every game starts its engines afresh)"
                ));
            }
            _ => match k.strip_prefix("option.") {
                Some(name) if !name.is_empty() => cfg.options.push((name.to_string(), v.to_string())),
                _ => match UNSUPPORTED_ENGINE_KEYS.iter().find(|(key, _)| *key == k) {
                    Some((_, why)) => return Err(format!("--engine: {k}= is not supported ({why})")),
                    None => return Err(format!("--engine: unknown key \"{k}\"")),
                },
            },
        }
    }
    if cfg.cmd.is_empty() {
        return Err("--engine: cmd=COMMAND is missing".to_string());
    }
    cfg.args.extend(extra_args);
    let limited = cfg.depth.is_some() || cfg.nodes.is_some();
    // As cutechess-cli: `depth=` or `nodes=` alone searches without a clock.
    cfg.tc = match tc {
        Some(tc) => tc,
        None if limited => TimeControl::infinite(),
        None => return Err(format!("engine \"{}\": no time control (tc=... or st=...)", cfg.cmd)),
    };
    if cfg.tc.is_infinite() && !limited {
        return Err(format!(
            "engine \"{}\": tc=inf needs depth= or nodes= (else it would never move)",
            cfg.cmd
        ));
    }
    if cfg.nodes.is_some() && cfg.proto != Protocol::Uci {
        return Err(format!(
            "engine \"{}\": nodes= needs a UCI engine (proto=uci): CECP has no node limit",
            cfg.cmd
        ));
    }
    if cfg.cores.is_some() && cfg.proto == Protocol::Uci {
        return Err(format!(
            "engine \"{}\": cores= is for CECP engines; a UCI engine's threads are option.Threads=N",
            cfg.cmd
        ));
    }
    Ok(cfg)
}

/// `--sprt elo0=E0 elo1=E1 [alpha=A] [beta=B] [model=pentanomial|trinomial]`; the model defaults
/// to pentanomial when games are paired.
///
/// # Errors
///
/// A word that is not `elo0=`, `elo1=`, `alpha=` or `beta=` with a number, or bounds that make
/// no test.
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
///
/// # Errors
///
/// The one-line reason the arguments make no match (an engine, time control, variant, opening
/// or output that cannot be used).
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
    let (shard, tournament) = (args.shard, args.tournament);
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
    if !args.openings.is_empty() {
        // `FILE [KEY=VALUE]...` (ours) or cutechess-cli's `file=FILE [KEY=VALUE]...`, keys in any order.
        let (mut file, mut format, mut plies) = (None, None, None);
        let mut random = false;
        let mut start = 0usize;
        const KEYS: &[&str] = &["file", "order", "start", "format", "plies", "policy"];
        for word in &args.openings {
            let pair = word.split_once('=').filter(|(k, _)| KEYS.contains(k));
            let Some((k, v)) = pair else {
                if file.is_some() {
                    return Err(format!("--openings: unknown key or second file \"{word}\""));
                }
                file = Some(word.as_str());
                continue;
            };
            match (k, v) {
                ("file", _) => file = Some(v),
                ("order", "random") => random = true,
                ("order", "sequential") => random = false,
                ("start", _) => start = number::<usize>(k, v, "--openings")?.saturating_sub(1),
                ("format", _) => format = Some(super::openings::Format::parse(v)?),
                ("plies", _) => plies = Some(number::<usize>(k, v, "--openings")?),
                // cutechess-cli's default: a new opening for every pair of games, as here.
                ("policy", "default") => {}
                ("policy", _) => {
                    return Err(format!(
                        "--openings: policy={v} is not supported (an opening is played once with each colour)"
                    ));
                }
                _ => return Err(format!("--openings: unknown key or value \"{k}={v}\"")),
            }
        }
        let file = file.ok_or("--openings: no file (FILE or file=FILE)")?;
        openings = super::openings::load(std::path::Path::new(file), &variant, format, plies)?;
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
    let openings: Vec<Arc<Start>> = openings.into_iter().map(Arc::new).collect();
    let variant_starts = if openings.is_empty() {
        runner::variant_starts(&variant)?
    } else {
        Vec::new()
    };
    Ok(MatchConfig {
        engines,
        variant,
        games: args.games,
        rounds: args.rounds,
        openings,
        variant_starts,
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

/// Is `cmd` (run in `dir`) this very program? Then it is one of our own engines.
fn is_this_program(cmd: &str, dir: Option<&PathBuf>) -> bool {
    let Ok(me) = std::env::current_exe().and_then(std::fs::canonicalize) else {
        return false;
    };
    let path = std::path::Path::new(cmd);
    let path = match dir {
        Some(d) if path.is_relative() => d.join(path),
        _ => path.to_path_buf(),
    };
    // A bare name is looked up in PATH.
    let found = if cmd.contains(std::path::MAIN_SEPARATOR) {
        Some(path)
    } else {
        std::env::var_os("PATH")
            .and_then(|paths| std::env::split_paths(&paths).map(|p| p.join(cmd)).find(|p| p.is_file()))
    };
    found.and_then(|p| std::fs::canonicalize(p).ok()) == Some(me)
}

/// Our own engines in the match get its definition files (`fairybridge --variants FILE match
/// ...`), so that they play the games the referee knows from them; an engine given its own
/// `--variants` keeps it.
fn give_definitions_to_our_engines(cfg: &mut MatchConfig, files: &[PathBuf]) {
    if files.is_empty() {
        return;
    }
    for e in &mut cfg.engines {
        if e.args.iter().any(|a| a == "--variants" || a.starts_with("--variants="))
            || !is_this_program(&e.cmd, e.dir.as_ref())
        {
            continue;
        }
        let mut args = Vec::new();
        for f in files {
            let f = std::fs::canonicalize(f).unwrap_or_else(|_| f.clone());
            args.push("--variants".to_string());
            args.push(f.display().to_string());
        }
        args.append(&mut e.args);
        e.args = args;
    }
}

/// Runs `fairybridge match` (with the definition files the registry was loaded from); returns
/// the exit code.
pub fn run(args: MatchArgs, reg: Registry, variant_files: &[PathBuf]) -> i32 {
    let fail = |e: String| {
        eprintln!("fairybridge: {e}");
        2
    };
    let mut cfg = match config(&args, &reg) {
        Ok(c) => c,
        Err(e) => return fail(e),
    };
    give_definitions_to_our_engines(&mut cfg, variant_files);
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
        config(&w.args, &crate::protocol::builtin_games())
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
    fn cores_are_a_cecp_engines_threads() {
        let cfg = parse(&["--engine", "cmd=a", "cores=2", "--engine", "cmd=b", "--each", "tc=1"]).unwrap();
        assert_eq!((cfg.engines[0].cores, cfg.engines[1].cores), (Some(2), None));
        for (line, wanted) in [
            (two_engines(&["cores=0"]), "at least 1"),
            (two_engines(&["cores=two"]), "bad value for cores"),
            (two_engines(&["cores=2", "proto=uci"]), "option.Threads=N"),
        ] {
            let err = parse(&line).unwrap_err();
            assert!(err.contains(wanted), "{line:?}: {err}");
        }
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
    fn bad_shards_and_tournaments_are_refused_by_their_parsers() {
        for bad in ["0/2", "3/2", "2", "a/b", "1/0", ""] {
            let err = parse(&two_engines(&["--shard", bad])).unwrap_err();
            assert!(
                err.contains("--shard") && err.contains("expected K/N"),
                "{bad:?}: {err}"
            );
        }
        let cfg = parse(&two_engines(&["--shard", "2/3"])).unwrap();
        assert_eq!(cfg.shard, Some(Shard { index: 1, count: 3 }));
        for bad in ["swiss", "Gauntlet ", ""] {
            let err = parse(&two_engines(&["--tournament", bad])).unwrap_err();
            assert!(
                err.contains("--tournament") && err.contains("round-robin, gauntlet"),
                "{bad:?}: {err}"
            );
        }
        let cfg = parse(&two_engines(&["--tournament", "roundrobin"])).unwrap();
        assert_eq!(cfg.tournament, Tournament::RoundRobin);
    }

    /// An opening that is no position of the game is an error naming the file and the line (or
    /// the PGN game), never a game from the start position.
    #[test]
    fn a_bad_opening_names_its_file_and_line() {
        let epd = opening_file(
            "bad-line.epd",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\nrnbqkbnr/pppppppp/8/8/8 w KQkq -\n",
        );
        let err = parse(&two_engines(&["--openings", &epd])).unwrap_err();
        assert!(err.contains(&epd) && err.contains("line 2"), "{err}");
        // Read as a FEN but not a position of the game: no kings.
        let epd = opening_file("no-kings.epd", "# none\n8/8/8/8/8/8/8/8 w - - 0 1\n");
        let err = parse(&two_engines(&["--openings", &epd])).unwrap_err();
        assert!(err.contains(&epd) && err.contains("line 2"), "{err}");
        let pgn = opening_file(
            "bad-fen.pgn",
            "[Event \"?\"]\n\n1. e4 *\n\n[Event \"?\"]\n[FEN \"8/8/8 w - - 0 1\"]\n\n1. Ke2 *\n",
        );
        let err = parse(&two_engines(&["--openings", &pgn])).unwrap_err();
        assert!(err.contains(&pgn) && err.contains("game 2"), "{err}");
    }

    /// A state file written by an earlier fairybridge names its match by this fingerprint: the
    /// types the match is set up with (starts, shard, tournament) must not change it, or the
    /// state no longer resumes.
    #[test]
    fn the_resume_fingerprint_of_a_match_is_unchanged() {
        let epd = opening_file("fingerprint.epd", EPD);
        let line = two_engines(&[
            "--openings",
            &epd,
            "--seed",
            "5",
            "--shard",
            "2/3",
            "--tournament",
            "gauntlet",
            "--games",
            "4",
        ]);
        let cfg = parse(&line).unwrap();
        assert_eq!(
            format!("{:016x}", super::super::resume::fingerprint(&cfg)),
            "9b030038d21704c8"
        );
    }

    #[test]
    fn wildcastle_pairs_share_a_shuffled_start() {
        let line = two_engines(&["--variant", "wildcastle", "--games", "6", "--seed", "3"]);
        let games = runner::schedule(&parse(&line).unwrap());
        assert_eq!(games[0].start, games[1].start);
        assert_eq!(games[2].start, games[3].start);
        let distinct: std::collections::HashSet<_> = games.iter().map(|g| g.start.fen()).collect();
        assert!(distinct.len() >= 2, "{distinct:?}");
        // Same seed, same starts.
        let again = runner::schedule(&parse(&line).unwrap());
        assert_eq!(games, again);
    }
    /// A cutechess-cli command line as a script writes it after `cutechess-cli`, with the
    /// engine commands and opening files as given (the engines are not started here).
    fn parse_cutechess(line: &str) -> Result<MatchConfig, String> {
        let words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        let ours = super::super::cutechess::translate(&words)?;
        let ours: Vec<&str> = ours.iter().map(String::as_str).collect();
        parse(&ours)
    }

    /// An opening file in the temporary folder (the tests run at the same time: one per name).
    fn opening_file(name: &str, text: &str) -> String {
        let path = std::env::temp_dir().join(format!("fb-cli-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    }

    const EPD: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n\
                       rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n";
    const PGN: &str = "[Event \"?\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n[Event \"?\"]\n\n1. d4 d5 2. c4 e6 *\n";

    /// Real cutechess-cli and fastchess command lines from public scripts are read as their
    /// authors meant them (`match -engine …` is cutechess-cli's single-dash style, not a run of short
    /// flags `-e -n …`).
    #[test]
    fn cutechess_command_lines_from_public_scripts() {
        let epd = opening_file("book.epd", EPD);
        let pgn = opening_file("book.pgn", PGN);
        // Altanis/sacre_dieu, sprt/sprt.sh (`order=` before `file=`).
        let cfg = parse_cutechess(&format!(
            "-engine name=Aspect cmd=releases/v2_move_ordering -engine name=BlueCannonBall cmd=releases/v1_basic \
             -games 2 -rounds 50000 -pgnout sprt/pgnout.txt -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 \
             -each proto=uci tc=8+0.08 stderr=sprt/stderr.txt -openings order=random file={epd} format=epd \
             -concurrency 6 -ratinginterval 10"
        ))
        .unwrap();
        assert_eq!(
            (cfg.games, cfg.rounds, cfg.concurrency, cfg.rating_interval),
            (2, 50000, 6, 10)
        );
        assert_eq!(cfg.engines[1].name, "BlueCannonBall");
        assert_eq!(cfg.engines[0].proto, Protocol::Uci);
        assert_eq!(cfg.engines[0].stderr, Some(PathBuf::from("sprt/stderr.txt")));
        assert_eq!(cfg.pgn, Some(PathBuf::from("sprt/pgnout.txt")));
        assert_eq!(cfg.openings.len(), 2);
        // cutechess-cli's SPRT model.
        assert_eq!(cfg.sprt.unwrap().model, SprtModel::Trinomial);
        // mathmoi/oxide9, scripts/cute.sh.
        let cfg = parse_cutechess(&format!(
            "-engine cmd=o9-dev -engine cmd=o9-tt2 -each proto=uci tc=1+0.8 -games 2 -rounds 10000 -repeat 2 \
             -maxmoves 250 -openings file={epd} format=epd order=sequential -pgnout cutechess.pgn \
             -concurrency 15 -ratinginterval 10 -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05"
        ))
        .unwrap();
        assert_eq!(cfg.adjudication.max_moves, Some(250));
        assert_eq!(
            cfg.engines[1].tc,
            TimeControl::Clock {
                moves: 0,
                base: 1.0,
                inc: 0.8
            }
        );
        // shaardie/clemens, scripts/elo.sh: a gauntlet, nodes= with st=, PGN openings without
        // format= (cutechess-cli's default), draw and resign adjudication.
        let cfg = parse_cutechess(&format!(
            "-tournament gauntlet -concurrency 3 -pgnout output_pgn_file.pgn -engine cmd=clemens st=0.1 \
             -engine name=maia-1900 cmd=lc0 arg=-w arg=/models/maia-1900.pb.gz nodes=1 st=1 -each proto=uci \
             -draw movenumber=40 movecount=4 score=8 -resign movecount=4 score=500 -openings file={pgn} \
             order=random -repeat -rounds 1200 -games 2"
        ))
        .unwrap();
        assert_eq!(cfg.tournament, Tournament::Gauntlet);
        assert_eq!(cfg.engines[1].args, ["-w", "/models/maia-1900.pb.gz"]);
        assert_eq!(cfg.engines[1].nodes, Some(1));
        assert_eq!(cfg.adjudication.resign.unwrap().score, 500);
        assert_eq!(cfg.adjudication.draw.unwrap().move_number, 40);
        assert!(
            cfg.openings
                .iter()
                .any(|f| f.fen().starts_with("rnbqkbnr/ppp2ppp/4p3/3p4/2PP4/")),
            "{:?}",
            cfg.openings
        );
        // funnsam/chessbot2, non_regression.sh (fastchess): -recover, PGN openings.
        let cfg = parse_cutechess(&format!(
            "-engine cmd=engines/a name=a -engine cmd=engines/b name=b -each tc=8+0.08 -rounds 10 -repeat \
             -concurrency 4 -recover -openings file={pgn} format=pgn order=random \
             -sprt elo0=-10 elo1=0 alpha=0.05 beta=0.05"
        ))
        .unwrap();
        assert_eq!(cfg.sprt.unwrap().elo0, -10.0);
        // smartick/lozza, testing/cctry.bat: PGN openings cut to plies=16 (here 2), then `-pgnout
        // FILE fi` and `conf=`, which are refused by name.
        let opening = |plies: &str| {
            format!(
                "-engine cmd=coalface tc=0/20+0.2 -engine cmd=released tc=0/20+0.2 -event soaktest \
                 -tournament round-robin -games 100000 -resign movecount=3 score=400 \
                 -draw movenumber=40 movecount=8 score=10 -repeat -srand 1234 \
                 -openings file={pgn} format=pgn order=random plies={plies} -recover -concurrency 4"
            )
        };
        let cfg = parse_cutechess(&opening("2")).unwrap();
        assert_eq!(cfg.seed, 1234);
        assert_eq!(cfg.event, "soaktest");
        let mut starts: Vec<&str> = cfg.openings.iter().map(|s| s.fen()).collect();
        starts.sort_unstable();
        assert_eq!(
            starts,
            [
                "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2",
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            ]
        );
        let err = parse_cutechess(&format!("{} -pgnout cctry.pgn fi", opening("16"))).unwrap_err();
        assert!(err.contains("-pgnout: \"fi\" is not supported"), "{err}");
        let err = parse_cutechess("-engine conf=coalface tc=0/20+0.2 -engine conf=released tc=1").unwrap_err();
        assert!(err.contains("conf= is not supported"), "{err}");
        // lynx-chess/lynx-utils, cutechess/gauntlet.ps1: `tc=inf/40+0.4` is 40 s for the game;
        // `-seeds` and `-resultformat` are refused by name.
        let cfg = parse_cutechess("-engine cmd=a -engine cmd=b -each tc=inf/40+0.4 option.Hash=256").unwrap();
        assert_eq!(
            cfg.engines[0].tc,
            TimeControl::Clock {
                moves: 0,
                base: 40.0,
                inc: 0.4
            }
        );
        for (extra, wanted) in [
            ("-seeds 1", "-seeds: unknown option"),
            ("-resultformat wide2", "-resultformat is not supported"),
        ] {
            let err = parse_cutechess(&format!("-engine cmd=a -engine cmd=b -each tc=1 {extra}")).unwrap_err();
            assert!(err.contains(wanted), "{extra}: {err}");
        }
    }

    /// cutechess-cli's engine keys: `tc=inf` with `depth=` or `nodes=`, `depth=` alone, `nodes=`
    /// for UCI engines only, `restart=`; `ponder` and the like refused by name.
    #[test]
    fn cutechess_engine_keys() {
        let cfg = parse(&[
            "--engine",
            "cmd=a",
            "depth=3",
            "--engine",
            "cmd=b",
            "proto=uci",
            "tc=inf",
            "nodes=5000",
        ])
        .unwrap();
        assert!(cfg.engines[0].tc.is_infinite());
        assert_eq!(cfg.engines[0].depth, Some(3));
        assert!(cfg.engines[1].tc.is_infinite());
        assert_eq!(cfg.engines[1].nodes, Some(5000));
        assert_eq!(TimeControl::infinite().to_string(), "-");
        for (line, wanted) in [
            (
                vec!["--engine", "cmd=a", "tc=inf", "--engine", "cmd=b", "tc=1"],
                "tc=inf needs depth= or nodes=",
            ),
            (
                vec!["--engine", "cmd=a", "nodes=10", "--engine", "cmd=b", "tc=1"],
                "nodes= needs a UCI engine",
            ),
            (two_engines(&["--each", "ponder"]), "ponder is not supported"),
            (two_engines(&["--each", "restart=off"]), "restart=off is not supported"),
            (two_engines(&["--each", "book=x.bin"]), "book= is not supported"),
            (
                two_engines(&["--openings", "x.epd", "policy=round"]),
                "policy=round is not supported",
            ),
        ] {
            let err = parse(&line).unwrap_err();
            assert!(err.contains(wanted), "{line:?}: {err}");
        }
        assert!(parse(&two_engines(&["--each", "restart=on"])).is_ok());
        let epd = opening_file("plies.epd", EPD);
        let err = parse(&two_engines(&["--openings", &epd, "format=epd", "plies=4"])).unwrap_err();
        assert!(err.contains("plies= is for PGN openings"), "{err}");
    }
}
