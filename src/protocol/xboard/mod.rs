//! CECP v2: typed commands (GUI → engine) parsed with nom, typed replies (engine → GUI) whose
//! `Display` is the wire line, the one command loop (`command_loop`: it parses each line once and
//! applies the stop rule, `while_thinking`), and the one game session behind it (`session`), which
//! owns the game and answers every command, whatever searches for it (`searcher`: our engine's
//! search, `driver`, or a Zillions plug-in's, `zillions::host`).

pub mod announce;
#[cfg(any(test, feature = "session-check"))]
pub mod checked_session;
pub mod clock;
pub mod command;
pub mod command_loop;
pub mod driver;
pub mod edit;
pub mod engine_line;
pub mod features;
pub mod ghosts;
pub mod reply;
pub mod searcher;
pub mod session;
pub mod variant_choice;
pub mod variant_info;
pub mod while_thinking;
pub mod wire;

use std::sync::Arc;

use tokio::sync::mpsc::UnboundedReceiver;

use super::input::Input;
use crate::variants::Registry;
pub use command_loop::{Brain, CommandLoop, serve_door};
use session::Session;

/// Serves CECP on stdout with our engine for a brain, reading `inputs` (the first line already
/// read is `first`) until `quit` or end of input.
pub async fn serve(registry: Arc<Registry>, first: Input, mut inputs: UnboundedReceiver<Input>) {
    let (tx, mut reports) = tokio::sync::mpsc::unbounded_channel();
    let mut commands = CommandLoop::new(Session::new(registry, std::io::stdout(), tx));
    serve_door(&mut commands, Some(first), &mut inputs, &mut reports).await;
}
