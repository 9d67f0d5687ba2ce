//! What the match runner knows of an engine before it runs: how to start it, which protocol it
//! speaks, its clock and limits; and why a start can fail.

use std::path::PathBuf;
use std::time::Duration;

use super::process::Launch;
use super::timecontrol::TimeControl;

/// The protocol an engine speaks (`proto=` of `--engine`, as cutechess-cli spells it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Protocol {
    /// CECP (the XBoard protocol): `proto=xboard` (or `cecp`), the default.
    #[default]
    Cecp,
    /// UCI: `proto=uci`.
    Uci,
}

impl Protocol {
    /// Reads `proto=VALUE`.
    ///
    /// # Errors
    ///
    /// Neither `xboard`/`cecp` nor `uci`.
    pub fn parse(text: &str) -> Result<Protocol, String> {
        match text.to_ascii_lowercase().as_str() {
            "xboard" | "cecp" => Ok(Protocol::Cecp),
            "uci" => Ok(Protocol::Uci),
            _ => Err(format!("--engine: proto= is xboard (cecp) or uci, not \"{text}\"")),
        }
    }
}

/// How to run one engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Display name (PGN tags, tables).
    pub name: String,
    pub cmd: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    /// Options sent after the handshake: CECP `option NAME=VALUE`, UCI `setoption name NAME value VALUE`.
    pub options: Vec<(String, String)>,
    pub tc: TimeControl,
    /// How far a clock may fall below zero before the flag counts.
    pub margin: Duration,
    /// Where the engine's stderr goes (discarded if `None`).
    pub stderr: Option<PathBuf>,
    /// A search depth limit (CECP `sd N`, UCI `go … depth N`; cutechess's `depth=N`): with it a
    /// deterministic engine plays the same game again, which the resume and shard tests compare.
    pub depth: Option<u32>,
    /// A node limit per move (UCI `go … nodes N`; cutechess's `nodes=N`).
    pub nodes: Option<u64>,
    /// Search threads of a CECP engine (`cores=N`): `cores N` before every `new`, as XBoard sends
    /// it to an engine with `feature smp=1`. A UCI engine takes `option.Threads=N` instead.
    pub cores: Option<u32>,
    pub proto: Protocol,
}

impl EngineConfig {
    /// What the process layer needs to start it.
    pub fn launch(&self) -> Launch<'_> {
        Launch {
            name: &self.name,
            cmd: &self.cmd,
            args: &self.args,
            dir: self.dir.as_ref(),
            stderr: self.stderr.as_ref(),
        }
    }
}

/// Why an engine could not be started.
#[derive(Clone, Debug, PartialEq)]
pub enum StartError {
    /// The command could not be run at all (a bad argument of the match).
    Spawn(String),
    /// It ran but did not get through the start-up (exited, or stopped answering): a forfeit.
    Protocol(String),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Spawn(why) | StartError::Protocol(why) => f.write_str(why),
        }
    }
}
