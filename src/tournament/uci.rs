//! A UCI engine as a player of a refereed game, driven as cutechess-cli drives one: `uci` …
//! `uciok` (the engine's name and options read on the way), the match's options, `Ponder` off,
//! `isready` … `readyok`; per game `UCI_Variant`, `ucinewgame` and `isready`; per turn
//! `position startpos|fen START moves …` and `go wtime … btime … winc … binc … [movestogo N]`
//! (`go movetime MS` with a time per move; `depth N` added with `depth=`), read to its
//! `bestmove`; `stop` when its flag fell; `quit` at the end. Every line sent is a typed
//! [`Command`] and every line read is parsed into a typed [`Reply`] (`protocol::uci`).
//!
//! Moves on the wire are our UCI move text (`protocol::uci::moves`: human coordinates, `e10` on
//! 10-rank boards, drops `P@e4`, a turn of several moves as one word joined by commas); the moves
//! the engine is told are written one word per sub-move. A variant other than orthodox chess is
//! played only by an engine whose `UCI_Variant` combo lists it (the registry's name, `chess` for
//! `normal`). `info` lines with a depth and a score are the thinking the PGN comments and the
//! adjudication read; a `bestmove` the engine sends while it is not searching is dropped with a
//! warning.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::engine::{EngineConfig, StartError};
use super::game::Forfeit;
use super::player::{Heard, MoveRead};
use super::process::{EngineProcess, Event, Trace};
use super::timecontrol::ClockReading;
use crate::core::{Color, Move, Position, Variant};
use crate::notation::movetext::{self, MoveTextError};
use crate::notation::{Coords, fen};
use crate::protocol::uci::command::{Command, Go, Start};
use crate::protocol::uci::engine_line::{EngineLine, parse_engine_line};
use crate::protocol::uci::moves;
use crate::protocol::uci::options::uci_variant_name;
use crate::protocol::uci::reply::{Id, Info, InfoTail, NO_MOVE, Reply, ScoreValue};

/// How long `uci` may take to be answered with `uciok` (a slow-starting engine on a loaded
/// machine; cutechess waits about as long).
const UCIOK_WAIT: Duration = Duration::from_secs(10);
/// How long `isready` may take to be answered with `readyok` (a large hash being cleared).
const READYOK_WAIT: Duration = Duration::from_secs(10);

/// A running UCI engine.
pub struct UciEngine {
    pub name: String,
    /// `id name …`.
    pub id_name: Option<String>,
    /// The names of the options it announced.
    options: Vec<String>,
    /// The values of its `UCI_Variant` combo, if it has one.
    variants: Option<Vec<String>>,
    process: EngineProcess,
    limits: SearchLimits,
    /// Where the game started.
    start: Start,
    /// The game's moves so far, one UCI word per sub-move.
    moves: Vec<String>,
    /// A `go` has not had its `bestmove` yet.
    searching: bool,
    /// Its own name of the games (`UCI_Variant`) instead of ours (the Zillions plug-in's
    /// `engine_variant`).
    pub variant_name: Option<String>,
}

/// The search an `info` line shows, if it has a depth and a score: the score in centipawns,
/// mate in N as ±100000+N (as CECP engines write it), the node count (0 if not given) and the
/// first move of its `pv`.
fn thinking(info: &Info) -> Option<Heard> {
    // With MultiPV, only the best line is the engine's opinion of the position.
    if info.multipv.is_some_and(|k| k != 1) {
        return None;
    }
    let score = match info.score?.value {
        ScoreValue::Cp(cp) => cp.clamp(-99_999, 99_999) as i32,
        ScoreValue::Mate(n) if n > 0 => 100_000 + n.min(10_000) as i32,
        ScoreValue::Mate(n) => -100_000 - n.unsigned_abs().min(10_000) as i32,
    };
    let first_move = match &info.tail {
        Some(InfoTail::Pv(pv)) => pv.first().cloned(),
        _ => None,
    };
    Some(Heard::Thinking {
        depth: info.depth?,
        score,
        nodes: info.nodes.unwrap_or(0),
        first_move,
    })
}

