//! PGN out (one game at a time, appended and flushed by the runner) and in (for tools and tests).
//!
//! Written games carry the seven standard tags (with `Pair` after `Round` for a paired game), then
//! `Variant`, `SetUp "1"`, `FEN` (always, in human coordinates), `TimeControl`, `PlyCount`, `Termination` and `GameDuration`. Moves are in the
//! SAN of [`crate::notation::san`], each with a comment `{score/depth time}` as cutechess-cli writes
//! it; the last comment says how the game ended. The sub-moves of a Wild Rose growing-roses turn
//! follow each other under one move number.

use std::time::{SystemTime, UNIX_EPOCH};

use super::game::GameRecord;
use crate::core::{Color, GameResult, Move, Position};
use crate::notation::{Coords, fen, san};
use crate::variants::{NORMAL, Registry};

/// `YYYY.MM.DD` (UTC) of a time.
pub fn pgn_date(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Comments may not contain `}`.
fn comment(text: &str) -> String {
    format!("{{{}}}", text.replace('}', ")").replace('{', "("))
}

/// One game as PGN text, ending with an empty line. `pair`: the game pair it belongs to (a `Pair`
/// tag after `Round`, which `fairybridge merge` reads to count pairs).
pub fn write_game(rec: &GameRecord, event: &str, round: u32, pair: Option<u32>) -> String {
    let result = rec.ending.result();
    let secs = rec.duration.as_secs();
    let tags = [
        ("Event", event.to_string()),
        ("Site", "?".to_string()),
        ("Date", pgn_date(rec.started)),
        ("Round", round.to_string()),
        ("White", rec.white.clone()),
        ("Black", rec.black.clone()),
        ("Result", result.to_string()),
        ("Variant", rec.variant.clone()),
        ("SetUp", "1".to_string()),
        ("FEN", crate::notation::fen::for_pgn(rec.start.fen())),
        ("TimeControl", rec.time_control.clone()),
        ("PlyCount", rec.moves.len().to_string()),
        ("Termination", rec.ending.termination().to_string()),
        (
            "GameDuration",
            format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60),
        ),
    ];
    let mut out = String::new();
    for (k, v) in tags {
        out.push_str(&format!("[{k} \"{}\"]\n", escape(&v)));
        if let ("Round", Some(pair)) = (k, pair) {
            out.push_str(&format!("[Pair \"{pair}\"]\n"));
        }
    }
    out.push('\n');
    let mut words: Vec<String> = Vec::new();
    let mut pos = rec.start.position().clone();
    let mut color = pos.side_to_move();
    let mut number = pos.fullmove_number();
    // Each move's SAN, written in the position it was played in.
    let mut played = |words: &mut Vec<String>, mv: &super::game::MoveRecord| {
        words.push(san::to_san(&mut pos, &mv.mv));
        words.push(comment(&mv.comment));
        pos.make(mv.mv);
    };
    let mut i = 0;
    for (t, &n) in rec.turns.iter().enumerate() {
        match color {
            Color::White => words.push(format!("{number}.")),
            Color::Black if t == 0 => words.push(format!("{number}...")),
            Color::Black => {}
        }
        for mv in &rec.moves[i..(i + n).min(rec.moves.len())] {
            played(&mut words, mv);
        }
        i += n;
        if color == Color::Black {
            number += 1;
        }
        color = color.opposite();
    }
    // Moves of an unfinished turn (the game ended in the middle of it).
    if i < rec.moves.len() {
        if color == Color::White || rec.turns.is_empty() {
            words.push(format!("{number}{}", if color == Color::White { "." } else { "..." }));
        }
        for mv in &rec.moves[i..] {
            played(&mut words, mv);
        }
    }
    words.push(comment(&rec.ending.description()));
    words.push(result.to_string());
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// A game read from PGN: its tags, its move words (SAN), its comments and the result its movetext
/// ends with (none if it ends without one).
#[derive(Clone, Debug, Default)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    pub comments: Vec<String>,
    pub result: Option<GameResult>,
}

