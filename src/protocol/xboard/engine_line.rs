//! Engine → GUI lines read from the GUI's side (the match runner drives other engines): nom
//! parsers from one output line to the typed [`Reply`] the engine door writes, and
//! [`EngineLine::Unknown`] for anything else.
//!
//! Reading is more lenient than writing, because other engines are: `move` may be followed by tabs
//! or by nothing (a bare `move` is a move line without a move, for the referee to reject), the old
//! form `12. ... e7e5` is a move, a thinking line's depth may carry a suffix (`9.`, `9&`) and its
//! time and node counts may be unreadable (they count as 0), `resign` takes any text after it, and
//! any line beginning `Illegal move` is an illegal-move reply. Parsing never fails and never panics.

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{tag, take_till, take_till1, take_while1},
    character::complete::{char, space0, space1},
    combinator::{eof, map, opt, rest, value},
    sequence::{preceded, terminated},
};

use super::reply::{FeatureValue, Reply, ThinkingLine};
use crate::core::GameResult;

type ParseResult<'a, O> = IResult<&'a str, O>;

/// One line from an engine.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineLine {
    /// A line of the protocol.
    Reply(Reply),
    /// Anything else (trimmed), e.g. an engine's chatter or `tellics`.
    Unknown(String),
}

/// Parses one engine output line. Surrounding blanks and line ends are ignored.
pub fn parse_engine_line(line: &str) -> EngineLine {
    let line = line.trim_matches(|c| is_blank(c) || c == '\r' || c == '\n');
    match reply(line) {
        Ok((_, r)) => EngineLine::Reply(r),
        Err(_) => EngineLine::Unknown(line.to_string()),
    }
}

/// The text of a feature value as the engine wrote it, without quotes (`1`, `xboard`, `a b`).
pub fn feature_text(value: &FeatureValue) -> String {
    match value {
        FeatureValue::Bool(on) => u8::from(*on).to_string(),
        FeatureValue::Int(n) => n.to_string(),
        FeatureValue::Str(s) => s.clone(),
    }
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// A whole word (`resign` must not match `resignation`), with the blanks after it.
fn keyword<'a>(word: &'static str) -> impl Parser<&'a str, Output = &'a str, Error = nom::error::Error<&'a str>> {
    terminated(tag(word), alt((space1, eof)))
}

fn reply(line: &str) -> ParseResult<'_, Reply> {
    alt((
        feature_line,
        move_line,
        claim,
        resign,
        value(
            Reply::OfferDraw,
            preceded(keyword("offer"), terminated(tag("draw"), eof)),
        ),
        illegal_move,
        error,
        map(preceded(keyword("pong"), rest), |token: &str| {
            Reply::Pong(token.trim().to_string())
        }),
        map(preceded(tag("Hint:"), rest), |m: &str| {
            Reply::Hint(m.trim().to_string())
        }),
        map(preceded(keyword("tellusererror"), rest), |m: &str| {
            Reply::TellUserError(m.to_string())
        }),
        map(preceded(keyword("telluser"), rest), |m: &str| {
            Reply::TellUser(m.to_string())
        }),
        old_style_move,
        thinking,
    ))
    .parse(line)
}

/// `feature a=1 b="x y" …`; reading stops at the first item that is not `KEY=VALUE`.
fn feature_line(line: &str) -> ParseResult<'_, Reply> {
    let (mut input, _) = keyword("feature").parse(line)?;
    let mut items = Vec::new();
    while let Ok((next, (key, value))) = feature_item(input) {
        items.push((key.to_string(), value));
        input = space0::<_, nom::error::Error<&str>>(next)?.0;
    }
    Ok(("", Reply::Features(items)))
}

fn feature_item(input: &str) -> ParseResult<'_, (&str, FeatureValue)> {
    let (input, key) = take_till1(|c: char| c == '=' || is_blank(c)).parse(input)?;
    let (input, _) = char('=').parse(input)?;
    let quoted = map(
        preceded(char('"'), (take_till(|c| c == '"'), opt(char('"')))),
        |(text, _): (&str, _)| FeatureValue::Str(text.to_string()),
    );
    let word = map(take_till(is_blank), |w: &str| match w.parse::<i64>() {
        Ok(n) => FeatureValue::Int(n),
        Err(_) => FeatureValue::Str(w.to_string()),
    });
    let (input, value) = alt((quoted, word)).parse(input)?;
    Ok((input, (key, value)))
}

