//! What a GUI command does to the engine's search on its own move (cecp-reference §13.6–9).
//!
//! The rule is an exhaustive match: a new `Command` variant does not compile until someone says
//! whether it stops the search, so no command can call a search off by accident.

use super::command::Command;

/// How the session treats a command that arrives while the engine thinks on its own move.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum WhileThinking {
    /// Handled at once; the search goes on (`post`, `time`, `draw`, `hint`, `.`, `option`, …).
    Beside,
    /// Held back and handled after our `move` line, in the order received: `ping` (its `pong`
    /// must follow the move, §13.6) and a move from the GUI (it answers our move).
    AfterMove,
    /// Calls the search off without a move (what was held back runs first), then is handled.
    StopsSearch,
}

impl Command {
    /// What this command does to a search on our own move.
    pub fn while_thinking(&self) -> WhileThinking {
        use WhileThinking::*;
        match self {
            Command::Ping(_) | Command::UserMove { .. } => AfterMove,

            // Session settings and information: nothing the search depends on.
            Command::Empty
            | Command::Xboard
            | Command::Accepted(_)
            | Command::Rejected(_)
            | Command::Random
            | Command::Computer
            | Command::Post(_)
            | Command::Ponder(_)
            | Command::SetOption { .. }
            | Command::Cores(_)
            | Command::OpponentName(_)
            | Command::Rating { .. }
            | Command::Ics(_) => Beside,
            // The clocks of the game in progress (`level` sets a new control: that one stops).
            Command::EngineTime { .. } | Command::OpponentTime { .. } => Beside,
            // Questions and offers the engine answers while it thinks.
            Command::DrawOffer | Command::Hint | Command::Book | Command::AnalyzeStatus => Beside,
            // `?` stops the search itself, with a move.
            Command::MoveNow => Beside,
            // Board interaction (highlights) reads the game, never changes it.
            Command::Lift(_) | Command::Put(_) | Command::Hover(_) => Beside,
            // Unreadable lines get an error answer and change nothing.
            Command::Bad { .. } | Command::Unknown(_) => Beside,

            // The game, the position or the side the engine plays changes.
            Command::New
            | Command::Variant(_)
            | Command::Force
            | Command::Go
            | Command::PlayOther
            | Command::White
            | Command::Black
            | Command::Result { .. }
            | Command::SetBoard(_)
            | Command::Edit
            | Command::Undo
            | Command::Remove
            | Command::Analyze
            | Command::ExitAnalyze
            | Command::Quit => StopsSearch,
            // A new time control or search limit applies from the next search.
            Command::Level { .. }
            | Command::MoveTime { .. }
            | Command::DepthLimit { .. }
            | Command::NodesPerSecond(_) => StopsSearch,
            // Memory and tables are resized or changed only between searches.
            Command::Memory { .. } | Command::EgtPath { .. } | Command::SetScore { .. } => StopsSearch,
            Command::Exclude(_) | Command::Include(_) => StopsSearch,
            Command::Protover(_) | Command::Pause | Command::Resume => StopsSearch,
            Command::Holding { .. } | Command::Partner(_) | Command::PartnerTell(_) => StopsSearch,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::WhileThinking::*;
    use super::*;
    use crate::protocol::xboard::command::parse_command;

    fn rule(line: &str) -> WhileThinking {
        parse_command(line).while_thinking()
    }

    /// cecp-reference §13.9: these must be handled without stopping the search.
    #[test]
    fn commands_the_spec_lets_run_beside_the_search() {
        for line in [
            "post",
            "nopost",
            "easy",
            "hard",
            "time 500",
            "otim 600",
            "draw",
            "hint",
            ".",
            "option Hash=16",
            "cores 2",
        ] {
            assert_eq!(rule(line), Beside, "{line}");
        }
        for line in [
            "?",
            "bk",
            "lift e2",
            "put e4",
            "hover e4",
            "accepted debug",
            "name Someone",
            "frobnicate",
            // `perft` and `bench` are command-line tools (`fairybridge perft`), unknown here.
            "perft 2",
            "bench",
        ] {
            assert_eq!(rule(line), Beside, "{line}");
        }
    }

    /// cecp-reference §13.6: `pong` after `move`; a GUI move answers ours.
    #[test]
    fn ping_and_moves_wait_for_our_move() {
        for line in ["ping 7", "usermove e2e4", "e2e4", "d3d7,d7d6"] {
            assert_eq!(rule(line), AfterMove, "{line}");
        }
    }

    /// cecp-reference §13.8–9: these abort the search (without a move).
    #[test]
    fn commands_that_call_the_search_off() {
        for line in [
            "force",
            "result 1-0 {White mates}",
            "new",
            "quit",
            "undo",
            "remove",
            "setboard 8/8/8/8/8/8/8/K6k w - - 0 1",
            "variant pillage",
            "exit",
            "analyze",
            "go",
            "playother",
            "edit",
            "level 40 5 0",
            "st 2",
            "sd 4",
            "memory 64",
            "exclude e2e4",
        ] {
            assert_eq!(rule(line), StopsSearch, "{line}");
        }
    }
}
