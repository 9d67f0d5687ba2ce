//! UCI engine → GUI lines read from the GUI's side (the match runner drives other engines): one
//! output line into the typed [`Reply`] our engine writes, or [`EngineLine::Unknown`].
//!
//! Reading is more lenient than writing, because other engines are: words are split at any run of
//! white space; `info` fields come in any order, an unknown word is skipped, and a field whose
//! value does not read is left out (its value word is still taken); `pv`, `refutation`, `currline`
//! and `string` take the rest of the line; an `option` whose type is unknown or whose numbers do
//! not read keeps its name and its words. Parsing never fails and never panics.

use super::reply::{Check, Id, Info, InfoScore, InfoTail, OptionDecl, OptionKind, Reply, ScoreValue};
use crate::search::Bound;

/// One line from an engine.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum EngineLine {
    /// A line of the protocol.
    Reply(Reply),
    /// Anything else (trimmed): an engine's chatter, or a protocol word with words it cannot have.
    Unknown(String),
}

/// A word of a line and the text after it.
#[derive(Clone, Copy, Debug)]
struct Word<'a> {
    text: &'a str,
    after: &'a str,
}

/// The words of `line`, split at any run of white space.
fn words(line: &str) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut rest = line.trim_start();
    while !rest.is_empty() {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (text, after) = rest.split_at(end);
        out.push(Word { text, after });
        rest = after.trim_start();
    }
    out
}

/// The text after a word, less the one blank that separates them (free text keeps its spaces).
fn text_after(word: &Word<'_>) -> String {
    let mut chars = word.after.chars();
    match chars.next() {
        Some(c) if c.is_whitespace() => chars.as_str().to_string(),
        _ => word.after.to_string(),
    }
}

fn joined(words: &[Word<'_>]) -> String {
    words.iter().map(|w| w.text).collect::<Vec<_>>().join(" ")
}

/// Parses one engine output line (its line end, if any, is ignored).
pub fn parse_engine_line(line: &str) -> EngineLine {
    let line = line.trim_end_matches(['\r', '\n']);
    let all = words(line);
    let reply = match all.as_slice() {
        [w] if w.text == "uciok" => Some(Reply::UciOk),
        [w] if w.text == "readyok" => Some(Reply::ReadyOk),
        [first, rest @ ..] => match first.text {
            "id" => id(rest),
            "option" => option(rest),
            "bestmove" => Some(best_move(rest)),
            "info" => Some(Reply::Info(info(rest))),
            "copyprotection" => check(rest).map(Reply::CopyProtection),
            "registration" => check(rest).map(Reply::Registration),
            _ => None,
        },
        [] => None,
    };
    match reply {
        Some(r) => EngineLine::Reply(r),
        None => EngineLine::Unknown(line.trim().to_string()),
    }
}

/// `id name NAME` / `id author AUTHOR`: the rest of the line, trimmed (an empty one says nothing).
fn id(words: &[Word<'_>]) -> Option<Reply> {
    let (key, _) = words.split_first()?;
    let value = key.after.trim().to_string();
    if value.is_empty() {
        return None;
    }
    match key.text {
        "name" => Some(Reply::Id(Id::Name(value))),
        "author" => Some(Reply::Id(Id::Author(value))),
        _ => None,
    }
}

/// `option name NAME type TYPE …`; without `name` and `type` it is no option.
fn option(words: &[Word<'_>]) -> Option<Reply> {
    let (first, words) = words.split_first()?;
    if first.text != "name" {
        return None;
    }
    let type_at = words.iter().position(|w| w.text == "type")?;
    let name = joined(&words[..type_at]);
    let (type_name, args) = match words[type_at + 1..].split_first() {
        Some((t, args)) => (t.text, args),
        None => ("", &[][..]),
    };
    Some(Reply::Option(OptionDecl {
        name,
        kind: option_kind(type_name, args),
    }))
}

/// The word after the first `key` in `words`.
fn value_of<'a>(words: &[Word<'a>], key: &str) -> Option<&'a str> {
    let at = words.iter().position(|w| w.text == key)?;
    words.get(at + 1).map(|w| w.text)
}

