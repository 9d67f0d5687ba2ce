//! A CECP (XBoard protocol) engine as a player of a refereed game: start-up and feature
//! negotiation, the per-game set-up, the moves it is told and the lines it sends, in the
//! referee's terms.
//!
//! The driver answers features as XBoard does (`accepted` for the ones it knows, `rejected` for the
//! rest, `rejected san`: moves are always sent in coordinates), waits 2 s for the features of a
//! protocol-1 engine (10 s if it has said nothing at all; up to 30 s after `done=0`), sets positions with `setboard` or, for engines
//! without it (Fairy-Max), with `edit` … `.`, and syncs with `ping`/`pong` where the engine has it.
//! It knows no rule: a move text it reads names a legal move of the game's position or none. It
//! speaks the engine door's CECP vocabulary: every line it writes is a typed `Command` (or
//! `EditCommand`), every line it reads goes through `engine_line::parse_engine_line`.
//!
//! Lines an engine sent in force mode — during the set-up, or later while it has not had its
//! first `go` (a `move`, a result claim) — are dropped with a warning instead of being read as its
//! first move after `go`: CECP forbids an engine in force mode to move.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::engine::{EngineConfig, StartError};
use super::game::Forfeit;
use super::player::{Heard, MoveRead};
use super::process::{EngineProcess, Event, Trace};
use super::timecontrol::{ClockReading, TimeControl};
use crate::core::GameResult;
use crate::core::{Color, Move, Position, Variant};
use crate::notation::movetext::{self, MoveTextError};
use crate::notation::{Coords, fen, san, square_name};
use crate::protocol::xboard::command::{Command, EditCommand};
use crate::protocol::xboard::engine_line::{EngineLine, feature_text, parse_engine_line};
use crate::protocol::xboard::reply::Reply;
use crate::protocol::xboard::variant_info::wire as xboard_wire;
use crate::variants::NORMAL;

/// What the engine told us in its `feature` lines.
#[derive(Clone, Debug, Default)]
pub struct Features {
    pub ping: bool,
    pub setboard: bool,
    pub usermove: bool,
    pub time: bool,
    /// It takes `cores N` (its search threads).
    pub smp: bool,
    pub myname: Option<String>,
    pub variants: Option<Vec<String>>,
    /// The names of its `feature option="NAME -TYPE ..."` options.
    pub options: Vec<String>,
    /// Protocol 2 (features seen).
    pub v2: bool,
}

/// How long an engine that says nothing after `protover 2` is waited for before it is taken for
/// a protocol-1 engine (one that has spoken gets 2 s for its features, as in XBoard).
const SILENT_START: Duration = Duration::from_secs(10);

/// The pass (CECP null move) inside a turn of several moves.
pub const NULL_MOVE: &str = "@@@@";

/// A running CECP engine.
pub struct CecpEngine {
    pub name: String,
    pub features: Features,
    process: EngineProcess,
    ping: u32,
    depth: Option<u32>,
    /// Search threads to ask for with `cores` (if it has `feature smp=1`).
    cores: Option<u32>,
    /// Wire texts of the opponent's moves the engine has not been told yet.
    pending: Vec<String>,
    /// Force mode: the engine has not had its first `go` of the game (it plays no side yet).
    in_force: bool,
    /// The first legs of a multi-leg move sent as `move a,` + `move b`.
    partial: String,
    /// Its own name of the games (`variant NAME`) instead of ours (the Zillions plug-in's
    /// `engine_variant`).
    pub variant_name: Option<String>,
    /// A depth limit (`sd`) was sent for this game by `go_limited`.
    depth_sent: bool,
}

const KNOWN_FEATURES: &[&str] = &[
    "ping",
    "setboard",
    "playother",
    "usermove",
    "time",
    "draw",
    "sigint",
    "sigterm",
    "reuse",
    "analyze",
    "myname",
    "variants",
    "colors",
    "ics",
    "name",
    "pause",
    "nps",
    "debug",
    "memory",
    "smp",
    "egt",
    "option",
    "done",
    "exclude",
    "highlight",
    "setscore",
    "xedit",
];

