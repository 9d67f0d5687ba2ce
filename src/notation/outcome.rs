//! The text of a game's end: the result (`1-0`, `0-1`, `1/2-1/2`, as PGN and CECP write it) and a
//! human description for CECP result comments and PGN.

use crate::core::{Color, EndReason, Goal, Outcome};

/// Text forms of an `Outcome`.
pub trait OutcomeText {
    /// `1-0`, `0-1` or `1/2-1/2`.
    fn result(&self) -> &'static str;
    /// `White mates`, `Draw by repetition`, `Black wins: two white roses attacked`, …
    fn description(&self) -> String;
}

impl OutcomeText for Outcome {
    fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

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
        assert_eq!((mate.result(), mate.description().as_str()), ("0-1", "Black mates"));
        assert_eq!(draw(EndReason::Repetition).result(), "1/2-1/2");
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
