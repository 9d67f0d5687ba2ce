//! An engine's process, whatever protocol it speaks: started on tokio in a process group of its
//! own, its output read line by line with the doors' bounded reader (`protocol::input::read_lines`:
//! a line longer than 64 KiB is not kept but reported as too long, so a flood costs bounded
//! memory), its exit watched, the `--debug` trace, and the kill at the end.
//!
//! The process is watched itself, so an engine that exits counts as gone even when a child of it
//! keeps its stdout open; and the whole group is killed when the engine is done with, so such a
//! child does not outlive the game (on Unix).

use std::collections::VecDeque;
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncWriteExt, BufReader};
use tokio::process::ChildStdin;
use tokio::sync::{mpsc, oneshot, watch};

use crate::protocol::input::{Input, read_lines};

/// A line from the engine (with its arrival time), or the end of its output.
#[derive(Debug)]
pub enum Event {
    Line(String, Instant),
    /// A line too long to keep: its description (length and first characters, never the whole).
    TooLong(String, Instant),
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

/// After the process exits, how long its last output may take to come through the pipe before
/// the engine counts as gone.
const EXIT_SETTLE: Duration = Duration::from_millis(100);

/// What to start.
#[derive(Clone, Debug)]
pub struct Launch<'a> {
    pub name: &'a str,
    pub cmd: &'a str,
    pub args: &'a [String],
    pub dir: Option<&'a PathBuf>,
    /// Where the engine's stderr goes (discarded if `None`).
    pub stderr: Option<&'a PathBuf>,
}

/// A running engine process.
pub struct EngineProcess {
    pub name: String,
    /// The exit status, once the process has ended (the process itself is owned by its watcher).
    exited: watch::Receiver<Option<ExitStatus>>,
    /// Asks the watcher to kill the process (dropping it does too).
    kill: Option<oneshot::Sender<()>>,
    stdin: ChildStdin,
    rx: mpsc::UnboundedReceiver<Event>,
    trace: Option<Arc<Trace>>,
    /// Lines read while waiting for something else (features, pong, readyok), to hand out later.
    backlog: VecDeque<Event>,
    /// The process group the engine leads (its pid), killed whole at the end.
    group: Option<u32>,
}

