//! One finished game as the statistics see it (who played which colour, the result, whether the
//! loser forfeited, which pair it belongs to) — what the report is tallied from, what a state file
//! keeps, and what `merge` reads back from PGN files.

use super::pgn::PgnGame;

/// The result of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    WhiteWins,
    BlackWins,
    Draw,
    /// Aborted: neither engine could play (PGN `*`).
    NoResult,
}

impl Outcome {
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::NoResult => "*",
        }
    }

    pub fn from_pgn(text: &str) -> Option<Outcome> {
        Some(match text {
            "1-0" => Outcome::WhiteWins,
            "0-1" => Outcome::BlackWins,
            "1/2-1/2" => Outcome::Draw,
            "*" => Outcome::NoResult,
            _ => return None,
        })
    }
}

/// One finished game of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// The game's number in the whole match (PGN `Round`), 1-based.
    pub number: u32,
    /// The pair it belongs to (same opening, colours swapped); `None` for a game without a partner.
    pub pair: Option<u32>,
    pub white: usize,
    pub black: usize,
    pub outcome: Outcome,
    /// The loser lost by forfeit (illegal move, crash, time, false claim…).
    pub forfeit: bool,
}

impl GameResult {
    /// The engine that won, `None` for a draw or no result.
    pub fn winner(&self) -> Option<usize> {
        match self.outcome {
            Outcome::WhiteWins => Some(self.white),
            Outcome::BlackWins => Some(self.black),
            Outcome::Draw | Outcome::NoResult => None,
        }
    }

    pub fn loser(&self) -> Option<usize> {
        match self.outcome {
            Outcome::WhiteWins => Some(self.black),
            Outcome::BlackWins => Some(self.white),
            Outcome::Draw | Outcome::NoResult => None,
        }
    }

    /// `engine`'s points in this game (0, 0.5 or 1; 0 with no result).
    pub fn points_of(&self, engine: usize) -> f64 {
        match self.outcome {
            Outcome::NoResult => 0.0,
            Outcome::Draw => 0.5,
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
            self.outcome.pgn(),
            if self.forfeit { "forfeit" } else { "-" }
        )
    }

    /// Reads [`to_line`](Self::to_line)'s text back.
    pub fn from_line(line: &str) -> Result<GameResult, String> {
        let bad = || format!("bad game line \"{line}\"");
        let words: Vec<&str> = line.split_whitespace().collect();
        let ["game", number, pair, white, black, result, forfeit] = words[..] else {
            return Err(bad());
        };
        Ok(GameResult {
            number: number.parse().map_err(|_| bad())?,
            pair: match pair {
                "-" => None,
                p => Some(p.parse().map_err(|_| bad())?),
            },
            white: white.parse().map_err(|_| bad())?,
            black: black.parse().map_err(|_| bad())?,
            outcome: Outcome::from_pgn(result).ok_or_else(bad)?,
            forfeit: match forfeit {
                "forfeit" => true,
                "-" => false,
                _ => return Err(bad()),
            },
        })
    }

    /// A game of a PGN file written by `fairybridge match`: the `Round`, `Pair`, `Result` and
    /// `Termination` tags; the engines are given as indices by `index_of(name)`.
    pub fn from_pgn(game: &PgnGame, index_of: &mut dyn FnMut(&str) -> usize) -> Result<GameResult, String> {
        let tag = |name: &str| game.tag(name).ok_or_else(|| format!("a game without a {name} tag"));
        let round = tag("Round")?;
        let number = round
            .parse()
            .map_err(|_| format!("game \"{round}\": the Round tag is not a game number"))?;
        let pair = match game.tag("Pair") {
            None => None,
            Some(p) => Some(p.parse().map_err(|_| format!("game {number}: bad Pair tag \"{p}\""))?),
        };
        let result = tag("Result")?;
        let outcome = Outcome::from_pgn(result).ok_or_else(|| format!("game {number}: bad Result tag \"{result}\""))?;
        // Forfeits are decisive games that ended by time, an infraction or a disconnection.
        let forfeit = outcome != Outcome::Draw
            && outcome != Outcome::NoResult
            && matches!(
                game.tag("Termination"),
                Some("time forfeit" | "rules infraction" | "abandoned")
            );
        let white = index_of(tag("White")?);
        let black = index_of(tag("Black")?);
        Ok(GameResult {
            number,
            pair,
            white,
            black,
            outcome,
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
            GameResult {
                number: 7,
                pair: Some(3),
                white: 1,
                black: 0,
                outcome: Outcome::BlackWins,
                forfeit: true,
            },
            GameResult {
                number: 1,
                pair: None,
                white: 0,
                black: 2,
                outcome: Outcome::NoResult,
                forfeit: false,
            },
        ] {
            assert_eq!(GameResult::from_line(&r.to_line()), Ok(r.clone()));
        }
        for bad in [
            "game 1 2 3",
            "game x - 0 1 1-0 -",
            "game 1 - 0 1 2-0 -",
            "move 1 - 0 1 1-0 -",
        ] {
            assert!(GameResult::from_line(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn points() {
        let r = GameResult {
            number: 1,
            pair: Some(0),
            white: 0,
            black: 1,
            outcome: Outcome::BlackWins,
            forfeit: false,
        };
        assert_eq!((r.points_of(0), r.points_of(1)), (0.0, 1.0));
        assert_eq!((r.winner(), r.loser()), (Some(1), Some(0)));
    }
}
