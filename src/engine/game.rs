//! The game record an engine front end plays on: variant, position with its history, and whether a
//! rejected set-up has left it unusable until the next new game or position.

use std::sync::Arc;

use crate::core::{Move, Outcome, Position, Variant};
use crate::notation::movetext::{self, MoveTextError};
use crate::notation::{Coords, fen};
use crate::variants::Registry;

/// Why a request about the game was refused.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum GameError {
    UnknownVariant(String),
    BadPosition(String),
    /// The last set-up was rejected; moves are refused until a new game or position.
    NoPosition,
    IllegalMove,
    NotAMove,
    NothingToUndo,
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameError::UnknownVariant(v) => write!(f, "unknown variant {v}"),
            GameError::BadPosition(why) => write!(f, "illegal position: {why}"),
            GameError::NoPosition => write!(f, "no valid position"),
            GameError::IllegalMove => write!(f, "illegal move"),
            GameError::NotAMove => write!(f, "not a move"),
            GameError::NothingToUndo => write!(f, "nothing to undo"),
        }
    }
}

/// A game in progress.
pub struct Game {
    registry: Arc<Registry>,
    position: Position,
    valid: bool,
}

impl Game {
    /// A new game of orthodox chess (or the first registered variant).
    pub fn new(registry: Arc<Registry>) -> Game {
        let variant = registry
            .get(crate::variants::NORMAL)
            .unwrap_or_else(|| Arc::clone(&registry.all()[0]));
        Game {
            position: Position::start(&variant),
            registry,
            valid: true,
        }
    }

    pub fn registry(&self) -> &Arc<Registry> {
        &self.registry
    }

    pub fn variant(&self) -> &Arc<Variant> {
        self.position.variant()
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    /// A copy of the position to search on.
    pub fn position_clone(&self) -> Position {
        self.position.clone()
    }

    /// Is there a position to play on (no rejected set-up pending)?
    pub fn is_valid(&self) -> bool {
        self.valid
    }

    /// Starts a new game of `variant` from its start position.
    pub fn new_game(&mut self, variant: &Arc<Variant>) {
        self.position = Position::start(variant);
        self.valid = true;
    }

    /// Looks a variant up by name.
    ///
    /// # Errors
    ///
    /// [`GameError::UnknownVariant`]: no loaded game has this name.
    pub fn find_variant(&self, name: &str) -> Result<Arc<Variant>, GameError> {
        self.registry
            .get(name)
            .ok_or_else(|| GameError::UnknownVariant(name.to_string()))
    }

    /// Sets up a position of the current variant from a FEN. On failure the game has no position
    /// until the next successful set-up or new game.
    ///
    /// # Errors
    ///
    /// [`GameError::BadPosition`]: the text is no FEN, or no position of the current variant.
    pub fn set_fen(&mut self, text: &str, coords: Coords) -> Result<(), GameError> {
        let variant = Arc::clone(self.variant());
        let result = fen::parse_fen(text, coords)
            .map_err(|e| GameError::BadPosition(e.message))
            .and_then(|setup| {
                Position::from_setup(&variant, &setup).map_err(|e| GameError::BadPosition(e.to_string()))
            });
        match result {
            Ok(p) => {
                self.position = p;
                self.valid = true;
                Ok(())
            }
            Err(e) => {
                self.valid = false;
                Err(e)
            }
        }
    }

    /// Sets up a validated position directly (edit mode).
    pub fn set_position(&mut self, position: Position) {
        self.position = position;
        self.valid = true;
    }

    /// Marks the game as having no valid position.
    pub fn invalidate(&mut self) {
        self.valid = false;
    }

    /// Finds the legal move a text names, without playing it.
    ///
    /// # Errors
    ///
    /// [`GameError::NoPosition`] after a rejected set-up; [`GameError::NotAMove`] for a text not
    /// shaped like a move; [`GameError::IllegalMove`] when no legal move has this text.
    pub fn parse_move(&self, text: &str, coords: Coords) -> Result<Move, GameError> {
        if !self.valid {
            return Err(GameError::NoPosition);
        }
        movetext::parse_move(&self.position, text, coords).map_err(|e| match e {
            MoveTextError::Illegal => GameError::IllegalMove,
            MoveTextError::Unparsable => GameError::NotAMove,
        })
    }

    /// Plays the move a text names (wire or canonical notation per `coords`).
    ///
    /// # Errors
    ///
    /// As [`Game::parse_move`]; nothing is played then.
    pub fn play_text(&mut self, text: &str, coords: Coords) -> Result<Move, GameError> {
        let mv = self.parse_move(text, coords)?;
        self.position.make(mv);
        Ok(mv)
    }

    /// Plays a move known to be legal (one the search returned).
    pub fn play(&mut self, mv: Move) {
        self.position.make(mv);
    }

    /// Takes back the last move.
    ///
    /// # Errors
    ///
    /// [`GameError::NoPosition`] after a rejected set-up; [`GameError::NothingToUndo`] at the start.
    pub fn undo(&mut self) -> Result<Move, GameError> {
        if !self.valid {
            return Err(GameError::NoPosition);
        }
        self.position.unmake().ok_or(GameError::NothingToUndo)
    }

    /// Is the game over by rule?
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.valid {
            return None;
        }
        self.position.outcome()
    }
}
