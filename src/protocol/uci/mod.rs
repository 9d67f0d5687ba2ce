//! UCI: the same engine for UCI GUIs, fastchess/cutechess-style runners, python-chess's
//! `popen_uci` and OpenBench workers, with every variant through `UCI_Variant` (Fairy-Stockfish's
//! convention). The contract we implement is `protocol/uci.md`.
//!
//! One idea per file: `command` reads lines into typed commands; `options` announces and reads
//! the options; `moves` writes and reads UCI move text over the core's moves; `session` is the
//! state machine and the only writer to stdout.

pub mod command;
pub mod moves;
pub mod options;
pub mod session;

use std::sync::Arc;

use tokio::sync::mpsc::UnboundedReceiver;

use super::input::Input;
use crate::engine::ThinkerEvent;
use crate::variants::Registry;
use session::Session;

/// Serves UCI on stdout, reading `inputs` (the `uci` line has been read and is answered first),
/// until `quit` or end of input.
pub async fn serve(registry: Arc<Registry>, mut inputs: UnboundedReceiver<Input>) {
    let mut session = Session::new(registry, std::io::stdout());
    session.line("uci", std::time::Instant::now());
    while !session.finished() {
        // Search reports first: a `bestmove` must not wait behind GUI lines.
        let next: Result<ThinkerEvent, Input> = tokio::select! {
            biased;
            Some(event) = session.events().recv() => Ok(event),
            input = inputs.recv() => Err(input.unwrap_or(Input::Eof)),
        };
        match next {
            Ok(event) => session.think(event),
            Err(Input::Line(line, at)) => session.line(&line, at),
            Err(Input::TooLong { start, bytes }) => session.too_long(&Input::too_long_text(&start, bytes)),
            Err(Input::Eof) => session.eof(),
        }
    }
}
