//! A CECP (XBoard protocol) engine process driven on tokio: start-up and feature negotiation, the
//! per-game set-up, and a stream of time-stamped output lines for the referee.
//!
//! The driver answers features as XBoard does (`accepted` for the ones it knows, `rejected` for the
//! rest, `rejected san`: moves are always sent in coordinates), waits 2 s for the features of a
//! protocol-1 engine (10 s if it has said nothing at all; up to 30 s after `done=0`), sets positions with `setboard` or, for engines
//! without it (Fairy-Max), with `edit` … `.`, and syncs with `ping`/`pong` where the engine has it.
//! It knows no rule: moves go out as text the referee wrote. It speaks the engine door's CECP
//! vocabulary: every line it writes is a typed `Command` (or `EditCommand`), every line it reads
//! goes through `engine_line::parse_engine_line`.
//!
//! Robustness against broken engines: an output line longer than [`MAX_LINE`] bytes is cut there
//! (the rest up to the newline is dropped, so a flood costs bounded memory per line); the process
//! is watched itself, so an engine that exits counts as gone even when a child of it keeps its
//! stdout open; lines an engine sent before the game started (a `move` in force mode, a result
//! claim) are dropped with a warning instead of being read as its first move after `go`.

use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::ChildStdin;
use tokio::sync::{mpsc, oneshot, watch};

use super::timecontrol::TimeControl;
use crate::core::{Color, Position, Variant};
use crate::notation::{Coords, fen, movetext, square_name};
use crate::protocol::xboard::command::{Command, EditCommand, GameResult};
use crate::protocol::xboard::engine_line::{EngineLine, feature_text, parse_engine_line};
use crate::protocol::xboard::reply::Reply;

/// How to run one engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Display name (PGN tags, tables).
    pub name: String,
    pub cmd: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    /// `option NAME=VALUE` commands sent after the handshake.
    pub options: Vec<(String, String)>,
    pub tc: TimeControl,
    /// How far a clock may fall below zero before the flag counts.
    pub margin: Duration,
    /// Where the engine's stderr goes (discarded if `None`).
    pub stderr: Option<PathBuf>,
    /// A search depth limit (`sd N`, cutechess's `depth=N`): with it a deterministic engine plays
    /// the same game again, which the resume and shard tests compare.
    pub depth: Option<u32>,
}

/// What the engine told us in its `feature` lines.
#[derive(Clone, Debug, Default)]
pub struct Features {
    pub ping: bool,
    pub setboard: bool,
    pub usermove: bool,
    pub time: bool,
    pub myname: Option<String>,
    pub variants: Option<Vec<String>>,
    /// Protocol 2 (features seen).
    pub v2: bool,
}

/// A line from the engine (with its arrival time), or the end of its output.
#[derive(Debug)]
pub enum Event {
    Line(String, Instant),
    Eof(Instant),
}

/// Writes engine traffic to stderr when `--debug` is on.
#[derive(Debug)]
pub struct Trace {
    pub start: Instant,
}

impl Trace {
    fn log(&self, who: &str, dir: &str, line: &str) {
        eprintln!("{:>9.3} {who} {dir} {line}", self.start.elapsed().as_secs_f64());
    }
}

/// The longest engine output line kept (bytes); the rest of a longer line is dropped.
pub const MAX_LINE: usize = 64 * 1024;

/// After the process exits, how long its last output may take to come through the pipe before
/// the engine counts as gone.
const EXIT_SETTLE: Duration = Duration::from_millis(100);

/// How long an engine that says nothing after `protover 2` is waited for before it is taken for
/// a protocol-1 engine (one that has spoken gets 2 s for its features, as in XBoard).
const SILENT_START: Duration = Duration::from_secs(10);

/// Why an engine could not be started.
#[derive(Clone, Debug, PartialEq)]
pub enum StartError {
    /// The command could not be run at all (a bad argument of the match).
    Spawn(String),
    /// It ran but did not get through the start-up (exited, or stopped answering): a forfeit.
    Protocol(String),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Spawn(why) | StartError::Protocol(why) => f.write_str(why),
        }
    }
}

