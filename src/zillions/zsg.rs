//! Zillions save games (`.zsg`): a `Zillions Save Game File Version …` line, `Key=Value` headers
//! (`RulesFile=`, `VariantName=`; ours also `StartFEN=` when the game did not begin from the
//! variant's start), then one numbered line per move (`12. Knight g1 - f3`; both players' moves
//! carry the move number; `partial 2 …` marks a move after which the same player moves again).
//! Placements before the first move (`1. (White King e1)`) set the board up.

use std::sync::Arc;

use crate::core::{Move, Position, Variant};
use crate::notation::zillions::{self, ZillionsError};
use crate::notation::{Coords, fen};
use crate::variants::Registry;

use super::find_variant;
use super::setup::SetupBuilder;

/// The first words of a save game.
pub const MAGIC: &str = "Zillions Save Game File Version";

/// One move line: where it is, its number, its text.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct ZsgLine {
    /// Line of the file (1-based).
    pub line: usize,
    pub number: u32,
    pub text: String,
}

/// A save game as written.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct ZsgGame {
    pub version: String,
    pub headers: Vec<(String, String)>,
    pub moves: Vec<ZsgLine>,
}

impl ZsgGame {
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }
}

/// A file that is not a save game, and where.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct ZsgError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for ZsgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// Reads the lines of a save game (nothing is checked against rules here).
///
/// # Errors
///
/// A line that is not a save-game's (the error gives its number).
pub fn read(text: &str) -> Result<ZsgGame, ZsgError> {
    let mut game = ZsgGame::default();
    let mut seen_magic = false;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim().trim_start_matches('\u{feff}');
        if t.is_empty() {
            continue;
        }
        if !seen_magic {
            let Some(version) = t.strip_prefix(MAGIC) else {
                return Err(ZsgError {
                    line,
                    message: format!("not a Zillions save game (expected \"{MAGIC} ...\")"),
                });
            };
            game.version = version.trim().to_string();
            seen_magic = true;
            continue;
        }
        if let Some((number, rest)) = t.split_once(". ")
            && let Ok(n) = number.trim().parse::<u32>()
        {
            game.moves.push(ZsgLine {
                line,
                number: n,
                text: rest.trim().to_string(),
            });
            continue;
        }
        match t.split_once('=') {
            Some((k, v)) if game.moves.is_empty() && !k.trim().is_empty() && !k.contains(' ') => {
                game.headers.push((k.trim().to_string(), v.trim().to_string()))
            }
            _ => {
                return Err(ZsgError {
                    line,
                    message: format!("expected \"N. <move>\", found {t:?}"),
                });
            }
        }
    }
    if !seen_magic {
        return Err(ZsgError {
            line: 1,
            message: "empty file: not a Zillions save game".into(),
        });
    }
    Ok(game)
}

/// The first move that cannot be played, and why.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct ReplayError {
    /// Line of the file (0 when the problem is the game's variant or start).
    pub line: usize,
    /// The move's number as written.
    pub number: u32,
    pub text: String,
    pub reason: String,
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.reason)
        } else {
            write!(
                f,
                "line {}: move {} {:?}: {}",
                self.line, self.number, self.text, self.reason
            )
        }
    }
}

/// A replayed game: the position after the setup and after each move, the moves, and the first
/// problem if the game could not be replayed to its end.
#[derive(Debug)]
pub struct Replay {
    pub variant: Option<Arc<Variant>>,
    pub positions: Vec<Position>,
    pub moves: Vec<Move>,
    pub error: Option<ReplayError>,
}

fn game_error(reason: String) -> ReplayError {
    ReplayError {
        line: 0,
        number: 0,
        text: String::new(),
        reason,
    }
}

/// Replays a save game through our rules; `variant` overrides its `VariantName=`.
pub fn replay(game: &ZsgGame, registry: &Registry, variant: Option<&str>) -> Replay {
    let mut out = Replay {
        variant: None,
        positions: Vec::new(),
        moves: Vec::new(),
        error: None,
    };
    let name = variant.or(game.header("VariantName")).unwrap_or("Chess");
    let Some(v) = find_variant(registry, name) else {
        out.error = Some(game_error(format!("unknown variant {name:?} (use --variant NAME)")));
        return out;
    };
    out.variant = Some(Arc::clone(&v));
    let mut pos = match game.header("StartFEN") {
        None => Position::start(&v),
        Some(f) => match fen::parse_fen(f, Coords::Human)
            .map_err(|e| e.to_string())
            .and_then(|s| Position::from_setup(&v, &s).map_err(|e| format!("StartFEN: {e}")))
        {
            Ok(p) => p,
            Err(e) => {
                out.error = Some(game_error(e));
                return out;
            }
        },
    };
    let mut setup: Option<SetupBuilder> = None;
    for line in &game.moves {
        let fail = |reason: String| ReplayError {
            line: line.line,
            number: line.number,
            text: line.text.clone(),
            reason,
        };
        if out.moves.is_empty() && is_placement(&mut pos, &line.text) {
            let builder = setup.get_or_insert_with(|| SetupBuilder::new(&v));
            let placed = zillions::parse_placement(&v, &line.text)
                .map_err(|e| e.to_string())
                .and_then(|p| builder.place(&p).map_err(|e| e.to_string()));
            if let Err(e) = placed {
                out.error = Some(fail(e));
                return out;
            }
            continue;
        }
        if let Some(builder) = setup.take() {
            match builder.build() {
                Ok(p) => pos = p,
                Err(e) => {
                    out.error = Some(fail(format!("the setup before this move is not a position: {e}")));
                    return out;
                }
            }
        }
        if out.positions.is_empty() {
            out.positions.push(pos.clone());
        }
        match zillions::parse_move(&pos, &line.text) {
            Ok(mv) => {
                pos.make(mv);
                out.moves.push(mv);
                out.positions.push(pos.clone());
            }
            Err(e) => {
                out.error = Some(fail(match e {
                    ZillionsError::Illegal(why) => format!("illegal: {why}"),
                    other => other.to_string(),
                }));
                return out;
            }
        }
    }
    if let Some(builder) = setup.take() {
        match builder.build() {
            Ok(p) => pos = p,
            Err(e) => {
                out.error = Some(game_error(format!("the setup is not a position: {e}")));
                return out;
            }
        }
    }
    if out.positions.is_empty() {
        out.positions.push(pos);
    }
    out
}

