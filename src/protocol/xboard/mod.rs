//! CECP v2: typed commands (GUI → engine) parsed with nom, typed replies (engine → GUI) whose
//! `Display` is the wire line, the session state machine, and the stdin/stdout loop.

pub mod announce;
#[cfg(any(test, feature = "session-check"))]
pub mod checked_session;
pub mod clock;
pub mod command;
pub mod driver;
pub mod edit;
pub mod engine_line;
pub mod ghosts;
pub mod reply;
pub mod session;
pub mod variant_info;
pub mod while_thinking;

use std::sync::Arc;

use tokio::sync::mpsc::UnboundedReceiver;

use super::input::Input;
use crate::variants::Registry;
use reply::Reply;
use session::{Event, Session};

/// Serves CECP on stdout, reading `inputs` (the first line already read is `first`) until `quit`
/// or end of input.
///
/// The session handles one event at a time and is the only writer to stdout; search reports are
/// handled before waiting GUI lines.
pub async fn serve(registry: Arc<Registry>, first: Input, mut inputs: UnboundedReceiver<Input>) {
    let (tx, mut events) = tokio::sync::mpsc::unbounded_channel();
    let mut session = Session::new(registry, std::io::stdout(), tx);
    let mut next = Some(first);
    loop {
        let input = match next.take() {
            Some(i) => i,
            None => tokio::select! {
                biased;
                Some(event) = events.recv() => {
                    session.handle(event);
                    if session.finished() {
                        break;
                    }
                    continue;
                }
                input = inputs.recv() => input.unwrap_or(Input::Eof),
            },
        };
        match input {
            Input::Line(line, at) => session.handle(Event::Line(line, at)),
            Input::Eof => session.handle(Event::Eof),
            Input::TooLong { start, bytes } => {
                use std::io::Write;
                let reply = Reply::Error {
                    kind: "line too long".to_string(),
                    text: Input::too_long_text(&start, bytes),
                };
                let mut out = std::io::stdout().lock();
                let _ = writeln!(out, "{reply}");
                let _ = out.flush();
            }
        }
        if session.finished() {
            break;
        }
    }
}
