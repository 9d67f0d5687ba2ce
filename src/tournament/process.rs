//! An engine's process, whatever protocol it speaks: started on tokio with its output read line by
//! line (each line time-stamped, at most [`MAX_LINE`] bytes of it kept), its exit watched, the
//! `--debug` trace, and the kill at the end.
//!
//! The process is watched itself, so an engine that exits counts as gone even when a child of it
//! keeps its stdout open.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::ChildStdin;
use tokio::sync::{mpsc, oneshot, watch};

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
}

impl EngineProcess {
    /// Starts the process, its output reader and its exit watcher.
    pub fn spawn(launch: &Launch<'_>, trace: Option<Arc<Trace>>) -> Result<EngineProcess, String> {
        let mut cmd = tokio::process::Command::new(launch.cmd);
        cmd.args(launch.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true);
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
        Ok(EngineProcess {
            name: launch.name.to_string(),
            exited,
            kill: Some(kill),
            stdin,
            rx,
            trace,
            backlog: VecDeque::new(),
        })
    }

    /// Logs one line of traffic (`>` to the engine, `<` from it) when tracing.
    pub fn log(&self, dir: &str, line: &str) {
        if let Some(t) = &self.trace {
            t.log(&self.name, dir, line);
        }
    }

    /// Writes one line and flushes.
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
        if let Event::Line(l, _) = &ev {
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
                Event::Line(line, _) => lines.push(line),
                eof => keep.push_back(eof),
            }
        }
        while let Ok(ev) = self.rx.try_recv() {
            match ev {
                Event::Line(line, _) => {
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
