//! GUI → engine side of CECP v2: the typed [`Command`] (and [`EditCommand`] for the lines of `edit`
//! mode), nom parsers from one input line, and `Display` as the canonical wire line.
//!
//! This module owns syntax only. It knows no rules: moves, squares, FENs and variant names stay text,
//! because what they mean depends on the board and variant, which are decoded elsewhere. Parsing
//! never fails and never panics: a line is a known command, `Command::Bad` (a known command word
//! with unusable arguments, so the engine can answer `Error (REASON): LINE`) or `Command::Unknown`.
//!
//! Conventions, following the XBoard-era engines that read arguments with `sscanf`: words are
//! separated by spaces or tabs, command words are case-sensitive, and words after the last argument
//! a command takes are ignored. Commands whose argument is free text (`name`, `setboard`, `option`,
//! `usermove` …) take the rest of the line.

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{tag, take_till, take_till1, take_while1},
    character::complete::{char, space0, space1},
    combinator::{all_consuming, eof, map, map_parser, map_res, opt, recognize, rest, value, verify},
    sequence::{delimited, preceded, terminated},
};
use std::fmt;
use std::str::FromStr;

use crate::core::GameResult;

use crate::notation::move_syntax::{move_shape, piece_id, square};

type NomError<'a> = nom::error::Error<&'a str>;
type ParseResult<'a, O> = IResult<&'a str, O>;

/// The argument of `exclude` / `include`: one root move, or every move.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum MoveFilter {
    /// `all`
    All,
    /// A move, as sent (coordinate text; not checked here).
    Move(String),
}

/// One GUI → engine command line.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// A blank line. Not part of the protocol (XBoard never sends one); engines ignore it.
    Empty,
    /// `xboard`: enter xboard mode.
    Xboard,
    /// `protover N`: the GUI speaks protocol N; the engine answers with its features.
    Protover(u32),
    /// `accepted NAME`: reply to a feature (the rest of the line, e.g. `option …` for an option).
    Accepted(String),
    /// `rejected NAME`: reply to a feature (the rest of the line).
    Rejected(String),
    /// `new`: reset to normal chess, start position, engine plays Black.
    New,
    /// `variant NAME`: the name as sent, including any `WxH+S_` size prefix.
    Variant(String),
    /// `random`: GNU Chess toggle that XBoard sends by default; to be ignored.
    Random,
    /// `force`: play neither side.
    Force,
    /// `go`: play the side to move and start thinking.
    Go,
    /// `playother`: play the side not to move.
    PlayOther,
    /// `white` (obsolete): White to move, engine plays Black.
    White,
    /// `black` (obsolete): Black to move, engine plays White.
    Black,
    /// `level MPS BASE INC`: conventional or incremental clock.
    Level {
        /// Moves per session; 0 = the base time is for the whole game.
        moves_per_session: u32,
        /// BASE converted to seconds (it is sent as minutes or `min:sec`).
        base_seconds: f64,
        /// Seconds added after each move (python-chess may send a fraction).
        increment_seconds: f64,
    },
    /// `st T`: at most T seconds per move (python-chess may send a fraction).
    MoveTime { seconds: f64 },
    /// `sd D`, or the legacy `depth D`: depth limit in plies, on top of the clock; cleared by `new`.
    DepthLimit { plies: u32 },
    /// `nps N`: count N nodes as one second (0 = use CPU time); cleared by `new`.
    NodesPerSecond(u64),
    /// `time N`: the engine's clock in centiseconds (may be negative).
    EngineTime { centiseconds: i64 },
    /// `otim N`: the opponent's clock in centiseconds (may be negative).
    OpponentTime { centiseconds: i64 },
    /// A move from the GUI: `usermove MOVE` (`prefixed`), or a bare line that looks like a move
    /// (`notation::move_syntax`, the grammar every move reader shares).
    /// `text` is exactly as sent; whether it is legal, or even a move of this variant, is for the
    /// caller to decide (answering `Illegal move: TEXT` if not).
    UserMove { text: String, prefixed: bool },
    /// `?`: move now.
    MoveNow,
    /// `ping N`: answer `pong N` with exactly this token once earlier commands are done.
    Ping(String),
    /// `draw`: the opponent offers a draw.
    DrawOffer,
    /// `result RES {COMMENT}`: the game is over.
    Result {
        result: GameResult,
        comment: Option<String>,
    },
    /// `setboard FEN`: the FEN is the rest of the line.
    SetBoard(String),
    /// `edit`: the following lines are edit-mode lines (see [`parse_edit_line`]) up to `.`.
    Edit,
    /// `hint`
    Hint,
    /// `bk`: book information.
    Book,
    /// `undo`: take back one ply.
    Undo,
    /// `remove`: take back two plies.
    Remove,
    /// `hard` (true) / `easy` (false): pondering on or off. Each is absolute, never a toggle.
    Ponder(bool),
    /// `post` (true) / `nopost` (false): thinking output on or off.
    Post(bool),
    /// `analyze`: enter analyze mode.
    Analyze,
    /// `exit`: leave analyze mode.
    ExitAnalyze,
    /// `.`: status request in analyze mode (answered with `stat01:` or nothing).
    AnalyzeStatus,
    /// `name X`: the opponent's name (rest of line).
    OpponentName(String),
    /// `rating ENGINE OPPONENT`: 0 = unrated.
    Rating { engine: i32, opponent: i32 },
    /// `ics HOST`: `-` for a local game.
    Ics(String),
    /// `computer`: the opponent is a program.
    Computer,
    /// `pause`
    Pause,
    /// `resume`
    Resume,
    /// `memory MB`: total memory for tables.
    Memory { megabytes: u64 },
    /// `cores N`: thread count.
    Cores(u32),
    /// `egtpath TYPE PATH`: the path is the rest of the line (it may contain spaces).
    EgtPath { kind: String, path: String },
    /// `option NAME[=VALUE]`: split at the first `=`; the name may contain spaces. Buttons have no value.
    SetOption { name: String, value: Option<String> },
    /// `exclude MOVE` / `exclude all`
    Exclude(MoveFilter),
    /// `include MOVE` / `include all`
    Include(MoveFilter),
    /// `setscore SCORE DEPTH` (in the spec, unknown to current XBoard).
    SetScore { score: i32, depth: u32 },
    /// `lift SQ`: the square as sent (rank numbering depends on the board).
    Lift(String),
    /// `put SQ`
    Put(String),
    /// `hover SQ`
    Hover(String),
    /// `holding [WHITE] [BLACK] …`: the bracket contents raw, and whatever follows them.
    Holding {
        white: String,
        black: String,
        extra: String,
    },
    /// `partner [NAME]`: no name = no partner any more.
    Partner(Option<String>),
    /// `ptell TEXT`: message from the bughouse partner.
    PartnerTell(String),
    /// `quit`
    Quit,
    /// A known command word whose arguments are missing or unusable.
    Bad {
        /// The whole command line as received (trimmed), for `Error (REASON): COMMAND`.
        command: String,
        /// Short reason without parentheses (python-chess matches `\([^()]+\)`).
        reason: String,
    },
    /// A line that is neither a known command nor move-like (trimmed).
    Unknown(String),
}