fn option_kind(type_name: &str, args: &[Word<'_>]) -> OptionKind {
    let number = |key: &str| value_of(args, key).and_then(|v| v.parse::<i64>().ok());
    let kind = match type_name {
        "check" => match value_of(args, "default") {
            Some("true") => Some(OptionKind::Check { default: true }),
            Some("false") => Some(OptionKind::Check { default: false }),
            _ => None,
        },
        "spin" => match (number("default"), number("min"), number("max")) {
            (Some(default), Some(min), Some(max)) => Some(OptionKind::Spin { default, min, max }),
            _ => None,
        },
        "combo" => Some(combo(args)),
        "button" => Some(OptionKind::Button),
        "string" => {
            let default = match args.iter().position(|w| w.text == "default") {
                Some(at) => joined(&args[at + 1..]),
                None => String::new(),
            };
            Some(OptionKind::String { default })
        }
        _ => None,
    };
    kind.unwrap_or_else(|| OptionKind::Other {
        type_name: type_name.to_string(),
        words: args.iter().map(|w| w.text.to_string()).collect(),
    })
}

/// `default VALUE var VALUE …`: each value runs to the next `var` (a value may have spaces).
fn combo(args: &[Word<'_>]) -> OptionKind {
    let mut default = String::new();
    let mut groups = args.split(|w| w.text == "var");
    if let Some(head) = groups.next()
        && let Some(at) = head.iter().position(|w| w.text == "default")
    {
        default = joined(&head[at + 1..]);
    }
    // A `var` followed by nothing names no value.
    let vars = groups.filter(|g| !g.is_empty()).map(joined).collect();
    OptionKind::Combo { default, vars }
}

/// `bestmove [MOVE [ponder MOVE]]`: a bare `bestmove` has an empty move, for the referee to reject.
fn best_move(words: &[Word<'_>]) -> Reply {
    let best = words.first().map_or("", |w| w.text).to_string();
    let ponder = match words.get(1..3) {
        Some([key, mv]) if key.text == "ponder" => Some(mv.text.to_string()),
        _ => None,
    };
    Reply::BestMove { best, ponder }
}

fn check(words: &[Word<'_>]) -> Option<Check> {
    match words {
        [w] => Check::WORDS.iter().find(|(t, _)| *t == w.text).map(|(_, c)| *c),
        _ => None,
    }
}

fn info(words: &[Word<'_>]) -> Info {
    let mut info = Info::default();
    let mut i = 0;
    while let Some(word) = words.get(i) {
        let value = words.get(i + 1).map(|w| w.text);
        i += 2;
        match word.text {
            "depth" => info.depth = value.and_then(|v| v.parse().ok()),
            "seldepth" => info.seldepth = value.and_then(|v| v.parse().ok()),
            "multipv" => info.multipv = value.and_then(|v| v.parse().ok()),
            "nodes" => info.nodes = value.and_then(|v| v.parse().ok()),
            "nps" => info.nps = value.and_then(|v| v.parse().ok()),
            "hashfull" => info.hashfull = value.and_then(|v| v.parse().ok()),
            "tbhits" => info.tbhits = value.and_then(|v| v.parse().ok()),
            "cpuload" => info.cpuload = value.and_then(|v| v.parse().ok()),
            "time" => info.time = value.and_then(|v| v.parse().ok()),
            "currmove" => info.currmove = value.map(str::to_string),
            "currmovenumber" => info.currmovenumber = value.and_then(|v| v.parse().ok()),
            "score" => {
                let number = words.get(i).and_then(|w| w.text.parse::<i64>().ok());
                i += 1;
                let value = match (value, number) {
                    (Some("cp"), Some(n)) => Some(ScoreValue::Cp(n)),
                    (Some("mate"), Some(n)) => Some(ScoreValue::Mate(n)),
                    _ => None,
                };
                let bound = match words.get(i).map(|w| w.text) {
                    Some("lowerbound") => Bound::Lower,
                    Some("upperbound") => Bound::Upper,
                    _ => Bound::Exact,
                };
                if bound != Bound::Exact {
                    i += 1;
                }
                info.score = value.map(|value| InfoScore { value, bound });
            }
            "pv" | "refutation" | "currline" => {
                let rest: Vec<String> = words[i - 1..].iter().map(|w| w.text.to_string()).collect();
                info.tail = Some(match word.text {
                    "pv" => InfoTail::Pv(rest),
                    "refutation" => InfoTail::Refutation(rest),
                    _ => InfoTail::CurrLine(rest),
                });
                break;
            }
            "string" => {
                info.tail = Some(InfoTail::String(text_after(word)));
                break;
            }
            // An unknown word (`wdl`, `ebf`, …): skipped alone, its values skipped after it.
            _ => i -= 1,
        }
    }
    info
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    fn reply(line: &str) -> Reply {
        match parse_engine_line(line) {
            EngineLine::Reply(r) => r,
            EngineLine::Unknown(_) => panic!("{line:?} did not read"),
        }
    }

    fn info_of(line: &str) -> Info {
        match reply(line) {
            Reply::Info(info) => info,
            other => panic!("{line:?} read as {other:?}"),
        }
    }

    #[test]
    fn stockfish_lines_read() {
        let info = info_of(
            "info depth 12 seldepth 18 multipv 1 score cp 23 lowerbound nodes 12345 nps 600000 hashfull 3 tbhits 0 time 20 pv e2e4 e7e5",
        );
        assert_eq!(
            info,
            Info {
                depth: Some(12),
                seldepth: Some(18),
                multipv: Some(1),
                score: Some(InfoScore {
                    value: ScoreValue::Cp(23),
                    bound: Bound::Lower
                }),
                nodes: Some(12345),
                nps: Some(600000),
                hashfull: Some(3),
                tbhits: Some(0),
                time: Some(20),
                tail: Some(InfoTail::Pv(vec!["e2e4".into(), "e7e5".into()])),
                ..Info::default()
            }
        );
        // Stockfish's WDL and Fairy-Stockfish's drops and ten-rank squares.
        let info = info_of("info depth 5 score mate -3 wdl 0 10 990 nodes 77 pv P@e10 a1a2");
        assert_eq!(
            info.score,
            Some(InfoScore {
                value: ScoreValue::Mate(-3),
                bound: Bound::Exact
            })
        );
        assert_eq!(info.nodes, Some(77));
        assert_eq!(info.tail, Some(InfoTail::Pv(vec!["P@e10".into(), "a1a2".into()])));
        let info = info_of("info depth 20 currmove g1f3 currmovenumber 2");
        assert_eq!(
            (info.depth, info.currmove.as_deref(), info.currmovenumber),
            (Some(20), Some("g1f3"), Some(2))
        );
        assert_eq!(
            info_of("info string NNUE evaluation using nn-1111.nnue  enabled").tail,
            Some(InfoTail::String("NNUE evaluation using nn-1111.nnue  enabled".into()))
        );
        assert_eq!(
            reply("id name Fairy-Stockfish 14.0.1 LB "),
            Reply::Id(Id::Name("Fairy-Stockfish 14.0.1 LB".into()))
        );
        assert_eq!(
            reply("option name Threads type spin default 1 min 1 max 512"),
            Reply::Option(OptionDecl {
                name: "Threads".into(),
                kind: OptionKind::Spin {
                    default: 1,
                    min: 1,
                    max: 512
                }
            })
        );
        assert_eq!(
            reply("option name Debug Log File type string default"),
            Reply::Option(OptionDecl {
                name: "Debug Log File".into(),
                kind: OptionKind::String { default: String::new() }
            })
        );
        assert_eq!(
            reply("option name Analysis Contempt type combo default Both var Off var White var Black var Both"),
            Reply::Option(OptionDecl {
                name: "Analysis Contempt".into(),
                kind: OptionKind::Combo {
                    default: "Both".into(),
                    vars: ["Off", "White", "Black", "Both"].map(String::from).to_vec()
                }
            })
        );
        assert_eq!(
            reply("bestmove e2e4 ponder e7e5\r"),
            Reply::best_move("e2e4", Some("e7e5".into()))
        );
        assert_eq!(reply("bestmove 0000"), Reply::best_move("0000", None));
        assert_eq!(reply("uciok"), Reply::UciOk);
        assert_eq!(reply("  readyok \r\n"), Reply::ReadyOk);
        assert_eq!(reply("copyprotection ok"), Reply::CopyProtection(Check::Ok));
    }

    #[test]
    fn odd_lines_read_without_failing() {
        assert_eq!(reply("bestmove"), Reply::best_move("", None));
        assert_eq!(reply("bestmove e2e4 ponder"), Reply::best_move("e2e4", None));
        let info = info_of("info depth x score lowerbound 5 nodes");
        assert_eq!((info.depth, info.score, info.nodes), (None, None, None));
        let info = info_of("info depth 4 score cp 99999999999 multipv");
        assert_eq!(info.score.map(|s| s.value), Some(ScoreValue::Cp(99_999_999_999)));
        assert_eq!(info.multipv, None);
        assert_eq!(info_of("info pv").tail, Some(InfoTail::Pv(vec![])));
        assert_eq!(info_of("info").depth, None);
        assert_eq!(
            reply("option name Blur type float default 0.5"),
            Reply::Option(OptionDecl {
                name: "Blur".into(),
                kind: OptionKind::Other {
                    type_name: "float".into(),
                    words: vec!["default".into(), "0.5".into()]
                }
            })
        );
        assert!(matches!(
            reply("option name Hash type spin default lots min 1 max 4"),
            Reply::Option(OptionDecl {
                kind: OptionKind::Other { .. },
                ..
            })
        ));
        for line in [
            "",
            "   ",
            "uciok now",
            "readyok?",
            "id",
            "id name",
            "id colour blue",
            "option Hash",
            "option name Hash",
            "registration maybe",
            "Stockfish 16 by the Stockfish developers",
        ] {
            assert_eq!(
                parse_engine_line(line),
                EngineLine::Unknown(line.trim().to_string()),
                "{line:?}"
            );
        }
    }

    #[test]
    fn every_line_our_engine_writes_reads_back() {
        let mut rng = Rng(0x5eed_0bad_cafe_f00d);
        let moves = ["e2e4", "P@e10", "a7a8q", "e1g1,h1f1", "(none)"];
        let texts = ["", "hello", "error: unknown command frobnicate", "r . b  k", " lead"];
        let names = ["Hash", "Move Overhead", "UCI_Variant", "Clear Hash"];
        for _ in 0..2000 {
            let maybe = |rng: &mut Rng, n: u64| (rng.below(2) == 0).then(|| rng.next() % n);
            let reply = match rng.below(9) {
                0 => Reply::Id(Id::Name(rng.pick(&["fairybridge 1.0", "x"]).into())),
                1 => Reply::Id(Id::Author(rng.pick(&["the fairybridge authors", "me"]).into())),
                2 => Reply::UciOk,
                3 => Reply::ReadyOk,
                4 => Reply::best_move(
                    rng.pick(&moves),
                    (rng.below(2) == 0).then(|| rng.pick(&moves).to_string()),
                ),
                5 => Reply::info_string(rng.pick(&texts)),
                6 => Reply::Registration(Check::WORDS[rng.below(3)].1),
                7 => {
                    let name = rng.pick(&names).to_string();
                    let kind = match rng.below(5) {
                        0 => OptionKind::Check {
                            default: rng.below(2) == 0,
                        },
                        1 => OptionKind::Spin {
                            default: rng.next() as i64 % 100,
                            min: -(rng.below(10) as i64),
                            max: rng.next() as i64,
                        },
                        2 => OptionKind::Combo {
                            default: "chess".into(),
                            vars: (0..rng.below(4))
                                .map(|_| rng.pick(&["chess", "pillage", "Both Sides"]).into())
                                .collect(),
                        },
                        3 => OptionKind::Button,
                        _ => OptionKind::String {
                            default: rng.pick(&["<empty>", "a b.toml", ""]).into(),
                        },
                    };
                    Reply::Option(OptionDecl { name, kind })
                }
                _ => {
                    let tail = match rng.below(5) {
                        0 => None,
                        1 => Some(InfoTail::Pv(
                            (0..rng.below(4)).map(|_| rng.pick(&moves).into()).collect(),
                        )),
                        2 => Some(InfoTail::Refutation(vec!["e2e4".into(), "d7d5".into()])),
                        3 => Some(InfoTail::CurrLine(vec!["1".into(), "e2e4".into()])),
                        _ => Some(InfoTail::String(rng.pick(&texts).into())),
                    };
                    let score = (rng.below(2) == 0).then(|| InfoScore {
                        value: if rng.below(2) == 0 {
                            ScoreValue::Cp(rng.next() as i64)
                        } else {
                            ScoreValue::Mate(rng.next() as i64 % 50)
                        },
                        bound: [Bound::Exact, Bound::Lower, Bound::Upper][rng.below(3)],
                    });
                    Reply::Info(Info {
                        depth: maybe(&mut rng, 100).map(|n| n as u32),
                        seldepth: maybe(&mut rng, 100).map(|n| n as u32),
                        multipv: maybe(&mut rng, 64).map(|n| n as u32),
                        score,
                        nodes: maybe(&mut rng, u64::MAX),
                        nps: maybe(&mut rng, u64::MAX),
                        hashfull: maybe(&mut rng, 1001).map(|n| n as u32),
                        tbhits: maybe(&mut rng, 10),
                        cpuload: maybe(&mut rng, 1001).map(|n| n as u32),
                        time: maybe(&mut rng, u64::MAX),
                        currmove: (rng.below(2) == 0).then(|| rng.pick(&moves).into()),
                        currmovenumber: maybe(&mut rng, 200).map(|n| n as u32),
                        tail,
                    })
                }
            };
            let line = reply.to_string();
            assert_eq!(parse_engine_line(&line), EngineLine::Reply(reply), "{line:?}");
        }
    }
}