impl CecpEngine {
    /// Starts the process and negotiates features. `Err` is a one-line reason.
    ///
    /// # Errors
    ///
    /// [`StartError::Spawn`] when the command cannot be run; [`StartError::Protocol`] when the
    /// engine does not get through the handshake.
    pub async fn start(cfg: &EngineConfig, trace: Option<Arc<Trace>>) -> Result<CecpEngine, StartError> {
        let process = EngineProcess::spawn(&cfg.launch(), trace).map_err(StartError::Spawn)?;
        let mut engine = CecpEngine {
            name: cfg.name.clone(),
            features: Features {
                time: true,
                ..Features::default()
            },
            process,
            ping: 0,
            depth: cfg.depth,
            cores: cfg.cores,
            pending: Vec::new(),
            in_force: true,
            partial: String::new(),
            variant_name: None,
            depth_sent: false,
        };
        let started = async {
            engine.handshake().await?;
            for (k, v) in &cfg.options {
                let option = Command::SetOption {
                    name: k.clone(),
                    value: Some(v.clone()),
                };
                engine.send(&option).await?;
            }
            Ok(())
        };
        match started.await {
            Ok(()) => Ok(engine),
            Err(why) => {
                let why = engine.process.start_failure(why).await;
                engine.finish(None).await;
                Err(StartError::Protocol(why))
            }
        }
    }

    async fn handshake(&mut self) -> Result<(), String> {
        self.send(&Command::Xboard).await?;
        self.send(&Command::Protover(2)).await?;
        let started = Instant::now();
        let mut deadline = started + Duration::from_secs(2);
        let mut said_anything = false;
        loop {
            let ev = match self.process.next_fresh(Some(deadline)).await {
                // An engine that has not said a word yet may only be slow to start (a loaded
                // machine, a large program): it gets up to SILENT_START before it counts as
                // protocol 1.
                None if !said_anything && deadline < started + SILENT_START => {
                    deadline = started + SILENT_START;
                    continue;
                }
                None => return Ok(()), // protocol 1, or done=1 never came
                Some(ev) => ev,
            };
            said_anything = true;
            let line = match ev {
                Event::Eof(_) => return Err("exited during start-up".into()),
                Event::TooLong(..) => continue,
                Event::Line(l, _) => l,
            };
            let EngineLine::Reply(Reply::Features(items)) = parse_engine_line(&line) else {
                continue;
            };
            self.features.v2 = true;
            let mut done = None;
            for (key, value) in items {
                let value = feature_text(&value);
                let on = value == "1";
                let known = KNOWN_FEATURES.contains(&key.as_str());
                match key.as_str() {
                    "ping" => self.features.ping = on,
                    "setboard" => self.features.setboard = on,
                    "usermove" => self.features.usermove = on,
                    "time" => self.features.time = on,
                    "smp" => self.features.smp = on,
                    "myname" => self.features.myname = Some(value.clone()),
                    "variants" => {
                        self.features.variants = Some(value.split(',').map(|s| s.trim().to_string()).collect())
                    }
                    "option" => {
                        let name = value.split(" -").next().unwrap_or("").trim();
                        self.features.options.push(name.to_string());
                    }
                    "done" => done = Some(on),
                    _ => {}
                }
                let reply = if key == "san" && on || !known && key != "san" {
                    Command::Rejected(key)
                } else {
                    Command::Accepted(key)
                };
                self.send(&reply).await?;
            }
            match done {
                Some(true) => return Ok(()),
                Some(false) => deadline = Instant::now() + Duration::from_secs(30),
                None => {}
            }
        }
    }

    /// Asked for threads (`cores=`) that it cannot be given: it has no `feature smp=1`.
    pub fn ignores_cores(&self) -> bool {
        self.cores.is_some() && !self.features.smp
    }