/// Before the first move: is this line a placement? Parenthesised ones always are; without
/// parentheses, when it is shaped like one and is not a legal move (`White Ninja-Pawn e2` may be a
/// drop).
pub fn is_placement(pos: &mut Position, text: &str) -> bool {
    let t = text.trim();
    if !zillions::looks_like_placement(t) {
        return false;
    }
    (t.starts_with('(') && t.ends_with(')')) || zillions::parse_move(pos, t).is_err()
}

/// Writes a game as a save game: the variant's Zillions name, `StartFEN=` if `start` is not the
/// variant's start, one line per move.
pub fn write(start: &Position, moves: &[Move]) -> String {
    let v = start.variant();
    let mut s = format!(
        "{MAGIC} 0.02 CC\nRulesFile={}.zrf\nVariantName={}\n",
        v.name,
        zillions::game_name(v)
    );
    let start_fen = fen::to_fen(start, Coords::Human);
    if start_fen != fen::to_fen(&Position::start(v), Coords::Human) {
        s.push_str(&format!("StartFEN={start_fen}\n"));
    }
    let mut pos = start.clone();
    for mv in moves {
        let number = pos.fullmove_number();
        let text = zillions::move_text(&pos, mv);
        let mover = pos.side_to_move();
        pos.make(*mv);
        let partial = if pos.side_to_move() == mover { "partial 2 " } else { "" };
        s.push_str(&format!("{number}. {partial}{text}\n"));
    }
    s
}

/// Where the match runner saves game `number` of `total` when asked for `path`: the path itself
/// for a single game, else the number before the extension (`games.zsg` → `games-3.zsg`): a save
/// game holds one game.
pub fn game_path(path: &std::path::Path, number: u32, total: usize) -> std::path::PathBuf {
    if total <= 1 {
        return path.to_path_buf();
    }
    let stem = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let ext = path
        .extension()
        .map_or_else(|| "zsg".to_string(), |e| e.to_string_lossy().into_owned());
    path.with_file_name(format!("{stem}-{number}.{ext}"))
}

/// Saves a game (its start, its moves) as a save game at `path`.
///
/// # Errors
///
/// The file cannot be written.
pub fn save(path: &std::path::Path, start: &Position, moves: &[Move]) -> Result<(), String> {
    std::fs::write(path, write(start, moves)).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_headers_and_numbered_moves() {
        let g = read("Zillions Save Game File Version 0.02 CC\nRulesFile=chess.zrf\nVariantName=Chess\n1. Pawn e2 - e4\n1. Pawn e7 - e5\n")
            .expect("save game");
        assert_eq!(g.header("variantname"), Some("Chess"));
        assert_eq!(g.moves.len(), 2);
        assert_eq!(g.moves[1].line, 5);
        assert!(read("1. Pawn e2 - e4\n").is_err());
        assert_eq!(
            read("Zillions Save Game File Version 0.02\nnonsense here\n").map_err(|e| e.line),
            Err(2)
        );
    }

    #[test]
    fn a_written_game_replays_to_the_same_positions() {
        let reg = Registry::builtin();
        for name in ["normal", "wreckage", "wildrose", "pillage"] {
            let v = reg.get(name).expect("variant");
            let mut pos = Position::start(&v);
            let mut moves = Vec::new();
            // The first legal move each time: a deterministic game of 30 plies.
            for _ in 0..30 {
                let Some(mv) = pos.legal_moves().iter().copied().last() else {
                    break;
                };
                pos.make(mv);
                moves.push(mv);
            }
            let text = write(&Position::start(&v), &moves);
            let r = replay(&read(&text).expect("readable"), &reg, None);
            assert_eq!(r.error, None, "{name}:\n{text}");
            assert_eq!(r.moves, moves, "{name}");
            assert_eq!(r.positions.last().map(|p| p.hash()), Some(pos.hash()), "{name}");
        }
    }

    #[test]
    fn placements_set_the_board_up() {
        let reg = Registry::builtin();
        let text = "Zillions Save Game File Version 0.02 CC\nVariantName=Chess\n1. (White King e1)\n1. (White Rook h1)\n1. (Black King e8)\n1. King e1 - g1 Rook h1 - f1\n";
        let r = replay(&read(text).expect("readable"), &reg, None);
        assert_eq!(r.error, None);
        assert_eq!(
            fen::to_fen(&r.positions[0], Coords::Human),
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
        );
        let broken = text.replace("(Black King e8)", "(Black Pawn e8)");
        let r = replay(&read(&broken).expect("readable"), &reg, None);
        assert!(
            r.error
                .is_some_and(|e| e.line == 6 && e.reason.contains("not a position"))
        );
    }
}
