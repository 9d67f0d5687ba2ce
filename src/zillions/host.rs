//! `fairybridge zillions-host --plugin PATH`: any Zillions plug-in as a CECP engine. The GUI's wire
//! moves are read by our core and passed on in Zillions notation; the plug-in's moves are read by
//! our core too (an illegal one forfeits the game with a message), announced to XBoard with the
//! same `setup`/`piece` lines as our own games; we keep the clock; `?` becomes `kSTOPSOON`.
//!
//! Not supported: turns of several moves (Wild Rose's growing roses), analysis, pondering, edit
//! mode; the plug-in has no undo, so `undo`/`remove`/`setboard` restart it and replay the game.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use crate::core::{Color, Move, Position, Variant};
use crate::notation::zillions::{self as znot, Placement, PlacementTarget, placement_text};
use crate::notation::{Coords, OutcomeText, fen, movetext};
use crate::protocol::xboard::announce;
use crate::protocol::xboard::clock::CecpClock;
use crate::protocol::xboard::command::{Command, GameResult, parse_command};
use crate::protocol::xboard::reply::{FeatureValue, Reply};
use crate::protocol::xboard::variant_info::wire as xboard_wire;
use crate::variants::Registry;

use super::codes::{DLL_OK, K_STOP_NOW, K_STOP_SOON};
use super::find_variant;
use super::plugin::Plugin;

/// Kept back on every move for the pipes (ms).
const OVERHEAD_MS: i64 = 50;

struct Host {
    registry: Arc<Registry>,
    plugin: Plugin,
    name: String,
    default_variant: Arc<Variant>,
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    /// The side the plug-in plays; `None` in force mode.
    engine: Option<Color>,
    clock: CecpClock,
    /// Moves the plug-in made since the game began (for the clock).
    engine_moves: u32,
    /// The plug-in is in step with `pos` (false after it refused something: play stops).
    in_step: bool,
    out: std::io::Stdout,
}

/// Serves the plug-in over CECP until `quit` or end of input; the exit code.
pub fn run(registry: Arc<Registry>, plugin_path: &Path, variant: Option<&str>) -> i32 {
    let plugin = match Plugin::load(plugin_path) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("fairybridge: {e}");
            return 2;
        }
    };
    let default_variant = match variant {
        None => registry.get("normal"),
        Some(n) => find_variant(&registry, n),
    };
    let Some(default_variant) = default_variant else {
        eprintln!("fairybridge: unknown variant {:?}", variant.unwrap_or("normal"));
        return 2;
    };
    let name = plugin_path
        .file_stem()
        .map_or_else(|| "plug-in".to_string(), |s| s.to_string_lossy().into_owned());
    let lines = spawn_reader();
    let start = Position::start(&default_variant);
    let mut host = Host {
        registry,
        plugin,
        name,
        default_variant,
        pos: start.clone(),
        start,
        moves: Vec::new(),
        engine: Some(Color::Black),
        clock: CecpClock::default(),
        engine_moves: 0,
        in_step: false,
        out: std::io::stdout(),
    };
    let mut queued: Vec<String> = Vec::new();
    loop {
        let line = if queued.is_empty() {
            match lines.recv() {
                Ok(Some(l)) => l,
                _ => return 0,
            }
        } else {
            queued.remove(0)
        };
        if !host.handle(&line, &lines, &mut queued) {
            return 0;
        }
    }
}

/// Lines of stdin on a channel (`None` at the end).
fn spawn_reader() -> Receiver<Option<String>> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut line = String::new();
        loop {
            line.clear();
            match stdin.read_line(&mut line) {
                Ok(0) | Err(_) => {
                    let _ = tx.send(None);
                    return;
                }
                Ok(_) => {
                    if tx.send(Some(line.trim_end_matches(['\n', '\r']).to_string())).is_err() {
                        return;
                    }
                }
            }
        }
    });
    rx
}

fn game_result(winner: Option<Color>) -> GameResult {
    match winner {
        Some(Color::White) => GameResult::WhiteWins,
        Some(Color::Black) => GameResult::BlackWins,
        None => GameResult::Draw,
    }
}

