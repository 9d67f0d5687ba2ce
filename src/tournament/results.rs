//! One finished game as the statistics see it (who played which colour, the result, whether the
//! loser forfeited, which pair it belongs to) — what the report is tallied from, what a state file
//! keeps, and what `merge` reads back from PGN files.

use super::pgn::PgnGame;
use crate::core::GameResult;

/// One finished game of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoredGame {
    /// The game's number in the whole match (PGN `Round`), 1-based.
    pub number: u32,
    /// The pair it belongs to (same opening, colours swapped); `None` for a game without a partner.
    pub pair: Option<u32>,
    pub white: usize,
    pub black: usize,
    pub result: GameResult,
    /// The loser lost by forfeit (illegal move, crash, time, false claim…).
    pub forfeit: bool,
}

impl ScoredGame {
    /// The engine that won, `None` for a draw or no result.
    pub fn winner(&self) -> Option<usize> {
        match self.result {
            GameResult::WhiteWins => Some(self.white),
            GameResult::BlackWins => Some(self.black),
            GameResult::Draw | GameResult::Unfinished => None,
        }
    }

    pub fn loser(&self) -> Option<usize> {
        match self.result {
            GameResult::WhiteWins => Some(self.black),
            GameResult::BlackWins => Some(self.white),
            GameResult::Draw | GameResult::Unfinished => None,
        }
    }

    /// `engine`'s points in this game (0, 0.5 or 1; 0 with no result).
    pub fn points_of(&self, engine: usize) -> f64 {
        match self.result {
            GameResult::Unfinished => 0.0,
            GameResult::Draw => 0.5,
            _ if self.winner() == Some(engine) => 1.0,
            _ => 0.0,
        }
    }

    /// One line of a state file: `game NUMBER PAIR WHITE BLACK RESULT FORFEIT` (PAIR `-` when
    /// unpaired, FORFEIT `forfeit` or `-`).
    pub fn to_line(&self) -> String {
        format!(
            "game {} {} {} {} {} {}",
            self.number,
            self.pair.map_or("-".to_string(), |p| p.to_string()),
            self.white,
            self.black,
            self.result.as_str(),
            if self.forfeit { "forfeit" } else { "-" }
        )
    }

    /// Reads [`to_line`](Self::to_line)'s text back.
    ///
    /// # Errors
    ///
    /// The line is not a game's result as the results file writes it.
    pub fn from_line(line: &str) -> Result<ScoredGame, String> {
        let bad = || format!("bad game line \"{line}\"");
        let words: Vec<&str> = line.split_whitespace().collect();
        let ["game", number, pair, white, black, result, forfeit] = words[..] else {
            return Err(bad());
        };
        Ok(ScoredGame {
            number: number.parse().map_err(|_| bad())?,
            pair: match pair {
                "-" => None,
                p => Some(p.parse().map_err(|_| bad())?),
            },
            white: white.parse().map_err(|_| bad())?,
            black: black.parse().map_err(|_| bad())?,
            result: GameResult::from_token(result).ok_or_else(bad)?,
            forfeit: match forfeit {
                "forfeit" => true,
                "-" => false,
                _ => return Err(bad()),
            },
        })
    }

    /// A game of a PGN file written by `fairybridge match`: the `Round`, `Pair`, `Result` and
    /// `Termination` tags; the engines are given as indices by `index_of(name)`.
    ///
    /// # Errors
    ///
    /// The game has no result the runner counts, or names no known player.
    pub fn from_pgn(game: &PgnGame, index_of: &mut dyn FnMut(&str) -> usize) -> Result<ScoredGame, String> {
        let tag = |name: &str| game.tag(name).ok_or_else(|| format!("a game without a {name} tag"));
        let round = tag("Round")?;
        let number = round
            .parse()
            .map_err(|_| format!("game \"{round}\": the Round tag is not a game number"))?;
        let pair = match game.tag("Pair") {
            None => None,
            Some(p) => Some(p.parse().map_err(|_| format!("game {number}: bad Pair tag \"{p}\""))?),
        };
        let text = tag("Result")?;
        let result = GameResult::from_token(text).ok_or_else(|| format!("game {number}: bad Result tag \"{text}\""))?;
        // Forfeits are decisive games that ended by time, an infraction or a disconnection.
        let forfeit = result != GameResult::Draw && result != GameResult::Unfinished && game.forfeited();
        let white = index_of(tag("White")?);
        let black = index_of(tag("Black")?);
        Ok(ScoredGame {
            number,
            pair,
            white,
            black,
            result,
            forfeit,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip() {
        for r in [
            ScoredGame {
                number: 7,
                pair: Some(3),
                white: 1,
                black: 0,
                result: GameResult::BlackWins,
                forfeit: true,
            },
            ScoredGame {
                number: 1,
                pair: None,
                white: 0,
                black: 2,
                result: GameResult::Unfinished,
                forfeit: false,
            },
        ] {
            assert_eq!(ScoredGame::from_line(&r.to_line()), Ok(r.clone()));
        }
        for bad in [
            "game 1 2 3",
            "game x - 0 1 1-0 -",
            "game 1 - 0 1 2-0 -",
            "move 1 - 0 1 1-0 -",
        ] {
            assert!(ScoredGame::from_line(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn points() {
        let r = ScoredGame {
            number: 1,
            pair: Some(0),
            white: 0,
            black: 1,
            result: GameResult::BlackWins,
            forfeit: false,
        };
        assert_eq!((r.points_of(0), r.points_of(1)), (0.0, 1.0));
        assert_eq!((r.winner(), r.loser()), (Some(1), Some(0)));
    }
}
