//! fairybridge: a chess-variant engine core — rules, notation, search — behind XBoard (CECP),
//! match-runner and command-line front ends.

pub mod bench;
pub mod cli;
pub mod core;
pub mod engine;
pub mod logging;
pub mod notation;
pub mod perft;
pub mod protocol;
pub mod search;
pub mod tournament;
pub mod tune;
pub mod variants;
pub mod version;
pub mod zillions;

#[cfg(test)]
mod test_fixtures;
#[cfg(test)]
mod test_rng;
