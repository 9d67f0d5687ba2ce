//! Moves on the UCI wire: the engine's canonical notation (human coordinates, `e10` on 10-rank
//! boards, drops `J@e5`, detonation `e5e5`, as Fairy-Stockfish writes UCI), with two UCI forms:
//!
//! - a **turn of several moves** (Wild Rose's growing roses) is one UCI move: its sub-moves joined
//!   by commas, `e7e8=b8,a2a3`. `position … moves` also takes the sub-moves as separate words;
//! - with `UCI_Chess960`, castling is written as the king taking its own rook (`e1h1`), in the
//!   games where a king castles by one distance only (where the form is unambiguous);
//! - a shogi-style promotion (the mover's one promotion, to the type promoted from it:
//!   `promoted_from`) is `+` (`d1d5+`), as Fairy-Stockfish writes it, not the promoted type's
//!   letter; a promotion with a choice (crazyhouse's pawn, whose promoted pieces remember it) keeps
//!   the chosen type's letter (`g2h1q`).
//!
//! Legality is the core's: a text names a move only if it is the text of a legal move.

use crate::core::moves::piece_move;
use crate::core::{Move, Position};
use crate::notation::movetext::{self, MoveTextError};
use crate::notation::{Coords, square_name};

/// Does `UCI_Chess960`'s castling form apply to this position's game?
fn king_takes_rook_applies(pos: &Position) -> bool {
    pos.variant().castling.as_ref().is_some_and(|c| c.king_steps.len() == 1)
}

/// The UCI text of one (sub-)move.
pub fn move_text(pos: &Position, mv: &Move, chess960: bool) -> String {
    if let Move::Castle {
        king_from, rook_from, ..
    } = *mv
        && chess960
        && king_takes_rook_applies(pos)
    {
        let shape = pos.variant().shape;
        return format!(
            "{}{}",
            square_name(shape, king_from, Coords::Human),
            square_name(shape, rook_from, Coords::Human)
        );
    }
    let mut text = movetext::canonical(pos, mv);
    if promotes_in_place(pos, mv) {
        text.pop();
        text.push('+');
    }
    text
}

/// Is `mv` a shogi-style promotion: the mover's only promotion, to the type promoted from it?
/// (Crazyhouse's pawn also promotes to types promoted from it, but chooses among four: those
/// promotions are named by the chosen type's letter.)
fn promotes_in_place(pos: &Position, mv: &Move) -> bool {
    let piece_move!(from, _to, Some(to_kind)) = *mv else {
        return false;
    };
    let v = pos.variant();
    pos.piece_at(from).is_some_and(|p| {
        v.piece(to_kind).promoted_from == Some(p.kind())
            && v.piece(p.kind())
                .promotion
                .as_ref()
                .is_some_and(|rule| rule.choices.len() == 1)
    })
}

/// The UCI text of a whole turn (one move, or the sub-moves of a turn of several).
pub fn turn_text(pos: &Position, turn: &[Move], chess960: bool) -> String {
    movetext::turn_text(pos, turn, ",", |p, mv| move_text(p, mv, chess960))
}

/// The turns of a line of sub-moves from `root`: legal moves only, and an unfinished last turn
/// left off.
pub fn turns(root: &Position, line: &[Move]) -> Vec<Vec<Move>> {
    let mut pos = root.clone();
    let mut turns = Vec::new();
    let mut current = Vec::new();
    for mv in line {
        if pos.play(*mv).is_err() {
            break;
        }
        current.push(*mv);
        if !pos.in_continuation() {
            turns.push(std::mem::take(&mut current));
        }
    }
    turns
}

/// A line of sub-moves as UCI words (a `pv`).
pub fn line_text(root: &Position, line: &[Move], chess960: bool) -> Vec<String> {
    let mut pos = root.clone();
    let mut words = Vec::new();
    for turn in turns(root, line) {
        words.push(turn_text(&pos, &turn, chess960));
        for mv in &turn {
            pos.make(*mv);
        }
    }
    words
}

/// The legal move one text names (canonical notation, or the Chess960 castling form).
fn find_move(pos: &Position, text: &str, chess960: bool) -> Result<Move, MoveTextError> {
    if chess960 && king_takes_rook_applies(pos) {
        let castle = pos
            .legal_moves()
            .iter()
            .find(|mv| matches!(mv, Move::Castle { .. }) && move_text(pos, mv, true) == text)
            .copied();
        if let Some(mv) = castle {
            return Ok(mv);
        }
    }
    if text.ends_with('+') {
        let promotion = pos
            .legal_moves()
            .iter()
            .find(|mv| promotes_in_place(pos, mv) && move_text(pos, mv, chess960) == text)
            .copied();
        return promotion.ok_or(MoveTextError::Illegal);
    }
    movetext::parse_move(pos, text, Coords::Human)
}

