//! CECP v2: typed commands (GUI → engine) parsed with nom, typed replies (engine → GUI) whose
//! `Display` is the wire line.

pub mod command;
pub mod reply;
