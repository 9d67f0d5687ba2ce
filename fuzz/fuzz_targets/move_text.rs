//! Move texts from outside, in every notation, against one position (first byte: the game; then
//! a FEN line, empty for the start position; then one text per line): canonical and wire
//! coordinates, turns, SAN, Zillions moves and placements, UCI words. A text read names a legal
//! move whose own text reads back to it; a text refused leaves the position as it was.
#![no_main]

use fairybridge::core::Position;
use fairybridge::notation::{Coords, fen, movetext, san, zillions};
use fairybridge::protocol::uci::moves::play_word;
use fairybridge_fuzz::{check_move_texts, position_from_fen, variant};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&game, rest)) = data.split_first() else {
        return;
    };
    let v = variant(game);
    let text = String::from_utf8_lossy(rest);
    let mut lines = text.split('\n');
    let fen_text = lines.next().unwrap_or("");
    let mut pos = if fen_text.trim().is_empty() {
        Position::start(&v)
    } else {
        match position_from_fen(&v, fen_text, Coords::Human) {
            Some(p) => p,
            None => Position::start(&v),
        }
    };
    let start = fen::to_fen(&pos, Coords::Human);
    let hash = pos.hash();
    let unchanged = |pos: &Position| {
        assert_eq!(
            (fen::to_fen(pos, Coords::Human), pos.hash()),
            (start.clone(), hash),
            "position changed"
        );
    };
    for word in lines.take(16) {
        for coords in [Coords::Human, Coords::Wire] {
            if let Ok(mv) = movetext::parse_move(&mut pos, word, coords) {
                assert!(pos.find_legal(&mv).is_some(), "{word:?} read as an illegal move");
                check_move_texts(&mut pos, &mv);
            }
            unchanged(&pos);
            if let Ok(turn) = movetext::parse_turn(&mut pos, word, coords) {
                let mut p = pos.clone();
                for mv in &turn {
                    assert!(p.find_legal(mv).is_some(), "turn {word:?} holds an illegal move");
                    p.make(*mv);
                }
                assert!(!p.in_continuation(), "turn {word:?} is not a whole turn");
            }
            unchanged(&pos);
        }
        if let Ok(mv) = san::parse_san(&mut pos, word) {
            assert!(pos.find_legal(&mv).is_some(), "SAN {word:?} read as an illegal move");
            check_move_texts(&mut pos, &mv);
        }
        unchanged(&pos);
        if let Ok(mv) = zillions::parse_move(&mut pos, word) {
            assert!(
                pos.find_legal(&mv).is_some(),
                "Zillions {word:?} read as an illegal move"
            );
            check_move_texts(&mut pos, &mv);
        }
        unchanged(&pos);
        if let Ok(p) = zillions::parse_placement(&v, word) {
            let printed = zillions::placement_text(&v, &p);
            assert!(
                zillions::parse_placement(&v, &printed).is_ok(),
                "placement {word:?} printed as {printed:?}"
            );
        }
        for chess960 in [false, true] {
            if let Ok(played) = play_word(&mut pos, word, chess960) {
                for _ in &played {
                    pos.unmake();
                }
                let mut p = pos.clone();
                for mv in &played {
                    assert!(p.find_legal(mv).is_some(), "UCI {word:?} holds an illegal move");
                    p.make(*mv);
                }
            }
            unchanged(&pos);
        }
    }
});
