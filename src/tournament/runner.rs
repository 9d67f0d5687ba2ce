//! The match: the schedule (round robin, colours alternating, each opening played with both
//! colours), up to `concurrency` games at a time, the PGN appended and flushed game by game, a
//! progress line on stderr, and the SPRT stop.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::task::JoinSet;

use super::engine::{EngineConfig, StartError};
use super::game::{Adjudication, Ending, GameRecord, Start, play_game};
use super::pgn;
use super::player::Player;
use super::process::Trace;
use super::progress::Progress;
use super::report::Standings;
use super::results::ScoredGame;
use super::resume::{self, MatchState, Resume};
use super::shard::Shard;
use super::stats::{Sprt, SprtVerdict};
use crate::core::GameResult;
use crate::core::zobrist::splitmix64;
use crate::core::{Position, Variant};
use crate::variants::shuffle;

/// Everything a match needs, already validated.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineConfig>,
    pub variant: Arc<Variant>,
    /// Games per pairing and round.
    pub games: u32,
    pub rounds: u32,
    /// Start positions of an opening file, each read once; empty: one of `variant_starts`, the
    /// same for both games of a pair.
    pub openings: Vec<Arc<Start>>,
    /// The variant's own starts, each read once ([`variant_starts`]): its start, or every
    /// arrangement of its shuffle rule (Wild Castle); none: its start.
    pub variant_starts: Vec<Arc<Start>>,
    pub concurrency: usize,
    pub pgn: Option<PathBuf>,
    /// Save every game also as a Zillions save game (`zillions::zsg::game_path` names the files).
    pub zsg: Option<PathBuf>,
    pub sprt: Option<Sprt>,
    pub adjudication: Adjudication,
    pub seed: u64,
    pub debug: bool,
    pub event: String,
    /// `--resume FILE`: the state file, and what it held when the match started.
    pub resume: Option<Resume>,
    /// `--shard K/N`: play only this part (the SPRT then never stops it: the verdict is `merge`'s).
    pub shard: Option<Shard>,
    pub tournament: Tournament,
    /// `--ratinginterval N`: the pairings' score and Elo lines every N games (0: never).
    pub rating_interval: u32,
}

/// Who plays whom.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Tournament {
    /// Everyone against everyone.
    #[default]
    #[value(name = "round-robin", alias = "roundrobin")]
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// The pairings of a tournament of `n` engines, in schedule (and report) order.
pub fn pairings(n: usize, tournament: Tournament) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            if tournament == Tournament::RoundRobin || a == 0 {
                out.push((a, b));
            }
        }
    }
    out
}

/// One scheduled game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSpec {
    /// 1-based game number (the PGN `Round` tag).
    pub number: u32,
    pub white: usize,
    pub black: usize,
    pub start: Arc<Start>,
    /// The pair (same start, colours swapped) or, for a game without a partner, its own unit:
    /// numbered through the whole match, the unit a shard takes whole.
    pub pair: u32,
    /// The game has a partner with colours swapped.
    pub paired: bool,
}

/// How a match ended.
#[derive(Debug)]
pub struct MatchSummary {
    pub standings: Standings,
    /// Stopped by Ctrl-C.
    pub interrupted: bool,
    /// Stopped early because the SPRT reached a verdict.
    pub sprt_stopped: bool,
    pub aborted_games: u32,
    /// Games stopped by a bug in fairybridge (counted among the aborted ones too).
    pub internal_errors: u32,
}

/// Runs a game as a task of its own, so that a panic inside it (a bug in fairybridge) ends that
/// game with the panic's message instead of vanishing; its engines are killed on the way (their
/// processes are dropped).
async fn catch_panic<F>(game: F) -> Result<GameRecord, String>
where
    F: std::future::Future<Output = GameRecord> + Send + 'static,
{
    match tokio::spawn(game).await {
        Ok(rec) => Ok(rec),
        Err(e) if e.is_panic() => {
            let payload = e.into_panic();
            let text = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_string());
            Err(format!("panic: {text}"))
        }
        Err(e) => Err(e.to_string()),
    }
}

