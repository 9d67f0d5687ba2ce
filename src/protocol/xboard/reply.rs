//! Engine → GUI side of CECP v2: the typed [`Reply`], whose `Display` is the exact wire line
//! (without the trailing newline, which the writer adds before flushing).
//!
//! This module owns the wire format only; what to say and when is decided by the engine loop.
//! Every reply stays on one line: line breaks inside free text are printed as spaces, because a
//! second line would be read as a separate message (and one starting with `move`, `Error` or a digit
//! would be acted on).

use super::command::Command;
use crate::core::{GameResult, Outcome};
use crate::notation::OutcomeText;
use crate::search::Score;
use std::fmt;

/// The value of one `feature NAME=VALUE` item.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum FeatureValue {
    /// Printed `0` / `1`.
    Bool(bool),
    /// Printed in decimal.
    Int(i64),
    /// Printed in double quotes. CECP has no escapes inside quotes, so a `"` in the text is printed
    /// as `'` (the GUI would otherwise end the string there).
    Str(String),
}

impl From<bool> for FeatureValue {
    fn from(value: bool) -> Self {
        FeatureValue::Bool(value)
    }
}

impl From<i64> for FeatureValue {
    fn from(value: i64) -> Self {
        FeatureValue::Int(value)
    }
}

impl From<&str> for FeatureValue {
    fn from(value: &str) -> Self {
        FeatureValue::Str(value.to_string())
    }
}

impl From<String> for FeatureValue {
    fn from(value: String) -> Self {
        FeatureValue::Str(value)
    }
}

/// Search statistics that may follow NODES in a thinking line (all three or none).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct ThinkingExtras {
    pub seldepth: u32,
    pub nps: u64,
    /// Printed last: XBoard and python-chess read the last extra number as tablebase hits.
    pub tbhits: u64,
}

/// The CECP thinking-output number of a score: centipawns, `100000 + N` for mate in N moves and
/// `-100000 - N` for being mated in N moves.
pub fn cecp_score(score: Score) -> i32 {
    match score {
        Score::Cp(c) => c.clamp(-99_999, 99_999),
        Score::Mate(n) if n > 0 => 100_000 + n,
        Score::Mate(n) => -100_000 + n,
    }
}

/// One line of thinking output (post mode): `DEPTH SCORE TIME NODES [SELDEPTH NPS TBHITS]<TAB>PV`.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct ThinkingLine {
    pub depth: u32,
    /// Centipawns from the side to move's view; mate scores as `cecp_score` writes them.
    pub score: i32,
    pub centiseconds: u64,
    pub nodes: u64,
    pub extras: Option<ThinkingExtras>,
    /// Moves in coordinate notation separated by spaces (`?`/`!` suffixes and `(`-book text allowed).
    pub pv: String,
}

/// Answer to `.` in analyze mode: `stat01: TIME NODES DEPTH MOVESLEFT MOVESTOTAL [MOVE]`.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct AnalysisStatus {
    pub centiseconds: u64,
    pub nodes: u64,
    pub depth: u32,
    /// Root moves still to search at this depth.
    pub moves_left: u32,
    /// Root moves in total.
    pub moves_total: u32,
    /// The root move being searched, if known.
    pub current_move: Option<String>,
}