/// Reads one line into `buf` (without its end), keeping at most `max` bytes of it and dropping
/// the rest up to the newline. Returns the bytes consumed from the stream, 0 at its end.
pub async fn read_bounded_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<usize> {
    buf.clear();
    let mut consumed = 0;
    loop {
        let chunk = reader.fill_buf().await?;
        if chunk.is_empty() {
            return Ok(consumed);
        }
        let (used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let line_part = &chunk[..if done { used - 1 } else { used }];
        let room = max.saturating_sub(buf.len());
        buf.extend_from_slice(&line_part[..line_part.len().min(room)]);
        reader.consume(used);
        consumed += used;
        if done {
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok(consumed);
        }
    }
}

/// A running engine.
pub struct Engine {
    pub name: String,
    pub features: Features,
    /// The exit status, once the process has ended (the process itself is owned by its watcher).
    exited: watch::Receiver<Option<ExitStatus>>,
    /// Asks the watcher to kill the process (dropping it does too).
    kill: Option<oneshot::Sender<()>>,
    stdin: ChildStdin,
    rx: mpsc::UnboundedReceiver<Event>,
    trace: Option<Arc<Trace>>,
    ping: u32,
    /// Lines read while waiting for something else (features, pong), to hand out later.
    backlog: std::collections::VecDeque<Event>,
    depth: Option<u32>,
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

impl Engine {
    /// Starts the process and negotiates features. `Err` is a one-line reason.
    pub async fn start(cfg: &EngineConfig, trace: Option<Arc<Trace>>) -> Result<Engine, StartError> {
        let mut engine = Engine::spawn(cfg, trace).map_err(StartError::Spawn)?;
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
                let why = match engine.wait_exit(Duration::from_millis(300)).await {
                    Some(status) => format!("{why} ({})", exit_text(status)),
                    None => why,
                };
                engine.finish(None).await;
                Err(StartError::Protocol(why))
            }
        }
    }

    /// Starts the process, its output reader and its exit watcher.
    fn spawn(cfg: &EngineConfig, trace: Option<Arc<Trace>>) -> Result<Engine, String> {
        let mut cmd = tokio::process::Command::new(&cfg.cmd);
        cmd.args(&cfg.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true);
        match &cfg.stderr {
            Some(path) => {
                let file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
                cmd.stderr(Stdio::from(file));
            }
            None => {
                cmd.stderr(Stdio::null());
            }
        }
        if let Some(dir) = &cfg.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|e| format!("cannot start \"{}\": {e}", cfg.cmd))?;
        let stdin = child.stdin.take().ok_or("no stdin pipe")?;
        let stdout = child.stdout.take().ok_or("no stdout pipe")?;
        let (tx, rx) = mpsc::unbounded_channel();
        let lines = tx.clone();
        tokio::spawn(async move {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                match read_bounded_line(&mut reader, &mut buf, MAX_LINE).await {
                    Ok(0) | Err(_) => {
                        let _ = lines.send(Event::Eof(Instant::now()));
                        break;
                    }
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        if lines.send(Event::Line(line, Instant::now())).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        // The watcher owns the process: it reports the exit even when stdout stays open (a child
        // of the engine may hold it), and kills the process when asked or when the engine is
        // dropped.
        let (status_tx, exited) = watch::channel(None);
        let (kill, kill_rx) = oneshot::channel::<()>();
        tokio::spawn(async move {
            let status = tokio::select! {
                status = child.wait() => status.ok(),
                _ = kill_rx => {
                    let _ = child.start_kill();
                    child.wait().await.ok()
                }
            };
            if status.is_some() {
                let _ = status_tx.send(status);
            }
            tokio::time::sleep(EXIT_SETTLE).await;
            let _ = tx.send(Event::Eof(Instant::now()));
        });
        Ok(Engine {
            name: cfg.name.clone(),
            features: Features {
                time: true,
                ..Features::default()
            },
            exited,
            kill: Some(kill),
            stdin,
            rx,
            trace,
            ping: 0,
            backlog: Default::default(),
            depth: cfg.depth,
        })
    }

    async fn handshake(&mut self) -> Result<(), String> {
        self.send(&Command::Xboard).await?;
        self.send(&Command::Protover(2)).await?;
        let started = Instant::now();
        let mut deadline = started + Duration::from_secs(2);
        let mut said_anything = false;
        loop {
            let ev = match tokio::time::timeout_at(deadline.into(), self.rx.recv()).await {
                // An engine that has not said a word yet may only be slow to start (a loaded
                // machine, a large program): it gets up to SILENT_START before it counts as
                // protocol 1.
                Err(_) if !said_anything && deadline < started + SILENT_START => {
                    deadline = started + SILENT_START;
                    continue;
                }
                Err(_) => return Ok(()), // protocol 1, or done=1 never came
                Ok(None) => return Err("exited during start-up".into()),
                Ok(Some(ev)) => ev,
            };
            said_anything = true;
            let line = match ev {
                Event::Eof(_) => return Err("exited during start-up".into()),
                Event::Line(l, _) => l,
            };
            self.log("<", &line);
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
                    "myname" => self.features.myname = Some(value.clone()),
                    "variants" => {
                        self.features.variants = Some(value.split(',').map(|s| s.trim().to_string()).collect())
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

    fn log(&self, dir: &str, line: &str) {
        if let Some(t) = &self.trace {
            t.log(&self.name, dir, line);
        }
    }

    /// Sends one command (its `Display` is the wire line).
    pub async fn send(&mut self, command: &Command) -> Result<(), String> {
        self.send_line(&command.to_string()).await
    }

    /// Sends one line of `edit` mode.
    async fn send_edit(&mut self, edit: &EditCommand) -> Result<(), String> {
        self.send_line(&edit.to_string()).await
    }

    /// Writes one line and flushes.
    async fn send_line(&mut self, line: &str) -> Result<(), String> {
        self.log(">", line);
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.stdin
            .write_all(&bytes)
            .await
            .map_err(|e| format!("write failed: {e}"))?;
        self.stdin.flush().await.map_err(|e| format!("write failed: {e}"))
    }

    /// The next line or EOF, waiting until `deadline` (forever if `None`); `None` on timeout.
    pub async fn next_event(&mut self, deadline: Option<Instant>) -> Option<Event> {
        if let Some(ev) = self.backlog.pop_front() {
            return Some(ev);
        }
        let ev = match deadline {
            Some(d) => tokio::time::timeout_at(d.into(), self.rx.recv()).await.ok()?,
            None => self.rx.recv().await,
        };
        let ev = ev.unwrap_or_else(|| Event::Eof(Instant::now()));
        if let Event::Line(l, _) = &ev {
            self.log("<", l);
        }
        Some(ev)
    }

    /// Sends `ping N` and waits for `pong N` (other lines are kept for later). Engines without
    /// ping are given a moment instead.
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
            let ev = match tokio::time::timeout_at(deadline.into(), self.rx.recv()).await {
                Err(_) => break Err(format!("no pong within {:.1} s", limit.as_secs_f64())),
                Ok(None) => break Err("exited".to_string()),
                Ok(Some(ev)) => ev,
            };
            match ev {
                Event::Eof(t) => {
                    kept.push(Event::Eof(t));
                    break Err("exited".to_string());
                }
                Event::Line(l, t) => {
                    self.log("<", &l);
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
        self.backlog.extend(kept);
        result
    }

    /// `new`, `variant`, the start position (`setboard` or `edit`), time control, `post`, `easy`,
    /// then a ping. The engine is left in force mode.
    pub async fn new_game(&mut self, variant: &Variant, start: &Position, tc: &TimeControl) -> Result<(), String> {
        self.send(&Command::New).await?;
        if variant.name != "normal" {
            self.send(&Command::Variant(variant.name.clone())).await?;
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
        let mut dropped = Vec::new();
        let mut keep = std::collections::VecDeque::new();
        let logged = self.backlog.len();
        let mut arrived = Vec::new();
        while let Ok(ev) = self.rx.try_recv() {
            arrived.push(ev);
        }
        for (i, ev) in std::mem::take(&mut self.backlog).into_iter().chain(arrived).enumerate() {
            match ev {
                Event::Line(line, _) => {
                    if i >= logged {
                        self.log("<", &line);
                    }
                    dropped.push(line);
                }
                eof => keep.push_back(eof),
            }
        }
        for line in &dropped {
            if let EngineLine::Reply(Reply::Move(_) | Reply::GameOver { .. }) = parse_engine_line(line) {
                log::warn!(
                    "{}: dropped a line sent {when} (in force mode): {}",
                    self.name,
                    line.trim()
                );
            }
        }
        self.backlog = keep;
        dropped
    }

    /// The `edit` protocol: Black to move is reached with XBoard's trick of a first move before
    /// `edit`. Castling rights are whatever the engine infers from king and rook squares; an
    /// en-passant right is lost.
    async fn edit(&mut self, pos: &Position) -> Result<(), String> {
        let v = pos.variant();
        if pos.side_to_move() == Color::Black {
            let mut st = Position::start(v);
            if let Some(mv) = st.legal_moves().iter().next().copied() {
                let text = movetext::wire(&st, &mv);
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
    pub async fn send_move(&mut self, wire: &str) -> Result<(), String> {
        let text = wire.to_string();
        self.send(&Command::UserMove {
            text,
            prefixed: self.features.usermove,
        })
        .await
    }

    /// `time`/`otim` in centiseconds, if the engine wants them.
    pub async fn send_clocks(&mut self, own: i64, other: i64) -> Result<(), String> {
        if self.features.time {
            self.send(&Command::EngineTime {
                centiseconds: own.max(0),
            })
            .await?;
            self.send(&Command::OpponentTime {
                centiseconds: other.max(0),
            })
            .await?;
        }
        Ok(())
    }

    /// The exit status, if the process has ended.
    pub fn exit_status(&mut self) -> Option<ExitStatus> {
        *self.exited.borrow()
    }

    /// Waits briefly for the process to end after a crash, to report its exit status.
    pub async fn wait_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        let waited = tokio::time::timeout(limit, self.exited.wait_for(Option::is_some)).await;
        waited.ok()?.ok().and_then(|status| *status)
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
        if self.wait_exit(Duration::from_secs(1)).await.is_none() {
            if let Some(kill) = self.kill.take() {
                let _ = kill.send(());
            }
            self.wait_exit(Duration::from_secs(1)).await;
        }
    }
}

/// `exit status 3`, or the signal that ended the process.
pub fn exit_text(status: ExitStatus) -> String {
    match status.code() {
        Some(c) => format!("exit status {c}"),
        None => format!("{status}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(input: &[u8], max: usize) -> Vec<Vec<u8>> {
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        rt.block_on(async {
            // A tiny buffer, so lines span many reads.
            let mut reader = tokio::io::BufReader::with_capacity(7, input);
            let mut buf = Vec::new();
            let mut out = Vec::new();
            while read_bounded_line(&mut reader, &mut buf, max).await.unwrap() > 0 {
                out.push(buf.clone());
            }
            out
        })
    }

    #[test]
    fn long_lines_are_cut_and_the_rest_dropped() {
        let mut input = b"move e2e4\r\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 1 << 20));
        input.extend_from_slice(b"\n\npong 1\nno newline at the end");
        let lines = lines_of(&input, 16);
        assert_eq!(
            lines,
            [
                b"move e2e4".to_vec(),
                vec![b'x'; 16],
                Vec::new(),
                b"pong 1".to_vec(),
                b"no newline at th".to_vec(),
            ]
        );
    }
}
