//! The text of a game's end: the result (`1-0`, `0-1`, `1/2-1/2`, `*`, as PGN, CECP and our state
//! files write it) and a human description for CECP result comments and PGN.

use std::fmt;

use crate::core::{Color, EndReason, GameResult, Goal, Outcome};

impl GameResult {
    /// The PGN/CECP token: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    /// The result a whole token names.
    pub fn from_token(text: &str) -> Option<GameResult> {
        Some(match text {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" => GameResult::Draw,
            "*" => GameResult::Unfinished,
            _ => return None,
        })
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The description of an `Outcome`.
pub trait OutcomeText {
    /// `White mates`, `Draw by repetition`, `Black wins: two white roses attacked`, …
    fn description(&self) -> String;
}

impl OutcomeText for Outcome {
    fn description(&self) -> String {
        let w = self.winner.map(Color::name).unwrap_or("");
        let loser = self.winner.map(|c| c.opposite().name()).unwrap_or("");
        match self.reason {
            EndReason::Checkmate => format!("{w} mates"),
            EndReason::DropMate => format!("{w} wins: {loser} mated by a drop that may not mate"),
            EndReason::Stalemate => match self.winner {
                None => "Stalemate".to_string(),
                Some(_) => format!("{w} wins: {loser} has no legal move"),
            },
            EndReason::Repetition => "Draw by repetition".to_string(),
            EndReason::MoveRule { plies } if plies % 2 == 0 => format!("Draw by {} move rule", move_count(plies / 2)),
            EndReason::MoveRule { plies } => format!("Draw by {plies}-ply rule"),
            EndReason::InsufficientMaterial => "Insufficient material".to_string(),
            EndReason::Goal(g) => match g {
                Goal::EnemyRosesAttacked(_) => format!("{w} wins: two {} roses attacked", loser.to_lowercase()),
                Goal::OwnRosesAttacked(_) => format!("{w} wins: blossom roses"),
                Goal::OpponentOnlyRoses => format!("{w} wins: fading roses"),
                Goal::OwnRosesAttackedLoses(_) => format!("{w} wins: {loser} left a rose attacked"),
            },
        }
    }
}

/// `fifty` for 50 (the name every GUI and PGN reader knows), the number otherwise.
fn move_count(moves: u32) -> String {
    match moves {
        50 => "fifty".to_string(),
        n => n.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draw(reason: EndReason) -> Outcome {
        Outcome { winner: None, reason }
    }

    #[test]
    fn results_and_descriptions() {
        let mate = Outcome {
            winner: Some(Color::Black),
            reason: EndReason::Checkmate,
        };
        assert_eq!(
            (mate.result().as_str(), mate.description().as_str()),
            ("0-1", "Black mates")
        );
        assert_eq!(draw(EndReason::Repetition).result().as_str(), "1/2-1/2");
        assert_eq!(
            draw(EndReason::MoveRule { plies: 100 }).description(),
            "Draw by fifty move rule"
        );
        // The count follows the variant's rule, not always fifty.
        assert_eq!(
            draw(EndReason::MoveRule { plies: 40 }).description(),
            "Draw by 20 move rule"
        );
        assert_eq!(
            draw(EndReason::MoveRule { plies: 7 }).description(),
            "Draw by 7-ply rule"
        );
    }
}