impl Host {
    fn send(&mut self, reply: Reply) {
        let mut out = self.out.lock();
        let _ = writeln!(out, "{reply}");
        let _ = out.flush();
    }

    fn error(&mut self, kind: &str, text: String) {
        self.send(Reply::Error {
            kind: kind.to_string(),
            text,
        });
    }

    /// Handles one GUI line; `false` to quit.
    fn handle(&mut self, line: &str, lines: &Receiver<Option<String>>, queued: &mut Vec<String>) -> bool {
        match parse_command(line) {
            Command::Quit => return false,
            Command::Protover(_) => self.features(),
            Command::New => {
                let v = Arc::clone(&self.default_variant);
                self.clock.new_game();
                self.new_game(&v, None);
                self.engine = Some(Color::Black);
            }
            Command::Variant(name) => {
                let bare = name.rsplit('_').next().unwrap_or(&name).to_string();
                match self.registry.get(&bare).or_else(|| find_variant(&self.registry, &bare)) {
                    Some(v) => {
                        self.new_game(&v, None);
                        if let Some(a) = announce::announcement(&v) {
                            self.send(Reply::Setup(a.setup));
                            for (id, betza) in a.pieces {
                                self.send(Reply::Piece { id, betza });
                            }
                        }
                    }
                    None => self.error("unknown variant", name),
                }
            }
            Command::SetBoard(text) => {
                let setup = fen::parse_fen(&text, Coords::Wire).map_err(|e| e.to_string());
                let v = Arc::clone(self.pos.variant());
                match setup.and_then(|s| Position::from_setup(&v, &s).map_err(|e| e.to_string())) {
                    Ok(p) if p.side_to_move() == Color::White => self.new_game(&v, Some(p)),
                    Ok(_) => self.error("setboard", "a plug-in's setup starts with White to move".into()),
                    Err(e) => self.error("setboard", e),
                }
            }
            Command::Force | Command::Result { .. } => self.engine = None,
            Command::Go => {
                self.engine = Some(self.pos.side_to_move());
                self.think(lines, queued);
            }
            Command::PlayOther => self.engine = Some(self.pos.side_to_move().opposite()),
            Command::Level {
                moves_per_session,
                base_seconds,
                increment_seconds,
            } => self.clock.level(moves_per_session, base_seconds, increment_seconds),
            Command::MoveTime { seconds } => self.clock.move_time(seconds),
            Command::DepthLimit { plies } => self.clock.depth_limit(plies),
            Command::EngineTime { centiseconds } => self.clock.engine_time(centiseconds),
            Command::Ping(n) => self.send(Reply::Pong(n)),
            Command::UserMove { text, .. } => {
                if self.user_move(&text) && self.engine == Some(self.pos.side_to_move()) {
                    self.think(lines, queued);
                }
            }
            Command::Undo | Command::Remove => {
                let n = if matches!(parse_command(line), Command::Undo) {
                    1
                } else {
                    2
                };
                for _ in 0..n {
                    self.moves.pop();
                }
                self.resync();
            }
            Command::Empty
            | Command::Xboard
            | Command::Accepted(_)
            | Command::Rejected(_)
            | Command::Random
            | Command::Post(_)
            | Command::Ponder(_)
            | Command::Computer
            | Command::OpponentName(_)
            | Command::Rating { .. }
            | Command::Ics(_)
            | Command::OpponentTime { .. }
            | Command::Memory { .. }
            | Command::Cores(_)
            | Command::MoveNow
            | Command::DrawOffer => {}
            Command::Bad { command, reason } => self.error(&reason, command),
            other => {
                let reply = Reply::for_unparsed(&other).unwrap_or_else(|| Reply::unknown_command(line));
                self.send(reply);
            }
        }
        true
    }