/// One line received in `edit` mode.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum EditCommand {
    /// `c`: the following pieces are the other colour.
    ToggleColor,
    /// `#`: empty the board.
    ClearBoard,
    /// `.`: leave edit mode.
    Done,
    /// `Pa4`: put piece `P` (upper case, colour from `c`; possibly dressed as `N'`) on a square;
    /// `Pa4+` marks it promoted.
    Place {
        piece: String,
        square: String,
        promoted: bool,
    },
    /// `xa4`: empty a square.
    ClearSquare(String),
    /// `P@…` holdings line sent by XBoard with `feature xedit=1`, kept raw.
    Holdings(String),
    /// Anything else (including ChessBase's `castle` / `ep`), kept raw.
    Unknown(String),
}

/// Parses one line from the GUI. Surrounding blanks and line-end characters (a trailing `\r` from
/// CR LF input) are ignored.
pub fn parse_command(line: &str) -> Command {
    let line = trim_line(line);
    if line.is_empty() {
        return Command::Empty;
    }
    match command_line(line) {
        Ok((_, command)) => command,
        Err(_) => Command::Unknown(line.to_string()),
    }
}

/// Parses one line received between `edit` and `.`.
pub fn parse_edit_line(line: &str) -> EditCommand {
    let line = trim_line(line);
    // Each form must take the whole line: `c` alone toggles the colour, while `ca4` places a piece.
    let parsed = alt((
        all_consuming(value(EditCommand::ToggleColor, char('c'))),
        all_consuming(value(EditCommand::ClearBoard, char('#'))),
        all_consuming(value(EditCommand::Done, char('.'))),
        all_consuming(map(preceded(char('x'), square), |square: &str| {
            EditCommand::ClearSquare(square.to_string())
        })),
        all_consuming(map((piece_id, square, opt(char('+'))), |(piece, square, promoted)| {
            EditCommand::Place {
                piece: piece.to_string(),
                square: square.to_string(),
                promoted: promoted.is_some(),
            }
        })),
        map(recognize((piece_id, char('@'), rest)), |raw: &str| {
            EditCommand::Holdings(raw.to_string())
        }),
    ))
    .parse(line);
    match parsed {
        Ok((_, edit)) => edit,
        Err(_) => EditCommand::Unknown(line.to_string()),
    }
}

// ---------------------------------------------------------------------------------------------
// Lexical helpers

/// Word separator: blanks, and `\r`, which a CRLF line ends with and which no word may then hold
/// (a word ending in `\r` would lose it to the trim when printed last on a line). Other
/// whitespace (Unicode spaces, form feeds) is ordinary text, the same at the ends of a line as
/// inside it, so that every parsed command prints as a line that parses back to it.
fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t' || c == '\r'
}

fn trim_line(line: &str) -> &str {
    line.trim_matches(|c| is_blank(c) || c == '\n')
}

/// One argument word.
fn token(input: &str) -> ParseResult<'_, &str> {
    take_till1(is_blank).parse(input)
}

/// The rest of the line, which must not be empty.
fn text(input: &str) -> ParseResult<'_, &str> {
    verify(rest, |text: &str| !text.is_empty()).parse(input)
}

/// A whole command word (`st` must not match `stop`), with the blanks after it.
fn keyword<'a>(word: &'static str) -> impl Parser<&'a str, Output = &'a str, Error = NomError<'a>> {
    terminated(tag(word), alt((space1, eof)))
}

/// A word parsed with `FromStr` (integers).
fn number<'a, T: FromStr>(input: &'a str) -> ParseResult<'a, T> {
    map_res(token, str::parse::<T>).parse(input)
}

/// A word that `parser` must consume entirely.
fn whole_word<'a, O, P>(parser: P) -> impl Parser<&'a str, Output = O, Error = NomError<'a>>
where
    P: Parser<&'a str, Output = O, Error = NomError<'a>>,
{
    map_parser(token, all_consuming(parser))
}

/// `12`, `0.5`, `2.`, `.5`: no sign, no exponent, so no NaN or infinity can come through.
///
/// Not written as `recognize((digit1, opt((char('.'), digit0))))`: in nom 8.0.0, digit parsers that
/// reach the end of a `&str` return a misplaced remainder, and `recognize` then cuts the fraction
/// off (`0.5` became `0.`; rust-bakery/nom issue 1808, fixed upstream after 8.0.0).
fn unsigned_decimal(input: &str) -> ParseResult<'_, f64> {
    let decimal_shape = |text: &str| text.matches('.').count() <= 1 && text.bytes().any(|b| b.is_ascii_digit());
    map_res(
        verify(take_while1(|c: char| c.is_ascii_digit() || c == '.'), decimal_shape),
        finite_f64,
    )
    .parse(input)
}

fn finite_f64(text: &str) -> Result<f64, &'static str> {
    match text.parse::<f64>() {
        Ok(number) if number.is_finite() => Ok(number),
        _ => Err("number out of range"),
    }
}

/// Centiseconds for `time`/`otim`. A fraction is dropped rather than refused: an error mentioning
/// `time` makes XBoard stop sending the clocks for the rest of the session.
fn centiseconds(text: &str) -> Result<i64, std::num::ParseIntError> {
    let whole = match text.split_once('.') {
        Some((whole, fraction)) if fraction.bytes().all(|b| b.is_ascii_digit()) => whole,
        _ => text,
    };
    whole.parse::<i64>()
}

