//! An engine player of a refereed game, whatever protocol it speaks: the referee (`game`) tells
//! it the moves and the clocks and reads what it says in protocol-neutral terms ([`Heard`]); the
//! CECP and UCI drivers translate. Neither rules: a move text is read into the legal moves of the
//! game's position (the core's), or it is a forfeit.

use std::process::ExitStatus;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::cecp::CecpEngine;
use super::engine::{EngineConfig, Protocol, StartError};
use super::game::Forfeit;
use super::process::Trace;
use super::timecontrol::{ClockReading, TimeControl};
use super::uci::UciEngine;
use crate::core::GameResult;
use crate::core::{Color, Move, Position, Variant};

/// What an engine said, as the referee reads it.
#[derive(Clone, Debug, PartialEq)]
pub enum Heard {
    /// A move (or a whole turn of several), in the engine's own notation, with its arrival time.
    Move(String, Instant),
    /// Its search so far: depth, score (centipawns, ±100000+N for a mate in N), nodes (0 when
    /// not said) and the first move of its principal variation, in its own notation.
    Thinking {
        depth: u32,
        score: i32,
        nodes: u64,
        first_move: Option<String>,
    },
    Resign,
    /// A result claim (`1-0 {…}`, CECP).
    Claim {
        result: GameResult,
        text: String,
    },
    /// It refused a move it was told (`Illegal move: …`, CECP).
    RejectsMove(String),
    /// A line too long to read (its description), where a move may come: an unreadable line.
    TooLong(String, Instant),
    /// Its output ended.
    Gone,
    /// Nothing the referee acts on.
    Other,
}

/// A move text read against the game's position.
#[derive(Clone, Debug, PartialEq)]
pub enum MoveRead {
    /// The (sub-)moves it names, in order: one, or a whole turn of several (UCI's `a,b`).
    Moves(Vec<Move>),
    /// The first legs of a move; the rest comes in the next line (CECP's `move a,`).
    More,
}

/// A running engine.
pub enum Player {
    Cecp(CecpEngine),
    Uci(UciEngine),
}

impl Player {
    /// Starts the process and gets through the protocol's handshake.
    ///
    /// # Errors
    ///
    /// As the protocol's own start ([`StartError`]).
    pub async fn start(cfg: &EngineConfig, trace: Option<Arc<Trace>>) -> Result<Player, StartError> {
        Ok(match cfg.proto {
            Protocol::Cecp => Player::Cecp(CecpEngine::start(cfg, trace).await?),
            Protocol::Uci => Player::Uci(UciEngine::start(cfg, trace).await?),
        })
    }

    pub fn name(&self) -> &str {
        match self {
            Player::Cecp(e) => &e.name,
            Player::Uci(e) => &e.name,
        }
    }

    /// The name it announced (`feature myname`, `id name`).
    pub fn announced_name(&self) -> Option<String> {
        match self {
            Player::Cecp(e) => e.features.myname.clone(),
            Player::Uci(e) => e.id_name.clone(),
        }
    }

