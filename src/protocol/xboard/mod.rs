//! CECP v2: typed commands (GUI → engine) parsed with nom, typed replies (engine → GUI) whose
//! `Display` is the wire line, the session state machine, and the command loop every CECP door
//! serves through (`serve_door`: our engine, and the Zillions host's plug-in).

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
use std::time::Instant;

use tokio::sync::mpsc::UnboundedReceiver;

use super::input::Input;
use crate::variants::Registry;
use reply::Reply;
use session::Session;

/// A CECP door's brain behind the one command loop, [`serve_door`]: our engine's [`Session`], or
/// the Zillions host's plug-in. It takes the GUI's lines and its own workers' reports one at a
/// time, and is the only writer of its output.
pub trait Door {
    /// What the door's own workers (a search) report while the GUI's lines keep coming.
    type Report;
    /// A line from the GUI, with the moment it was read (the door's clock runs from then).
    fn line(&mut self, line: String, read_at: Instant);
    /// A report of one of the door's workers.
    fn report(&mut self, report: Self::Report);
    /// The GUI closed our input.
    fn eof(&mut self);
    /// Writes a reply line.
    fn send(&mut self, reply: Reply);
    /// Has the GUI asked the door to quit (or gone away, and the door has wound up)?
    fn finished(&self) -> bool;
}

/// Serves CECP on stdout, reading `inputs` (the first line already read is `first`) until `quit`
/// or end of input.
pub async fn serve(registry: Arc<Registry>, first: Input, mut inputs: UnboundedReceiver<Input>) {
    let (tx, mut events) = tokio::sync::mpsc::unbounded_channel();
    let mut session = Session::new(registry, std::io::stdout(), tx);
    serve_door(&mut session, Some(first), &mut inputs, &mut events).await;
}

/// The CECP command loop: hands `door` the GUI's `inputs` (after `first`, if a line was already
/// read) and its workers' `reports` until it is finished. Reports are handled before waiting GUI
/// lines; a line too long to read is refused here, the same for every door.
pub async fn serve_door<D: Door>(
    door: &mut D,
    first: Option<Input>,
    inputs: &mut UnboundedReceiver<Input>,
    reports: &mut UnboundedReceiver<D::Report>,
) {
    let mut next = first;
    let mut input_closed = false;
    while !door.finished() {
        let input = match next.take() {
            Some(i) => i,
            // The GUI has gone: only the door's workers may still report.
            None if input_closed => match reports.recv().await {
                Some(report) => {
                    door.report(report);
                    continue;
                }
                None => return,
            },
            None => tokio::select! {
                biased;
                Some(report) = reports.recv() => {
                    door.report(report);
                    continue;
                }
                input = inputs.recv() => input.unwrap_or(Input::Eof),
            },
        };
        match input {
            Input::Line(line, at) => door.line(line, at),
            Input::Eof => {
                input_closed = true;
                door.eof();
            }
            Input::TooLong { start, bytes } => door.send(Reply::Error {
                kind: "line too long".to_string(),
                text: Input::too_long_text(&start, bytes),
            }),
        }
    }
}
