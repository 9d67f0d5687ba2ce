//! PGN out (one game at a time, appended and flushed by the runner) and in (for tools and tests).
//!
//! Written games carry the seven standard tags (with `Pair` after `Round` for a paired game), then
//! `Variant`, `SetUp "1"`, `FEN` (always, in human coordinates), `TimeControl`, `PlyCount`, `Termination` and `GameDuration`. Moves are in the
//! SAN of [`crate::notation::san`], each with a comment `{score/depth time}` as cutechess-cli writes
//! it; the last comment says how the game ended. The sub-moves of a Wild Rose growing-roses turn
//! follow each other under one move number.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use super::game::GameRecord;
use crate::core::{Color, GameResult, Move, Position, Variant};
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
        ("Variant", rec.variant_name().to_string()),
        ("SetUp", "1".to_string()),
        ("FEN", crate::notation::fen::for_pgn(rec.start.fen())),
        ("TimeControl", rec.time_control_tag()),
        ("PlyCount", rec.ply_count().to_string()),
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
    // A game that ended inside a turn ends with that turn as far as it was played, under its
    // number like any turn.
    for (t, turn) in rec.turns.iter().enumerate() {
        match color {
            Color::White => words.push(format!("{number}.")),
            Color::Black if t == 0 => words.push(format!("{number}...")),
            Color::Black => {}
        }
        // Each move's SAN, written in the position it was played in.
        for played in &turn.moves {
            words.push(san::to_san(&mut pos, &played.mv));
            words.push(comment(&played.comment));
            pos.make(played.mv);
        }
        if color == Color::Black {
            number += 1;
        }
        color = color.opposite();
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
    /// For each comment, how many moves came before it: the comment `{+0.25/12 0.81s}` of the
    /// match runner follows its move, so move `i` (from 0) owns the comment placed at `i + 1`.
    pub comment_at: Vec<usize>,
    pub result: Option<GameResult>,
}