/// BASE of `level`: minutes, or `min:sec`, in seconds. Whatever follows in the same word is ignored,
/// as the spec asks (room for future forms like `25+5`).
fn base_time(input: &str) -> ParseResult<'_, f64> {
    verify(
        map(
            (unsigned_decimal, opt(preceded(char(':'), unsigned_decimal))),
            |(minutes, seconds)| minutes * 60.0 + seconds.unwrap_or(0.0),
        ),
        |seconds: &f64| seconds.is_finite(),
    )
    .parse(input)
}

// ---------------------------------------------------------------------------------------------
// Command families

/// Recognises the command `word`, then parses its arguments. Once the word has matched, the line is
/// that command: arguments that do not parse give `Command::Bad` rather than `Unknown`, so the
/// engine can say what was wrong. `expected` is the reason given when arguments are present but unusable.
fn with_arguments<'a, P>(
    word: &'static str,
    expected: &'static str,
    mut arguments: P,
) -> impl FnMut(&'a str) -> ParseResult<'a, Command>
where
    P: Parser<&'a str, Output = Command, Error = NomError<'a>>,
{
    move |line: &'a str| {
        let (args, _) = keyword(word).parse(line)?;
        let command = match arguments.parse(args) {
            Ok((_, command)) => command,
            Err(_) => Command::Bad {
                command: line.to_string(),
                reason: if args.is_empty() { "missing argument" } else { expected }.to_string(),
            },
        };
        Ok(("", command))
    }
}

/// A command without arguments.
fn bare<'a>(word: &'static str, command: Command) -> impl Parser<&'a str, Output = Command, Error = NomError<'a>> {
    value(command, keyword(word))
}

/// A command whose single argument is the rest of the line.
fn with_text<'a>(word: &'static str, build: fn(String) -> Command) -> impl FnMut(&'a str) -> ParseResult<'a, Command> {
    with_arguments(
        word,
        "missing argument",
        map(text, move |text: &str| build(text.to_string())),
    )
}

/// A command whose single argument is one word, kept as text.
fn with_word<'a>(word: &'static str, build: fn(String) -> Command) -> impl FnMut(&'a str) -> ParseResult<'a, Command> {
    with_arguments(
        word,
        "missing argument",
        map(token, move |word: &str| build(word.to_string())),
    )
}

/// A command whose single argument is a number (see `number`).
fn with_number<'a, T: FromStr>(
    word: &'static str,
    expected: &'static str,
    build: fn(T) -> Command,
) -> impl FnMut(&'a str) -> ParseResult<'a, Command> {
    with_arguments(word, expected, map(number, build))
}

/// A command whose arguments are two numbers.
fn with_two_numbers<'a, A: FromStr, B: FromStr>(
    word: &'static str,
    expected: &'static str,
    build: fn(A, B) -> Command,
) -> impl FnMut(&'a str) -> ParseResult<'a, Command> {
    with_arguments(
        word,
        expected,
        map((number, space1, number), move |(a, _, b)| build(a, b)),
    )
}

/// A clock command (`time`, `otim`): centiseconds, a fraction dropped.
fn with_centiseconds<'a>(
    word: &'static str,
    build: fn(i64) -> Command,
) -> impl FnMut(&'a str) -> ParseResult<'a, Command> {
    with_arguments(word, "expected centiseconds", map(map_res(token, centiseconds), build))
}

/// Handshake, session settings, and engine-specific extras.
fn session_command(line: &str) -> ParseResult<'_, Command> {
    alt((
        bare("xboard", Command::Xboard),
        with_number("protover", "expected a protocol version number", Command::Protover),
        with_text("accepted", Command::Accepted),
        with_text("rejected", Command::Rejected),
        with_word("ping", Command::Ping),
        with_number("memory", "expected a size in megabytes", |megabytes| Command::Memory {
            megabytes,
        }),
        with_number("cores", "expected a thread count", Command::Cores),
        with_arguments(
            "egtpath",
            "expected a table type and a path",
            map((token, space1, text), |(kind, _, path)| Command::EgtPath {
                kind: kind.to_string(),
                path: path.to_string(),
            }),
        ),
        with_arguments("option", "expected NAME or NAME=VALUE", map_res(text, set_option)),
        with_text("name", Command::OpponentName),
        with_two_numbers("rating", "expected two ratings", |engine, opponent| Command::Rating {
            engine,
            opponent,
        }),
        with_word("ics", Command::Ics),
        bare("computer", Command::Computer),
        bare("random", Command::Random),
        bare("quit", Command::Quit),
    ))
    .parse(line)
}

fn set_option(text: &str) -> Result<Command, &'static str> {
    let (name, value) = match text.split_once('=') {
        Some((name, value)) => (name, Some(value.to_string())),
        None => (text, None),
    };
    let name = name.trim_matches(is_blank);
    if name.is_empty() {
        return Err("empty option name");
    }
    Ok(Command::SetOption {
        name: name.to_string(),
        value,
    })
}

/// Game flow: positions, sides, results, pondering and output switches.
fn game_command(line: &str) -> ParseResult<'_, Command> {
    alt((
        bare("new", Command::New),
        with_word("variant", Command::Variant),
        bare("force", Command::Force),
        bare("go", Command::Go),
        bare("playother", Command::PlayOther),
        bare("white", Command::White),
        bare("black", Command::Black),
        with_text("setboard", Command::SetBoard),
        bare("edit", Command::Edit),
        bare("undo", Command::Undo),
        bare("remove", Command::Remove),
        with_arguments("result", "expected 1-0, 0-1, 1/2-1/2 or *", game_result),
        bare("draw", Command::DrawOffer),
        bare("hard", Command::Ponder(true)),
        bare("easy", Command::Ponder(false)),
        bare("post", Command::Post(true)),
        bare("nopost", Command::Post(false)),
        bare("pause", Command::Pause),
        bare("resume", Command::Resume),
    ))
    .parse(line)
}