/// The variant's own starts, each read once: every arrangement of its shuffle rule, or its one
/// start.
///
/// # Errors
///
/// An arrangement that is no position of the variant (a shuffle rule its board cannot take).
pub fn variant_starts(variant: &Arc<Variant>) -> Result<Vec<Arc<Start>>, String> {
    let Some(rule) = &variant.shuffle else {
        return Ok(vec![Arc::new(Start::new(Position::start(variant)))]);
    };
    shuffle::arrangements(rule)
        .iter()
        .map(|rank| {
            let fen = shuffle::start_fen(variant, rank);
            Start::parse(variant, &fen)
                .map(Arc::new)
                .map_err(|e| format!("{}: a shuffled start does not read: {e}", variant.name))
        })
        .collect()
}

/// The start position of pair `pair` (both colours of a pair share it).
fn start_for(cfg: &MatchConfig, pair: u64) -> Arc<Start> {
    if !cfg.openings.is_empty() {
        return Arc::clone(&cfg.openings[(pair % cfg.openings.len() as u64) as usize]);
    }
    let mut s = cfg.seed ^ pair.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let pick = shuffle::pick(splitmix64(&mut s), cfg.variant_starts.len().max(1));
    match cfg.variant_starts.get(pick) {
        Some(start) => Arc::clone(start),
        None => Arc::new(Start::new(Position::start(&cfg.variant))),
    }
}

/// The games of the match in order: per round, per pairing, `games` games with colours
/// alternating; games 2k and 2k+1 of a pairing share a start position.
pub fn schedule(cfg: &MatchConfig) -> Vec<GameSpec> {
    let pairings = pairings(cfg.engines.len(), cfg.tournament);
    let pairs_per_round = u64::from(cfg.games.div_ceil(2));
    let mut out = Vec::new();
    let mut unit = 0;
    for round in 0..cfg.rounds {
        for &(a, b) in &pairings {
            for g in 0..cfg.games {
                let pair = u64::from(round) * pairs_per_round + u64::from(g / 2);
                let (white, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
                out.push(GameSpec {
                    number: out.len() as u32 + 1,
                    white,
                    black,
                    start: start_for(cfg, pair),
                    pair: unit,
                    paired: g / 2 * 2 + 1 < cfg.games,
                });
                if g % 2 == 1 || g + 1 == cfg.games {
                    unit += 1;
                }
            }
        }
    }
    out
}

/// What the statistics keep of a finished game.
pub fn scored_game(spec: &GameSpec, rec: &GameRecord) -> ScoredGame {
    ScoredGame {
        number: spec.number,
        pair: spec.paired.then_some(spec.pair),
        white: spec.white,
        black: spec.black,
        result: rec.ending.result(),
        forfeit: matches!(rec.ending, Ending::Forfeit { .. }),
    }
}

/// Starts an engine once, to learn its name and check that it plays the variant. A command that
/// does not run is an error; an engine that runs but fails its start-up (exits, hangs) is only
/// warned about: its games are forfeited one by one, with the reason in the PGN.
///
/// # Errors
///
/// The engine cannot be started, or does not get through its handshake.
pub async fn probe(cfg: &EngineConfig, variant: &Variant) -> Result<Option<String>, String> {
    let engine = match Player::start(cfg, None).await {
        Ok(e) => e,
        Err(StartError::Spawn(e)) => return Err(format!("engine \"{}\": {e}", cfg.cmd)),
        Err(StartError::Protocol(e)) => {
            eprintln!(
                "fairybridge: warning: engine \"{}\" failed its start-up ({e}); it forfeits the games it cannot start",
                cfg.cmd
            );
            return Ok(None);
        }
    };
    let name = engine.announced_name();
    let plays = engine.plays(variant);
    let (missing, announced) = engine.missing_options(&cfg.options);
    for option in missing {
        // Sent all the same: an engine may take options it does not announce.
        eprintln!(
            "fairybridge: warning: engine \"{}\" announces no option {option:?} (option.{option}=; its options: {})",
            cfg.cmd,
            if announced.is_empty() {
                "none".to_string()
            } else {
                announced.join(", ")
            }
        );
    }
    if engine.ignores_cores() {
        eprintln!(
            "fairybridge: warning: engine \"{}\" has no feature smp=1: cores= is not sent to it",
            cfg.cmd
        );
    }
    engine.finish(None).await;
    if let Err(why) = plays {
        return Err(format!("engine \"{}\" {why}", cfg.cmd));
    }
    Ok(name)
}

/// Game `spec` as a task's future: played, or, if the referee panicked, an unplayed game with the
/// panic's message.
fn refereed_game(
    spec: GameSpec,
    engines: Arc<Vec<EngineConfig>>,
    cfg: &MatchConfig,
    trace: Option<Arc<Trace>>,
) -> impl std::future::Future<Output = (GameSpec, GameRecord)> + Send + 'static {
    let variant = Arc::clone(&cfg.variant);
    let adj = cfg.adjudication;
    async move {
        let game = {
            let (engines, variant, start) = (Arc::clone(&engines), Arc::clone(&variant), Arc::clone(&spec.start));
            let (w, b) = (spec.white, spec.black);
            async move { play_game([&engines[w], &engines[b]], &variant, &start, &adj, trace).await }
        };
        let rec = match catch_panic(game).await {
            Ok(rec) => rec,
            Err(why) => {
                let cfgs = [&engines[spec.white], &engines[spec.black]];
                let ending = Ending::InternalError(why);
                GameRecord::unplayed(cfgs, &spec.start, ending)
            }
        };
        (spec, rec)
    }
}