    fn features(&mut self) {
        let f = |k: &str, v: FeatureValue| (k.to_string(), v);
        let names = self.registry.names().join(",");
        let myname = format!("{} (Zillions plug-in, fairybridge zillions-host)", self.name);
        self.send(Reply::Features(vec![
            f("ping", FeatureValue::Bool(true)),
            f("setboard", FeatureValue::Bool(true)),
            f("usermove", FeatureValue::Bool(true)),
            f("time", FeatureValue::Bool(true)),
            f("sigint", FeatureValue::Bool(false)),
            f("sigterm", FeatureValue::Bool(false)),
            f("colors", FeatureValue::Bool(false)),
            f("analyze", FeatureValue::Bool(false)),
            f("myname", FeatureValue::Str(myname)),
            f("variants", FeatureValue::Str(names)),
            f("done", FeatureValue::Int(1)),
        ]));
    }

    /// Starts the plug-in on `variant`, from `start` (default: the variant's start).
    fn new_game(&mut self, variant: &Arc<Variant>, start: Option<Position>) {
        self.start = start.unwrap_or_else(|| Position::start(variant));
        self.moves.clear();
        self.engine_moves = 0;
        self.resync();
    }

    /// Restarts the plug-in and replays the game (setup, moves) into it.
    fn resync(&mut self) {
        let v = Arc::clone(self.start.variant());
        self.pos = self.start.clone();
        self.in_step = false;
        let code = match self.plugin.start_new_game(&v.zillions_name) {
            Ok(c) => c,
            Err(e) => return self.error("plug-in", e),
        };
        if code < 0 {
            return self.error("plug-in", format!("DLL_StartNewGame({:?}) = {code}", v.zillions_name));
        }
        let standard = fen::to_fen(&Position::start(&v), Coords::Human) == fen::to_fen(&self.start, Coords::Human);
        if code == DLL_OK || !standard {
            for p in placements(&self.start) {
                let text = format!("({})", placement_text(&v, &p));
                if let Err(why) = self.tell_plugin(&text) {
                    return self.error("plug-in", why);
                }
            }
        }
        let moves = self.moves.clone();
        for mv in moves {
            let text = znot::move_text(&self.pos, &mv);
            if let Err(why) = self.tell_plugin(&text) {
                return self.error("plug-in", why);
            }
            self.pos.make(mv);
        }
        self.in_step = true;
    }

    fn tell_plugin(&mut self, text: &str) -> Result<(), String> {
        match self.plugin.make_move(text) {
            Ok(code) if code >= 0 => Ok(()),
            Ok(code) => Err(format!("DLL_MakeAMove({text:?}) = {code}")),
            Err(e) => Err(e),
        }
    }

    /// A move from the GUI; `true` if it was played.
    fn user_move(&mut self, text: &str) -> bool {
        let illegal = |reason: Option<String>| Reply::IllegalMove {
            reason,
            text: text.to_string(),
        };
        let mv = match movetext::parse_move(&mut self.pos, text, Coords::Wire) {
            Ok(mv) => mv,
            Err(_) => {
                self.send(illegal(None));
                return false;
            }
        };
        let ztext = znot::move_text(&self.pos, &mv);
        if !self.in_step {
            self.send(illegal(Some("the plug-in is not in a game".into())));
            return false;
        }
        if let Err(why) = self.tell_plugin(&ztext) {
            self.send(illegal(Some(format!("the plug-in refused it: {why}"))));
            return false;
        }
        self.pos.make(mv);
        self.moves.push(mv);
        if self.pos.in_continuation() {
            self.error("not supported", "turns of several moves through a plug-in".into());
            self.in_step = false;
            return false;
        }
        self.claim_end();
        self.pos.outcome().is_none()
    }

    /// Announces a game end by rule (the core's verdict).
    fn claim_end(&mut self) -> bool {
        match self.pos.outcome() {
            Some(o) => {
                self.send(Reply::GameOver {
                    result: game_result(o.winner),
                    comment: o.description(),
                });
                self.engine = None;
                true
            }
            None => false,
        }
    }

