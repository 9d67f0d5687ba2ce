//! Training positions from games already played: the games of a PGN file (as `fairybridge match`
//! writes them) are replayed move by move through the rules core, each move's search score read
//! from its comment (`{+0.25/12 0.81s}`), and their positions chosen as the self-play ones are
//! ([`GamePositions`]), each with its game's result.

use std::sync::Arc;

use crate::core::{GameResult, Variant};
use crate::tournament::game::comment_score;
use crate::tournament::pgn::{PgnGame, read_pgn};

use super::selfplay::{GamePositions, MATE_CP};

/// What a PGN file gave.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PgnPositions {
    /// `RESULT;FEN` lines, as `selfplay::play` gives them, game after game in the file's order.
    pub lines: Vec<String>,
    /// Games of the variant that gave positions (or could have).
    pub games: usize,
    /// Games of other variants, skipped.
    pub other_variant: usize,
    /// Games without a result (`*`, none), skipped.
    pub unfinished: usize,
    /// Games lost by a forfeit or abandoned (time, an illegal move, an engine that failed), skipped:
    /// their results say nothing about the positions.
    pub forfeited: usize,
    /// Games that do not replay (a bad start position or move, results that disagree), skipped:
    /// one message each, naming the game.
    pub unreadable: Vec<String>,
}

/// The positions of the games of `variant` in the PGN `text` (`source` names it in messages).
pub fn positions(variant: &Arc<Variant>, text: &str, source: &str) -> PgnPositions {
    let mut out = PgnPositions::default();
    for (n, game) in read_pgn(text).iter().enumerate() {
        if game.variant_name() != variant.name {
            out.other_variant += 1;
            continue;
        }
        let name = match game.tag("Round") {
            Some(round) => format!("{source}: game {} (round {round})", n + 1),
            None => format!("{source}: game {}", n + 1),
        };
        let result = match result_of(game) {
            Ok(r) => r,
            Err(why) => {
                out.unreadable.push(format!("{name}: {why}"));
                continue;
            }
        };
        let white_score = match result {
            None | Some(GameResult::Unfinished) => {
                out.unfinished += 1;
                continue;
            }
            Some(GameResult::WhiteWins) => 1.0,
            Some(GameResult::BlackWins) => 0.0,
            Some(GameResult::Draw) => 0.5,
        };
        if game.forfeited() {
            out.forfeited += 1;
            continue;
        }
        let (mut pos, _, moves) = match game.replay_in(variant) {
            Ok(replayed) => replayed,
            Err(why) => {
                out.unreadable.push(format!("{name}: {why}"));
                continue;
            }
        };
        let mut kept = GamePositions::default();
        for (ply, mv) in moves.iter().enumerate() {
            let cp = game
                .move_comment(ply)
                .and_then(comment_score)
                .map(|s| s.clamp(-MATE_CP, MATE_CP));
            // The game goes on to its real result; positions the scores call decided are not kept,
            // as self-play would have stopped there.
            if kept.ply(&pos, mv, cp).is_some() {
                break;
            }
            pos.make(*mv);
        }
        out.games += 1;
        out.lines.extend(kept.lines(white_score));
    }
    out
}