/// `move MOVE`, or a bare `move` (an empty move, which no referee accepts).
fn move_line(line: &str) -> ParseResult<'_, Reply> {
    map(preceded(keyword("move"), rest), |m: &str| {
        Reply::Move(m.trim().to_string())
    })
    .parse(line)
}

/// `NUMBER. ... MOVE`: the old way of announcing a move.
fn old_style_move(line: &str) -> ParseResult<'_, Reply> {
    let (input, _) = (take_while1(|c: char| c.is_ascii_digit()), take_till(is_blank), space1).parse(line)?;
    let (input, _) = (tag("..."), space1).parse(input)?;
    let (input, m) = take_till1(is_blank).parse(input)?;
    Ok((input, Reply::Move(m.to_string())))
}

fn game_result(input: &str) -> ParseResult<'_, GameResult> {
    alt((
        value(GameResult::WhiteWins, tag("1-0")),
        value(GameResult::BlackWins, tag("0-1")),
        value(GameResult::Draw, tag("1/2-1/2")),
    ))
    .parse(input)
}

/// `1-0 {White mates}`: a result claim (the comment is whatever follows, braces removed).
fn claim(line: &str) -> ParseResult<'_, Reply> {
    map((game_result, rest), |(result, comment): (GameResult, &str)| {
        let comment = comment.trim();
        let comment = comment.strip_prefix('{').unwrap_or(comment);
        let comment = comment.strip_suffix('}').unwrap_or(comment);
        Reply::GameOver {
            result,
            comment: comment.trim().to_string(),
        }
    })
    .parse(line)
}

/// `resign`, `resign {reason}`, `resign{reason}`.
fn resign(line: &str) -> ParseResult<'_, Reply> {
    value(
        Reply::Resign,
        (tag("resign"), alt((eof, preceded(alt((space1, tag("{"))), rest)))),
    )
    .parse(line)
}

/// `Illegal move: e2e5`, `Illegal move (no piece): e2e5`, and other lines beginning `Illegal move`.
fn illegal_move(line: &str) -> ParseResult<'_, Reply> {
    let (input, _) = tag("Illegal move").parse(line)?;
    let input = input.trim_start();
    let (reason, input) = match input.strip_prefix('(').and_then(|r| r.split_once(')')) {
        Some((reason, after)) => (Some(reason.to_string()), after),
        None => (None, input),
    };
    let text = input.trim_start().strip_prefix(':').unwrap_or(input).trim();
    Ok((
        "",
        Reply::IllegalMove {
            reason,
            text: text.to_string(),
        },
    ))
}

/// `Error (KIND): TEXT`.
fn error(line: &str) -> ParseResult<'_, Reply> {
    let (input, _) = (tag("Error"), space0, char('(')).parse(line)?;
    let (input, kind) = take_till(|c| c == ')').parse(input)?;
    let (input, _) = (char(')'), space0, opt(char(':')), space0).parse(input)?;
    Ok((
        "",
        Reply::Error {
            kind: kind.to_string(),
            text: input.to_string(),
        },
    ))
}

