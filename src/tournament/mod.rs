//! Engine-vs-engine matches refereed by our own rules core.

pub mod cecp;
pub mod cli;
pub mod crosstable;
pub mod cutechess;
pub mod engine;
pub mod game;
pub mod merge;
pub mod openings;
pub mod outputs;
pub mod pentanomial;
pub mod pgn;
pub mod player;
pub mod process;
pub mod progress;
pub mod report;
pub mod results;
pub mod resume;
pub mod runner;
pub mod shard;
pub mod stats;
pub mod suite;
pub mod timecontrol;
pub mod uci;