impl PgnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The game's variant: its `Variant` tag, chess (`normal`) without one or for `standard`.
    pub fn variant_name(&self) -> &str {
        match self.tag("Variant") {
            None => NORMAL,
            Some(name) if name.eq_ignore_ascii_case("standard") => NORMAL,
            Some(name) => name,
        }
    }

    /// The comment that follows move `ply` (from 0) before the next move, if any (the first, if
    /// several do).
    pub fn move_comment(&self, ply: usize) -> Option<&str> {
        // `comment_at` rises with the moves read, so the first comment at `ply + 1` is found by
        // bisection rather than by a walk from the start on every ply.
        let i = self.comment_at.partition_point(|&at| at < ply + 1);
        (self.comment_at.get(i) == Some(&(ply + 1)))
            .then(|| self.comments.get(i))
            .flatten()
            .map(String::as_str)
    }

    /// Whether the game ended by a forfeit (time, a rules infraction) or was abandoned (an engine
    /// that disconnected or failed, an internal error): its `Termination` tag as the match runner
    /// and cutechess-cli write it. Its result says nothing about the position on the board.
    pub fn forfeited(&self) -> bool {
        matches!(
            self.tag("Termination"),
            Some("time forfeit" | "rules infraction" | "abandoned")
        )
    }

    /// Replays the game with the rules core: the start position (from `Variant` and `FEN`) and
    /// every move, read as SAN. Returns the final position and the moves.
    ///
    /// # Errors
    ///
    /// An unknown variant, a start position that does not read, or a move that is not legal.
    pub fn replay(&self, reg: &Registry) -> Result<(Position, Vec<Move>), String> {
        let name = self.variant_name();
        let v = reg.get(name).ok_or_else(|| format!("unknown variant {name:?}"))?;
        let (_, end, moves) = self.replay_in(&v)?;
        Ok((end, moves))
    }

    /// Replays the game's moves as a game of `variant` (whatever its `Variant` tag says): the
    /// start position (its `FEN`, or the variant's start) and every move, read as SAN. Returns the
    /// start position, the final position and the moves.
    ///
    /// # Errors
    ///
    /// A start position that does not read, or a move that is not legal (the text names it).
    pub fn replay_in(&self, variant: &Arc<Variant>) -> Result<(Position, Position, Vec<Move>), String> {
        let start = match self.tag("FEN") {
            Some(f) => {
                let setup = fen::parse_fen(f, Coords::Human).map_err(|e| format!("FEN {f:?}: {e}"))?;
                Position::from_setup(variant, &setup).map_err(|e| format!("FEN {f:?}: {e}"))?
            }
            None => Position::start(variant),
        };
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for (i, word) in self.moves.iter().enumerate() {
            let mv = san::parse_san(&pos, word).map_err(|e| format!("move {} ({word}): {e}", i + 1))?;
            pos.make(mv);
            moves.push(mv);
        }
        Ok((start, pos, moves))
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
                    game.comment_at.push(game.moves.len());
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
    use super::super::game::{Ending, MoveRecord, Turn};
    use super::super::timecontrol::TimeControl;
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
        let pos = start.clone();
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
        use super::super::game::Start;
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
            start: std::sync::Arc::new(Start::new(start)),
            turns: [&moves[..1], &moves[1..3], &moves[3..]]
                .iter()
                .map(|turn| Turn {
                    moves: turn
                        .iter()
                        .map(|&mv| MoveRecord {
                            mv,
                            comment: "0.10s".to_string(),
                        })
                        .collect(),
                })
                .collect(),
            ending: Ending::Adjudicated {
                winner: None,
                why: "Draw by adjudication".into(),
            },
            time_controls: [TimeControl::parse_tc("1+0").expect("time control"); 2],
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

    /// An engine of the fixtures' games, playing at `tc`.
    fn engine_at(name: &str, tc: &str) -> super::super::engine::EngineConfig {
        super::super::engine::EngineConfig {
            name: name.to_string(),
            cmd: String::new(),
            args: Vec::new(),
            dir: None,
            options: Vec::new(),
            tc: TimeControl::parse_tc(tc).expect("time control"),
            margin: std::time::Duration::ZERO,
            stderr: None,
            depth: None,
            nodes: None,
            cores: None,
            proto: super::super::engine::Protocol::default(),
        }
    }

    /// A game of `variant` from `start` between engines at time controls `tcs`, its turns given by
    /// the SAN of their moves; every move has a comment of its own, so that a comment written
    /// beside the wrong move shows.
    fn record_of(variant: &str, start: &str, tcs: [&str; 2], turns: &[&[&str]], ending: Ending) -> GameRecord {
        let v = Registry::builtin().get(variant).expect("built-in variant");
        let start = std::sync::Arc::new(super::super::game::Start::parse(&v, start).expect("start"));
        let (white, black) = (engine_at("White engine", tcs[0]), engine_at("Black \"quoted\"", tcs[1]));
        let mut rec = GameRecord::unplayed([&white, &black], &start, ending);
        rec.started = UNIX_EPOCH + std::time::Duration::from_secs(20_513 * 86_400 + 3_600);
        rec.duration = std::time::Duration::from_secs(3_725);
        let mut pos = start.position().clone();
        let mut ply = 0;
        for turn in turns {
            let mut moves = Vec::new();
            for text in *turn {
                let mv = san::parse_san(&pos, text).expect("a legal move");
                ply += 1;
                moves.push(MoveRecord {
                    mv,
                    comment: format!("+0.{ply:02}/{ply} {ply}.00s"),
                });
                pos.make(mv);
            }
            rec.turns.push(Turn { moves });
        }
        rec
    }

    /// The text of a chess game, byte for byte: match records are read by other tools, so a change
    /// to how the record is kept must not change a byte of what is written.
    #[test]
    fn a_chess_game_is_written_byte_for_byte() {
        let rec = record_of(
            NORMAL,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            ["40/60+0.5", "10+0.1"],
            &[&["e4"], &["e5"], &["Nf3"], &["Nc6"], &["Bb5"]],
            Ending::Resign(Color::Black),
        );
        let text = write_game(&rec, "pinned", 7, Some(3));
        assert_eq!(
            text,
            "[Event \"pinned\"]\n\
[Site \"?\"]\n\
[Date \"2026.03.01\"]\n\
[Round \"7\"]\n\
[Pair \"3\"]\n\
[White \"White engine\"]\n\
[Black \"Black \\\"quoted\\\"\"]\n\
[Result \"1-0\"]\n\
[Variant \"normal\"]\n\
[SetUp \"1\"]\n\
[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\
[TimeControl \"40/60+0.5:10+0.1\"]\n\
[PlyCount \"5\"]\n\
[Termination \"normal\"]\n\
[GameDuration \"01:02:05\"]\n\
\n\
1. e4 {+0.01/1 1.00s} e5 {+0.02/2 2.00s} 2. Nf3 {+0.03/3 3.00s} Nc6\n\
{+0.04/4 4.00s} 3. Bb5 {+0.05/5 5.00s} {Black resigns} 1-0\n\
\n\
"
        );
    }

    /// A chess game from a position with Black to move (`3...`), as PGN and as a save game.
    #[test]
    fn a_chess_game_from_black_and_its_save_game_are_written_byte_for_byte() {
        let rec = record_of(
            NORMAL,
            "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
            ["1+0", "1+0"],
            &[&["a6"], &["Bxc6"], &["dxc6"], &["O-O"]],
            Ending::Forfeit {
                loser: Color::Black,
                why: super::super::game::Forfeit::Time {
                    used: 1.5,
                    available: 1.25,
                },
            },
        );
        let text = write_game(&rec, "pinned", 8, None);
        assert_eq!(
            text,
            "[Event \"pinned\"]\n\
[Site \"?\"]\n\
[Date \"2026.03.01\"]\n\
[Round \"8\"]\n\
[White \"White engine\"]\n\
[Black \"Black \\\"quoted\\\"\"]\n\
[Result \"1-0\"]\n\
[Variant \"normal\"]\n\
[SetUp \"1\"]\n\
[FEN \"r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3\"]\n\
[TimeControl \"1\"]\n\
[PlyCount \"4\"]\n\
[Termination \"time forfeit\"]\n\
[GameDuration \"01:02:05\"]\n\
\n\
3... a6 {+0.01/1 1.00s} 4. Bxc6 {+0.02/2 2.00s} dxc6 {+0.03/3 3.00s} 5. O-O\n\
{+0.04/4 4.00s} {Black loses on time (1.500 s used, 1.250 s available)} 1-0\n\
\n\
"
        );
        let zsg = crate::zillions::zsg::write(rec.start.position(), &rec.moves().map(|m| m.mv).collect::<Vec<_>>());
        assert_eq!(
            zsg,
            "Zillions Save Game File Version 0.02 CC\n\
RulesFile=normal.zrf\n\
VariantName=Chess\n\
StartFEN=r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3\n\
3. Pawn a7 - a6\n\
4. Bishop b5 x c6\n\
4. Pawn d7 x c6\n\
5. King e1 - g1 Rook h1 - f1\n\
"
        );
    }

    /// A Wild Rose game with a turn of two moves, as PGN and as a save game (`partial 2`); then a
    /// game that ended inside that turn.
    #[test]
    fn wild_rose_turns_and_their_save_game_are_written_byte_for_byte() {
        let rec = record_of(
            "wildrose",
            "vn5w/4P3/7w/8/8/8/W7/1W5N b - - 0 7",
            ["5+0.05", "5+0.05"],
            &[&["Va7"], &["e8=a7", "Wac2"], &["Wg6"]],
            Ending::Adjudicated {
                winner: None,
                why: "Draw by adjudication: 3 moves played".into(),
            },
        );
        let text = write_game(&rec, "pinned", 9, Some(4));
        assert_eq!(
            text,
            "[Event \"pinned\"]\n\
[Site \"?\"]\n\
[Date \"2026.03.01\"]\n\
[Round \"9\"]\n\
[Pair \"4\"]\n\
[White \"White engine\"]\n\
[Black \"Black \\\"quoted\\\"\"]\n\
[Result \"1/2-1/2\"]\n\
[Variant \"wildrose\"]\n\
[SetUp \"1\"]\n\
[FEN \"vn5w/4P3/7w/8/8/8/W7/1W5N b - - 0 7\"]\n\
[TimeControl \"5+0.05\"]\n\
[PlyCount \"4\"]\n\
[Termination \"adjudication\"]\n\
[GameDuration \"01:02:05\"]\n\
\n\
7... Va7 {+0.01/1 1.00s} 8. e8=a7 {+0.02/2 2.00s} Wac2 {+0.03/3 3.00s} Wg6\n\
{+0.04/4 4.00s} {Draw by adjudication: 3 moves played} 1/2-1/2\n\
\n\
"
        );
        let zsg = crate::zillions::zsg::write(rec.start.position(), &rec.moves().map(|m| m.mv).collect::<Vec<_>>());
        assert_eq!(
            zsg,
            "Zillions Save Game File Version 0.02 CC\n\
RulesFile=wildrose.zrf\n\
VariantName=Wild Rose Chess\n\
StartFEN=vn5w/4P3/7w/8/8/8/W7/1W5N b - - 0 7\n\
7. Raven a8 - a7\n\
8. partial 2 Pawn e7 - e8 = Wild-Rose on a7\n\
8. Wild-Rose a2 - c2\n\
8. Wild-Rose h6 - g6\n\
"
        );
        let rec = record_of(
            "wildrose",
            "vn5w/4P3/7w/8/8/8/W7/1W5N b - - 0 7",
            ["5+0.05", "5+0.05"],
            &[&["Va7"], &["e8=a7"]],
            Ending::Forfeit {
                loser: Color::White,
                why: super::super::game::Forfeit::Crash("exit status 3".into()),
            },
        );
        assert_eq!(
            write_game(&rec, "pinned", 10, None),
            "[Event \"pinned\"]\n\
[Site \"?\"]\n\
[Date \"2026.03.01\"]\n\
[Round \"10\"]\n\
[White \"White engine\"]\n\
[Black \"Black \\\"quoted\\\"\"]\n\
[Result \"0-1\"]\n\
[Variant \"wildrose\"]\n\
[SetUp \"1\"]\n\
[FEN \"vn5w/4P3/7w/8/8/8/W7/1W5N b - - 0 7\"]\n\
[TimeControl \"5+0.05\"]\n\
[PlyCount \"2\"]\n\
[Termination \"abandoned\"]\n\
[GameDuration \"01:02:05\"]\n\
\n\
7... Va7 {+0.01/1 1.00s} 8. e8=a7 {+0.02/2 2.00s}\n\
{White disconnects (exit status 3)} 0-1\n\
\n\
"
        );
    }

    #[test]
    fn reads_tags_moves_comments_and_results() {
        let text = "[Event \"a \\\"b\\\"\"]\n[Variant \"normal\"]\n\n1. e4 {+0.10/3 0.1s} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6\n; line comment\n3.Bb5 {White wins} 1-0\n\n[Event \"two\"]\n\n1... e5 *\n";
        let games = read_pgn(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("Event"), Some("a \"b\""));
        assert_eq!(games[0].moves, ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        assert_eq!(games[0].comments, ["+0.10/3 0.1s", "White wins"]);
        // Each comment belongs to the move before it.
        assert_eq!(games[0].move_comment(0), Some("+0.10/3 0.1s"));
        assert_eq!(games[0].move_comment(1), None);
        assert_eq!(games[0].move_comment(4), Some("White wins"));
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
