//! UCI replies (engine → GUI) as types: the `Display` of a [`Reply`] is the line the engine
//! writes, without its line end. `engine_line` reads such lines back, from any engine.

use std::fmt;

use crate::search::Bound;

/// What the engine writes when it has no move to play (a position without a legal move).
pub const NO_MOVE: &str = "(none)";

/// One engine → GUI line.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Reply {
    /// `id name NAME` or `id author AUTHOR`.
    Id(Id),
    /// `option name NAME type …`: one option of the `uci` answer.
    Option(OptionDecl),
    /// `uciok`: the end of the `uci` answer.
    UciOk,
    /// `readyok`: the answer to `isready`.
    ReadyOk,
    /// `bestmove MOVE [ponder MOVE]`. The moves are their text on the wire; `best` is [`NO_MOVE`]
    /// when there is none (other engines send `0000`, or nothing: it is then empty).
    BestMove { best: String, ponder: Option<String> },
    /// `info …`
    Info(Info),
    /// `copyprotection checking|ok|error`
    CopyProtection(Check),
    /// `registration checking|ok|error`
    Registration(Check),
}

impl Reply {
    /// `info string TEXT`.
    pub fn info_string(text: impl Into<String>) -> Reply {
        Reply::Info(Info {
            tail: Some(InfoTail::String(text.into())),
            ..Info::default()
        })
    }

    /// `bestmove MOVE` or `bestmove MOVE ponder MOVE`.
    pub fn best_move(best: impl Into<String>, ponder: Option<String>) -> Reply {
        Reply::BestMove {
            best: best.into(),
            ponder,
        }
    }

    /// `bestmove (none)`.
    pub fn no_move() -> Reply {
        Reply::best_move(NO_MOVE, None)
    }
}

/// What `id` says.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Id {
    Name(String),
    Author(String),
}

/// One option as the `uci` answer announces it.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct OptionDecl {
    /// The name, words joined by single spaces (it may have several: `Move Overhead`).
    pub name: String,
    pub kind: OptionKind,
}

/// An option's type with what that type announces.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum OptionKind {
    /// `type check default true|false`
    Check { default: bool },
    /// `type spin default N min N max N`
    Spin { default: i64, min: i64, max: i64 },
    /// `type combo default VALUE var VALUE …`
    Combo { default: String, vars: Vec<String> },
    /// `type button`
    Button,
    /// `type string default TEXT` (UCI writes an empty text as `<empty>`).
    String { default: String },
    /// A type we do not know, or one whose words do not read (a spin without numbers): the type
    /// word and the words after it, as the engine sent them.
    Other { type_name: String, words: Vec<String> },
}

impl OptionKind {
    /// A combo's values; none for any other type.
    pub fn combo_values(&self) -> &[String] {
        match self {
            OptionKind::Combo { vars, .. } => vars,
            _ => &[],
        }
    }
}

/// The answer of `copyprotection` and `registration`.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Check {
    Checking,
    Ok,
    Error,
}

impl Check {
    pub(super) const WORDS: [(&'static str, Check); 3] = [
        ("checking", Check::Checking),
        ("ok", Check::Ok),
        ("error", Check::Error),
    ];
}

/// A score as `info` gives it: its value, and which side of the true value it lies on.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct InfoScore {
    pub value: ScoreValue,
    /// `lowerbound`, `upperbound`, or neither (exact).
    pub bound: Bound,
}

/// `cp N` or `mate N` (moves, not plies; negative when the side to move is mated). Wider than the
/// search's scores: another engine may send any number.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum ScoreValue {
    Cp(i64),
    Mate(i64),
}

/// An `info` line: each field the engine sent. Written in this order, which is Stockfish's; read in
/// any order.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub multipv: Option<u32>,
    pub score: Option<InfoScore>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub hashfull: Option<u32>,
    pub tbhits: Option<u64>,
    pub cpuload: Option<u32>,
    /// Milliseconds.
    pub time: Option<u64>,
    pub currmove: Option<String>,
    pub currmovenumber: Option<u32>,
    /// The field that takes the rest of the line, written last.
    pub tail: Option<InfoTail>,
}

/// The fields of `info` that run to the end of the line (so a line has at most one of them).
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum InfoTail {
    /// `pv MOVE …`: the principal variation.
    Pv(Vec<String>),
    /// `refutation MOVE …`: a move and the line that refutes it.
    Refutation(Vec<String>),
    /// `currline [CPU] MOVE …`: the line a search thread is on, as its words.
    CurrLine(Vec<String>),
    /// `string TEXT`: free text, exactly as written (spaces kept).
    String(String),
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Id(Id::Name(name)) => write!(f, "id name {name}"),
            Reply::Id(Id::Author(author)) => write!(f, "id author {author}"),
            Reply::Option(option) => write!(f, "{option}"),
            Reply::UciOk => f.write_str("uciok"),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::BestMove { best, ponder } => {
                write!(f, "bestmove {best}")?;
                match ponder {
                    Some(p) => write!(f, " ponder {p}"),
                    None => Ok(()),
                }
            }
            Reply::Info(info) => write!(f, "{info}"),
            Reply::CopyProtection(check) => write!(f, "copyprotection {check}"),
            Reply::Registration(check) => write!(f, "registration {check}"),
        }
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = Check::WORDS.iter().find(|(_, c)| c == self).map_or("", |(w, _)| w);
        f.write_str(word)
    }
}

