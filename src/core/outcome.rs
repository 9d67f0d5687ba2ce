//! Game end by rule: checkmate, stalemate, goals, the n-move rule, repetition, dead positions.

use super::betza::{MoveAtom, mode};
use super::geometry::Color;
use super::piece::{Piece, PieceType, Royalty};
use super::position::Position;
use super::variant::{Goal, Repetition, Verdict};

/// Why a game ended.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum EndReason {
    Checkmate,
    /// A checkmate given by a drop that may not mate (shogi's uchifuzume): the dropper loses.
    DropMate,
    /// No legal move and not in check.
    Stalemate,
    Repetition,
    /// The move rule (`plies` half-moves without a capture or pawn move; 100 = fifty moves).
    MoveRule {
        plies: u32,
    },
    InsufficientMaterial,
    /// A goal of the variant's goal list was reached by the side that just moved.
    Goal(Goal),
}

/// A finished game: the winner (`None` for a draw) and the reason.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Outcome {
    pub winner: Option<Color>,
    pub reason: EndReason,
}

impl Outcome {
    pub fn result(&self) -> GameResult {
        GameResult::decided(self.winner)
    }
}

/// The result of a game, the one type every layer uses for it: a win, a draw, or none (a game
/// stopped or abandoned). Its text forms (`1-0`, `0-1`, `1/2-1/2`, `*`) are the notation's.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    /// Stopped without a result: a GUI's `result *`, a match game neither engine could play.
    Unfinished,
}

impl GameResult {
    /// The result of a decided game: `winner`'s, or a draw for `None`.
    pub fn decided(winner: Option<Color>) -> GameResult {
        match winner {
            Some(Color::White) => GameResult::WhiteWins,
            Some(Color::Black) => GameResult::BlackWins,
            None => GameResult::Draw,
        }
    }

    /// `Some(winner)` for a decided game (`Some(None)`: a draw), `None` if unfinished.
    pub fn winner(self) -> Option<Option<Color>> {
        match self {
            GameResult::WhiteWins => Some(Some(Color::White)),
            GameResult::BlackWins => Some(Some(Color::Black)),
            GameResult::Draw => Some(None),
            GameResult::Unfinished => None,
        }
    }
}

/// Minor pieces for FIDE dead positions, classified by movement.
#[derive(Copy, Clone, Eq, PartialEq)]
enum MinorClass {
    Knight,
    Bishop,
    Other,
}

fn classify(pt: &PieceType) -> MinorClass {
    let atoms = &pt.movement.atoms;
    let both = mode::MOVE | mode::CAPTURE;
    if pt.promotion.is_some() || pt.hook.is_some() || atoms.iter().any(|a| a.modes != both) {
        return MinorClass::Other;
    }
    // Exactly the knight's eight leaps, or exactly the bishop's four diagonal lines.
    let knight = |a: &MoveAtom| a.max_steps == 1 && a.dx.abs().min(a.dy.abs()) == 1 && a.dx.abs().max(a.dy.abs()) == 2;
    let bishop = |a: &MoveAtom| a.max_steps == 0 && a.dx.abs() == 1 && a.dy.abs() == 1;
    if atoms.len() == 8 && atoms.iter().all(knight) {
        MinorClass::Knight
    } else if atoms.len() == 4 && atoms.iter().all(bishop) {
        MinorClass::Bishop
    } else {
        MinorClass::Other
    }
}

impl Position {
    /// How many roses of `owner` the other side attacks.
    fn attacked_roses(&self, owner: Color) -> usize {
        let v = self.variant();
        self.pieces_of(owner)
            .iter()
            .filter(|&&sq| {
                let p = self.piece_at(sq).map(|p: Piece| p.kind());
                p.is_some_and(|k| v.piece(k).royalty == Royalty::Rose) && self.is_attacked(sq, owner.opposite())
            })
            .count()
    }

    /// Is the side to move's rose in check: would a turn that leaves its attacked roses attacked
    /// lose by the `own-roses-attacked-loses` goal (Wild Rose's rose cutting)? Unlike a king in
    /// check this forbids no move; it tells the search that the turn must answer the attack.
    pub fn rose_in_check(&self) -> bool {
        let v = self.variant();
        v.rules.goals.iter().any(|&goal| match goal {
            Goal::OwnRosesAttackedLoses(n) => self.attacked_roses(self.side_to_move()) >= n as usize,
            _ => false,
        })
    }

