//! UCI commands (GUI → engine): one line, split into words, read into a typed `Command`, and
//! written back (its `Display` is the line a GUI sends, as the match runner does). Words are
//! separated by any run of white space, as the UCI specification says.

use std::fmt;

/// Where `position` starts.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Start {
    StartPos,
    /// The FEN words joined by single spaces (our dialect: holdings `[..]`, multi-digit runs).
    Fen(String),
}

/// The parameters of `go`. Times are milliseconds as sent (they may be negative: a flag fell).
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Go {
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// Move texts, read against the position when the search starts.
    pub searchmoves: Vec<String>,
}

/// A line from the GUI.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Command {
    /// An empty line: no answer.
    Empty,
    Uci,
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Register,
    UciNewGame,
    Position {
        start: Start,
        moves: Vec<String>,
    },
    Go(Go),
    Stop,
    PonderHit,
    Quit,
    /// Fairy-Stockfish's `d`: show the board and its FEN.
    Display,
    /// Fairy-Stockfish's `eval`: the static evaluation.
    Eval,
    /// Fairy-Stockfish's `go perft N`.
    Perft(u32),
    /// A known command with words we cannot read: answered with the reason, then ignored.
    Bad {
        command: String,
        reason: String,
    },
    /// Not a UCI command: its first word.
    Unknown(String),
}

fn bad(command: &str, reason: impl Into<String>) -> Command {
    Command::Bad {
        command: command.to_string(),
        reason: reason.into(),
    }
}

/// Reads one line.
pub fn parse_command(line: &str) -> Command {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, rest)) = words.split_first() else {
        return Command::Empty;
    };
    match first {
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::UciNewGame,
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "register" => Command::Register,
        "debug" => match rest {
            ["on"] | [] => Command::Debug(true),
            ["off"] => Command::Debug(false),
            _ => bad("debug", "expected on or off"),
        },
        "setoption" => parse_setoption(rest),
        "position" => parse_position(rest),
        "go" if rest.first() == Some(&"perft") => match rest {
            [_, n] => n
                .parse::<u32>()
                .map(Command::Perft)
                .unwrap_or_else(|_| bad("go perft", format!("bad depth {n:?}"))),
            _ => bad("go perft", "expected: go perft DEPTH"),
        },
        "go" => parse_go(rest).unwrap_or_else(|reason| bad("go", reason)),
        "d" if rest.is_empty() => Command::Display,
        "eval" if rest.is_empty() => Command::Eval,
        other => Command::Unknown(other.to_string()),
    }
}

fn parse_setoption(words: &[&str]) -> Command {
    let Some(("name", words)) = words.split_first().map(|(w, r)| (*w, r)) else {
        return bad("setoption", "expected: setoption name NAME [value VALUE]");
    };
    let at_value = words.iter().position(|w| *w == "value");
    let (name, value) = match at_value {
        Some(i) => (&words[..i], Some(words[i + 1..].join(" "))),
        None => (words, None),
    };
    if name.is_empty() {
        return bad("setoption", "no option name");
    }
    Command::SetOption {
        name: name.join(" "),
        value,
    }
}

fn parse_position(words: &[&str]) -> Command {
    let at_moves = words.iter().position(|w| *w == "moves");
    let (head, moves) = match at_moves {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let start = match head {
        ["startpos"] => Start::StartPos,
        ["fen", fen @ ..] if !fen.is_empty() => Start::Fen(fen.join(" ")),
        ["fen"] => return bad("position", "no FEN after fen"),
        _ => return bad("position", "expected: position startpos|fen FEN [moves MOVE...]"),
    };
    Command::Position {
        start,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    }
}

/// The words `go` knows (they end a `searchmoves` list).
const GO_WORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

/// A whole number, saturated far beyond any real value (the session clamps it further).
fn number<T: TryFrom<i128>>(word: &str, value: Option<&&str>) -> Result<T, String> {
    let Some(text) = value else {
        return Err(format!("{word} needs a number"));
    };
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!("bad number for {word}: {text}"));
    }
    let magnitude: i128 = if digits.len() > 30 {
        10i128.pow(30)
    } else {
        digits.parse().unwrap_or(0)
    };
    let n = if text.starts_with('-') { -magnitude } else { magnitude };
    // Out of the type's range: its nearest end.
    let candidates: &[i128] = if n < 0 {
        &[n, i64::MIN as i128, 0]
    } else {
        &[n, u64::MAX as i128, i64::MAX as i128, u32::MAX as i128]
    };
    candidates
        .iter()
        .find_map(|&c| T::try_from(c).ok())
        .ok_or_else(|| format!("bad number for {word}: {text}"))
}