    /// Gives up the game: the plug-in did something our rules refuse.
    fn forfeit(&mut self, why: String) {
        self.send(Reply::TellUserError(format!("{}: {why}", self.name)));
        self.send(Reply::Resign);
        self.engine = None;
        self.in_step = false;
    }

    /// Lets the plug-in search and play its move. GUI lines that arrive meanwhile: `?` stops the
    /// search (kSTOPSOON), `ping` is answered, clock lines are kept; anything else stops it at
    /// once (kSTOPNOW), drops its move and is handled afterwards.
    fn think(&mut self, lines: &Receiver<Option<String>>, queued: &mut Vec<String>) {
        if !self.in_step || self.pos.outcome().is_some() {
            return;
        }
        let limits = self.clock.limits(self.engine_moves, OVERHEAD_MS);
        let time_ms = limits
            .time
            .map_or(0, |b| b.hard.as_millis().clamp(1, i64::MAX as u128) as i64);
        let depth = limits.depth.map_or(0, i64::from);
        let status = AtomicI32::new(0);
        let mut dropped = false;
        let plugin = &self.plugin;
        let result = std::thread::scope(|scope| {
            let search = scope.spawn(|| plugin.search(time_ms, depth, 0, &status));
            while !search.is_finished() {
                match lines.recv_timeout(Duration::from_millis(2)) {
                    Ok(Some(line)) => match parse_command(&line) {
                        Command::MoveNow => status.store(K_STOP_SOON, Ordering::SeqCst),
                        Command::Ping(n) => {
                            let mut out = std::io::stdout().lock();
                            let _ = writeln!(out, "{}", Reply::Pong(n));
                            let _ = out.flush();
                        }
                        Command::EngineTime { .. } | Command::OpponentTime { .. } | Command::Post(_) => {
                            queued.push(line)
                        }
                        _ => {
                            status.store(K_STOP_NOW, Ordering::SeqCst);
                            dropped = true;
                            queued.push(line);
                        }
                    },
                    Ok(None) => {
                        status.store(K_STOP_NOW, Ordering::SeqCst);
                        dropped = true;
                        queued.push("quit".into());
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => {
                        status.store(K_STOP_NOW, Ordering::SeqCst);
                        dropped = true;
                    }
                }
            }
            search.join().ok()
        });
        if dropped {
            // The plug-in may have made nothing of the dropped move: it still is in step.
            return;
        }
        let Some(result) = result else {
            return self.forfeit("the plug-in's search crashed".into());
        };
        if result.code < 0 {
            return self.forfeit(format!("DLL_Search = {}", result.code));
        }
        let mv = match znot::parse_move(&mut self.pos, &result.best_move) {
            Ok(mv) => mv,
            Err(e) => return self.forfeit(format!("illegal move {:?} from the plug-in: {e}", result.best_move)),
        };
        // Zillions makes the engine's move through DLL_MakeAMove, as any other.
        if let Err(why) = self.tell_plugin(&result.best_move) {
            return self.forfeit(why);
        }
        let wire = xboard_wire(&self.pos, &mv);
        self.pos.make(mv);
        self.moves.push(mv);
        self.engine_moves += 1;
        if self.pos.in_continuation() {
            return self.forfeit("turns of several moves are not supported through a plug-in".into());
        }
        self.send(Reply::Move(wire));
        self.claim_end();
    }
}

/// The placements that describe a position (board, then hands).
fn placements(pos: &Position) -> Vec<Placement> {
    let v = pos.variant();
    let mut out = Vec::new();
    for sq in v.shape.squares() {
        if let Some(p) = pos.piece_at(sq) {
            out.push(Placement {
                color: p.color(),
                kind: p.kind(),
                target: PlacementTarget::Square(sq),
            });
        }
    }
    for color in Color::BOTH {
        for k in 0..v.pieces.len() {
            let kind = crate::core::Kind(k as u8);
            let n = pos.hand_count(color, kind);
            if n > 0 {
                out.push(Placement {
                    color,
                    kind,
                    target: PlacementTarget::Hand(n),
                });
            }
        }
    }
    out
}