/// One engine → GUI line.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Reply {
    /// `feature a=1 b="x" …`: names must be single words without `=`.
    Features(Vec<(String, FeatureValue)>),
    /// `move MOVE`
    Move(String),
    /// `RESULT {COMMENT}`: a claim that the game ended by rule, e.g. `1-0 {White mates}`.
    GameOver { result: GameResult, comment: String },
    /// `resign`
    Resign,
    /// `offer draw`: offer, accept, or claim a draw that the next move creates.
    OfferDraw,
    /// `Illegal move: MOVE` or `Illegal move (REASON): MOVE`.
    IllegalMove { reason: Option<String>, text: String },
    /// `Error (KIND): TEXT`, e.g. `Error (unknown command): frobnicate`.
    Error { kind: String, text: String },
    /// `pong N`: N exactly as received in `ping N`.
    Pong(String),
    /// `Hint: MOVE`
    Hint(String),
    /// Thinking output.
    Thinking(ThinkingLine),
    /// `stat01: …`
    Status(AnalysisStatus),
    /// `setup …`: the rest is raw, e.g. `(PNBRQ..AC…Kpnbrq..ac…k) 10x10+7_fairy FEN`.
    Setup(String),
    /// `piece ID BETZA`, e.g. `piece P& fmWfceFifmnD`.
    Piece { id: String, betza: String },
    /// `highlight COLORFEN`
    Highlight(String),
    /// `telluser MSG`: information popup.
    TellUser(String),
    /// `tellusererror MSG`: error popup.
    TellUserError(String),
    /// `# TEXT`: only after the GUI has sent `accepted debug`.
    Debug(String),
    /// The answer to `bk`: each line starts with a space, and an empty line ends the answer.
    BookInfo(Vec<String>),
}

impl Reply {
    /// The claim of a game end by rule, the core's verdict: `RESULT {DESCRIPTION}`.
    pub fn game_over(outcome: &Outcome) -> Reply {
        Reply::GameOver {
            result: outcome.result(),
            comment: outcome.description(),
        }
    }

    /// `Error (unknown command): WORD`. Only the command word is quoted, as engines do (transcript T8):
    /// XBoard scans the error text for command names, so the arguments must not add any.
    pub fn unknown_command(line: &str) -> Reply {
        let word = line
            .split([' ', '\t'])
            .find(|word| !word.is_empty())
            .unwrap_or_default();
        Reply::Error {
            kind: "unknown command".to_string(),
            text: word.to_string(),
        }
    }

    /// The error answer to a line the parser did not accept (`Unknown` or `Bad`); `None` for any other
    /// command, including an empty line (which needs no answer).
    pub fn for_unparsed(command: &Command) -> Option<Reply> {
        match command {
            Command::Unknown(line) => Some(Reply::unknown_command(line)),
            Command::Bad { command, reason } => Some(Reply::Error {
                kind: reason.clone(),
                text: command.clone(),
            }),
            _ => None,
        }
    }
}

/// Free text written on one line: CR and LF become spaces.
struct OneLine<'a>(&'a str);

impl fmt::Display for OneLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for piece in self.0.split_inclusive(['\r', '\n']) {
            match piece.strip_suffix(['\r', '\n']) {
                Some(text) => write!(f, "{text} ")?,
                None => f.write_str(piece)?,
            }
        }
        Ok(())
    }
}

impl fmt::Display for FeatureValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FeatureValue::Bool(value) => write!(f, "{}", u8::from(*value)),
            FeatureValue::Int(value) => write!(f, "{value}"),
            FeatureValue::Str(text) => write!(f, "\"{}\"", OneLine(&text.replace('"', "'"))),
        }
    }
}

impl fmt::Display for ThinkingLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {} {}", self.depth, self.score, self.centiseconds, self.nodes)?;
        if let Some(extras) = &self.extras {
            write!(f, " {} {} {}", extras.seldepth, extras.nps, extras.tbhits)?;
        }
        // The TAB is required before the PV once extra numbers are present, and harmless without them:
        // every reader splits on whitespace. Using it always keeps one rule.
        write!(f, "\t{}", OneLine(&self.pv))
    }
}