/// Where finished games go: the PGN (appended, its length kept for the state file), the save
/// games, the state file. A file that cannot be written is reported on stderr once and the match
/// goes on.
struct Records {
    pgn_file: Option<std::fs::File>,
    pgn_bytes: u64,
    state_error_shown: bool,
}

impl Records {
    /// Opens the PGN for appending; a resumed match first cuts off what its state does not know.
    fn open(cfg: &MatchConfig, state: Option<&MatchState>) -> Records {
        let pgn_file =
            cfg.pgn.as_ref().and_then(
                |p| match std::fs::OpenOptions::new().create(true).append(true).open(p) {
                    Ok(f) => Some(f),
                    Err(e) => {
                        eprintln!("fairybridge: cannot open {}: {e}", p.display());
                        None
                    }
                },
            );
        let pgn_bytes = match (&pgn_file, state) {
            (Some(f), Some(state)) => resume::trim_pgn(f, state.pgn_bytes),
            (Some(f), None) => f.metadata().map(|m| m.len()).unwrap_or(0),
            (None, _) => 0,
        };
        Records {
            pgn_file,
            pgn_bytes,
            state_error_shown: false,
        }
    }

    /// Writes a finished game: its PGN, its save game, and the state with it.
    fn write(
        &mut self,
        cfg: &MatchConfig,
        spec: &GameSpec,
        rec: &GameRecord,
        games: usize,
        scored: &ScoredGame,
        state: Option<&mut MatchState>,
    ) {
        if let Some(f) = self.pgn_file.as_mut() {
            let text = pgn::write_game(rec, &cfg.event, spec.number, spec.paired.then_some(spec.pair));
            match f.write_all(text.as_bytes()).and_then(|_| f.flush()) {
                Ok(()) => self.pgn_bytes += text.len() as u64,
                Err(e) => {
                    eprintln!("fairybridge: cannot write the PGN: {e}");
                    self.pgn_file = None;
                }
            }
        }
        if let Some(path) = &cfg.zsg {
            let file = crate::zillions::zsg::game_path(path, spec.number, games);
            let moves: Vec<_> = rec.moves().map(|m| m.mv).collect();
            if let Err(e) = crate::zillions::zsg::save(&file, rec.start.position(), &moves) {
                eprintln!("fairybridge: game {}: no save game: {e}", spec.number);
            }
        }
        // After the PGN: a kill between the two leaves a PGN game the state does not know, which
        // the resumed run cuts off (pgn-bytes) before playing the game again.
        if let (Some(state), Some(resume)) = (state, cfg.resume.as_ref()) {
            state.games.push(scored.clone());
            state.pgn_bytes = self.pgn_file.is_some().then_some(self.pgn_bytes);
            if let Err(e) = state.write_atomic(&resume.path)
                && !self.state_error_shown
            {
                eprintln!(
                    "fairybridge: cannot write the state file {}: {e}",
                    resume.path.display()
                );
                self.state_error_shown = true;
            }
        }
    }
}

