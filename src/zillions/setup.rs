//! A setup sent as placements (`White King e1`, `Black Ninja-Pawn off 5`), validated by the core
//! into a position. Castling rights are those of the variant's start whose king and rook stand on
//! their start squares; White moves first.

use std::sync::Arc;

use crate::core::{Color, Position, PositionError, Setup, Variant};
use crate::notation::zillions::{Placement, PlacementTarget};

/// Placements collected so far, on an empty board with empty hands.
#[derive(Clone, Debug)]
pub struct SetupBuilder {
    variant: Arc<Variant>,
    setup: Setup,
}

impl SetupBuilder {
    pub fn new(variant: &Arc<Variant>) -> SetupBuilder {
        let shape = variant.shape;
        let setup = Setup {
            board: vec![vec![None; shape.files as usize]; shape.ranks as usize],
            promoted: Vec::new(),
            holdings: Vec::new(),
            side: Color::White,
            castling: variant.start.castling.clone(),
            ep: None,
            halfmove: 0,
            fullmove: 1,
        };
        SetupBuilder {
            variant: Arc::clone(variant),
            setup,
        }
    }

    /// Adds a placement; a piece on an occupied square replaces the one there.
    ///
    /// # Errors
    ///
    /// A square or hand the variant lacks, or a square already taken.
    pub fn place(&mut self, p: &Placement) -> Result<(), PositionError> {
        let v = &self.variant;
        let letter = v.letter(p.kind, p.color);
        match p.target {
            PlacementTarget::Square(sq) => {
                let row = (v.shape.ranks - 1 - v.shape.rank(sq)) as usize;
                self.setup.board[row][v.shape.file(sq) as usize] = Some(letter);
            }
            PlacementTarget::Hand(n) => {
                if v.piece(p.kind).drop.is_none() {
                    return Err(PositionError::NotDroppable(letter));
                }
                if self.setup.holdings.len() + n as usize > 255 {
                    return Err(PositionError::HandTooLarge(letter));
                }
                self.setup.holdings.extend(std::iter::repeat_n(letter, n as usize));
            }
        }
        Ok(())
    }

    /// The position the placements describe (rights whose king or rook is not in place lapse).
    ///
    /// # Errors
    ///
    /// The placements make no position of the variant ([`PositionError`] says why).
    pub fn build(&self) -> Result<Position, PositionError> {
        Position::from_setup(&self.variant, &self.setup)
    }
}
