//! The engine behind every front end: the game record and the search running beside it.

pub mod draw;
pub mod game;
pub mod latency;
pub mod memory;
pub mod thinker;
pub mod threads;
#[cfg(test)]
mod time_simulation;

pub use game::{Game, GameError};
pub use thinker::{Thinker, ThinkerEvent};