    /// The options of `wanted` (`option.NAME=`) the engine did not announce, and the ones it did.
    pub fn missing_options<'a>(&self, wanted: &'a [(String, String)]) -> (Vec<&'a str>, Vec<String>) {
        match self {
            Player::Cecp(e) => (e.missing_options(wanted), e.features.options.clone()),
            Player::Uci(e) => (e.missing_options(wanted), e.option_names().to_vec()),
        }
    }

    /// Was it given threads (`cores=`) it cannot take (a CECP engine without `feature smp=1`)?
    pub fn ignores_cores(&self) -> bool {
        match self {
            Player::Cecp(e) => e.ignores_cores(),
            Player::Uci(_) => false,
        }
    }

    /// Does it play `variant`? `Err` says why not.
    ///
    /// # Errors
    ///
    /// The engine does not announce this variant.
    pub fn plays(&self, variant: &Variant) -> Result<(), String> {
        match self {
            Player::Cecp(e) => e.plays(variant),
            Player::Uci(e) => e.plays(variant),
        }
    }

    /// Sets up a new game from `start`.
    ///
    /// # Errors
    ///
    /// The engine's pipe is closed or it fails the protocol's exchange (the text says how).
    pub async fn new_game(&mut self, variant: &Variant, start: &Position, tc: &TimeControl) -> Result<(), String> {
        match self {
            Player::Cecp(e) => e.new_game(variant, start, tc).await,
            Player::Uci(e) => e.new_game(variant, start).await,
        }
    }

    /// A (sub-)move of the game, by this engine (`own`) or its opponent, played from `before`.
    pub fn played(&mut self, before: &Position, mv: &Move, own: bool) {
        match self {
            Player::Cecp(e) => e.played(before, mv, own),
            Player::Uci(e) => e.played(before, mv),
        }
    }

    /// Its turn begins: the moves it has not heard, the clocks, the order to move.
    ///
    /// # Errors
    ///
    /// The engine's pipe is closed or it fails the protocol's exchange (the text says how).
    pub async fn go(&mut self, mover: Color, own: &ClockReading, other: &ClockReading) -> Result<(), String> {
        match self {
            Player::Cecp(e) => e.go(own, other).await,
            Player::Uci(e) => e.go(mover, own, other).await,
        }
    }

    /// Inside its opponent's turn of several moves, must it hear each sub-move and pass?
    pub fn passes_inside_turns(&self) -> bool {
        match self {
            Player::Cecp(e) => e.passes_inside_turns(),
            Player::Uci(_) => false,
        }
    }

    /// Tells it the moves it has not heard yet (before it passes inside a turn).
    ///
    /// # Errors
    ///
    /// The engine's pipe is closed or it fails the protocol's exchange (the text says how).
    pub async fn tell_pending(&mut self) -> Result<(), String> {
        match self {
            Player::Cecp(e) => e.tell_pending().await,
            Player::Uci(_) => Ok(()),
        }
    }

    /// Is this move text of its the pass inside a turn of several moves?
    pub fn is_pass(&self, text: &str) -> bool {
        match self {
            Player::Cecp(_) => CecpEngine::is_pass(text),
            Player::Uci(_) => false,
        }
    }

    /// Its own turn of several moves goes on after a sub-move (the opponent has passed).
    ///
    /// # Errors
    ///
    /// The engine's pipe is closed or it fails the protocol's exchange (the text says how).
    pub async fn continue_turn(
        &mut self,
        mover: Color,
        own: &ClockReading,
        other: &ClockReading,
    ) -> Result<(), String> {
        match self {
            Player::Cecp(e) => e.continue_turn(own, other).await,
            Player::Uci(e) => e.go(mover, own, other).await,
        }
    }

    /// Calls the games by its own name (`variant`, `UCI_Variant`) instead of ours.
    pub fn set_variant_name(&mut self, name: Option<String>) {
        match self {
            Player::Cecp(e) => e.variant_name = name,
            Player::Uci(e) => e.variant_name = name,
        }
    }

    /// A search of the game's position within a time (ms) and/or depth, none for "until
    /// stopped" (the Zillions plug-in's `DLL_Search`; CECP: from force mode).
    ///
    /// # Errors
    ///
    /// The engine's pipe is closed or it fails the protocol's exchange (the text says how).
    pub async fn go_limited(&mut self, movetime_ms: Option<u64>, depth: Option<u32>) -> Result<(), String> {
        match self {
            Player::Cecp(e) => e.go_limited(movetime_ms, depth).await,
            Player::Uci(e) => e.go_limited(movetime_ms, depth).await,
        }
    }

    /// After its move of a `go_limited`: back to playing no side (CECP `force`).
    ///
    /// # Errors
    ///
    /// The engine's pipe is closed or it fails the protocol's exchange (the text says how).
    pub async fn stand_by(&mut self) -> Result<(), String> {
        match self {
            Player::Cecp(e) => e.force().await,
            Player::Uci(_) => Ok(()),
        }
    }

    /// Its flag fell: asks for a move now (CECP `?`, UCI `stop`).
    pub async fn move_now(&mut self) {
        match self {
            Player::Cecp(e) => e.move_now().await,
            Player::Uci(e) => e.move_now().await,
        }
    }

    /// The next thing it says, `None` when `deadline` passed first. Cancel-safe (nothing is lost
    /// when another branch of a `select!` wins).
    pub async fn next(&mut self, deadline: Option<Instant>) -> Option<Heard> {
        match self {
            Player::Cecp(e) => e.next(deadline).await,
            Player::Uci(e) => e.next(deadline).await,
        }
    }

    /// The legal (sub-)moves a move text of its names in `pos`, or the forfeit it is.
    ///
    /// # Errors
    ///
    /// The [`Forfeit`] the text earns: not a move, or not a legal one.
    pub fn read_move(&mut self, pos: &Position, text: &str) -> Result<MoveRead, Forfeit> {
        match self {
            Player::Cecp(e) => e.read_move(pos, text),
            Player::Uci(e) => e.read_move(pos, text),
        }
    }

    /// The process group the engine leads (Unix: its pid).
    pub fn process_group(&self) -> Option<u32> {
        match self {
            Player::Cecp(e) => e.process_group(),
            Player::Uci(e) => e.process_group(),
        }
    }

    /// The exit status, if the process has ended.
    pub fn exit_status(&mut self) -> Option<ExitStatus> {
        match self {
            Player::Cecp(e) => e.exit_status(),
            Player::Uci(e) => e.exit_status(),
        }
    }

    /// Waits briefly for the process to end, to report its exit status.
    pub async fn wait_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        match self {
            Player::Cecp(e) => e.wait_exit(limit).await,
            Player::Uci(e) => e.wait_exit(limit).await,
        }
    }

    /// Ends the game for it (CECP `result …`), says `quit`, and makes sure the process is gone.
    pub async fn finish(self, result: Option<(GameResult, String)>) {
        match self {
            Player::Cecp(e) => e.finish(result).await,
            Player::Uci(e) => e.finish().await,
        }
    }
}