impl UciEngine {
    /// Starts the process and gets through `uci` … `uciok`, the options and `isready`.
    ///
    /// # Errors
    ///
    /// [`StartError::Spawn`] when the command cannot be run; [`StartError::Protocol`] when the
    /// engine does not get through `uci`/`uciok`.
    pub async fn start(cfg: &EngineConfig, trace: Option<Arc<Trace>>) -> Result<UciEngine, StartError> {
        let process = EngineProcess::spawn(&cfg.launch(), trace).map_err(StartError::Spawn)?;
        let mut engine = UciEngine {
            name: cfg.name.clone(),
            id_name: None,
            options: Vec::new(),
            variants: None,
            process,
            limits: SearchLimits {
                depth: cfg.depth,
                nodes: cfg.nodes,
                no_clock: cfg.tc.is_infinite(),
            },
            start: Start::StartPos,
            moves: Vec::new(),
            searching: false,
            variant_name: None,
        };
        let started = async {
            engine.handshake().await?;
            for (name, value) in &cfg.options {
                engine.set_option(name, value).await?;
            }
            // Ponder is off unless asked for (we never send `go ponder`).
            if engine.has_option("Ponder") && !cfg.options.iter().any(|(n, _)| n.eq_ignore_ascii_case("Ponder")) {
                engine.set_option("Ponder", "false").await?;
            }
            engine.ready().await
        };
        match started.await {
            Ok(()) => Ok(engine),
            Err(why) => {
                let why = engine.process.start_failure(why).await;
                engine.finish().await;
                Err(StartError::Protocol(why))
            }
        }
    }

    async fn send(&mut self, command: &Command) -> Result<(), String> {
        self.process.send_line(&command.to_string()).await
    }

    async fn handshake(&mut self) -> Result<(), String> {
        self.send(&Command::Uci).await?;
        let deadline = Instant::now() + UCIOK_WAIT;
        loop {
            let line = match self.process.next_fresh(Some(deadline)).await {
                None => return Err(format!("no uciok within {} s", UCIOK_WAIT.as_secs())),
                Some(Event::Eof(_)) => return Err("exited during start-up".to_string()),
                Some(Event::TooLong(..)) => continue,
                Some(Event::Line(line, _)) => line,
            };
            match parse_engine_line(&line) {
                EngineLine::Reply(Reply::UciOk) => return Ok(()),
                EngineLine::Reply(Reply::Id(Id::Name(name))) => self.id_name = Some(name),
                EngineLine::Reply(Reply::Option(option)) => {
                    if option.name.eq_ignore_ascii_case("UCI_Variant") {
                        self.variants = Some(option.kind.combo_values().to_vec());
                    }
                    self.options.push(option.name);
                }
                _ => {}
            }
        }
    }

    fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    async fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        self.send(&Command::SetOption {
            name: name.to_string(),
            value: Some(value.to_string()),
        })
        .await
    }

    /// `isready` and its `readyok` (other lines are dropped: the engine is not searching).
    async fn ready(&mut self) -> Result<(), String> {
        self.send(&Command::IsReady).await?;
        let deadline = Instant::now() + READYOK_WAIT;
        loop {
            match self.process.next_fresh(Some(deadline)).await {
                None => return Err(format!("no readyok within {} s", READYOK_WAIT.as_secs())),
                Some(Event::Eof(_)) => return Err("exited".to_string()),
                Some(Event::Line(line, _)) => match parse_engine_line(&line) {
                    EngineLine::Reply(Reply::ReadyOk) => return Ok(()),
                    _ => self.warn_unasked(&line),
                },
                Some(Event::TooLong(..)) => {}
            }
        }
    }

    /// A line it sent while not searching, dropped: a `bestmove` then is an engine bug, worth a
    /// warning, but not a move of the game.
    fn warn_unasked(&self, line: &str) {
        if let EngineLine::Reply(Reply::BestMove { .. }) = parse_engine_line(line) {
            log::warn!(
                "{}: dropped a bestmove sent while not searching: {}",
                self.name,
                line.trim()
            );
        }
    }

    /// The `UCI_Variant` value of `variant`.
    fn wire_variant<'a>(&'a self, variant: &'a Variant) -> &'a str {
        self.variant_name
            .as_deref()
            .unwrap_or_else(|| uci_variant_name(&variant.name))
    }

    /// The options of `wanted` it did not announce (a typo, or another engine's option).
    pub fn missing_options<'a>(&self, wanted: &'a [(String, String)]) -> Vec<&'a str> {
        wanted
            .iter()
            .map(|(name, _)| name.as_str())
            .filter(|name| !self.has_option(name))
            .collect()
    }

    /// The options it announced.
    pub fn option_names(&self) -> &[String] {
        &self.options
    }

    /// Does it play `variant`? Orthodox chess always; another only if its `UCI_Variant` lists it.
    ///
    /// # Errors
    ///
    /// The engine does not announce this variant (`UCI_Variant`).
    pub fn plays(&self, variant: &Variant) -> Result<(), String> {
        if variant.name == crate::variants::NORMAL {
            return Ok(());
        }
        let wanted = self.wire_variant(variant);
        match &self.variants {
            Some(list) if list.iter().any(|v| v == wanted) => Ok(()),
            Some(list) => Err(format!(
                "does not play the variant {wanted} (its UCI_Variant lists: {})",
                list.join(" ")
            )),
            None => Err(format!(
                "does not play the variant {wanted} (it has no UCI_Variant option)"
            )),
        }
    }

    /// `UCI_Variant`, `ucinewgame`, `isready`; the game starts at `start`.
    ///
    /// # Errors
    ///
    /// The engine's pipe is closed or it fails the protocol's exchange (the text says how).
    pub async fn new_game(&mut self, variant: &Variant, start: &Position) -> Result<(), String> {
        self.plays(variant)?;
        self.moves.clear();
        self.searching = false;
        if self.variants.is_some() {
            let name = self.wire_variant(variant).to_string();
            self.set_option("UCI_Variant", &name).await?;
        }
        self.send(&Command::UciNewGame).await?;
        self.ready().await?;
        let start_fen = fen::to_fen(start, Coords::Human);
        let standard = fen::to_fen(&Position::start(start.variant()), Coords::Human);
        self.start = if start_fen == standard {
            Start::StartPos
        } else {
            Start::Fen(start_fen)
        };
        Ok(())
    }

    /// A (sub-)move of the game, played from `before`, either side's.
    pub fn played(&mut self, before: &Position, mv: &Move) {
        self.moves.push(moves::move_text(before, mv, false));
    }

    /// `position …` and `go …` for the side to move, `mover` (its clock is `own`).
    ///
    /// # Errors
    ///
    /// The engine's pipe is closed or it fails the protocol's exchange (the text says how).
    pub async fn go(&mut self, mover: Color, own: &ClockReading, other: &ClockReading) -> Result<(), String> {
        self.send_position().await?;
        let go = go_command(mover, own, other, &self.limits);
        self.send(&Command::Go(go)).await?;
        self.searching = true;
        Ok(())
    }

    /// `position …` and `go movetime MS [depth N]` (`go depth N`, `go infinite` without a time):
    /// a search within limits, not a clock (the Zillions plug-in's `DLL_Search`).
    ///
    /// # Errors
    ///
    /// The engine's pipe is closed or it fails the protocol's exchange (the text says how).
    pub async fn go_limited(&mut self, movetime_ms: Option<u64>, depth: Option<u32>) -> Result<(), String> {
        self.send_position().await?;
        let go = Go {
            movetime: movetime_ms,
            depth,
            infinite: movetime_ms.is_none() && depth.is_none(),
            ..Go::default()
        };
        self.send(&Command::Go(go)).await?;
        self.searching = true;
        Ok(())
    }

    /// `position startpos|fen … moves …`, after dropping what it said since its last `bestmove`
    /// (nothing of that belongs to the coming search).
    async fn send_position(&mut self) -> Result<(), String> {
        for line in self.process.take_unread() {
            self.warn_unasked(&line);
        }
        let position = Command::Position {
            start: self.start.clone(),
            moves: self.moves.clone(),
        };
        self.send(&position).await
    }

    /// `stop`: move now.
    pub async fn move_now(&mut self) {
        if self.searching {
            let _ = self.send(&Command::Stop).await;
        }
    }

    /// The next line in the referee's terms; `None` when `deadline` passed first.
    pub async fn next(&mut self, deadline: Option<Instant>) -> Option<Heard> {
        let (line, at) = match self.process.next_event(deadline).await? {
            Event::Eof(_) => return Some(Heard::Gone),
            Event::TooLong(text, at) if self.searching => return Some(Heard::TooLong(text, at)),
            Event::TooLong(..) => return Some(Heard::Other),
            Event::Line(line, at) => (line, at),
        };
        Some(match parse_engine_line(&line) {
            EngineLine::Reply(Reply::BestMove { best, .. }) if self.searching => {
                self.searching = false;
                Heard::Move(best, at)
            }
            EngineLine::Reply(Reply::BestMove { .. }) => {
                self.warn_unasked(&line);
                Heard::Other
            }
            EngineLine::Reply(Reply::Info(info)) if self.searching => thinking(&info).unwrap_or(Heard::Other),
            _ => Heard::Other,
        })
    }

    /// The legal (sub-)moves a `bestmove` text names in `pos`.
    ///
    /// # Errors
    ///
    /// The [`Forfeit`] the text earns: not a move, or not a legal one.
    pub fn read_move(&mut self, pos: &Position, text: &str) -> Result<MoveRead, Forfeit> {
        if text.is_empty() || text == NO_MOVE || text == "0000" {
            let shown = if text.is_empty() {
                "bestmove without a move".to_string()
            } else {
                Reply::best_move(text, None).to_string()
            };
            return Err(Forfeit::NoMove(shown));
        }
        let mut pos = pos.clone();
        match moves::play_word(&mut pos, text, false) {
            Ok(played) => Ok(MoveRead::Moves(played)),
            Err(MoveTextError::Illegal) => Err(Forfeit::Illegal(text.to_string())),
            Err(MoveTextError::Unparsable) if movetext::looks_like_move(text) => {
                Err(Forfeit::Illegal(text.to_string()))
            }
            Err(MoveTextError::Unparsable) => Err(Forfeit::Unreadable(text.chars().take(60).collect())),
        }
    }

    /// The process group the engine leads.
    pub fn process_group(&self) -> Option<u32> {
        self.process.process_group()
    }

    /// The exit status, if the process has ended.
    pub fn exit_status(&mut self) -> Option<std::process::ExitStatus> {
        self.process.exit_status()
    }

    /// Waits briefly for the process to end after a crash, to report its exit status.
    pub async fn wait_exit(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        self.process.wait_exit(limit).await
    }

    /// `stop` if it searches, `quit`, and the process gone within a second.
    pub async fn finish(mut self) {
        self.move_now().await;
        let _ = self.send(&Command::Quit).await;
        self.process.end().await;
    }
}

