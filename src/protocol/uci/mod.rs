//! UCI: the same engine for UCI GUIs, fastchess/cutechess-style runners, python-chess's
//! `popen_uci` and OpenBench workers, with every variant through `UCI_Variant` (Fairy-Stockfish's
//! convention). The contract we implement is `protocol/uci.md`.
//!
//! One idea per file: `command` reads and writes GUI lines as typed commands; `reply` is the typed
//! engine line and its text, `engine_line` reads any engine's lines into it; `options` announces
//! and reads the options; `moves` writes and reads UCI move text over the core's moves; `session`
//! is the state machine and the only writer to stdout.

pub mod command;
pub mod engine_line;
pub mod inspect;
pub mod moves;
pub mod options;
pub mod reply;
pub mod session;

use std::sync::Arc;

use tokio::sync::mpsc::UnboundedReceiver;

use super::input::Input;
use crate::engine::ThinkerEvent;
use crate::variants::Registry;
use session::Session;

/// Serves UCI on stdout, reading `inputs` (the `uci` line has been read and is answered first),
/// until `quit`, or end of input and the answer to the search in progress.
pub async fn serve(registry: Arc<Registry>, mut inputs: UnboundedReceiver<Input>) {
    let mut session = Session::new(registry, std::io::stdout());
    session.line("uci", std::time::Instant::now());
    // How often a running search is looked at for the root move it is on (`currmove`).
    let mut progress = tokio::time::interval(session::PROGRESS_INTERVAL);
    progress.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    while !session.finished() {
        // Search reports first: a `bestmove` must not wait behind GUI lines.
        let next: Option<Result<ThinkerEvent, Input>> = tokio::select! {
            biased;
            Some(event) = session.events().recv() => Some(Ok(event)),
            input = inputs.recv(), if !session.input_closed() => Some(Err(input.unwrap_or(Input::Eof))),
            _ = progress.tick(), if session.searching() => None,
        };
        match next {
            None => session.progress(),
            Some(Ok(event)) => session.think(event),
            Some(Err(Input::Line(line, at))) => session.line(&line, at),
            Some(Err(Input::TooLong { start, bytes })) => session.too_long(&Input::too_long_text(&start, bytes)),
            Some(Err(Input::Eof)) => session.eof(),
        }
    }
}