impl EngineProcess {
    /// Starts the process, its output reader and its exit watcher.
    ///
    /// # Errors
    ///
    /// The command cannot be run (not found, not executable, a bad working directory).
    pub fn spawn(launch: &Launch<'_>, trace: Option<Arc<Trace>>) -> Result<EngineProcess, String> {
        let mut cmd = tokio::process::Command::new(launch.cmd);
        cmd.args(launch.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true);
        // A group of its own: the engine's children can be killed with it, and a Ctrl-C at the
        // terminal reaches the runner (which ends the games), not the engines directly.
        #[cfg(unix)]
        cmd.process_group(0);
        // No console window of its own for a console engine started by a GUI program (the
        // Zillions plug-in runs inside one).
        #[cfg(windows)]
        cmd.creation_flags(0x0800_0000); // CREATE_NO_WINDOW
        match launch.stderr {
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
        if let Some(dir) = launch.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start \"{}\": {e}", launch.cmd))?;
        let group = child.id();
        let stdin = child.stdin.take().ok_or("no stdin pipe")?;
        let stdout = child.stdout.take().ok_or("no stdout pipe")?;
        let (tx, rx) = mpsc::unbounded_channel();
        let lines = tx.clone();
        let (input_tx, mut inputs) = mpsc::unbounded_channel();
        tokio::spawn(read_lines(BufReader::new(stdout), input_tx));
        tokio::spawn(async move {
            while let Some(input) = inputs.recv().await {
                let event = match input {
                    Input::Line(line, at) => Event::Line(line, at),
                    Input::TooLong { start, bytes } => {
                        Event::TooLong(Input::too_long_text(&start, bytes), Instant::now())
                    }
                    Input::Eof => Event::Eof(Instant::now()),
                };
                if lines.send(event).is_err() {
                    break;
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
            // Whatever it left running goes with it (a child holding the pipe open).
            kill_group(group);
            if status.is_some() {
                let _ = status_tx.send(status);
            }
            tokio::time::sleep(EXIT_SETTLE).await;
            let _ = tx.send(Event::Eof(Instant::now()));
        });
        Ok(EngineProcess {
            name: launch.name.to_string(),
            exited,
            kill: Some(kill),
            stdin,
            rx,
            trace,
            backlog: VecDeque::new(),
            group,
        })
    }

    /// The process group it leads (its pid), while it runs.
    pub fn process_group(&self) -> Option<u32> {
        self.group
    }

    /// Logs one line of traffic (`>` to the engine, `<` from it) when tracing.
    pub fn log(&self, dir: &str, line: &str) {
        if let Some(t) = &self.trace {
            t.log(&self.name, dir, line);
        }
    }

    /// Writes one line and flushes.
    ///
    /// # Errors
    ///
    /// The engine's stdin is closed (it exited).
    pub async fn send_line(&mut self, line: &str) -> Result<(), String> {
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
    /// Kept lines come first.
    pub async fn next_event(&mut self, deadline: Option<Instant>) -> Option<Event> {
        if let Some(ev) = self.backlog.pop_front() {
            return Some(ev);
        }
        self.next_fresh(deadline).await
    }

    /// The next line or EOF from the pipe (not the kept ones), logged; `None` on timeout.
    pub async fn next_fresh(&mut self, deadline: Option<Instant>) -> Option<Event> {
        let ev = match deadline {
            Some(d) => tokio::time::timeout_at(d.into(), self.rx.recv()).await.ok()?,
            None => self.rx.recv().await,
        };
        let ev = ev.unwrap_or_else(|| Event::Eof(Instant::now()));
        if let Event::Line(l, _) | Event::TooLong(l, _) = &ev {
            self.log("<", l);
        }
        Some(ev)
    }

    /// Keeps lines (already logged) to be handed out again by [`next_event`](Self::next_event).
    pub fn keep(&mut self, events: impl IntoIterator<Item = Event>) {
        self.backlog.extend(events);
    }

    /// Takes every line kept or arrived but not read yet (an end of output stays), logging the
    /// ones not logged before.
    pub fn take_unread(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        let mut keep = VecDeque::new();
        for ev in std::mem::take(&mut self.backlog) {
            match ev {
                Event::Line(line, _) | Event::TooLong(line, _) => lines.push(line),
                eof => keep.push_back(eof),
            }
        }
        while let Ok(ev) = self.rx.try_recv() {
            match ev {
                Event::Line(line, _) | Event::TooLong(line, _) => {
                    self.log("<", &line);
                    lines.push(line);
                }
                eof => keep.push_back(eof),
            }
        }
        self.backlog = keep;
        lines
    }

    /// The exit status, if the process has ended.
    pub fn exit_status(&mut self) -> Option<ExitStatus> {
        *self.exited.borrow()
    }

    /// Waits briefly for the process to end, to report its exit status.
    pub async fn wait_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        let waited = tokio::time::timeout(limit, self.exited.wait_for(Option::is_some)).await;
        waited.ok()?.ok().and_then(|status| *status)
    }

    /// Why the engine could not be started, and how its process ended if it ends within 300 ms
    /// (an engine that crashed at start-up said so by its exit, not by its words).
    pub async fn start_failure(&mut self, why: String) -> String {
        match self.wait_exit(Duration::from_millis(300)).await {
            Some(status) => format!("{why} ({})", exit_text(status)),
            None => why,
        }
    }

    /// Waits up to a second for the process to end by itself (after `quit`), then kills it.
    pub async fn end(&mut self) {
        if self.wait_exit(Duration::from_secs(1)).await.is_none() {
            if let Some(kill) = self.kill.take() {
                let _ = kill.send(());
            }
            self.wait_exit(Duration::from_secs(1)).await;
        }
    }
}

impl Drop for EngineProcess {
    /// The group goes with the engine, also when a game is dropped unfinished (an abort, Ctrl-C,
    /// the runtime shutting down before the watcher could act).
    fn drop(&mut self) {
        kill_group(self.group);
    }
}

/// Kills the process group `leader` leads (nothing if it is gone already).
fn kill_group(leader: Option<u32>) {
    #[cfg(unix)]
    if let Some(pid) = leader.and_then(|p| libc::pid_t::try_from(p).ok()).filter(|&p| p > 1) {
        // SAFETY: kill(2) takes plain integers and touches no memory of ours; a group that is gone
        // already gives ESRCH, which is what we want.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = leader;
}

/// `exit status 3`, or the signal that ended the process.
pub fn exit_text(status: ExitStatus) -> String {
    match status.code() {
        Some(c) => format!("exit status {c}"),
        None => format!("{status}"),
    }
}