fn parse_go(words: &[&str]) -> Result<Command, String> {
    let mut go = Go::default();
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        let value = words.get(i + 1);
        i += 2;
        match word {
            "wtime" => go.wtime = Some(number(word, value)?),
            "btime" => go.btime = Some(number(word, value)?),
            "winc" => go.winc = Some(number(word, value)?),
            "binc" => go.binc = Some(number(word, value)?),
            "movestogo" => go.movestogo = Some(number(word, value)?),
            "movetime" => go.movetime = Some(number(word, value)?),
            "depth" => go.depth = Some(number(word, value)?),
            "nodes" => go.nodes = Some(number(word, value)?),
            "mate" => go.mate = Some(number(word, value)?),
            "infinite" | "ponder" | "searchmoves" => {
                i -= 1;
                match word {
                    "infinite" => go.infinite = true,
                    "ponder" => go.ponder = true,
                    _ => {
                        while i < words.len() && !GO_WORDS.contains(&words[i]) {
                            go.searchmoves.push(words[i].to_string());
                            i += 1;
                        }
                    }
                }
            }
            other => return Err(format!("unknown go parameter {other}")),
        }
    }
    Ok(Command::Go(go))
}

impl fmt::Display for Start {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Start::StartPos => f.write_str("startpos"),
            Start::Fen(fen) => write!(f, "fen {fen}"),
        }
    }
}

/// `go` with its parameters, in the order cutechess-cli writes them (`searchmoves`, a list, last).
impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn number(f: &mut fmt::Formatter<'_>, key: &str, value: Option<impl fmt::Display>) -> fmt::Result {
            match value {
                Some(v) => write!(f, " {key} {v}"),
                None => Ok(()),
            }
        }
        f.write_str("go")?;
        if self.ponder {
            f.write_str(" ponder")?;
        }
        number(f, "wtime", self.wtime)?;
        number(f, "btime", self.btime)?;
        number(f, "winc", self.winc)?;
        number(f, "binc", self.binc)?;
        number(f, "movestogo", self.movestogo)?;
        number(f, "movetime", self.movetime)?;
        number(f, "depth", self.depth)?;
        number(f, "nodes", self.nodes)?;
        number(f, "mate", self.mate)?;
        if self.infinite {
            f.write_str(" infinite")?;
        }
        if !self.searchmoves.is_empty() {
            f.write_str(" searchmoves")?;
            self.searchmoves.iter().try_for_each(|m| write!(f, " {m}"))?;
        }
        Ok(())
    }
}