/// Plays the move one UCI word names: a move, a sub-move, or a whole turn with its sub-moves
/// joined by commas. On success the position has advanced by the moves returned; on failure it is
/// unchanged.
///
/// # Errors
///
/// As [`movetext::parse_move`], for the first sub-move that is not a legal move here.
pub fn play_word(pos: &mut Position, word: &str, chess960: bool) -> Result<Vec<Move>, MoveTextError> {
    // A multi-leg form the core reads as one move (`e5e6,e6e5`) comes first.
    match find_move(pos, word, chess960) {
        Ok(mv) => {
            pos.make(mv);
            return Ok(vec![mv]);
        }
        Err(e) if !word.contains(',') => return Err(e),
        Err(_) => {}
    }
    let mut played = Vec::new();
    for (i, part) in word.split(',').enumerate() {
        // Every sub-move after the first continues the same turn.
        let continues = i == 0 || pos.in_continuation();
        match find_move(pos, part, chess960) {
            Ok(mv) if continues => {
                pos.make(mv);
                played.push(mv);
            }
            other => {
                for _ in &played {
                    pos.unmake();
                }
                return Err(other.err().unwrap_or(MoveTextError::Illegal));
            }
        }
    }
    Ok(played)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;
    use crate::variants::Registry;

    fn position(variant: &str, fen_text: Option<&str>) -> Position {
        let v = Registry::builtin().get(variant).unwrap();
        match fen_text {
            None => Position::start(&v),
            Some(f) => Position::from_setup(&v, &fen::parse_fen(f, Coords::Human).unwrap()).unwrap(),
        }
    }

    /// The UCI texts of the legal moves of `pos`.
    fn legal_texts(pos: &Position) -> Vec<String> {
        pos.clone()
            .legal_moves()
            .iter()
            .map(|m| move_text(pos, m, false))
            .collect()
    }

    /// `text` names a legal move of `pos`, whose text is `text` again.
    fn assert_round_trip(pos: &Position, text: &str) {
        let played = play_word(&mut pos.clone(), text, false).expect(text);
        assert_eq!(move_text(pos, &played[0], false), text);
    }

    #[test]
    fn a_shogi_style_promotion_is_a_plus_as_fairy_stockfish_writes_it() {
        let mut games = Registry::builtin();
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/variants/examples/minishogi.toml");
        assert!(games.load_paths(&[file], |_| Ok(())).errors.is_empty());
        let v = games.get("minishogi").expect("minishogi");
        // A white rook on d3 takes the pawn on d5, in the zone: promoting or not.
        let setup = fen::parse_fen("3pk/5/3R1/5/K4[] w - - 0 1", Coords::Human).expect("fen");
        let pos = Position::from_setup(&v, &setup).expect("position");
        let texts = legal_texts(&pos);
        assert!(
            texts.contains(&"d3d5+".to_string()) && texts.contains(&"d3d5".to_string()),
            "{texts:?}"
        );
        assert!(!texts.iter().any(|t| t.ends_with('r')), "{texts:?}");
        for text in ["d3d5+", "d3d5"] {
            assert_round_trip(&pos, text);
        }
        assert_eq!(play_word(&mut pos.clone(), "d3d4+", false), Err(MoveTextError::Illegal));
    }

    #[test]
    fn a_crazyhouse_promotion_is_the_chosen_letter_as_fairy_stockfish_writes_it() {
        // White's pawn on g7 promotes on g8 or takes on h8; its promoted pieces remember the pawn.
        let pos = position("crazyhouse", Some("4k2r/6P1/8/8/8/8/8/4K3[] w - - 0 1"));
        let texts = legal_texts(&pos);
        for text in ["g7g8q", "g7g8r", "g7g8b", "g7g8n", "g7h8q", "g7h8n"] {
            assert!(texts.contains(&text.to_string()), "{text} not in {texts:?}");
            assert_round_trip(&pos, text);
        }
        assert!(!texts.iter().any(|t| t.ends_with('+')), "{texts:?}");
        assert_eq!(play_word(&mut pos.clone(), "g7g8+", false), Err(MoveTextError::Illegal));
    }

    #[test]
    fn ten_rank_boards_use_human_ranks() {
        let mut p = position("pillage", None);
        let texts: Vec<String> = p.legal_moves().iter().map(|m| move_text(&p, m, false)).collect();
        assert!(texts.iter().any(|t| t == "e3e5"), "{texts:?}");
        assert!(texts.iter().all(|t| !t.contains('0')));
        assert_eq!(play_word(&mut p, "e3e5", false).map(|m| m.len()), Ok(1));
        let black: Vec<String> = p.legal_moves().iter().map(|m| move_text(&p, m, false)).collect();
        assert!(black.contains(&"d9c10".to_string()), "{black:?}");
        assert_eq!(play_word(&mut p, "d9c10", false).map(|m| m.len()), Ok(1));
    }

    #[test]
    fn castling_forms() {
        let fen_text = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
        let mut p = position("normal", Some(fen_text));
        let castle = *p
            .legal_moves()
            .iter()
            .find(|m| matches!(m, Move::Castle { king_from, king_to, .. } if king_to.index() > king_from.index()))
            .unwrap();
        assert_eq!(move_text(&p, &castle, false), "e1g1");
        assert_eq!(move_text(&p, &castle, true), "e1h1");
        let mut q = p.clone();
        assert_eq!(play_word(&mut q, "e1h1", true), Ok(vec![castle]));
        assert_eq!(play_word(&mut p, "e1h1", false), Err(MoveTextError::Illegal));
    }

    #[test]
    fn bad_words_leave_the_position_alone() {
        let mut p = position("normal", None);
        let hash = p.hash();
        assert_eq!(play_word(&mut p, "e2e5", false), Err(MoveTextError::Illegal));
        assert_eq!(play_word(&mut p, "hello", false), Err(MoveTextError::Unparsable));
        // Two moves of two different turns are not one turn.
        assert!(play_word(&mut p, "e2e4,e7e5", false).is_err());
        assert_eq!(p.hash(), hash);
        assert_eq!(p.plies_played(), 0);
    }
}