    /// Evaluates the variant's goals for the side that just completed a turn.
    pub fn goal_reached(&self) -> Option<Outcome> {
        let v = self.variant();
        // A position set up from a FEN is never judged: its previous turn is unknown (wildrose C-1).
        if v.rules.goals.is_empty() || self.plies_played() == 0 || self.in_continuation() {
            return None;
        }
        let mover = self.side_to_move().opposite();
        let opponent = self.side_to_move();
        for &goal in &v.rules.goals {
            let hit = match goal {
                Goal::EnemyRosesAttacked(n) => self.attacked_roses(opponent) >= n as usize,
                Goal::OwnRosesAttacked(n) => self.attacked_roses(mover) >= n as usize,
                Goal::OpponentOnlyRoses => self.pieces_of(opponent).iter().all(|&sq| {
                    self.piece_at(sq)
                        .is_some_and(|p| v.piece(p.kind()).royalty == Royalty::Rose)
                }),
                Goal::OwnRosesAttackedLoses(n) => self.attacked_roses(mover) >= n as usize,
            };
            if hit {
                let winner = match goal {
                    Goal::OwnRosesAttackedLoses(_) => opponent,
                    _ => mover,
                };
                return Some(Outcome {
                    winner: Some(winner),
                    reason: EndReason::Goal(goal),
                });
            }
        }
        None
    }

    /// Is the game over by rule in this position? `legal_moves` is the number of legal moves.
    pub fn outcome_with(&self, legal_moves: usize) -> Option<Outcome> {
        let v = self.variant();
        if let Some(o) = self.goal_reached() {
            return Some(o);
        }
        let us = self.side_to_move();
        if legal_moves == 0 {
            if self.in_check() {
                if self.mated_by_forbidden_drop() {
                    return Some(Outcome {
                        winner: Some(us),
                        reason: EndReason::DropMate,
                    });
                }
                return Some(Outcome {
                    winner: Some(us.opposite()),
                    reason: EndReason::Checkmate,
                });
            }
            let winner = match v.rules.stalemate {
                Verdict::Draw => None,
                Verdict::Loss => Some(us.opposite()),
                Verdict::Win => Some(us),
            };
            return Some(Outcome {
                winner,
                reason: EndReason::Stalemate,
            });
        }
        if let Some(limit) = v.rules.move_rule
            && self.move_rule_reached()
        {
            return Some(Outcome {
                winner: None,
                reason: EndReason::MoveRule { plies: limit },
            });
        }
        if let Repetition::Draw(n) = v.rules.repetition
            && self.repetitions() + 1 >= n as usize
        {
            return Some(Outcome {
                winner: None,
                reason: EndReason::Repetition,
            });
        }
        if v.rules.insufficient_material && self.dead_position() {
            return Some(Outcome {
                winner: None,
                reason: EndReason::InsufficientMaterial,
            });
        }
        None
    }

    /// The check on the board was given by dropping a piece whose mate loses (shogi's
    /// uchifuzume): if it is mate, the side that dropped has lost.
    pub fn mated_by_forbidden_drop(&self) -> bool {
        self.last_move().is_some_and(|mv| {
            mv.dropped()
                .is_some_and(|k| self.variant().piece(k).drop.as_ref().is_some_and(|d| d.mate_loses))
        })
    }

    /// Is the game over by rule?
    pub fn outcome(&self) -> Option<Outcome> {
        let n = self.legal_moves().len();
        self.outcome_with(n)
    }

    /// FIDE dead positions: king against king, a lone minor piece, or bishops all on one colour.
    pub fn dead_position(&self) -> bool {
        let v = self.variant();
        let shape = v.shape;
        let mut knights = 0;
        let mut bishops = [0usize; 2];
        for color in Color::BOTH {
            for &sq in self.pieces_of(color) {
                let Some(p) = self.piece_at(sq) else { continue };
                let pt = v.piece(p.kind());
                if pt.royalty == Royalty::King {
                    continue;
                }
                match classify(pt) {
                    MinorClass::Knight => knights += 1,
                    MinorClass::Bishop => bishops[shape.is_light(sq) as usize] += 1,
                    MinorClass::Other => return false,
                }
            }
        }
        let total_bishops = bishops[0] + bishops[1];
        if knights + total_bishops <= 1 {
            return true;
        }
        knights == 0 && (bishops[0] == 0 || bishops[1] == 0)
    }
}