    /// The options of `wanted` it did not announce with `feature option=`.
    pub fn missing_options<'a>(&self, wanted: &'a [(String, String)]) -> Vec<&'a str> {
        wanted
            .iter()
            .map(|(name, _)| name.as_str())
            .filter(|name| !self.features.options.iter().any(|o| o == name))
            .collect()
    }

    /// Does it play `variant`? `Err` says why not (its `feature variants` leaves it out).
    ///
    /// # Errors
    ///
    /// The engine does not announce this variant (the text names what it plays).
    pub fn plays(&self, variant: &Variant) -> Result<(), String> {
        let name = self.wire_variant(variant);
        match &self.features.variants {
            Some(list) if name != NORMAL && !list.iter().any(|v| v == name) => {
                Err(format!("does not play the variant {name} (see its feature variants)"))
            }
            _ => Ok(()),
        }
    }

    /// The `variant` name of `variant`.
    fn wire_variant<'a>(&'a self, variant: &'a Variant) -> &'a str {
        self.variant_name.as_deref().unwrap_or(&variant.name)
    }

    /// Sends one command (its `Display` is the wire line).
    ///
    /// # Errors
    ///
    /// The engine's pipe is closed or it fails the protocol's exchange (the text says how).
    pub async fn send(&mut self, command: &Command) -> Result<(), String> {
        self.process.send_line(&command.to_string()).await
    }

    /// Sends one line of `edit` mode.
    async fn send_edit(&mut self, edit: &EditCommand) -> Result<(), String> {
        self.process.send_line(&edit.to_string()).await
    }

    /// Sends `ping N` and waits for `pong N` (other lines are kept for later). Engines without
    /// ping are given a moment instead.
    ///
    /// # Errors
    ///
    /// The engine does not answer the `ping` within `limit`, or its pipe is closed.
    pub async fn sync(&mut self, limit: Duration) -> Result<(), String> {
        if !self.features.ping {
            tokio::time::sleep(Duration::from_millis(20)).await;
            return Ok(());
        }
        self.ping += 1;
        let n = self.ping;
        self.send(&Command::Ping(n.to_string())).await?;
        let deadline = Instant::now() + limit;
        let mut kept = Vec::new();
        let result = loop {
            let ev = match self.process.next_fresh(Some(deadline)).await {
                None => break Err(format!("no pong within {:.1} s", limit.as_secs_f64())),
                Some(ev) => ev,
            };
            match ev {
                Event::Eof(t) => {
                    kept.push(Event::Eof(t));
                    break Err("exited".to_string());
                }
                Event::TooLong(l, t) => kept.push(Event::TooLong(l, t)),
                Event::Line(l, t) => {
                    if let EngineLine::Reply(Reply::Pong(token)) = parse_engine_line(&l) {
                        if token.split_whitespace().next().and_then(|w| w.parse::<u32>().ok()) == Some(n) {
                            break Ok(());
                        }
                    } else {
                        kept.push(Event::Line(l, t));
                    }
                }
            }
        };
        // Lines seen on the way (and logged) are handed out again without being logged twice.
        self.process.keep(kept);
        result
    }

    /// `cores` (if asked for and the engine has `smp`: XBoard's last setting before `new`), `new`,
    /// `variant`, the start position (`setboard` or `edit`), time control, `post`, `easy`, then a
    /// ping. The engine is left in force mode.
    ///
    /// # Errors
    ///
    /// The engine's pipe is closed or it fails the protocol's exchange (the text says how).
    pub async fn new_game(&mut self, variant: &Variant, start: &Position, tc: &TimeControl) -> Result<(), String> {
        self.pending.clear();
        self.partial.clear();
        self.in_force = true;
        self.depth_sent = false;
        if let Some(cores) = self.cores.filter(|_| self.features.smp) {
            self.send(&Command::Cores(cores)).await?;
        }
        self.send(&Command::New).await?;
        let name = self.wire_variant(variant).to_string();
        if name != NORMAL {
            self.send(&Command::Variant(name)).await?;
        }
        self.send(&Command::Force).await?;
        let start_fen = fen::to_fen(start, Coords::Wire);
        if self.features.setboard {
            self.send(&Command::SetBoard(start_fen)).await?;
        } else {
            self.edit(start).await?;
        }
        self.send(&tc.command()).await?;
        if let Some(plies) = self.depth {
            self.send(&Command::DepthLimit { plies }).await?;
        }
        self.send(&Command::Post(true)).await?;
        self.send(&Command::Ponder(false)).await?;
        self.sync(Duration::from_secs(10)).await?;
        self.drop_unread("before the game started");
        Ok(())
    }

    /// Drops the lines that arrived but were not read yet (an end of output is kept), with a
    /// warning for each that would have meant something in the game (a move, a result claim):
    /// an engine in force mode must not move (CECP), so such lines are an engine's bug and are
    /// not held against it as moves of the game. Returns the lines dropped.
    pub fn drop_unread(&mut self, when: &str) -> Vec<String> {
        let dropped = self.process.take_unread();
        for line in &dropped {
            if let EngineLine::Reply(Reply::Move(_) | Reply::GameOver { .. }) = parse_engine_line(line) {
                log::warn!(
                    "{}: dropped a line sent {when} (in force mode): {}",
                    self.name,
                    line.trim()
                );
            }
        }
        dropped
    }

    /// The `edit` protocol: Black to move is reached with XBoard's trick of a first move before
    /// `edit`. Castling rights are whatever the engine infers from king and rook squares; an
    /// en-passant right is lost.
    async fn edit(&mut self, pos: &Position) -> Result<(), String> {
        let v = pos.variant();
        if pos.side_to_move() == Color::Black {
            let st = Position::start(v);
            if let Some(mv) = st.legal_moves().iter().next().copied() {
                let text = xboard_wire(&st, &mv);
                self.send_move(&text).await?;
            }
        }
        self.send(&Command::Edit).await?;
        self.send_edit(&EditCommand::ClearBoard).await?;
        for color in Color::BOTH {
            if color == Color::Black {
                self.send_edit(&EditCommand::ToggleColor).await?;
            }
            let mut squares: Vec<_> = pos.pieces_of(color).to_vec();
            squares.sort_by_key(|s| s.0);
            for sq in squares {
                if let Some(p) = pos.piece_at(sq) {
                    let place = EditCommand::Place {
                        piece: v.piece(p.kind()).letter.to_string(),
                        square: square_name(v.shape, sq, Coords::Wire),
                        promoted: false,
                    };
                    self.send_edit(&place).await?;
                }
            }
        }
        self.send_edit(&EditCommand::Done).await
    }

    /// Sends a move (with `usermove` if the engine asked for it).
    async fn send_move(&mut self, wire: &str) -> Result<(), String> {
        let text = wire.to_string();
        self.send(&Command::UserMove {
            text,
            prefixed: self.features.usermove,
        })
        .await
    }

    /// `time`/`otim` in centiseconds, if the engine wants them.
    async fn send_clocks(&mut self, own: &ClockReading, other: &ClockReading) -> Result<(), String> {
        if self.features.time {
            self.send(&Command::EngineTime {
                centiseconds: own.centis(),
            })
            .await?;
            self.send(&Command::OpponentTime {
                centiseconds: other.centis(),
            })
            .await?;
        }
        Ok(())
    }

    /// A (sub-)move of the game, played from `before`: the opponent's are told at its next turn.
    pub fn played(&mut self, before: &Position, mv: &Move, own: bool) {
        if !own {
            self.pending.push(xboard_wire(before, mv));
        }
    }

    /// Its turn: the opponent's moves and the clocks, and `go` the first time (which ends force
    /// mode: whatever it sent before is dropped, not read as a move).
    ///
    /// # Errors
    ///
    /// The engine's pipe is closed or it fails the protocol's exchange (the text says how).
    pub async fn go(&mut self, own: &ClockReading, other: &ClockReading) -> Result<(), String> {
        let pending = std::mem::take(&mut self.pending);
        self.partial.clear();
        if self.in_force {
            self.drop_unread("before its first go");
            self.in_force = false;
            for mv in &pending {
                self.send_move(mv).await?;
            }
            self.send_clocks(own, other).await?;
            self.send(&Command::Go).await
        } else {
            self.send_clocks(own, other).await?;
            for mv in &pending {
                self.send_move(mv).await?;
            }
            Ok(())
        }
    }

    /// A search within limits from force mode, not a clock (the Zillions plug-in's `DLL_Search`):
    /// the moves it has not been told, `st` in whole seconds (at least 1: engines read `st` as a
    /// whole number, Fairy-Max takes `st 0.3` for no time at all; a day without a time), `sd`
    /// with a depth, and `go`. [`force`](Self::force) after its move keeps it from playing on.
    ///
    /// # Errors
    ///
    /// The engine's pipe is closed or it fails the protocol's exchange (the text says how).
    pub async fn go_limited(&mut self, movetime_ms: Option<u64>, depth: Option<u32>) -> Result<(), String> {
        self.drop_unread("before its go");
        self.partial.clear();
        for mv in std::mem::take(&mut self.pending) {
            self.send_move(&mv).await?;
        }
        let seconds = movetime_ms.map_or(86_400, |ms| (ms / 1000).max(1));
        self.send(&Command::MoveTime {
            seconds: seconds as f64,
        })
        .await?;
        match depth {
            Some(plies) => self.send(&Command::DepthLimit { plies }).await?,
            None if self.depth_sent => self.send(&Command::DepthLimit { plies: 1000 }).await?,
            None => {}
        }
        self.depth_sent = depth.is_some();
        self.in_force = false;
        self.send(&Command::Go).await
    }

    /// `force`: it plays neither side (and moves it sends from now on are dropped).
    ///
    /// # Errors
    ///
    /// The engine's pipe is closed or it fails the protocol's exchange (the text says how).
    pub async fn force(&mut self) -> Result<(), String> {
        self.in_force = true;
        self.send(&Command::Force).await
    }

    /// Inside the opponent's turn of several moves: an engine out of force mode hears each
    /// sub-move at once and answers with the pass (one still in force mode hears the turn with
    /// its first `go`).
    pub fn passes_inside_turns(&self) -> bool {
        !self.in_force
    }

    /// Sends the moves it has not been told yet.
    ///
    /// # Errors
    ///
    /// The engine's pipe is closed or it fails the protocol's exchange (the text says how).
    pub async fn tell_pending(&mut self) -> Result<(), String> {
        for mv in std::mem::take(&mut self.pending) {
            self.send_move(&mv).await?;
        }
        Ok(())
    }

    /// Inside its own turn of several moves: the opponent's pass, with its clock as it stands.
    ///
    /// # Errors
    ///
    /// The engine's pipe is closed or it fails the protocol's exchange (the text says how).
    pub async fn continue_turn(&mut self, own: &ClockReading, other: &ClockReading) -> Result<(), String> {
        self.send_clocks(own, other).await?;
        self.send_move(NULL_MOVE).await
    }

    /// `?`: move now.
    pub async fn move_now(&mut self) {
        let _ = self.send(&Command::MoveNow).await;
    }

    /// The next line in the referee's terms; `None` when `deadline` passed first.
    pub async fn next(&mut self, deadline: Option<Instant>) -> Option<Heard> {
        let (line, at) = match self.process.next_event(deadline).await? {
            Event::Eof(_) => return Some(Heard::Gone),
            Event::TooLong(text, at) if !self.in_force => return Some(Heard::TooLong(text, at)),
            Event::TooLong(..) => return Some(Heard::Other),
            Event::Line(line, at) => (line, at),
        };
        let EngineLine::Reply(reply) = parse_engine_line(&line) else {
            return Some(Heard::Other);
        };
        Some(match reply {
            Reply::GameOver { .. } | Reply::Move(_) if self.in_force => {
                log::warn!("{}: dropped a line sent in force mode: {}", self.name, line.trim());
                Heard::Other
            }
            Reply::Resign => Heard::Resign,
            Reply::GameOver { result, .. } => Heard::Claim {
                result,
                text: line.trim().to_string(),
            },
            Reply::IllegalMove { .. } => Heard::RejectsMove(line),
            Reply::Move(text) => Heard::Move(text, at),
            Reply::Thinking(t) => Heard::Thinking {
                depth: t.depth,
                score: t.score,
                nodes: t.nodes,
                first_move: t.pv.split_whitespace().next().map(str::to_string),
            },
            _ => Heard::Other,
        })
    }

    /// The legal move a `move` text names in `pos` (wire notation, SAN as a fallback for engines
    /// that send `O-O`); a multi-leg move may come as `move a,` + `move b`.
    ///
    /// # Errors
    ///
    /// The [`Forfeit`] the text earns: not a move, or not a legal one.
    pub fn read_move(&mut self, pos: &Position, text: &str) -> Result<MoveRead, Forfeit> {
        self.partial.push_str(text);
        if self.partial.ends_with(',') {
            return Ok(MoveRead::More);
        }
        let full = std::mem::take(&mut self.partial);
        match movetext::parse_move(pos, &full, Coords::Wire) {
            Ok(mv) => Ok(MoveRead::Moves(vec![mv])),
            Err(err) => match san::parse_san(pos, &full) {
                Ok(mv) => Ok(MoveRead::Moves(vec![mv])),
                Err(_) => {
                    let shaped = err == MoveTextError::Illegal || movetext::looks_like_move(&full);
                    Err(if shaped {
                        Forfeit::Illegal(full)
                    } else {
                        Forfeit::Unreadable(full.chars().take(60).collect())
                    })
                }
            },
        }
    }

    /// Is this move text the pass?
    pub fn is_pass(text: &str) -> bool {
        text == NULL_MOVE
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

    /// Ends the game for the engine (`result …`), says `quit`, and makes sure the process is gone
    /// within a second.
    pub async fn finish(mut self, result: Option<(GameResult, String)>) {
        if let Some((result, comment)) = result {
            let _ = self
                .send(&Command::Result {
                    result,
                    comment: Some(comment),
                })
                .await;
        }
        let _ = self.send(&Command::Quit).await;
        self.process.end().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::engine::Protocol;

    /// A CECP engine in `sh` that announces `feature` and writes every line it gets to `log`.
    fn recording_engine(feature: &str, log: &std::path::Path, cores: Option<u32>) -> EngineConfig {
        let script = r#"printf 'feature ping=1 setboard=1 %s done=1\n' "$1"
while read -r line; do
  printf '%s\n' "$line" >> "$2"
  case "$line" in
    ping*) echo "pong ${line#ping }" ;;
    quit) exit 0 ;;
  esac
done"#;
        EngineConfig {
            name: "recorder".to_string(),
            cmd: "sh".to_string(),
            args: ["-c", script, "recorder", feature]
                .iter()
                .map(|a| a.to_string())
                .chain([log.display().to_string()])
                .collect(),
            dir: None,
            options: Vec::new(),
            tc: TimeControl::PerMove(1.0),
            margin: Duration::ZERO,
            stderr: None,
            depth: None,
            nodes: None,
            cores,
            proto: Protocol::Cecp,
        }
    }

    /// What the engine of `feature` is sent up to the end of a game's set-up, given `cores`.
    fn game_setup_lines(feature: &str, cores: Option<u32>) -> Vec<String> {
        let log = std::env::temp_dir().join(format!(
            "fairybridge-cecp-cores-{}-{feature}-{cores:?}.log",
            std::process::id()
        ));
        let _ = std::fs::remove_file(&log);
        let cfg = recording_engine(feature, &log, cores);
        let variant = crate::variants::Registry::builtin()
            .get(crate::variants::NORMAL)
            .expect("a built-in game");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async {
            let mut engine = CecpEngine::start(&cfg, None).await.expect("the engine starts");
            assert_eq!(engine.ignores_cores(), cores.is_some() && feature != "smp=1");
            let start = Position::start(&variant);
            engine.new_game(&variant, &start, &cfg.tc).await.expect("a game set up");
            engine.finish(None).await;
        });
        let text = std::fs::read_to_string(&log).expect("the engine's log");
        let _ = std::fs::remove_file(&log);
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn cores_go_before_new_to_an_engine_with_smp_only() {
        let lines = game_setup_lines("smp=1", Some(2));
        let new = lines.iter().position(|l| l == "new").expect("new sent");
        assert_eq!(lines[new - 1], "cores 2", "{lines:?}");
        assert_eq!(lines.iter().filter(|l| l.starts_with("cores")).count(), 1);
        for (feature, cores) in [("smp=0", Some(2)), ("smp=1", None)] {
            let lines = game_setup_lines(feature, cores);
            assert!(lines.iter().any(|l| l == "new"), "{lines:?}");
            assert!(!lines.iter().any(|l| l.starts_with("cores")), "{feature}: {lines:?}");
        }
    }
}