/// Plays the match. PGN write errors are reported on stderr once and the match goes on.
pub async fn run(cfg: MatchConfig) -> MatchSummary {
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let mut standings = Standings::with_pairings(names.clone(), pairings(names.len(), cfg.tournament));
    standings.paired = cfg.games >= 2;
    let mut specs = schedule(&cfg);
    let match_games = specs.len();
    if let Some(shard) = cfg.shard {
        specs.retain(|s| shard.takes(s.pair));
    }
    let shard_games = specs.len();
    // A resumed match: count what was played, play the rest.
    let mut state = cfg.resume.as_ref().map(|r| match r.previous.clone() {
        // Kept with this run's rounds: more than it had extend the match.
        Some(previous) => previous.extended_to(&cfg),
        None => MatchState::new(&cfg),
    });
    let mut aborted_games = 0;
    if let Some(state) = &state {
        for g in &state.games {
            standings.add(g);
            aborted_games += u32::from(g.result == GameResult::Unfinished);
        }
        let finished: std::collections::HashSet<u32> = state.games.iter().map(|g| g.number).collect();
        specs.retain(|s| !finished.contains(&s.number));
        if !state.games.is_empty() {
            eprintln!(
                "Resuming: {} game(s) already played, {} to play",
                state.games.len(),
                specs.len()
            );
        }
    }
    let engines = Arc::new(cfg.engines.clone());
    let trace = cfg.debug.then(|| Arc::new(Trace { start: Instant::now() }));
    let mut records = Records::open(&cfg, state.as_ref());
    let mut progress = Progress::new(
        shard_games,
        shard_games - specs.len(),
        std::io::stderr().is_terminal(),
        cfg.rating_interval,
    );
    let mut set: JoinSet<(GameSpec, GameRecord)> = JoinSet::new();
    let mut next = 0;
    let mut interrupted = false;
    // A shard plays its whole part: only the merged games decide.
    let sprt_acts = cfg.shard.is_none() && standings.pairs.len() == 1;
    let mut sprt_stopped = match &cfg.sprt {
        Some(sprt) if sprt_acts => standings.sprt_status(sprt, 0).verdict != SprtVerdict::Continue,
        _ => false,
    };
    let mut internal_errors = 0;
    let ctrl_c = tokio::signal::ctrl_c();
    tokio::pin!(ctrl_c);
    loop {
        while !sprt_stopped && next < specs.len() && set.len() < cfg.concurrency.max(1) {
            let spec = specs[next].clone();
            next += 1;
            set.spawn(refereed_game(spec, Arc::clone(&engines), &cfg, trace.clone()));
            // Stagger start-ups a little so concurrent engines do not start in the same instant.
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        progress.redraw(&standings, cfg.sprt.as_ref(), set.len());
        if set.is_empty() {
            break;
        }
        let joined = tokio::select! {
            j = set.join_next() => j,
            _ = &mut ctrl_c => {
                interrupted = true;
                set.abort_all();
                while set.join_next().await.is_some() {}
                break;
            }
        };
        let Some(Ok((spec, rec))) = joined else { continue };
        let scored = scored_game(&spec, &rec);
        records.write(&cfg, &spec, &rec, specs.len(), &scored, state.as_mut());
        if scored.result == GameResult::Unfinished {
            aborted_games += 1;
        }
        if matches!(rec.ending, Ending::InternalError(_)) {
            internal_errors += 1;
        }
        standings.add(&scored);
        let text = format!(
            "Game {} of {}: {} vs {}: {} {{{}}}",
            spec.number,
            match_games,
            names[spec.white],
            names[spec.black],
            rec.ending.result(),
            rec.ending.description()
        );
        if let Some(sprt) = &cfg.sprt
            && sprt_acts
            && standings.sprt_status(sprt, 0).verdict != SprtVerdict::Continue
        {
            sprt_stopped = true;
        }
        progress.game(&text, &standings, cfg.sprt.as_ref(), set.len());
        if sprt_stopped && !set.is_empty() {
            progress.line("SPRT verdict reached: stopping the games still running");
            set.abort_all();
            while set.join_next().await.is_some() {}
        }
    }
    progress.finish();
    MatchSummary {
        standings,
        interrupted,
        sprt_stopped,
        aborted_games,
        internal_errors,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panicking_game_is_reported_not_lost() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let caught = rt.block_on(catch_panic(async { panic!("boom at move 3") }));
        assert_eq!(caught.unwrap_err(), "panic: boom at move 3");
    }
}