impl fmt::Display for OptionDecl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Spin { default, min, max } => write!(f, "spin default {default} min {min} max {max}"),
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|v| write!(f, " var {v}"))
            }
            OptionKind::Button => f.write_str("button"),
            OptionKind::String { default } => write!(f, "string default {default}"),
            OptionKind::Other { type_name, words } => {
                f.write_str(type_name)?;
                words.iter().try_for_each(|w| write!(f, " {w}"))
            }
        }
    }
}

impl fmt::Display for InfoScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value {
            ScoreValue::Cp(cp) => write!(f, "cp {cp}")?,
            ScoreValue::Mate(n) => write!(f, "mate {n}")?,
        }
        match self.bound {
            Bound::Exact => Ok(()),
            Bound::Lower => f.write_str(" lowerbound"),
            Bound::Upper => f.write_str(" upperbound"),
        }
    }
}

/// ` KEY VALUE` when there is a value.
fn field(f: &mut fmt::Formatter<'_>, key: &str, value: Option<&dyn fmt::Display>) -> fmt::Result {
    match value {
        Some(v) => write!(f, " {key} {v}"),
        None => Ok(()),
    }
}

/// ` KEY WORD …`
fn words_field(f: &mut fmt::Formatter<'_>, key: &str, words: &[String]) -> fmt::Result {
    f.write_str(" ")?;
    f.write_str(key)?;
    words.iter().try_for_each(|w| write!(f, " {w}"))
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn shown<T: fmt::Display>(value: &Option<T>) -> Option<&dyn fmt::Display> {
            value.as_ref().map(|v| v as &dyn fmt::Display)
        }
        f.write_str("info")?;
        field(f, "depth", shown(&self.depth))?;
        field(f, "seldepth", shown(&self.seldepth))?;
        field(f, "multipv", shown(&self.multipv))?;
        field(f, "score", shown(&self.score))?;
        field(f, "nodes", shown(&self.nodes))?;
        field(f, "nps", shown(&self.nps))?;
        field(f, "hashfull", shown(&self.hashfull))?;
        field(f, "tbhits", shown(&self.tbhits))?;
        field(f, "cpuload", shown(&self.cpuload))?;
        field(f, "time", shown(&self.time))?;
        field(f, "currmove", shown(&self.currmove))?;
        field(f, "currmovenumber", shown(&self.currmovenumber))?;
        match &self.tail {
            None => Ok(()),
            Some(InfoTail::Pv(moves)) => words_field(f, "pv", moves),
            Some(InfoTail::Refutation(moves)) => words_field(f, "refutation", moves),
            Some(InfoTail::CurrLine(words)) => words_field(f, "currline", words),
            Some(InfoTail::String(text)) => write!(f, " string {text}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_as_the_engine_writes_them() {
        let info = Info {
            depth: Some(3),
            seldepth: Some(5),
            multipv: Some(1),
            score: Some(InfoScore {
                value: ScoreValue::Cp(-12),
                bound: Bound::Upper,
            }),
            nodes: Some(400),
            nps: Some(20000),
            hashfull: Some(7),
            time: Some(20),
            tail: Some(InfoTail::Pv(vec!["e2e4".into(), "e7e5".into()])),
            ..Info::default()
        };
        assert_eq!(
            Reply::Info(info).to_string(),
            "info depth 3 seldepth 5 multipv 1 score cp -12 upperbound nodes 400 nps 20000 hashfull 7 time 20 pv e2e4 e7e5"
        );
        let currmove = Info {
            depth: Some(9),
            currmove: Some("P@e4".into()),
            currmovenumber: Some(4),
            ..Info::default()
        };
        assert_eq!(
            Reply::Info(currmove).to_string(),
            "info depth 9 currmove P@e4 currmovenumber 4"
        );
        assert_eq!(Reply::info_string("a  b ").to_string(), "info string a  b ");
        assert_eq!(Reply::no_move().to_string(), "bestmove (none)");
        assert_eq!(
            Reply::best_move("e2e4", Some("e7e5".into())).to_string(),
            "bestmove e2e4 ponder e7e5"
        );
        let combo = OptionDecl {
            name: "UCI_Variant".into(),
            kind: OptionKind::Combo {
                default: "chess".into(),
                vars: vec!["chess".into(), "pillage".into()],
            },
        };
        assert_eq!(
            combo.to_string(),
            "option name UCI_Variant type combo default chess var chess var pillage"
        );
        assert_eq!(
            Reply::Registration(Check::Checking).to_string(),
            "registration checking"
        );
    }
}
