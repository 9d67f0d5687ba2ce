//! What thinks for the CECP game session: the one session (`session`) owns the game, the clock,
//! the mode and every answer to the GUI; a `Searcher` only searches, and follows the game when
//! it must. Our engine's search (`SearchDriver`: threads, pondering, analysis) is one; a Zillions
//! plug-in's blocking search (`zillions::host`) is another. What a searcher cannot do is a
//! capability it lacks (`Capabilities`), announced and refused by the session.

use super::driver::Purpose;
use super::features::Capabilities;
use super::reply::AnalysisStatus;
use crate::core::{Move, Position};
use crate::search::{Limits, SearchInfo, TimeBudget};

/// What a searcher's report means to the session.
pub enum Reported<'a> {
    /// Nothing for the GUI: a report of a search no longer wanted.
    Nothing,
    /// Progress of the running search from `root`.
    Thinking { root: &'a Position, info: SearchInfo },
    /// The search on our move has ended: its move (legal in the game's position, and known to the
    /// searcher already), or none when there is no legal move.
    Move {
        best: Option<Move>,
        /// The score (centipawns, our side's view) when the searcher has one the engine's draw
        /// policy can read.
        score: Option<i32>,
        /// The reply it expects (the hint, and what to ponder on).
        ponder: Option<Move>,
        /// What the search did, for a `#` line.
        note: Option<String>,
    },
    /// The searcher cannot play on (its move is no legal move, it crashed): what the user is told;
    /// we resign.
    Forfeit(String),
}

/// The thinking behind the CECP game session.
pub trait Searcher {
    /// What the searcher's workers report while the GUI's lines keep coming.
    type Report;

    /// What it can do beyond playing (fixed for its life).
    fn capabilities(&self) -> Capabilities;

    /// The game was set up anew (`new`, `variant`, `setboard`, edit mode, `white`/`black`,
    /// `undo`, `remove`): `pos`, with its moves since the set-up, is now the game.
    ///
    /// # Errors
    ///
    /// The searcher cannot play this game: why, for the user. The session then treats it as a
    /// rejected set-up: no position until the next set-up the searcher follows.
    fn follow(&mut self, _pos: &Position) -> Result<(), String> {
        Ok(())
    }

    /// `new`: what was learnt in the last game is forgotten.
    fn new_game(&mut self) {}

    /// The GUI's move `mv` is about to be played in `pos`.
    ///
    /// # Errors
    ///
    /// Why the searcher refuses it (the move is not played then).
    fn tell(&mut self, _pos: &Position, _mv: Move) -> Result<(), String> {
        Ok(())
    }

    /// Starts searching `root` (a search running is called off first).
    ///
    /// # Errors
    ///
    /// The searcher cannot search for our move: what the user is told; we resign.
    fn start(&mut self, root: Position, limits: Limits, purpose: Purpose) -> Result<(), String>;

    /// Calls the running search off: its move is dropped. It may think on until it has ended
    /// (`thinking_on_move` says so).
    fn stop(&mut self);

    /// `?`: the search on our move ends soon with the move it has.
    fn move_now(&mut self);

    /// A search on our move runs (or was called off and has not ended yet).
    fn thinking_on_move(&self) -> bool;

    /// What a running ponder search assumes the opponent plays.
    fn pondering_on(&self) -> Option<Move> {
        None
    }

    /// Ponder hit: the ponder search goes on as the search on our move, within `budget`.
    fn ponder_hit(&mut self, _budget: TimeBudget) {}

    /// One report of the searcher's workers.
    fn report(&mut self, report: Self::Report) -> Reported<'_>;

    /// `stat01` of a running analysis.
    fn analysis_status(&self) -> Option<AnalysisStatus> {
        None
    }

    /// A new position: every root move may be played again.
    fn clear_exclusions(&mut self) {}

    /// `exclude all` / `include all` of the legal moves of `pos`.
    fn exclude_all(&mut self, _pos: &Position, _exclude: bool) {}

    /// `exclude MOVE` / `include MOVE`.
    fn exclude_move(&mut self, _mv: Move, _exclude: bool) {}

    /// Resizes the hash table (between searches): the size it got, if it has one.
    fn set_hash_mb(&mut self, _megabytes: u64) -> Option<usize> {
        None
    }

    /// The threads of the next search: how many it got, if it can be told.
    fn set_threads(&mut self, _cores: u32) -> Option<usize> {
        None
    }
}