impl fmt::Display for AnalysisStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "stat01: {} {} {} {} {}",
            self.centiseconds, self.nodes, self.depth, self.moves_left, self.moves_total
        )?;
        match &self.current_move {
            Some(current_move) => write!(f, " {}", OneLine(current_move)),
            None => Ok(()),
        }
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Features(features) => {
                f.write_str("feature")?;
                for (name, value) in features {
                    write!(f, " {}={value}", OneLine(name))?;
                }
                Ok(())
            }
            Reply::Move(text) => write!(f, "move {}", OneLine(text)),
            Reply::GameOver { result, comment } => write!(f, "{result} {{{}}}", OneLine(comment)),
            Reply::Resign => f.write_str("resign"),
            Reply::OfferDraw => f.write_str("offer draw"),
            Reply::IllegalMove { reason: None, text } => write!(f, "Illegal move: {}", OneLine(text)),
            Reply::IllegalMove {
                reason: Some(reason),
                text,
            } => {
                write!(f, "Illegal move ({}): {}", OneLine(reason), OneLine(text))
            }
            Reply::Error { kind, text } => write!(f, "Error ({}): {}", OneLine(kind), OneLine(text)),
            Reply::Pong(token) => write!(f, "pong {}", OneLine(token)),
            Reply::Hint(text) => write!(f, "Hint: {}", OneLine(text)),
            Reply::Thinking(line) => line.fmt(f),
            Reply::Status(status) => status.fmt(f),
            Reply::Setup(text) => write!(f, "setup {}", OneLine(text)),
            Reply::Piece { id, betza } => write!(f, "piece {} {}", OneLine(id), OneLine(betza)),
            Reply::Highlight(colorfen) => write!(f, "highlight {}", OneLine(colorfen)),
            Reply::TellUser(text) => write!(f, "telluser {}", OneLine(text)),
            Reply::TellUserError(text) => write!(f, "tellusererror {}", OneLine(text)),
            Reply::Debug(text) => write!(f, "# {}", OneLine(text)),
            Reply::BookInfo(lines) => {
                for line in lines {
                    writeln!(f, " {}", OneLine(line))?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cecp_score_numbers() {
        assert_eq!(cecp_score(Score::Cp(-42)), -42);
        assert_eq!(cecp_score(Score::Cp(250_000)), 99_999);
        assert_eq!(cecp_score(Score::Mate(3)), 100_003);
        assert_eq!(cecp_score(Score::Mate(-2)), -100_002);
        assert_eq!(cecp_score(Score::Mate(0)), -100_000);
    }
    use crate::protocol::xboard::command::parse_command;

    fn s(text: &str) -> String {
        text.to_string()
    }

    fn thinking(depth: u32, score: i32, centiseconds: u64, nodes: u64, pv: &str) -> Reply {
        Reply::Thinking(ThinkingLine {
            depth,
            score,
            centiseconds,
            nodes,
            extras: None,
            pv: s(pv),
        })
    }

    #[test]
    fn every_reply_prints_exactly() {
        let cases = vec![
            (
                Reply::Features(vec![
                    (s("ping"), true.into()),
                    (s("sigint"), false.into()),
                    (s("done"), 0.into()),
                    (s("myname"), "RustFairy 0.1".into()),
                ]),
                "feature ping=1 sigint=0 done=0 myname=\"RustFairy 0.1\"",
            ),
            (
                Reply::Features(vec![(s("done"), FeatureValue::Int(1))]),
                "feature done=1",
            ),
            (Reply::Move(s("e7e5")), "move e7e5"),
            (Reply::Move(s("f0h0,i0g0")), "move f0h0,i0g0"),
            (Reply::Move(s("a,")), "move a,"),
            (
                Reply::GameOver {
                    result: GameResult::WhiteWins,
                    comment: s("White mates"),
                },
                "1-0 {White mates}",
            ),
            (
                Reply::GameOver {
                    result: GameResult::BlackWins,
                    comment: s("Black mates"),
                },
                "0-1 {Black mates}",
            ),
            (
                Reply::GameOver {
                    result: GameResult::Draw,
                    comment: s("Stalemate"),
                },
                "1/2-1/2 {Stalemate}",
            ),
            (Reply::Resign, "resign"),
            (Reply::OfferDraw, "offer draw"),
            (
                Reply::IllegalMove {
                    reason: None,
                    text: s("e2e5"),
                },
                "Illegal move: e2e5",
            ),
            (
                Reply::IllegalMove {
                    reason: Some(s("no piece on e3")),
                    text: s("e3e4"),
                },
                "Illegal move (no piece on e3): e3e4",
            ),
            (
                Reply::Error {
                    kind: s("command not legal now"),
                    text: s("undo"),
                },
                "Error (command not legal now): undo",
            ),
            (Reply::Pong(s("40213")), "pong 40213"),
            (Reply::Hint(s("g1f3")), "Hint: g1f3"),
            (
                Reply::BookInfo(vec![s("no book"), s("two\nlines")]),
                " no book\n two lines\n",
            ),
            (thinking(2, -10, 0, 95, "e7e5 g2g4"), "2 -10 0 95\te7e5 g2g4"),
            (
                Reply::Thinking(ThinkingLine {
                    depth: 12,
                    score: 35,
                    centiseconds: 150,
                    nodes: 1_234_567,
                    extras: Some(ThinkingExtras {
                        seldepth: 18,
                        nps: 823_000,
                        tbhits: 0,
                    }),
                    pv: s("e2e4 e7e5 g1f3"),
                }),
                "12 35 150 1234567 18 823000 0\te2e4 e7e5 g1f3",
            ),
            (
                Reply::Status(AnalysisStatus {
                    centiseconds: 12,
                    nodes: 2040,
                    depth: 3,
                    moves_left: 17,
                    moves_total: 33,
                    current_move: Some(s("d2d4")),
                }),
                "stat01: 12 2040 3 17 33 d2d4",
            ),
            (
                Reply::Status(AnalysisStatus {
                    centiseconds: 0,
                    nodes: 0,
                    depth: 1,
                    moves_left: 20,
                    moves_total: 20,
                    current_move: None,
                }),
                "stat01: 0 0 1 20 20",
            ),
            (
                Reply::Setup(s(
                    "(PNBRQKpnbrqk) 6x6+0_fairy rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1",
                )),
                "setup (PNBRQKpnbrqk) 6x6+0_fairy rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1",
            ),
            (
                Reply::Piece {
                    id: s("K&"),
                    betza: s("KisO1isO2"),
                },
                "piece K& KisO1isO2",
            ),
            (
                Reply::Highlight(s("8/8/8/8/4y3/4yr2/8/8")),
                "highlight 8/8/8/8/4y3/4yr2/8/8",
            ),
            (
                Reply::TellUser(s("variant X not supported")),
                "telluser variant X not supported",
            ),
            (
                Reply::TellUserError(s("Illegal position")),
                "tellusererror Illegal position",
            ),
            (Reply::Debug(s("hash 64 MB")), "# hash 64 MB"),
        ];
        for (reply, line) in cases {
            assert_eq!(reply.to_string(), line, "{reply:?}");
        }
    }

    #[test]
    fn free_text_stays_on_one_line() {
        assert_eq!(Reply::TellUser(s("a\nmove e2e4")).to_string(), "telluser a move e2e4");
        assert_eq!(Reply::Debug(s("x\r\ny\n")).to_string(), "# x  y ");
        let features = Reply::Features(vec![(s("myname"), "Say \"hi\"\n".into())]);
        assert_eq!(features.to_string(), "feature myname=\"Say 'hi' \"");
        for reply in [
            Reply::Move(s("\n")),
            Reply::Setup(s("a\rb")),
            thinking(1, 0, 0, 0, "e2e4\n1 2 3 4 x"),
            Reply::GameOver {
                result: GameResult::Draw,
                comment: s("\n"),
            },
        ] {
            let line = reply.to_string();
            assert!(!line.contains(['\r', '\n']), "{line:?}");
        }
    }

    #[test]
    fn error_replies_for_unparsed_lines() {
        assert_eq!(
            Reply::for_unparsed(&parse_command("frobnicate 3")).map(|reply| reply.to_string()),
            Some(s("Error (unknown command): frobnicate"))
        );
        assert_eq!(
            Reply::for_unparsed(&parse_command("nps")).map(|reply| reply.to_string()),
            Some(s("Error (missing argument): nps"))
        );
        assert_eq!(
            Reply::for_unparsed(&parse_command("sd x")).map(|reply| reply.to_string()),
            Some(s("Error (expected a depth): sd x"))
        );
        assert_eq!(Reply::for_unparsed(&parse_command("new")), None);
        assert_eq!(Reply::for_unparsed(&parse_command("  ")), None);
        assert_eq!(
            Reply::unknown_command("\tfoo bar").to_string(),
            "Error (unknown command): foo"
        );
    }

    /// Python-chess's check for error lines, `^\s*(Error|Illegal move)(\s*\([^()]+\))?\s*:`, in plain
    /// Rust: the reason must not contain parentheses or the GUI misreads the line.
    fn python_chess_sees_error(line: &str) -> bool {
        let line = line.trim_start();
        let Some(rest) = line.strip_prefix("Error").or_else(|| line.strip_prefix("Illegal move")) else {
            return false;
        };
        let rest = rest.trim_start();
        let rest = match rest.strip_prefix('(') {
            Some(inside) => match inside.split_once(')') {
                Some((reason, after)) if !reason.is_empty() && !reason.contains('(') => after,
                _ => return false,
            },
            None => rest,
        };
        rest.trim_start().starts_with(':')
    }

    #[test]
    fn error_lines_match_python_chess() {
        for line in [
            "Error (unknown command): frobnicate",
            "Illegal move: e2e5",
            "Illegal move (blocked): e2e4",
        ] {
            assert!(python_chess_sees_error(line), "{line}");
        }
        for bad in [
            "ping",
            "sd x",
            "level 40",
            "holding P p",
            "option =1",
            "result 2-0",
            "st -1",
        ] {
            let reply = Reply::for_unparsed(&parse_command(bad))
                .map(|reply| reply.to_string())
                .unwrap_or_default();
            assert!(python_chess_sees_error(&reply), "{reply}");
        }
    }

    /// `^\d+ -?\d+ \d+ \d+( \d+)*\s.*$`, the transcripts' pattern for thinking lines.
    fn matches_thinking_pattern(line: &str) -> bool {
        let Some((numbers, _pv)) = line.split_once(|c: char| c.is_whitespace() && c != ' ') else {
            return false;
        };
        let fields: Vec<&str> = numbers.split(' ').collect();
        let integer = |field: &str| !field.is_empty() && field.bytes().all(|b| b.is_ascii_digit());
        fields.len() >= 4
            && fields.iter().enumerate().all(|(index, field)| {
                if index == 1 {
                    integer(field.strip_prefix('-').unwrap_or(field))
                } else {
                    integer(field)
                }
            })
    }

    /// Engine lines of /work/shared/protocol/transcripts.md marked exact, and the thinking patterns.
    #[test]
    fn transcript_lines_print_identically() {
        let piece = |id: &str, betza: &str| Reply::Piece {
            id: s(id),
            betza: s(betza),
        };
        let features = Reply::Features(vec![
            (s("ping"), true.into()),
            (s("setboard"), true.into()),
            (s("playother"), true.into()),
            (s("usermove"), true.into()),
            (s("time"), true.into()),
            (s("draw"), true.into()),
            (s("sigint"), false.into()),
            (s("sigterm"), false.into()),
            (s("reuse"), true.into()),
            (s("analyze"), true.into()),
            (s("colors"), false.into()),
            (s("name"), false.into()),
            (s("nps"), false.into()),
            (s("highlight"), true.into()),
            (s("myname"), "RustFairy 0.1".into()),
            (
                s("variants"),
                "normal,wildcastle,nocastle,fischerandom,crazyhouse,tenhouse".into(),
            ),
        ]);
        let cases = vec![
            (Reply::Features(vec![(s("done"), 0.into())]), "feature done=0"),
            (
                features,
                "feature ping=1 setboard=1 playother=1 usermove=1 time=1 draw=1 sigint=0 sigterm=0 reuse=1 analyze=1 \
                 colors=0 name=0 nps=0 highlight=1 myname=\"RustFairy 0.1\" \
                 variants=\"normal,wildcastle,nocastle,fischerandom,crazyhouse,tenhouse\"",
            ),
            (
                Reply::Features(vec![(s("option"), "Hash -spin 64 1 4096".into())]),
                "feature option=\"Hash -spin 64 1 4096\"",
            ),
            (Reply::Features(vec![(s("done"), 1.into())]), "feature done=1"),
            (Reply::Pong(s("1")), "pong 1"),
            (Reply::Move(s("d8h4")), "move d8h4"),
            (
                Reply::GameOver {
                    result: GameResult::BlackWins,
                    comment: s("Black mates"),
                },
                "0-1 {Black mates}",
            ),
            (Reply::Move(s("P@e5")), "move P@e5"),
            (
                Reply::Setup(s("(PNBRQ..AC............Kpnbrq..ac............k) 10x10+7_fairy \
                     rnbqkcabnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBQKCABNR[-] w - - 0 1")),
                "setup (PNBRQ..AC............Kpnbrq..ac............k) 10x10+7_fairy \
                 rnbqkcabnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBQKCABNR[-] w - - 0 1",
            ),
            (piece("P&", "fmWfceFifmnD"), "piece P& fmWfceFifmnD"),
            (piece("N&", "N"), "piece N& N"),
            (piece("B&", "B"), "piece B& B"),
            (piece("R&", "R"), "piece R& R"),
            (piece("Q&", "Q"), "piece Q& Q"),
            (piece("A&", "BN"), "piece A& BN"),
            (piece("C&", "RN"), "piece C& RN"),
            (piece("K&", "K"), "piece K& K"),
            (
                Reply::Highlight(s("10/10/10/10/10/10/10/Y1Y7/10/10")),
                "highlight 10/10/10/10/10/10/10/Y1Y7/10/10",
            ),
            (
                Reply::IllegalMove {
                    reason: None,
                    text: s("e2e5"),
                },
                "Illegal move: e2e5",
            ),
            (
                Reply::unknown_command("frobnicate 3"),
                "Error (unknown command): frobnicate",
            ),
            (
                Reply::Error {
                    kind: s("command not legal now"),
                    text: s("undo"),
                },
                "Error (command not legal now): undo",
            ),
            (
                Reply::TellUserError(s("Illegal position")),
                "tellusererror Illegal position",
            ),
            (
                Reply::IllegalMove {
                    reason: None,
                    text: s("e2e4"),
                },
                "Illegal move: e2e4",
            ),
            (Reply::Pong(s("51877")), "pong 51877"),
        ];
        for (reply, line) in cases {
            assert_eq!(reply.to_string(), line);
        }
        for reply in [
            thinking(1, -35, 0, 20, "e7e5"),
            thinking(1, 100001, 0, 30, "d8h4"),
            thinking(1, 40, 0, 75, "P@e4 d5a5"),
            Reply::Thinking(ThinkingLine {
                depth: 3,
                score: -28,
                centiseconds: 2,
                nodes: 2011,
                extras: Some(ThinkingExtras {
                    seldepth: 5,
                    nps: 100_550,
                    tbhits: 0,
                }),
                pv: s("f1b5 g8f6 e1g1"),
            }),
        ] {
            let line = reply.to_string();
            assert!(matches_thinking_pattern(&line), "{line:?}");
        }
    }
}