/// The line of a command. A line that read as [`Command::Bad`] or [`Command::Unknown`] is written
/// as its command word(s) only: the rest was not kept.
impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Empty => Ok(()),
            Command::Uci => f.write_str("uci"),
            Command::Debug(on) => f.write_str(if *on { "debug on" } else { "debug off" }),
            Command::IsReady => f.write_str("isready"),
            Command::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value {
                    Some(v) => write!(f, " value {v}"),
                    None => Ok(()),
                }
            }
            Command::Register => f.write_str("register"),
            Command::UciNewGame => f.write_str("ucinewgame"),
            Command::Position { start, moves } => {
                write!(f, "position {start}")?;
                if !moves.is_empty() {
                    f.write_str(" moves")?;
                    moves.iter().try_for_each(|m| write!(f, " {m}"))?;
                }
                Ok(())
            }
            Command::Go(go) => write!(f, "{go}"),
            Command::Stop => f.write_str("stop"),
            Command::PonderHit => f.write_str("ponderhit"),
            Command::Quit => f.write_str("quit"),
            Command::Display => f.write_str("d"),
            Command::Eval => f.write_str("eval"),
            Command::Perft(depth) => write!(f, "go perft {depth}"),
            Command::Bad { command, .. } => f.write_str(command),
            Command::Unknown(word) => f.write_str(word),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_commands() {
        assert_eq!(parse_command("uci"), Command::Uci);
        assert_eq!(parse_command("  isready \r"), Command::IsReady);
        assert_eq!(parse_command(""), Command::Empty);
        assert_eq!(parse_command("debug off"), Command::Debug(false));
        assert_eq!(parse_command("frobnicate now"), Command::Unknown("frobnicate".into()));
    }

    #[test]
    fn setoption_names_and_values_keep_their_spaces() {
        assert_eq!(
            parse_command("setoption name Move Overhead value 120"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("120".into())
            }
        );
        assert_eq!(
            parse_command("setoption name VariantPath value /tmp/my  file.toml"),
            Command::SetOption {
                name: "VariantPath".into(),
                value: Some("/tmp/my file.toml".into())
            }
        );
        assert_eq!(
            parse_command("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert!(matches!(parse_command("setoption Hash 3"), Command::Bad { .. }));
        assert!(matches!(parse_command("setoption name value 3"), Command::Bad { .. }));
    }

    #[test]
    fn positions() {
        assert_eq!(
            parse_command("position startpos moves e2e4 e7e5"),
            Command::Position {
                start: Start::StartPos,
                moves: vec!["e2e4".into(), "e7e5".into()]
            }
        );
        assert_eq!(
            parse_command("position fen 8/8/8/8/8/8/8/K6k[Jj] w - - 0 1"),
            Command::Position {
                start: Start::Fen("8/8/8/8/8/8/8/K6k[Jj] w - - 0 1".into()),
                moves: vec![]
            }
        );
        assert!(matches!(parse_command("position"), Command::Bad { .. }));
        assert!(matches!(parse_command("position fen moves e2e4"), Command::Bad { .. }));
        assert!(matches!(parse_command("position startfen"), Command::Bad { .. }));
    }

    #[test]
    fn go_parameters() {
        let Command::Go(go) = parse_command("go wtime 1000 btime -20 winc 10 binc 10 movestogo 5 ponder") else {
            panic!()
        };
        assert_eq!(go.wtime, Some(1000));
        assert_eq!(go.btime, Some(-20));
        assert_eq!(go.movestogo, Some(5));
        assert!(go.ponder && !go.infinite);
        let Command::Go(go) = parse_command("go searchmoves e2e4 J@e5 depth 7 infinite") else {
            panic!()
        };
        assert_eq!(go.searchmoves, ["e2e4", "J@e5"]);
        assert_eq!(go.depth, Some(7));
        assert!(go.infinite);
        let Command::Go(go) = parse_command("go movetime 99999999999999999999999 nodes 99999999999999999999") else {
            panic!()
        };
        assert_eq!(go.movetime, Some(u64::MAX));
        assert_eq!(go.nodes, Some(u64::MAX));
        let Command::Go(go) = parse_command("go depth 99999999999 mate 3") else {
            panic!()
        };
        assert_eq!(go.depth, Some(u32::MAX));
        assert_eq!(go.mate, Some(3));
        assert!(matches!(parse_command("go depth"), Command::Bad { .. }));
        assert!(matches!(parse_command("go depth x"), Command::Bad { .. }));
        assert!(matches!(parse_command("go fast"), Command::Bad { .. }));
        assert_eq!(parse_command("go"), Command::Go(Go::default()));
    }

    #[test]
    fn commands_print_as_the_runner_sends_them() {
        let go = Go {
            wtime: Some(9250),
            btime: Some(10000),
            winc: Some(100),
            binc: Some(200),
            movestogo: Some(12),
            depth: Some(7),
            ..Go::default()
        };
        assert_eq!(
            Command::Go(go).to_string(),
            "go wtime 9250 btime 10000 winc 100 binc 200 movestogo 12 depth 7"
        );
        let go = Go {
            movetime: Some(500),
            depth: Some(3),
            ..Go::default()
        };
        assert_eq!(go.to_string(), "go movetime 500 depth 3");
        assert_eq!(Command::Go(Go::default()).to_string(), "go");
        let position = Command::Position {
            start: Start::Fen("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
            moves: vec!["a1a2".into(), "h1h2".into()],
        };
        assert_eq!(
            position.to_string(),
            "position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2 h1h2"
        );
        let position = Command::Position {
            start: Start::StartPos,
            moves: vec![],
        };
        assert_eq!(position.to_string(), "position startpos");
        let option = Command::SetOption {
            name: "UCI_Variant".into(),
            value: Some(String::new()),
        };
        assert_eq!(option.to_string(), "setoption name UCI_Variant value ");
    }

    /// A random command of each kind a GUI sends.
    fn random_command(rng: &mut crate::test_rng::Rng) -> Command {
        let moves = ["e2e4", "P@e10", "a7a8q", "e1g1", "J@e5"];
        let words = |rng: &mut crate::test_rng::Rng| -> Vec<String> {
            (0..rng.below(4)).map(|_| rng.pick(&moves).to_string()).collect()
        };
        let maybe = |rng: &mut crate::test_rng::Rng| (rng.below(2) == 0).then(|| rng.next());
        match rng.below(13) {
            0 => Command::Uci,
            1 => Command::IsReady,
            2 => Command::UciNewGame,
            3 => Command::Stop,
            4 => Command::PonderHit,
            5 => Command::Quit,
            6 => Command::Debug(rng.below(2) == 0),
            7 => Command::Perft(rng.below(8) as u32),
            8 => Command::SetOption {
                name: rng
                    .pick(&["Hash", "Move Overhead", "UCI_Variant", "Clear Hash"])
                    .to_string(),
                value: match rng.below(3) {
                    0 => None,
                    1 => Some(String::new()),
                    _ => Some(rng.pick(&["16", "pillage", "/tmp/my file.toml;b.toml"]).to_string()),
                },
            },
            9 => Command::Position {
                start: if rng.below(2) == 0 {
                    Start::StartPos
                } else {
                    Start::Fen(
                        rng.pick(&[
                            "8/8/8/8/8/8/8/K6k[Jj] w - - 0 1",
                            "rnbqkbnr/8/8/8/8/8/8/RNBQKBNR b KQkq - 3 9",
                        ])
                        .to_string(),
                    )
                },
                moves: words(rng),
            },
            _ => Command::Go(Go {
                wtime: maybe(rng).map(|n| n as i64),
                btime: maybe(rng).map(|n| (n as i64).min(0)),
                winc: maybe(rng).map(|n| n as i64 % 1000),
                binc: maybe(rng).map(|n| n as i64 % 1000),
                movestogo: maybe(rng).map(|n| n as u32),
                movetime: maybe(rng),
                depth: maybe(rng).map(|n| n as u32),
                nodes: maybe(rng),
                mate: maybe(rng).map(|n| n as u32 % 20),
                infinite: rng.below(2) == 0,
                ponder: rng.below(2) == 0,
                searchmoves: words(rng),
            }),
        }
    }

    #[test]
    fn every_command_reads_back_as_written() {
        let mut rng = crate::test_rng::Rng(0x00c0_ffee_1234_5678);
        for _ in 0..3000 {
            let command = random_command(&mut rng);
            let line = command.to_string();
            assert_eq!(parse_command(&line), command, "{line:?}");
        }
    }
}