impl PgnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// Replays the game with the rules core: the start position (from `Variant` and `FEN`) and
    /// every move, read as SAN. Returns the final position and the moves.
    ///
    /// # Errors
    ///
    /// An unknown variant, a start position that does not read, or a move that is not legal.
    pub fn replay(&self, reg: &Registry) -> Result<(Position, Vec<Move>), String> {
        let name = self.tag("Variant").unwrap_or(NORMAL);
        let name = if name.eq_ignore_ascii_case("standard") {
            NORMAL
        } else {
            name
        };
        let v = reg.get(name).ok_or_else(|| format!("unknown variant {name:?}"))?;
        let mut pos = match self.tag("FEN") {
            Some(f) => {
                let setup = fen::parse_fen(f, Coords::Human).map_err(|e| e.to_string())?;
                Position::from_setup(&v, &setup).map_err(|e| e.to_string())?
            }
            None => Position::start(&v),
        };
        let mut moves = Vec::new();
        for (i, word) in self.moves.iter().enumerate() {
            let mv = san::parse_san(&mut pos, word).map_err(|e| format!("move {}: {e}", i + 1))?;
            pos.make(mv);
            moves.push(mv);
        }
        Ok((pos, moves))
    }
}

/// Reads every game of a PGN text (tags, main line, comments; variations and NAGs are skipped).
pub fn read_pgn(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut in_moves = false;
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut depth = 0; // variation nesting
    let finish = |game: &mut PgnGame, games: &mut Vec<PgnGame>| {
        if !game.tags.is_empty() || !game.moves.is_empty() {
            games.push(std::mem::take(game));
        }
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '[' if depth == 0 && (i == 0 || chars[i - 1] == '\n') => {
                if in_moves {
                    finish(&mut game, &mut games);
                    in_moves = false;
                }
                let end = chars[i..]
                    .iter()
                    .position(|&x| x == '\n')
                    .map_or(chars.len(), |p| i + p);
                let line: String = chars[i..end].iter().collect();
                if let Some((name, rest)) = line.trim_start_matches('[').split_once(' ') {
                    let value = rest.trim().trim_end_matches(']').trim();
                    let value = value.strip_prefix('"').unwrap_or(value);
                    let value = value.strip_suffix('"').unwrap_or(value);
                    game.tags
                        .push((name.to_string(), value.replace("\\\"", "\"").replace("\\\\", "\\")));
                }
                i = end;
            }
            '{' => {
                let end = chars[i..].iter().position(|&x| x == '}').map_or(chars.len(), |p| i + p);
                if depth == 0 {
                    game.comments.push(chars[i + 1..end].iter().collect());
                }
                i = end + 1;
            }
            ';' => {
                i = chars[i..]
                    .iter()
                    .position(|&x| x == '\n')
                    .map_or(chars.len(), |p| i + p);
            }
            '(' => {
                depth += 1;
                i += 1;
            }
            ')' => {
                depth = (depth - 1).max(0);
                i += 1;
            }
            c if c.is_whitespace() => i += 1,
            _ => {
                let end = chars[i..]
                    .iter()
                    .position(|&x| x.is_whitespace() || matches!(x, '{' | '(' | ')' | ';'))
                    .map_or(chars.len(), |p| i + p);
                let word: String = chars[i..end].iter().collect();
                i = end;
                if depth > 0 || word.starts_with('$') {
                    continue;
                }
                in_moves = true;
                if let Some(result) = GameResult::from_token(&word) {
                    game.result = Some(result);
                    finish(&mut game, &mut games);
                    in_moves = false;
                    continue;
                }
                // Move numbers, alone (`12.`, `12...`) or glued to the move (`12.e4`).
                let stripped = word.trim_start_matches(|c: char| c.is_ascii_digit());
                let stripped = if stripped.len() < word.len() && stripped.starts_with('.') {
                    stripped.trim_start_matches('.')
                } else {
                    &word
                };
                if !stripped.is_empty() {
                    game.moves.push(stripped.to_string());
                }
            }
        }
    }
    finish(&mut game, &mut games);
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(20_513), (2026, 3, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    /// A Wild Rose game from move 7 with Black to move: a move of Black, a turn of two moves of
    /// White (growing roses, then its move), a move of Black.
    fn wild_rose_turns() -> (Position, Vec<Move>) {
        use crate::core::MoveKind;
        let v = Registry::builtin().get("wildrose").expect("wildrose");
        let setup = fen::parse_fen("vn5w/4P3/7w/8/8/8/W7/1W5N b - - 0 7", Coords::Human).expect("fen");
        let start = Position::from_setup(&v, &setup).expect("position");
        let mut pos = start.clone();
        for first in pos.legal_moves().iter().copied() {
            let mut white = pos.clone();
            white.make(first);
            for grow in white
                .legal_moves()
                .iter()
                .copied()
                .filter(|m| m.kind() == MoveKind::Grow)
            {
                let mut mid = white.clone();
                mid.make(grow);
                for next in mid.legal_moves().iter().copied() {
                    let mut black = mid.clone();
                    black.make(next);
                    if black.outcome().is_none() && black.side_to_move() == Color::Black {
                        let last = black.legal_moves().0[0];
                        return (start, vec![first, grow, next, last]);
                    }
                }
            }
        }
        panic!("no growing-roses turn");
    }

    #[test]
    fn writes_turns_of_several_moves_under_one_number() {
        use super::super::game::{Ending, MoveRecord, Start};
        let (start, moves) = wild_rose_turns();
        let mut pos = start.clone();
        let mut sans = Vec::new();
        for mv in &moves {
            sans.push(san::to_san(&mut pos, mv));
            pos.make(*mv);
        }
        let rec = GameRecord {
            white: "W".into(),
            black: "B".into(),
            variant: "wildrose".into(),
            start: std::sync::Arc::new(Start::new(start)),
            moves: moves
                .iter()
                .map(|&mv| MoveRecord {
                    mv,
                    comment: "0.10s".to_string(),
                })
                .collect(),
            turns: vec![1, 2, 1],
            ending: Ending::Adjudicated {
                winner: None,
                why: "Draw by adjudication".into(),
            },
            time_control: "1+0".into(),
            started: UNIX_EPOCH,
            duration: std::time::Duration::from_secs(3725),
        };
        let text = write_game(&rec, "e", 4, Some(1));
        assert!(text.contains("[Date \"1970.01.01\"]"), "{text}");
        assert!(text.contains("[GameDuration \"01:02:05\"]"), "{text}");
        assert!(text.contains("[PlyCount \"4\"]"), "{text}");
        let [a, b, c, d] = [&sans[0], &sans[1], &sans[2], &sans[3]];
        let movetext =
            format!("7... {a} {{0.10s}} 8. {b} {{0.10s}} {c} {{0.10s}} {d} {{0.10s}} {{Draw by adjudication}} 1/2-1/2");
        assert!(text.replace('\n', " ").contains(&movetext), "{text}");
        let back = read_pgn(&text);
        assert_eq!(back[0].tag("Pair"), Some("1"));
        assert_eq!(back[0].moves, sans);
        assert_eq!(back[0].result, Some(GameResult::Draw));
    }

    #[test]
    fn reads_tags_moves_comments_and_results() {
        let text = "[Event \"a \\\"b\\\"\"]\n[Variant \"normal\"]\n\n1. e4 {+0.10/3 0.1s} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6\n; line comment\n3.Bb5 {White wins} 1-0\n\n[Event \"two\"]\n\n1... e5 *\n";
        let games = read_pgn(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Event"), Some("a \"b\""));
        assert_eq!(games[0].moves, ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        assert_eq!(games[0].comments, ["+0.10/3 0.1s", "White wins"]);
        assert_eq!(games[0].result, Some(GameResult::WhiteWins));
        assert_eq!(games[1].moves, ["e5"]);
        assert_eq!(games[1].result, Some(GameResult::Unfinished));
        let (pos, moves) = games[0].replay(&Registry::builtin()).unwrap();
        assert_eq!(moves.len(), 5);
        assert_eq!(
            fen::to_fen(&pos, Coords::Human),
            "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"
        );
    }
}
