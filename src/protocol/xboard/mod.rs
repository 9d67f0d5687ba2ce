//! CECP v2: typed commands (GUI → engine) parsed with nom, typed replies (engine → GUI) whose
//! `Display` is the wire line, the session state machine, and the stdin/stdout loop.

pub mod announce;
pub mod clock;
pub mod command;
pub mod reply;
pub mod session;

use std::sync::Arc;

use tokio::io::{AsyncBufReadExt, BufReader};

use crate::variants::Registry;
use session::{Event, Session};

/// Runs the engine on stdin/stdout until `quit` or end of input. Returns the exit code.
///
/// A tokio task reads stdin and feeds a channel, so input is taken in while the search thread
/// runs; the session handles one event at a time and is the only writer to stdout.
pub fn run(registry: Arc<Registry>) -> i32 {
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("fairybridge: cannot start the I/O runtime: {e}");
            return 1;
        }
    };
    runtime.block_on(async {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        // The GUI may send SIGINT although we declared sigint=0; it must not kill the engine.
        tokio::spawn(async {
            while tokio::signal::ctrl_c().await.is_ok() {
                log::debug!("SIGINT ignored");
            }
        });
        let reader = tx.clone();
        tokio::spawn(async move {
            let mut input = BufReader::new(tokio::io::stdin());
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match input.read_until(b'\n', &mut buf).await {
                    Ok(0) | Err(_) => {
                        let _ = reader.send(Event::Eof);
                        break;
                    }
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        log::debug!("> {line}");
                        if reader.send(Event::Line(line, std::time::Instant::now())).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut session = Session::new(registry, std::io::stdout(), tx);
        while let Some(event) = rx.recv().await {
            session.handle(event);
            if session.finished() {
                break;
            }
        }
    });
    runtime.shutdown_background();
    0
}
