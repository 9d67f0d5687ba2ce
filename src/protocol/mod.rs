//! Protocol front ends ("doors") over one engine. `xboard`: CECP v2 (XBoard/WinBoard,
//! python-chess, match runners); `uci`: UCI (UCI GUIs, fastchess/cutechess-style runners,
//! python-chess, OpenBench workers). `input`: the bounded stdin reader both use.
//!
//! One binary serves both, as Fairy-Stockfish does: the first line chooses. `uci` starts the UCI
//! door; anything else starts CECP with that line as its first command. Nothing is written before
//! the first line has arrived.

#[cfg(any(test, feature = "session-check"))]
pub mod captured;
pub mod input;
pub mod uci;
pub mod xboard;

use std::sync::Arc;

use crate::variants::{Registry, Section};
use input::Input;

/// The sections of a definition file the doors read, each into its own typed value, when the
/// definition loads: XBoard's `[xboard]`. UCI needs nothing beyond the rules.
pub const SECTIONS: &[Section] = &[xboard::variant_info::XboardInfo::SECTION];

/// The built-in games with the doors' sections read.
pub fn builtin_games() -> Registry {
    Registry::builtin_with(SECTIONS)
}

/// Runs the engine on stdin/stdout until `quit` or end of input. Returns the exit code.
pub fn run(registry: Arc<Registry>) -> i32 {
    let served = input::serve_stdin(|mut inputs| async move {
        // A GUI may send SIGINT (XBoard does unless told sigint=0); it must not kill the engine.
        tokio::spawn(async {
            while tokio::signal::ctrl_c().await.is_ok() {
                log::debug!("SIGINT ignored");
            }
        });
        let first = inputs.recv().await.unwrap_or(Input::Eof);
        if is_uci_greeting(&first) {
            uci::serve(registry, inputs).await;
        } else {
            xboard::serve(registry, first, inputs).await;
        }
    });
    match served {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("fairybridge: {e}");
            1
        }
    }
}

/// Does this first line choose UCI?
fn is_uci_greeting(first: &Input) -> bool {
    matches!(first, Input::Line(line, _) if line.trim() == "uci")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_uci_chooses_uci() {
        let line = |s: &str| Input::Line(s.to_string(), std::time::Instant::now());
        assert!(is_uci_greeting(&line("uci")));
        assert!(is_uci_greeting(&line(" uci\t")));
        assert!(!is_uci_greeting(&line("xboard")));
        assert!(!is_uci_greeting(&line("ucinewgame")));
        assert!(!is_uci_greeting(&line("")));
        assert!(!is_uci_greeting(&Input::Eof));
        assert!(!is_uci_greeting(&Input::TooLong {
            start: "uci".to_string(),
            bytes: 1 << 20
        }));
    }
}