/// The limits of an engine's every search beside its clock.
#[derive(Clone, Copy, Debug, Default)]
struct SearchLimits {
    depth: Option<u32>,
    nodes: Option<u64>,
    /// `tc=inf`: no clock is sent, only the depth or node limit (as cutechess-cli does).
    no_clock: bool,
}

/// The `go` for `mover`: its clock (`own`) and the other's as `wtime`/`btime` with their
/// increments and the mover's `movestogo`, or `movetime` for a time per move; `depth N` and
/// `nodes N` with those limits.
fn go_command(mover: Color, own: &ClockReading, other: &ClockReading, limits: &SearchLimits) -> Go {
    let mut go = Go {
        depth: limits.depth,
        nodes: limits.nodes,
        ..Go::default()
    };
    if limits.no_clock {
    } else if own.per_move {
        go.movetime = Some(own.millis().unsigned_abs());
    } else {
        let (white, black) = match mover {
            Color::White => (own, other),
            Color::Black => (other, own),
        };
        go.wtime = Some(white.millis());
        go.btime = Some(black.millis());
        go.winc = Some(white.increment_millis());
        go.binc = Some(black.increment_millis());
        go.movestogo = own.moves_to_go;
    }
    go
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth(d: u32) -> SearchLimits {
        SearchLimits {
            depth: Some(d),
            ..SearchLimits::default()
        }
    }

    fn reading(left: f64, increment: f64, moves_to_go: Option<u32>, per_move: bool) -> ClockReading {
        ClockReading {
            left,
            increment,
            moves_to_go,
            per_move,
        }
    }

    #[test]
    fn go_lines_as_cutechess_writes_them() {
        let own = reading(9.25, 0.1, None, false);
        let other = reading(10.0, 0.2, None, false);
        assert_eq!(
            go_command(Color::White, &own, &other, &SearchLimits::default()).to_string(),
            "go wtime 9250 btime 10000 winc 100 binc 200"
        );
        assert_eq!(
            go_command(Color::Black, &own, &other, &depth(7)).to_string(),
            "go wtime 10000 btime 9250 winc 200 binc 100 depth 7"
        );
        let own = reading(60.0, 0.0, Some(12), false);
        assert_eq!(
            go_command(Color::White, &own, &other, &SearchLimits::default()).to_string(),
            "go wtime 60000 btime 10000 winc 0 binc 200 movestogo 12"
        );
        let own = reading(0.5, 0.0, None, true);
        assert_eq!(
            go_command(Color::Black, &own, &other, &SearchLimits::default()).to_string(),
            "go movetime 500"
        );
        // cutechess-cli's tc=inf with depth= or nodes=: the limits alone.
        let no_clock = SearchLimits {
            nodes: Some(5000),
            no_clock: true,
            ..depth(7)
        };
        assert_eq!(
            go_command(Color::Black, &own, &other, &no_clock).to_string(),
            "go depth 7 nodes 5000"
        );
        // A clock fallen below zero within the margin is sent as 0.
        let own = reading(-0.01, 0.0, None, false);
        assert!(
            go_command(Color::White, &own, &other, &SearchLimits::default())
                .to_string()
                .starts_with("go wtime 0 ")
        );
    }

    /// Depth, score, nodes and first move of the thinking an engine line shows, if it shows any.
    fn thinking_of(line: &str) -> Option<(u32, i32, u64, Option<String>)> {
        let EngineLine::Reply(Reply::Info(info)) = parse_engine_line(line) else {
            return None;
        };
        match thinking(&info)? {
            Heard::Thinking {
                depth,
                score,
                nodes,
                first_move,
            } => Some((depth, score, nodes, first_move)),
            _ => None,
        }
    }

    fn depth_and_score(line: &str) -> Option<(u32, i32)> {
        thinking_of(line).map(|(d, s, _, _)| (d, s))
    }

    #[test]
    fn info_lines_as_thinking() {
        assert_eq!(
            depth_and_score("info depth 12 seldepth 20 multipv 1 score cp -35 nodes 100 pv e2e4"),
            Some((12, -35))
        );
        assert_eq!(depth_and_score("info depth 9 score mate 3 pv a1a8"), Some((9, 100_003)));
        assert_eq!(depth_and_score("info depth 9 score mate -2"), Some((9, -100_002)));
        assert_eq!(depth_and_score("info depth 9 score lowerbound"), None);
        assert_eq!(depth_and_score("info string depth 3 score cp 5"), None);
        assert_eq!(depth_and_score("info currmove e2e4 currmovenumber 1"), None);
        assert_eq!(depth_and_score("info depth 4 score cp 99999999999"), Some((4, 99_999)));
        assert_eq!(depth_and_score("info depth 4 score cp 5 upperbound"), Some((4, 5)));
        // MultiPV: the second and later lines are not the engine's score.
        assert_eq!(depth_and_score("info depth 7 multipv 2 score cp -80 pv d2d4"), None);
        assert_eq!(
            depth_and_score("info depth 7 multipv 1 score cp 20 pv e2e4"),
            Some((7, 20))
        );
        assert_eq!(
            thinking_of("info depth 7 score cp 20 nodes 1234 nps 9 pv e2e4 e7e5"),
            Some((7, 20, 1234, Some("e2e4".to_string())))
        );
        assert_eq!(thinking_of("info depth 7 score cp 20"), Some((7, 20, 0, None)));
        assert_eq!(
            thinking_of("info depth 7 score cp 20 string nodes 5 pv x"),
            Some((7, 20, 0, None))
        );
    }
}