/// `DEPTH SCORE TIME NODES PV…`: DEPTH may carry a suffix; TIME and NODES count as 0 when they do
/// not read as numbers.
fn thinking(line: &str) -> ParseResult<'_, Reply> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let fail = || nom::Err::Error(nom::error::Error::new(line, nom::error::ErrorKind::Verify));
    if words.len() < 4 || !words[0].starts_with(|c: char| c.is_ascii_digit()) {
        return Err(fail());
    }
    let depth = words[0]
        .trim_end_matches(|c: char| !c.is_ascii_digit())
        .parse()
        .map_err(|_| fail())?;
    let score = words[1].parse().map_err(|_| fail())?;
    Ok((
        "",
        Reply::Thinking(ThinkingLine {
            depth,
            score,
            centiseconds: words[2].parse().unwrap_or(0),
            nodes: words[3].parse().unwrap_or(0),
            extras: None,
            pv: words[4..].join(" "),
        }),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply_of(line: &str) -> Reply {
        match parse_engine_line(line) {
            EngineLine::Reply(r) => r,
            EngineLine::Unknown(l) => panic!("{line:?} read as unknown {l:?}"),
        }
    }

    fn unknown(line: &str) -> bool {
        matches!(parse_engine_line(line), EngineLine::Unknown(_))
    }

    #[test]
    fn moves() {
        assert_eq!(reply_of("move e2e4"), Reply::Move("e2e4".into()));
        assert_eq!(reply_of("  move\td3d7,d7d6 \r\n"), Reply::Move("d3d7,d7d6".into()));
        assert_eq!(reply_of("move"), Reply::Move(String::new()));
        assert_eq!(reply_of(" move  "), Reply::Move(String::new()));
        assert_eq!(reply_of("12. ... e7e5"), Reply::Move("e7e5".into()));
        assert!(unknown("movement e2e4"));
    }

    #[test]
    fn claims_resignations_and_draws() {
        assert_eq!(
            reply_of("1-0 {White mates}"),
            Reply::GameOver {
                result: GameResult::WhiteWins,
                comment: "White mates".into()
            }
        );
        assert_eq!(
            reply_of("1/2-1/2"),
            Reply::GameOver {
                result: GameResult::Draw,
                comment: String::new()
            }
        );
        assert!(matches!(
            reply_of("0-1{Black mates}"),
            Reply::GameOver {
                result: GameResult::BlackWins,
                ..
            }
        ));
        assert_eq!(reply_of("resign"), Reply::Resign);
        assert_eq!(reply_of("resign { refuses own move }"), Reply::Resign);
        assert_eq!(reply_of("resign{x}"), Reply::Resign);
        assert!(unknown("resignation"));
        assert_eq!(reply_of("offer draw"), Reply::OfferDraw);
    }

    #[test]
    fn errors_and_illegal_moves() {
        assert_eq!(
            reply_of("Illegal move: e2e4"),
            Reply::IllegalMove {
                reason: None,
                text: "e2e4".into()
            }
        );
        assert_eq!(
            reply_of("Illegal move (no piece): e3e4"),
            Reply::IllegalMove {
                reason: Some("no piece".into()),
                text: "e3e4".into()
            }
        );
        assert!(matches!(reply_of("Illegal move"), Reply::IllegalMove { .. }));
        assert_eq!(
            reply_of("Error (unknown command): frobnicate"),
            Reply::Error {
                kind: "unknown command".into(),
                text: "frobnicate".into()
            }
        );
    }

    #[test]
    fn thinking_and_chatter() {
        let Reply::Thinking(t) = reply_of(" 9   -35   120   45678 e2e4 e7e5") else {
            panic!("thinking")
        };
        assert_eq!((t.depth, t.score, t.centiseconds, t.nodes), (9, -35, 120, 45678));
        assert_eq!(t.pv, "e2e4 e7e5");
        let Reply::Thinking(t) = reply_of("10& 100003 1.5 n/a") else {
            panic!("thinking")
        };
        assert_eq!((t.depth, t.score, t.centiseconds, t.nodes), (10, 100_003, 0, 0));
        assert!(unknown("12 34"));
        assert!(unknown("tellics say hello"));
        assert!(unknown("@#!? what is a move"));
        assert!(unknown(""));
        assert_eq!(reply_of("pong 3"), Reply::Pong("3".into()));
        assert_eq!(reply_of("telluser hello there"), Reply::TellUser("hello there".into()));
        assert_eq!(reply_of("tellusererror oops"), Reply::TellUserError("oops".into()));
        assert_eq!(reply_of("Hint: e2e4"), Reply::Hint("e2e4".into()));
    }

    #[test]
    fn features() {
        let Reply::Features(items) = reply_of(r#"feature ping=1 myname="Fairy-Max 5.0b" variants="normal,xq" done=0"#)
        else {
            panic!("features")
        };
        let text: Vec<(String, String)> = items.iter().map(|(k, v)| (k.clone(), feature_text(v))).collect();
        let want = [
            ("ping", "1"),
            ("myname", "Fairy-Max 5.0b"),
            ("variants", "normal,xq"),
            ("done", "0"),
        ];
        assert_eq!(text, want.map(|(k, v)| (k.to_string(), v.to_string())));
        // Reading stops at an item that is not KEY=VALUE; an open quote runs to the end.
        let Reply::Features(items) = reply_of(r#"feature a=1 junk b=2"#) else {
            panic!()
        };
        assert_eq!(items.len(), 1);
        let Reply::Features(items) = reply_of(r#"feature myname="open"#) else {
            panic!()
        };
        assert_eq!(items, [("myname".to_string(), FeatureValue::Str("open".into()))]);
    }

    #[test]
    fn never_panics_on_odd_lines() {
        for line in [
            "feature",
            "feature =",
            "Error (",
            "Illegal move (",
            "1-0}",
            "9. ...",
            "\u{fffd}\u{0}",
        ] {
            let _ = parse_engine_line(line);
        }
    }
}