/// Arguments of `result`: `RES`, then an optional `{COMMENT}` (braces are tolerated missing).
fn game_result(args: &str) -> ParseResult<'_, Command> {
    let (after, result) = alt((
        value(GameResult::WhiteWins, tag("1-0")),
        value(GameResult::BlackWins, tag("0-1")),
        value(GameResult::Draw, tag("1/2-1/2")),
        value(GameResult::Unfinished, tag("*")),
    ))
    .parse(args)?;
    let (_, comment) = preceded(space0, rest).parse(after)?;
    let comment = if comment.is_empty() {
        None
    } else if let Some(inside) = comment.strip_prefix('{') {
        Some(inside.strip_suffix('}').unwrap_or(inside).to_string())
    } else {
        Some(comment.to_string())
    };
    Ok(("", Command::Result { result, comment }))
}

/// Clocks and search limits.
fn time_command(line: &str) -> ParseResult<'_, Command> {
    alt((
        with_arguments(
            "level",
            "expected MPS BASE INC",
            map(
                (
                    number,
                    space1,
                    map_parser(token, base_time),
                    space1,
                    whole_word(unsigned_decimal),
                ),
                |(moves_per_session, _, base_seconds, _, increment_seconds)| Command::Level {
                    moves_per_session,
                    base_seconds,
                    increment_seconds,
                },
            ),
        ),
        with_arguments(
            "st",
            "expected seconds per move",
            map(whole_word(unsigned_decimal), |seconds| Command::MoveTime { seconds }),
        ),
        with_number("sd", "expected a depth", |plies| Command::DepthLimit { plies }),
        with_number("depth", "expected a depth", |plies| Command::DepthLimit { plies }),
        with_number("nps", "expected nodes per second", Command::NodesPerSecond),
        with_centiseconds("time", |centiseconds| Command::EngineTime { centiseconds }),
        with_centiseconds("otim", |centiseconds| Command::OpponentTime { centiseconds }),
    ))
    .parse(line)
}

/// Moves, analysis and root-move filtering.
fn move_command(line: &str) -> ParseResult<'_, Command> {
    alt((
        with_text("usermove", |text| Command::UserMove { text, prefixed: true }),
        bare("?", Command::MoveNow),
        bare("hint", Command::Hint),
        bare("bk", Command::Book),
        bare("analyze", Command::Analyze),
        bare("exit", Command::ExitAnalyze),
        bare(".", Command::AnalyzeStatus),
        with_arguments("exclude", "missing argument", map(move_filter, Command::Exclude)),
        with_arguments("include", "missing argument", map(move_filter, Command::Include)),
        with_two_numbers("setscore", "expected SCORE DEPTH", |score, depth| Command::SetScore {
            score,
            depth,
        }),
        // A bare move is the whole line, kept exactly as sent.
        map(all_consuming(move_shape), |_| Command::UserMove {
            text: line.to_string(),
            prefixed: false,
        }),
    ))
    .parse(line)
}

fn move_filter(args: &str) -> ParseResult<'_, MoveFilter> {
    map(token, |word: &str| match word {
        "all" => MoveFilter::All,
        text => MoveFilter::Move(text.to_string()),
    })
    .parse(args)
}

/// Highlighting (`feature highlight=1`) and bughouse/zippy commands.
fn board_interaction_command(line: &str) -> ParseResult<'_, Command> {
    alt((
        with_word("lift", Command::Lift),
        with_word("put", Command::Put),
        with_word("hover", Command::Hover),
        with_arguments("holding", "expected [WHITE] [BLACK]", holding),
        with_arguments(
            "partner",
            "expected a name",
            map(rest, |name: &str| Command::Partner(non_empty(name))),
        ),
        with_text("ptell", Command::PartnerTell),
    ))
    .parse(line)
}

/// `[CONTENTS]`, contents raw.
fn bracketed(input: &str) -> ParseResult<'_, &str> {
    delimited(char('['), take_till(|c| c == ']'), char(']')).parse(input)
}

fn holding(args: &str) -> ParseResult<'_, Command> {
    map(
        (bracketed, space0, bracketed, space0, rest),
        |(white, _, black, _, extra)| Command::Holding {
            white: white.to_string(),
            black: black.to_string(),
            extra: extra.to_string(),
        },
    )
    .parse(args)
}

fn non_empty(text: &str) -> Option<String> {
    (!text.is_empty()).then(|| text.to_string())
}

fn command_line(line: &str) -> ParseResult<'_, Command> {
    alt((
        session_command,
        game_command,
        time_command,
        move_command,
        board_interaction_command,
    ))
    .parse(line)
}

// ---------------------------------------------------------------------------------------------
// Wire form

/// Writes BASE of `level` the way XBoard does (`5`, `0:30`) when that is exact; otherwise as
/// `0:SECONDS`, which always parses back to the same value.
struct LevelBase(f64);

impl fmt::Display for LevelBase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = self.0;
        let minutes = (seconds / 60.0).floor();
        let remainder = seconds - minutes * 60.0;
        if remainder == 0.0 && minutes * 60.0 == seconds {
            write!(f, "{minutes}")
        } else if remainder.fract() == 0.0 && remainder < 60.0 && minutes * 60.0 + remainder == seconds {
            write!(f, "{minutes}:{remainder:02}")
        } else {
            write!(f, "0:{seconds}")
        }
    }
}