/// The game's result: the one its movetext ends with, else its `Result` tag.
fn result_of(game: &PgnGame) -> Result<Option<GameResult>, String> {
    let tag = match game.tag("Result") {
        None => None,
        Some(t) => Some(GameResult::from_token(t).ok_or_else(|| format!("Result tag {t:?} is no result"))?),
    };
    match (game.result, tag) {
        (Some(a), Some(b)) if a != b => Err(format!("the movetext ends with {a} but the Result tag says {b}")),
        (Some(a), _) => Ok(Some(a)),
        (None, b) => Ok(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Registry;

    const FIXTURE: &str = include_str!("../../fixtures/tune/games.pgn");

    fn lines_of<'a>(p: &'a PgnPositions, result: &str) -> Vec<&'a str> {
        p.lines
            .iter()
            .filter_map(|l| l.strip_prefix(result).and_then(|l| l.strip_prefix(';')))
            .collect()
    }

    /// The fixture's seven games: a chess game won by White, a crazyhouse game, a game with an
    /// illegal move, a drawn game from a FEN, a time forfeit, an unfinished game (no Variant tag:
    /// chess) and a draw whose scores decide it early.
    #[test]
    fn reads_the_games_of_the_variant_and_skips_the_rest() {
        let v = Registry::builtin().get("normal").expect("normal");
        let p = positions(&v, FIXTURE, "games.pgn");
        assert_eq!(
            (p.games, p.other_variant, p.forfeited, p.unfinished),
            (3, 1, 1, 1),
            "{p:?}"
        );
        assert_eq!(p.unreadable.len(), 1, "{p:?}");
        assert!(
            p.unreadable[0].starts_with("games.pgn: game 3 (round 3): move 3 (Ke3)"),
            "{:?}",
            p.unreadable
        );
        // Game 1: the six positions before quiet moves; not those before the captures Bxc6 and
        // dxc6, nor the one the mover scores at +16.00 (not quiet).
        let wins = lines_of(&p, "1");
        assert_eq!(wins.len(), 6, "{p:?}");
        assert_eq!(wins[0], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(
            wins[5],
            "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"
        );
        // Game 4, from its FEN: the start (White in check) and the position before 41. Kd3 (in
        // check again) are not kept, the one between is. Game 7: after eight plies that one side
        // scores at 11 pawns, no more positions; the result kept is the game's, a draw.
        let draws = lines_of(&p, "0.5");
        assert_eq!(draws.len(), 1 + 8, "{p:?}");
        assert_eq!(draws[0], "4k3/8/8/8/8/8/3K4/R6r b - - 1 40");
        assert_eq!(
            draws[8],
            "1rbqkb1r/pppppppp/2n2n2/8/8/2N2N2/PPPPPPPP/R1BQKB1R b Kk - 7 4"
        );
        assert!(lines_of(&p, "0").is_empty(), "{p:?}");
        assert_eq!(p.lines.len(), 15);
        // In file order: game 1's positions come first.
        assert!(p.lines[0].starts_with("1;"));
    }

    /// Another variant's games are all skipped, and counted.
    #[test]
    fn games_of_another_variant_give_nothing() {
        let v = Registry::builtin().get("crazyhouse").expect("crazyhouse");
        let p = positions(&v, FIXTURE, "games.pgn");
        assert_eq!((p.games, p.other_variant), (1, 6), "{p:?}");
        // Its one game has two quiet positions.
        assert_eq!(p.lines.len(), 2, "{p:?}");
        assert!(p.lines.iter().all(|l| l.starts_with("0;")), "{p:?}");
    }

    #[test]
    fn a_result_that_contradicts_its_tag_or_does_not_read_is_refused() {
        let v = Registry::builtin().get("normal").expect("normal");
        let p = positions(&v, "[Result \"1-0\"]\n\n1. e4 e5 0-1\n", "x");
        assert_eq!(
            p.unreadable,
            ["x: game 1: the movetext ends with 0-1 but the Result tag says 1-0"]
        );
        let p = positions(&v, "[Result \"2-0\"]\n\n1. e4 e5\n", "x");
        assert_eq!(p.unreadable, ["x: game 1: Result tag \"2-0\" is no result"]);
        let p = positions(&v, "[FEN \"8/8/8 w - - 0 1\"]\n\n1. e4 1-0\n", "x");
        assert_eq!(p.unreadable.len(), 1, "{p:?}");
        assert!(p.unreadable[0].starts_with("x: game 1: FEN"), "{p:?}");
        // Without scores in the comments a position is judged by its move alone.
        let p = positions(&v, "1. e4 e5 2. Nf3 1/2-1/2\n", "x");
        assert_eq!((p.games, p.lines.len()), (1, 3), "{p:?}");
    }
}