impl fmt::Display for MoveFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveFilter::All => f.write_str("all"),
            MoveFilter::Move(text) => f.write_str(text),
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Empty => Ok(()),
            Command::Xboard => f.write_str("xboard"),
            Command::Protover(version) => write!(f, "protover {version}"),
            Command::Accepted(feature) => write!(f, "accepted {feature}"),
            Command::Rejected(feature) => write!(f, "rejected {feature}"),
            Command::New => f.write_str("new"),
            Command::Variant(name) => write!(f, "variant {name}"),
            Command::Random => f.write_str("random"),
            Command::Force => f.write_str("force"),
            Command::Go => f.write_str("go"),
            Command::PlayOther => f.write_str("playother"),
            Command::White => f.write_str("white"),
            Command::Black => f.write_str("black"),
            Command::Level {
                moves_per_session,
                base_seconds,
                increment_seconds,
            } => {
                write!(
                    f,
                    "level {moves_per_session} {} {increment_seconds}",
                    LevelBase(*base_seconds)
                )
            }
            Command::MoveTime { seconds } => write!(f, "st {seconds}"),
            Command::DepthLimit { plies } => write!(f, "sd {plies}"),
            Command::NodesPerSecond(nodes) => write!(f, "nps {nodes}"),
            Command::EngineTime { centiseconds } => write!(f, "time {centiseconds}"),
            Command::OpponentTime { centiseconds } => write!(f, "otim {centiseconds}"),
            Command::UserMove { text, prefixed: true } => write!(f, "usermove {text}"),
            Command::UserMove { text, prefixed: false } => f.write_str(text),
            Command::MoveNow => f.write_str("?"),
            Command::Ping(token) => write!(f, "ping {token}"),
            Command::DrawOffer => f.write_str("draw"),
            Command::Result { result, comment: None } => write!(f, "result {result}"),
            Command::Result {
                result,
                comment: Some(comment),
            } => write!(f, "result {result} {{{comment}}}"),
            Command::SetBoard(fen) => write!(f, "setboard {fen}"),
            Command::Edit => f.write_str("edit"),
            Command::Hint => f.write_str("hint"),
            Command::Book => f.write_str("bk"),
            Command::Undo => f.write_str("undo"),
            Command::Remove => f.write_str("remove"),
            Command::Ponder(true) => f.write_str("hard"),
            Command::Ponder(false) => f.write_str("easy"),
            Command::Post(true) => f.write_str("post"),
            Command::Post(false) => f.write_str("nopost"),
            Command::Analyze => f.write_str("analyze"),
            Command::ExitAnalyze => f.write_str("exit"),
            Command::AnalyzeStatus => f.write_str("."),
            Command::OpponentName(name) => write!(f, "name {name}"),
            Command::Rating { engine, opponent } => write!(f, "rating {engine} {opponent}"),
            Command::Ics(host) => write!(f, "ics {host}"),
            Command::Computer => f.write_str("computer"),
            Command::Pause => f.write_str("pause"),
            Command::Resume => f.write_str("resume"),
            Command::Memory { megabytes } => write!(f, "memory {megabytes}"),
            Command::Cores(cores) => write!(f, "cores {cores}"),
            Command::EgtPath { kind, path } => write!(f, "egtpath {kind} {path}"),
            Command::SetOption { name, value: None } => write!(f, "option {name}"),
            Command::SetOption {
                name,
                value: Some(value),
            } => write!(f, "option {name}={value}"),
            Command::Exclude(filter) => write!(f, "exclude {filter}"),
            Command::Include(filter) => write!(f, "include {filter}"),
            Command::SetScore { score, depth } => write!(f, "setscore {score} {depth}"),
            Command::Lift(square) => write!(f, "lift {square}"),
            Command::Put(square) => write!(f, "put {square}"),
            Command::Hover(square) => write!(f, "hover {square}"),
            Command::Holding { white, black, extra } if extra.is_empty() => write!(f, "holding [{white}] [{black}]"),
            Command::Holding { white, black, extra } => write!(f, "holding [{white}] [{black}] {extra}"),
            Command::Partner(None) => f.write_str("partner"),
            Command::Partner(Some(name)) => write!(f, "partner {name}"),
            Command::PartnerTell(text) => write!(f, "ptell {text}"),
            Command::Quit => f.write_str("quit"),
            Command::Bad { command, .. } => f.write_str(command),
            Command::Unknown(line) => f.write_str(line),
        }
    }
}

impl fmt::Display for EditCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditCommand::ToggleColor => f.write_str("c"),
            EditCommand::ClearBoard => f.write_str("#"),
            EditCommand::Done => f.write_str("."),
            EditCommand::Place {
                piece,
                square,
                promoted,
            } => {
                write!(f, "{piece}{square}{}", if *promoted { "+" } else { "" })
            }
            EditCommand::ClearSquare(square) => write!(f, "x{square}"),
            EditCommand::Holdings(raw) | EditCommand::Unknown(raw) => f.write_str(raw),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::move_syntax::examples::{MOVE_SHAPES, NOT_MOVE_SHAPES};
    use crate::notation::move_syntax::looks_like_move;
    use crate::test_rng::Rng;

    fn mv(text: &str) -> Command {
        Command::UserMove {
            text: text.to_string(),
            prefixed: false,
        }
    }

    fn usermove(text: &str) -> Command {
        Command::UserMove {
            text: text.to_string(),
            prefixed: true,
        }
    }

    fn bad(command: &str) -> bool {
        matches!(parse_command(command), Command::Bad { .. })
    }

    /// `line` parses to `expected`, and `expected` prints as `line` (canonical lines only).
    fn check_exact(line: &str, expected: Command) {
        assert_eq!(parse_command(line), expected, "parsing {line:?}");
        assert_eq!(expected.to_string(), line, "printing {expected:?}");
    }

    #[test]
    fn every_command_parses_and_prints_canonically() {
        let s = |text: &str| text.to_string();
        let cases = vec![
            ("xboard", Command::Xboard),
            ("protover 2", Command::Protover(2)),
            ("accepted ping", Command::Accepted(s("ping"))),
            ("rejected option Foo -bar", Command::Rejected(s("option Foo -bar"))),
            ("new", Command::New),
            ("variant 10x8+0_capablanca", Command::Variant(s("10x8+0_capablanca"))),
            ("random", Command::Random),
            ("force", Command::Force),
            ("go", Command::Go),
            ("playother", Command::PlayOther),
            ("white", Command::White),
            ("black", Command::Black),
            (
                "level 40 5 0",
                Command::Level {
                    moves_per_session: 40,
                    base_seconds: 300.0,
                    increment_seconds: 0.0,
                },
            ),
            (
                "level 40 0:30 0",
                Command::Level {
                    moves_per_session: 40,
                    base_seconds: 30.0,
                    increment_seconds: 0.0,
                },
            ),
            (
                "level 0 2 12",
                Command::Level {
                    moves_per_session: 0,
                    base_seconds: 120.0,
                    increment_seconds: 12.0,
                },
            ),
            (
                "level 0 1:05 0.5",
                Command::Level {
                    moves_per_session: 0,
                    base_seconds: 65.0,
                    increment_seconds: 0.5,
                },
            ),
            ("st 30", Command::MoveTime { seconds: 30.0 }),
            ("st 0.5", Command::MoveTime { seconds: 0.5 }),
            ("sd 7", Command::DepthLimit { plies: 7 }),
            ("nps 1", Command::NodesPerSecond(1)),
            ("time 12000", Command::EngineTime { centiseconds: 12000 }),
            ("otim -150", Command::OpponentTime { centiseconds: -150 }),
            ("usermove e2e4", usermove("e2e4")),
            ("usermove d3d7,d7d6", usermove("d3d7,d7d6")),
            ("e2e4", mv("e2e4")),
            ("?", Command::MoveNow),
            ("ping 40213", Command::Ping(s("40213"))),
            ("draw", Command::DrawOffer),
            (
                "result 1-0 {White mates}",
                Command::Result {
                    result: GameResult::WhiteWins,
                    comment: Some(s("White mates")),
                },
            ),
            (
                "result *",
                Command::Result {
                    result: GameResult::Unfinished,
                    comment: None,
                },
            ),
            (
                "setboard 8/8/8/8/8/8/8/8 w - - 0 1",
                Command::SetBoard(s("8/8/8/8/8/8/8/8 w - - 0 1")),
            ),
            ("edit", Command::Edit),
            ("hint", Command::Hint),
            ("bk", Command::Book),
            ("undo", Command::Undo),
            ("remove", Command::Remove),
            ("hard", Command::Ponder(true)),
            ("easy", Command::Ponder(false)),
            ("post", Command::Post(true)),
            ("nopost", Command::Post(false)),
            ("analyze", Command::Analyze),
            ("exit", Command::ExitAnalyze),
            (".", Command::AnalyzeStatus),
            ("name Fairy-Max 5.0b", Command::OpponentName(s("Fairy-Max 5.0b"))),
            (
                "rating 2100 0",
                Command::Rating {
                    engine: 2100,
                    opponent: 0,
                },
            ),
            ("ics -", Command::Ics(s("-"))),
            ("computer", Command::Computer),
            ("pause", Command::Pause),
            ("resume", Command::Resume),
            ("memory 256", Command::Memory { megabytes: 256 }),
            ("cores 4", Command::Cores(4)),
            (
                "egtpath syzygy /opt/tb/my tables",
                Command::EgtPath {
                    kind: s("syzygy"),
                    path: s("/opt/tb/my tables"),
                },
            ),
            (
                "option Hash=64",
                Command::SetOption {
                    name: s("Hash"),
                    value: Some(s("64")),
                },
            ),
            (
                "option Resign Threshold=a=b",
                Command::SetOption {
                    name: s("Resign Threshold"),
                    value: Some(s("a=b")),
                },
            ),
            (
                "option Clear Hash",
                Command::SetOption {
                    name: s("Clear Hash"),
                    value: None,
                },
            ),
            (
                "option Book File=",
                Command::SetOption {
                    name: s("Book File"),
                    value: Some(s("")),
                },
            ),
            ("exclude e2e4", Command::Exclude(MoveFilter::Move(s("e2e4")))),
            ("include all", Command::Include(MoveFilter::All)),
            ("exclude all", Command::Exclude(MoveFilter::All)),
            ("include g1f3", Command::Include(MoveFilter::Move(s("g1f3")))),
            ("setscore -35 12", Command::SetScore { score: -35, depth: 12 }),
            ("lift b0", Command::Lift(s("b0"))),
            ("put c2", Command::Put(s("c2"))),
            ("hover e10", Command::Hover(s("e10"))),
            (
                "holding [PNq] [p]",
                Command::Holding {
                    white: s("PNq"),
                    black: s("p"),
                    extra: s(""),
                },
            ),
            (
                "holding [] [Pb] BP",
                Command::Holding {
                    white: s(""),
                    black: s("Pb"),
                    extra: s("BP"),
                },
            ),
            ("partner", Command::Partner(None)),
            ("partner GuestABCD", Command::Partner(Some(s("GuestABCD")))),
            ("ptell I need a knight", Command::PartnerTell(s("I need a knight"))),
            ("quit", Command::Quit),
            ("frobnicate 3", Command::Unknown(s("frobnicate 3"))),
            ("", Command::Empty),
        ];
        for (line, expected) in cases {
            check_exact(line, expected);
        }
    }

    #[test]
    fn recognised_moves_are_kept_verbatim() {
        for &text in MOVE_SHAPES {
            check_exact(text, mv(text));
            check_exact(&format!("usermove {text}"), usermove(text));
        }
    }

    #[test]
    fn non_moves_are_unknown() {
        for &text in NOT_MOVE_SHAPES {
            assert_eq!(parse_command(text), Command::Unknown(text.to_string()));
        }
    }

    #[test]
    fn usermove_accepts_any_text_so_the_engine_can_answer_illegal_move() {
        assert_eq!(parse_command("usermove Nf3"), usermove("Nf3"));
        assert!(bad("usermove"));
    }

    #[test]
    fn whitespace_and_line_endings() {
        assert_eq!(parse_command("ping 7\r"), Command::Ping("7".into()));
        assert_eq!(parse_command("  ping\t7  \r\n"), Command::Ping("7".into()));
        assert_eq!(parse_command(" e2e4\r"), mv("e2e4"));
        assert_eq!(parse_command(" \t \r"), Command::Empty);
        assert_eq!(parse_command("\r\n"), Command::Empty);
        assert_eq!(parse_command("usermove   e2e4"), usermove("e2e4"));
        assert_eq!(
            parse_command("option  Hash = 64"),
            Command::SetOption {
                name: "Hash".into(),
                value: Some(" 64".into())
            }
        );
    }

    #[test]
    fn command_words_are_whole_and_case_sensitive() {
        for line in ["stop", "newgame", "New", "PING 1", "go!", "sd5", "pingpong"] {
            assert_eq!(parse_command(line), Command::Unknown(line.to_string()));
        }
        // Words after the arguments are ignored, as sscanf-based engines do.
        assert_eq!(parse_command("new game"), Command::New);
        assert_eq!(parse_command("ping 1 2"), Command::Ping("1".into()));
        assert_eq!(parse_command("sd 5 extra"), Command::DepthLimit { plies: 5 });
    }

    #[test]
    fn level_base_forms() {
        let level = |line: &str| match parse_command(line) {
            Command::Level {
                moves_per_session,
                base_seconds,
                increment_seconds,
            } => (moves_per_session, base_seconds, increment_seconds),
            other => panic!("{line}: {other:?}"),
        };
        // python-chess writes `M:SS` and floats; XBoard prints whole minutes without seconds.
        assert_eq!(level("level 0 2:00 2"), (0, 120.0, 2.0));
        assert_eq!(parse_command("level 0 2:00 2").to_string(), "level 0 2 2");
        assert_eq!(level("level 0 5:00 2.0"), (0, 300.0, 2.0));
        assert_eq!(level("level 40 0.5 0"), (40, 30.0, 0.0));
        // Trailing junk after BASE is ignored (future `25+5` style).
        assert_eq!(level("level 40 25+5 0"), (40, 1500.0, 0.0));
        assert_eq!(level("level 40 5: 0"), (40, 300.0, 0.0));
        assert_eq!(level("level 1 0:07.5 0"), (1, 7.5, 0.0));
        assert_eq!(parse_command("level 1 0:07.5 0").to_string(), "level 1 0:7.5 0");
        for line in [
            "level",
            "level 40",
            "level 40 5",
            "level x 5 0",
            "level 40 x 0",
            "level 40 5 x",
            "level -1 5 0",
        ] {
            assert!(bad(line), "{line}");
        }
    }

    #[test]
    fn numeric_arguments() {
        assert_eq!(parse_command("depth 6"), Command::DepthLimit { plies: 6 });
        assert_eq!(parse_command("time 1234.5"), Command::EngineTime { centiseconds: 1234 });
        assert_eq!(parse_command("otim -0"), Command::OpponentTime { centiseconds: 0 });
        assert_eq!(parse_command("st 1."), Command::MoveTime { seconds: 1.0 });
        assert_eq!(parse_command("st .25"), Command::MoveTime { seconds: 0.25 });
        for line in [
            "ping",
            "sd x",
            "sd -1",
            "sd",
            "depth",
            "st",
            "st -1",
            "st nan",
            "st inf",
            "st 1e3",
            "time",
            "time x",
            "otim 1.x",
            "nps",
            "memory lots",
            "cores 99999999999",
            "protover",
            "protover two",
            "rating 1",
            "rating a b",
            "setscore 1",
            "egtpath syzygy",
            "egtpath",
            "option",
            "option =5",
            "name",
            "setboard",
            "variant",
            "accepted",
            "lift",
            "put",
            "hover",
            "ics",
            "exclude",
            "include",
            "holding",
            "holding [P]",
            "holding P p",
            "result",
            "result 2-0",
            "ptell",
        ] {
            assert!(bad(line), "{line} should be Bad, got {:?}", parse_command(line));
        }
        match parse_command("sd x") {
            Command::Bad { command, reason } => {
                assert_eq!(command, "sd x");
                assert_eq!(reason, "expected a depth");
            }
            other => panic!("{other:?}"),
        }
        match parse_command("ping") {
            Command::Bad { command, reason } => {
                assert_eq!(command, "ping");
                assert_eq!(reason, "missing argument");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn result_comments() {
        let result = |line: &str| match parse_command(line) {
            Command::Result { result, comment } => (result, comment),
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(
            result("result 1/2-1/2 {Draw by repetition}"),
            (GameResult::Draw, Some("Draw by repetition".into()))
        );
        assert_eq!(result("result 0-1 {}"), (GameResult::BlackWins, Some(String::new())));
        assert_eq!(
            result("result 0-1 {unterminated"),
            (GameResult::BlackWins, Some("unterminated".into()))
        );
        assert_eq!(
            result("result 1-0 no braces"),
            (GameResult::WhiteWins, Some("no braces".into()))
        );
        assert_eq!(result("result 1-0"), (GameResult::WhiteWins, None));
    }

    #[test]
    fn edit_mode_lines() {
        let cases = [
            ("c", EditCommand::ToggleColor),
            ("#", EditCommand::ClearBoard),
            (".", EditCommand::Done),
            (
                "Pa4",
                EditCommand::Place {
                    piece: "P".into(),
                    square: "a4".into(),
                    promoted: false,
                },
            ),
            (
                "ca4",
                EditCommand::Place {
                    piece: "c".into(),
                    square: "a4".into(),
                    promoted: false,
                },
            ),
            (
                "Xj10",
                EditCommand::Place {
                    piece: "X".into(),
                    square: "j10".into(),
                    promoted: false,
                },
            ),
            (
                "Ba0+",
                EditCommand::Place {
                    piece: "B".into(),
                    square: "a0".into(),
                    promoted: true,
                },
            ),
            (
                "N'e5",
                EditCommand::Place {
                    piece: "N'".into(),
                    square: "e5".into(),
                    promoted: false,
                },
            ),
            ("xa4", EditCommand::ClearSquare("a4".into())),
            ("P@3", EditCommand::Holdings("P@3".into())),
            ("castle", EditCommand::Unknown("castle".into())),
            ("Pz4", EditCommand::Unknown("Pz4".into())),
            ("", EditCommand::Unknown("".into())),
        ];
        for (line, expected) in cases {
            assert_eq!(parse_edit_line(line), expected, "{line}");
            assert_eq!(expected.to_string(), line);
        }
        assert_eq!(parse_edit_line(" c\r"), EditCommand::ToggleColor);
    }

    /// Every GUI line of /work/shared/protocol/transcripts.md (T1–T10).
    const TRANSCRIPT_GUI_LINES: &str = "\
xboard
protover 2
accepted done
accepted ping
accepted setboard
accepted playother
accepted usermove
accepted time
accepted draw
accepted sigint
accepted sigterm
accepted reuse
accepted analyze
accepted colors
accepted name
accepted nps
accepted highlight
accepted myname
accepted variants
accepted option
new
random
level 40 5 0
post
hard
easy
ping 1
time 30000
otim 30000
usermove f2f3
time 29990
otim 29870
usermove g2g4
result 0-1 {Black mates}
force
ping 2
level 0 2 12
ping 3
time 12000
otim 12000
go
?
ping 4
time 12100
otim 12150
usermove c7c5
setboard r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3
analyze
.
usermove f1b5
undo
exit
ping 5
rejected sigterm
usermove e2e4
st 0.5
nopost
ping 40213
quit
ping 51877
variant tenhouse
ping 6
usermove e1e3
time 29950
otim 29800
usermove e3e4
time 29900
otim 29650
usermove e4d5
time 29850
otim 29500
usermove P@e4
time 29800
otim 29300
usermove b0c2
setboard rnb1kcabnr/ppp1pppppp/10/10/3q6/10/10/10/PPPP1PPPPP/RNBQKCABNR[Pp] w - - 0 4
ping 7
lift b0
put c2
usermove e2e5
frobnicate 3
setboard 8/8/8/8/8/8/8/8 w - - 0 1
ping 8
variant wildcastle
setboard rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w KQkq - 0 1
ping 9
time 6000
otim 5000
usermove g1f3
result 1/2-1/2 {Draw by mutual agreement}
ping 10
ping 11
";

    #[test]
    fn transcript_lines_parse_and_print_identically() {
        for line in TRANSCRIPT_GUI_LINES.lines() {
            let command = parse_command(line);
            assert!(
                !matches!(command, Command::Bad { .. } | Command::Empty),
                "{line}: {command:?}"
            );
            assert_eq!(
                matches!(command, Command::Unknown(_)),
                line == "frobnicate 3",
                "{line}: {command:?}"
            );
            assert_eq!(command.to_string(), line);
        }
        // python-chess's `M:SS` form (T5b) is the same time control, printed in XBoard's form.
        assert_eq!(
            parse_command("level 0 2:00 2"),
            Command::Level {
                moves_per_session: 0,
                base_seconds: 120.0,
                increment_seconds: 2.0
            }
        );
    }

    /// Parsing never panics, and printing a parsed command gives a line that parses to the same command.
    fn check_stable(line: &str) {
        let command = parse_command(line);
        let printed = command.to_string();
        assert_eq!(parse_command(&printed), command, "line {line:?} printed as {printed:?}");
        let edit = parse_edit_line(line);
        assert_eq!(parse_edit_line(&edit.to_string()), edit, "edit line {line:?}");
    }

    #[test]
    fn fuzz_arbitrary_bytes() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..20_000 {
            let length = rng.below(40);
            let bytes: Vec<u8> = (0..length).map(|_| rng.next() as u8).collect();
            check_stable(&String::from_utf8_lossy(&bytes));
        }
    }

    #[test]
    fn fuzz_protocol_shaped_lines() {
        const WORDS: &[&str] = &[
            "xboard",
            "protover",
            "accepted",
            "rejected",
            "new",
            "variant",
            "random",
            "force",
            "go",
            "playother",
            "white",
            "black",
            "level",
            "st",
            "sd",
            "depth",
            "nps",
            "time",
            "otim",
            "usermove",
            "?",
            "ping",
            "draw",
            "result",
            "setboard",
            "edit",
            "hint",
            "bk",
            "undo",
            "remove",
            "hard",
            "easy",
            "post",
            "nopost",
            "analyze",
            "exit",
            ".",
            "name",
            "rating",
            "ics",
            "computer",
            "pause",
            "resume",
            "memory",
            "cores",
            "egtpath",
            "option",
            "exclude",
            "include",
            "all",
            "setscore",
            "lift",
            "put",
            "hover",
            "holding",
            "partner",
            "ptell",
            "quit",
            "perft",
            "bench",
            "1-0",
            "0-1",
            "1/2-1/2",
            "*",
            "{",
            "}",
            "[",
            "]",
            "=",
            ":",
            "+",
            "-",
            ",",
            "@",
            "e2e4",
            "e7e8q",
            "P@e4",
            "O-O",
            "@@@@",
            "0",
            "1",
            "40",
            "0:30",
            "5:00",
            "2.0",
            "0.5",
            "-7",
            "99999999999999999999",
            "é",
            "\u{a0}",
            "\u{3000}",
            "x",
            "c",
            "#",
            "Pa4",
        ];
        const SEPARATORS: &[&str] = &["", " ", "  ", "\t", " \t ", "\r", "\r\n", "\n"];
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..50_000 {
            let mut line = String::new();
            for _ in 0..rng.below(6) {
                line.push_str(rng.pick(SEPARATORS));
                line.push_str(rng.pick(WORDS));
            }
            line.push_str(rng.pick(SEPARATORS));
            check_stable(&line);
        }
    }

    #[test]
    fn fuzz_edge_cases() {
        for line in [
            " ",
            "\t",
            "\r",
            "\r\n",
            "  \t  ",
            "\0",
            "\u{feff}",
            "ping \u{0}",
            "}",
            "{",
            "result 1-0 {",
            "result 1-0 }",
        ] {
            check_stable(line);
        }
        let long_word = "a".repeat(100_000);
        let long_number = "9".repeat(10_000);
        for line in [
            long_word.clone(),
            format!("name {long_word}"),
            format!("st {long_number}"),
            format!("level 1 {long_number} 0"),
            format!("level 1 {long_number}.5:{long_number} 0"),
            format!("time -{long_number}"),
            "e2e4,".repeat(10_000),
            "e2e4,".repeat(10_000) + "e4e5",
            " ".repeat(100_000),
        ] {
            check_stable(&line);
        }
        assert!(looks_like_move(&("e2e4,".repeat(10_000) + "e4e5")));
    }

    /// A `\r` inside a line separates words as a blank does: the word before it never keeps it,
    /// so the command prints as a line that reads back the same (`exclude X\r\r …` must not read
    /// back as a different move text once printed).
    #[test]
    fn a_carriage_return_inside_a_line_separates_words() {
        let line = "exclude d7d5\r\r {junk}";
        assert_eq!(
            parse_command(line),
            Command::Exclude(MoveFilter::Move("d7d5".to_string()))
        );
        let printed = parse_command(line).to_string();
        assert_eq!(parse_command(&printed), parse_command(line));
        assert_eq!(parse_command("usermove e2e4\r\n"), parse_command("usermove e2e4"));
    }
}
