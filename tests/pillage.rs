//! Pillage: the test positions T1-T9 of shared/rules/pillage.md section 10, one test each, the
//! clarifications C-1..C-3, fast pawns (double steps from any rank, e.p., promotion), super pawns
//! and e.p., and the wire notation of this 10-rank board (ranks 0..9, castling in two legs).
//!
//! Expected move lists were worked out by hand from the spec and checked with the independent
//! generator tests/support/pillage_perft.py (`--moves FEN` lists the legal moves of a position).
//! Two tests guard rules that are easy to get wrong (e.p. after a promoting double step, C3
//! castling rights).

mod common;

use std::collections::BTreeSet;

use fairybridge::core::{Color, Move, MoveKind, Position, PositionError};
use fairybridge::notation::movetext::{canonical, parse_move};
use fairybridge::notation::{Coords, fen};
use fairybridge::protocol::xboard::variant_info::wire;

use common::{at, builtin, fen_of, legal, moves, moves_from, play, position, set, sq};

const START: &str = "cv6vc/srnbqkbnrs/pppppppppp/10/10/10/10/PPPPPPPPPP/SRNBQKBNRS/CV6VC w KQkq - 0 1";
const T7: &str = "5k4/10/10/10/10/10/10/10/1R3K2R1/CV6VC w KQ - 0 1";
/// The seven castlings of T7 in canonical notation.
const CASTLINGS: [&str; 7] = ["i2f2", "f2h2", "f2i2", "b2f2", "f2d2", "f2c2", "f2b2"];
/// The white king's three moves from a1 in the T-positions.
const KING_A1: [&str; 3] = ["a1a2", "a1b1", "a1b2"];

fn try_pos(fen_text: &str) -> Result<Position, PositionError> {
    let setup = fen::parse_fen(fen_text, Coords::Human).unwrap_or_else(|e| panic!("{e}"));
    Position::from_setup(&builtin("pillage"), &setup)
}

fn pos(fen_text: &str) -> Position {
    position(&builtin("pillage"), fen_text)
}

fn with_king_a1(items: &[&str]) -> BTreeSet<String> {
    let mut s = set(items);
    s.extend(set(&KING_A1));
    s
}

fn castlings(p: &mut Position) -> BTreeSet<String> {
    let list = p.legal_moves();
    list.iter()
        .filter(|m| m.kind() == MoveKind::Castle)
        .map(|m| canonical(p, m))
        .collect()
}

/// `name` with its rank moved by `dr` (canonical coordinates).
fn shift(name: &str, dr: i32) -> String {
    let r: i32 = name[1..].parse().unwrap();
    format!("{}{}", &name[..1], r + dr)
}

// ----- T1 -----

#[test]
fn t1_start_position_has_exactly_the_40_listed_moves() {
    let mut p = pos(START);
    assert_eq!(fen_of(&p), START);
    let mut expected = BTreeSet::new();
    for file in 'a'..='j' {
        expected.insert(format!("{file}3{file}4"));
        expected.insert(format!("{file}3{file}5"));
    }
    expected.extend(set(&[
        // super pawns, jumping over their own fast pawns
        "a2a4", "a2c4", "j2j4", "j2h4", // knights
        "c2b4", "c2d4", "c2e1", "h2g4", "h2i4", "h2f1", // bishops
        "d2c1", "d2e1", "g2f1", "g2h1", // queen
        "e2d1", "e2e1", "e2f1", // king
        "f2e1", "f2f1", "f2g1",
    ]));
    assert_eq!(expected.len(), 40);
    assert_eq!(moves(&mut p), expected);
    // Cannons and vaos have no moves.
    for from in ["a1", "b1", "i1", "j1"] {
        assert!(moves_from(&mut p, from).is_empty(), "{from} must not move");
    }
    assert_eq!(p.legal_moves().len(), 40);
}

#[test]
fn t1_black_mirrors_white_after_a_waiting_move() {
    let mut p = pos(START);
    play(&mut p, "a3a4");
    let black = moves(&mut p);
    assert_eq!(black.len(), 40, "{black:?}");
    for m in [
        "a9a7", "a9c7", "j9j7", "j9h7", "c9e10", "h9f10", "e9d10", "f9g10", "e8e6",
    ] {
        assert!(black.contains(m), "{m} missing: {black:?}");
    }
}

// ----- T2 -----

const T2: &str = "9k/10/4r5/10/4P5/10/4C5/4n5/10/K9 w - - 0 1";

#[test]
fn t2_cannon_captures_over_one_screen_and_slides_without_capturing() {
    let mut p = pos(T2);
    let x = legal(&mut p, "e4e8").expect("Ce4xe8 (screen e6, e5/e7 empty) is legal");
    assert!(legal(&mut p, "e4e5").is_some(), "Ce4-e5 (non-capture) is legal");
    assert!(
        legal(&mut p, "e4e7").is_none(),
        "Ce4-e7 is illegal: a non-capture after a screen"
    );
    assert!(legal(&mut p, "e4e3").is_none(), "Ce4xe3 is illegal: no screen");
    assert!(legal(&mut p, "e4e6").is_none(), "the screen is a friend");
    assert_eq!(
        moves_from(&mut p, "e4"),
        set(&[
            "e4a4", "e4b4", "e4c4", "e4d4", "e4f4", "e4g4", "e4h4", "e4i4", "e4j4", "e4e5", "e4e8"
        ])
    );
    assert_eq!(moves(&mut p).len(), 15, "cannon 11, pawn e6-e7, king 3");
    p.make(x);
    assert_eq!((at(&p, "e8"), at(&p, "e6"), at(&p, "e4")), ('C', 'P', '.'));
    assert_eq!(fen_of(&p), "9k/10/4C5/10/4P5/10/10/4n5/10/K9 b - - 0 1");
}

// ----- T3 -----

#[test]
fn t3_vao_without_screen_has_one_north_east_move() {
    let mut p = pos("9k/10/10/10/10/3p6/10/1V8/10/K9 w - - 0 1");
    assert!(legal(&mut p, "b3c4").is_some());
    assert!(legal(&mut p, "b3d5").is_none(), "no screen: Vb3xd5 illegal");
    assert!(legal(&mut p, "b3e6").is_none(), "the vao cannot pass d5");
    assert_eq!(moves_from(&mut p, "b3"), set(&["b3c4", "b3a4", "b3a2", "b3c2", "b3d1"]));
    assert_eq!(moves(&mut p), with_king_a1(&["b3c4", "b3a4", "b3a2", "b3c2", "b3d1"]));
}

#[test]
fn t3_vao_captures_over_the_screen_c4() {
    let mut p = pos("9k/10/10/10/10/3p6/2P7/1V8/10/K9 w - - 0 1");
    let x = legal(&mut p, "b3d5").expect("Vb3xd5 over c4");
    assert!(legal(&mut p, "b3c4").is_none(), "c4 is occupied");
    assert!(legal(&mut p, "b3e6").is_none());
    assert_eq!(
        moves(&mut p),
        with_king_a1(&["b3d5", "b3a4", "b3a2", "b3c2", "b3d1", "c4c5", "c4c6", "c4d5"])
    );
    p.make(x);
    assert_eq!((at(&p, "d5"), at(&p, "c4"), at(&p, "b3")), ('V', 'P', '.'));
}

// ----- T4 -----

#[test]
fn t4_super_pawn_has_exactly_9_moves() {
    let mut p = pos("9k/10/10/4r5/4Pn4/4S5/10/10/10/K9 w - - 0 1");
    let expected = set(&["e5d5", "e5c5", "e5f5", "e5g5", "e5e7", "e5f6", "e5g7", "e5d6", "e5c7"]);
    assert_eq!(moves_from(&mut p, "e5"), expected);
    assert_eq!(
        moves(&mut p),
        with_king_a1(&expected.iter().map(String::as_str).collect::<Vec<_>>())
    );
    assert!(legal(&mut p, "e5e6").is_none(), "own pawn on e6");
    for back in ["e5e4", "e5d4", "e5f4", "e5e3", "e5c3", "e5g3"] {
        assert!(legal(&mut p, back).is_none(), "{back}: no backward moves");
    }
    // e7: jumps its own pawn, captures the rook; the pawn stays.
    let mv = legal(&mut p, "e5e7").unwrap();
    p.make(mv);
    assert_eq!((at(&p, "e7"), at(&p, "e6"), at(&p, "e5")), ('S', 'P', '.'));
    p.unmake();
    // g7: jumps the black knight, which survives.
    let mv = legal(&mut p, "e5g7").unwrap();
    p.make(mv);
    assert_eq!((at(&p, "g7"), at(&p, "f6")), ('S', 'n'));
    p.unmake();
    // f6: captures the knight (NE 1).
    let mv = legal(&mut p, "e5f6").unwrap();
    p.make(mv);
    assert_eq!(at(&p, "f6"), 'S');
    assert_eq!(fen_of(&p), "9k/10/10/4r5/4PS4/10/10/10/10/K9 b - - 0 1");
}

// ----- T5 -----

const T5: &str = "9k/10/10/3p6/10/4P5/10/10/10/K9 w - - 0 1";

#[test]
fn t5_en_passant_after_a_mid_board_double_step() {
    let mut p = pos(T5);
    assert_eq!(moves(&mut p), with_king_a1(&["e5e6", "e5e7"]));
    let double = play(&mut p, "e5e7");
    assert_eq!(double.kind(), MoveKind::MultiStep);
    assert_eq!(fen_of(&p), "9k/10/10/3pP5/10/10/10/10/10/K9 b - e6 0 1");
    let ep = legal(&mut p, "d7e6").expect("d7xe6 e.p. is legal right after e5-e7");
    assert_eq!(ep.kind(), MoveKind::EnPassant);
    assert_eq!(
        moves(&mut p),
        set(&["d7e6", "d7d6", "d7d5", "j10i10", "j10i9", "j10j9"])
    );
    p.make(ep);
    assert_eq!((at(&p, "e6"), at(&p, "e7"), at(&p, "d7")), ('p', '.', '.'));
    assert_eq!(fen_of(&p), "9k/10/10/10/4p5/10/10/10/10/K9 w - - 0 2");
    p.unmake();
    assert_eq!(fen_of(&p), "9k/10/10/3pP5/10/10/10/10/10/K9 b - e6 0 1");
}

#[test]
fn t5_en_passant_right_expires_after_one_turn() {
    let mut p = pos(T5);
    play(&mut p, "e5e7");
    play(&mut p, "j10j9");
    assert_eq!(fen_of(&p), "10/9k/10/3pP5/10/10/10/10/10/K9 w - - 1 2");
    play(&mut p, "a1a2");
    assert!(legal(&mut p, "d7e6").is_none(), "the e.p. right is gone");
    assert!(p.legal_moves().iter().all(|m| m.kind() != MoveKind::EnPassant));
    assert_eq!(fen_of(&p), "10/9k/10/3pP5/10/10/10/10/K9/10 b - - 2 2");
}

// ----- T6 -----

#[test]
fn t6_double_step_into_promotion_has_7_pawn_moves_and_no_en_passant() {
    let mut p = pos("9k/10/4P5/10/10/10/10/10/10/K9 w - - 0 1");
    let pawn = set(&["e8e9", "e8e10q", "e8e10r", "e8e10b", "e8e10n", "e8e10c", "e8e10v"]);
    assert_eq!(moves_from(&mut p, "e8"), pawn);
    assert_eq!(moves(&mut p).len(), 10);
    for text in ["e8e10q", "e8e10r", "e8e10b", "e8e10n", "e8e10c", "e8e10v"] {
        let mv = play(&mut p, text);
        let letter = text.chars().last().unwrap().to_ascii_uppercase();
        assert_eq!(at(&p, "e10"), letter);
        assert_eq!(p.piece_at(sq(&p, "e10")).unwrap().kind(), mv.promotion().unwrap());
        assert!(p.en_passant().is_none(), "{text}: no e.p. right");
        assert_eq!(fen_of(&p), format!("4{letter}4k/10/10/10/10/10/10/10/10/K9 b - - 0 1"));
        p.unmake();
    }
    assert!(legal(&mut p, "e8e10").is_none(), "promotion is mandatory");
    assert!(legal(&mut p, "e8e10k").is_none() && legal(&mut p, "e8e10s").is_none());
    assert!(legal(&mut p, "e8e10p").is_none());
}

/// Spec 7.3: a double step that promotes creates no e.p. right. Here a black fast pawn stands
/// beside the promotion square (d10 is Black's own first rank, legal in a set-up position).
///
/// A `MultiStep` move that also promotes sets no e.p. state (src/core/position.rs `make`):
/// otherwise Black could answer 1. e8-e10=Q+ with d10xe9 "e.p.", removing the new queen.
#[test]
fn no_en_passant_right_after_a_promoting_double_step() {
    let mut p = pos("3p5k/10/4P5/10/10/10/10/10/10/K9 w - - 0 1");
    play(&mut p, "e8e10q");
    assert!(p.in_check(), "the queen e10 checks along rank 10");
    assert!(p.en_passant().is_none(), "no e.p. right after a promoting double step");
    assert_eq!(fen_of(&p), "3pQ4k/10/10/10/10/10/10/10/10/K9 b - - 0 1");
    assert!(legal(&mut p, "d10e9").is_none(), "d10xe9 e.p. must not exist");
    assert_eq!(moves(&mut p), set(&["j10i9", "j10j9"]));
}

// ----- T7 -----

#[test]
fn t7_exactly_seven_castlings_with_their_squares() {
    let mut p = pos(T7);
    assert_eq!(castlings(&mut p), set(&CASTLINGS));
    assert_eq!(p.legal_moves().len(), 74);
    // (text, king square, rook square) after the move.
    let cases = [
        ("i2f2", "g2", "f2"),
        ("f2h2", "h2", "g2"),
        ("f2i2", "i2", "h2"),
        ("b2f2", "e2", "f2"),
        ("f2d2", "d2", "e2"),
        ("f2c2", "c2", "d2"),
        ("f2b2", "b2", "c2"),
    ];
    for (text, k, r) in cases {
        let mv = legal(&mut p, text).unwrap_or_else(|| panic!("{text} legal"));
        assert_eq!(mv.kind(), MoveKind::Castle, "{text}");
        assert_eq!(canonical(&p, &mv), text);
        p.make(mv);
        assert_eq!((at(&p, k), at(&p, r)), ('K', 'R'), "{text}: K {k}, R {r}");
        // Exactly the two rooks and the king on rank 2 (b2/i2 rook moved, the other stays).
        let rank2: String = ('a'..='j').map(|f| at(&p, &format!("{f}2"))).collect();
        assert_eq!(rank2.chars().filter(|&c| c == 'R').count(), 2, "{text}: {rank2}");
        assert_eq!(rank2.chars().filter(|&c| c == 'K').count(), 1, "{text}: {rank2}");
        assert!(p.castling_rook(Color::White, 0).is_none() && p.castling_rook(Color::White, 1).is_none());
        assert!(fen_of(&p).contains(" b - - 1 1"), "{text}: {}", fen_of(&p));
        p.unmake();
        assert_eq!(fen_of(&p), T7);
    }
    play(&mut p, "f2i2");
    assert_eq!(fen_of(&p), "5k4/10/10/10/10/10/10/10/1R5RK1/CV6VC b - - 1 1");
    p.unmake();
    play(&mut p, "f2b2");
    assert_eq!(fen_of(&p), "5k4/10/10/10/10/10/10/10/1KR5R1/CV6VC b - - 1 1");
}

#[test]
fn t7_castling_through_attacked_g2_leaves_the_four_queen_side_castlings() {
    let mut p = pos("5kr3/10/10/10/10/10/10/10/1R3K2R1/CV6VC w KQ - 0 1");
    assert_eq!(castlings(&mut p), set(&["b2f2", "f2d2", "f2c2", "f2b2"]));
    for text in ["i2f2", "f2h2", "f2i2"] {
        assert!(legal(&mut p, text).is_none(), "{text} illegal: g2 attacked");
    }
    assert_eq!(p.legal_moves().len(), 68);
}

#[test]
fn t7_black_castles_the_same_seven_ways_on_rank_9() {
    let mut p = pos("cv6vc/1r3k2r1/10/10/10/10/10/10/10/5K4 b kq - 0 1");
    assert_eq!(
        castlings(&mut p),
        set(&["i9f9", "f9h9", "f9i9", "b9f9", "f9d9", "f9c9", "f9b9"])
    );
    play(&mut p, "f9h9");
    assert_eq!(fen_of(&p), "cv6vc/1r4rk2/10/10/10/10/10/10/10/5K4 w - - 1 2");
}

// ----- T8 -----

#[test]
fn t8_super_pawn_promotes_by_jump_25_moves() {
    let mut p = pos("9k/10/4S5/10/10/10/10/10/10/K9 w - - 0 1");
    let mut expected = set(&["e8d8", "e8c8", "e8f8", "e8g8", "e8e9", "e8d9", "e8f9"]);
    for to in ["e10", "c10", "g10"] {
        for c in ["q", "r", "b", "n", "c", "v"] {
            expected.insert(format!("e8{to}{c}"));
        }
    }
    assert_eq!(expected.len(), 25);
    assert_eq!(moves_from(&mut p, "e8"), expected);
    assert_eq!(moves(&mut p).len(), 28);
    // A super pawn on r = 9 keeps its sideways moves, has no 2-square forward jumps, and
    // promotes with its 1-step forward moves.
    let mut q = pos("9k/4S5/10/10/10/10/10/10/10/K9 w - - 0 1");
    let from_e9 = moves_from(&mut q, "e9");
    assert_eq!(from_e9.len(), 4 + 3 * 6, "{from_e9:?}");
    assert!(from_e9.contains("e9c9") && from_e9.contains("e9g9") && from_e9.contains("e9d10v"));
    // A super pawn on its promotion rank cannot be set up.
    assert_eq!(
        try_pos("4S4k/10/10/10/10/10/10/10/10/K9 w - - 0 1").err(),
        Some(PositionError::UnpromotedPiece('S'))
    );
}

// ----- T9 -----

const T9: &str = "5k4/10/10/10/10/5P4/10/10/10/K4C4 b - - 0 1";

#[test]
fn t9_cannon_checks_through_one_screen_exactly_4_king_moves() {
    let mut p = pos(T9);
    assert!(p.in_check(), "Black is in check (cannon f1, screen f5)");
    assert_eq!(moves(&mut p), set(&["f10e10", "f10g10", "f10e9", "f10g9"]));
    assert!(legal(&mut p, "f10f9").is_none(), "f9 stays in the cannon's line");
}

#[test]
fn t9_a_second_screen_breaks_the_check() {
    for rank in [2, 3, 4, 6, 7, 8, 9] {
        for piece in ['N', 'n'] {
            // Rank r from the top is row 10 - r of the FEN.
            let mut rows: Vec<String> = T9.split(' ').next().unwrap().split('/').map(str::to_string).collect();
            let row = 10 - rank;
            assert_eq!(rows[row], "10");
            rows[row] = format!("5{piece}4");
            let fen_text = format!("{} b - - 0 1", rows.join("/"));
            let p = pos(&fen_text);
            assert!(!p.in_check(), "{fen_text}: two screens, no check");
        }
    }
}

// ----- C-1 -----

#[test]
fn c1_a_pinned_rook_still_gives_check() {
    // Ra5 is pinned to Ka1 by ra10 and still checks kj5.
    let mut p = pos("r9/10/10/10/10/R8k/10/10/10/K9 b - - 0 1");
    assert!(p.in_check());
    assert_eq!(moves(&mut p), set(&["a10a5", "j5i4", "j5i6", "j5j4", "j5j6"]));
    assert!(legal(&mut p, "j5i5").is_none(), "i5 is attacked by the pinned rook");
    // The same position with White to move: Black would be in check, so it cannot be set up.
    assert_eq!(
        try_pos("r9/10/10/10/10/R8k/10/10/10/K9 w - - 0 1").err(),
        Some(PositionError::OpponentInCheck)
    );
}

#[test]
fn c1_a_pinned_cannon_still_gives_check_through_its_screen() {
    // Cd4 is pinned to Ka4 by rj4 and checks kd10 over the screen d7.
    let mut p = pos("3k6/10/10/3p6/10/10/K2C5r/10/10/10 b - - 0 1");
    assert!(p.in_check());
    assert_eq!(moves(&mut p), set(&["d10c10", "d10c9", "d10e10", "d10e9", "j4d4"]));
    assert!(
        legal(&mut p, "d10d9").is_none(),
        "d9 is still behind exactly one screen"
    );
    assert!(legal(&mut p, "d7d6").is_none(), "d6 is still a single screen");
    assert_eq!(
        try_pos("3k6/10/10/3p6/10/10/K2C5r/10/10/10 w - - 0 1").err(),
        Some(PositionError::OpponentInCheck)
    );
}

// ----- C-2 -----

#[test]
fn c2_squares_only_the_rook_crosses_may_be_attacked() {
    // c2 attacked (rook c10): b2f2 (rook crosses c2-e2) and f2d2 (rook crosses c2, d2) are legal;
    // f2c2 (king lands on c2) and f2b2 (king crosses c2) are not.
    let mut p = pos("2r2k4/10/10/10/10/10/10/10/1R3K2R1/CV6VC w KQ - 0 1");
    assert_eq!(castlings(&mut p), set(&["i2f2", "f2h2", "f2i2", "b2f2", "f2d2"]));
    // The rook's own square attacked (rook b10): only f2b2, where the king lands on b2, is illegal.
    let mut p = pos("1r3k4/10/10/10/10/10/10/10/1R3K2R1/CV6VC w KQ - 0 1");
    assert_eq!(
        castlings(&mut p),
        set(&["i2f2", "f2h2", "f2i2", "b2f2", "f2d2", "f2c2"])
    );
    // h2 attacked (rook h10): f2i2 has the rook cross h2 but also the king: illegal; i2f2 legal.
    let mut p = pos("5k1r2/10/10/10/10/10/10/10/1R3K2R1/CV6VC w KQ - 0 1");
    assert_eq!(castlings(&mut p), set(&["i2f2", "b2f2", "f2d2", "f2c2", "f2b2"]));
}

#[test]
fn c2_the_king_may_not_cross_or_land_on_an_attacked_square_nor_castle_out_of_check() {
    // e2 attacked (rook e10): every queen-side castling crosses or lands on e2.
    let mut p = pos("4rk4/10/10/10/10/10/10/10/1R3K2R1/CV6VC w KQ - 0 1");
    assert_eq!(castlings(&mut p), set(&["i2f2", "f2h2", "f2i2"]));
    // In check (rook f10): no castling at all.
    let mut p = pos("5k4/10/10/10/10/5r4/10/10/1R3K2R1/CV6VC w KQ - 0 1");
    assert!(p.in_check());
    assert!(castlings(&mut p).is_empty());
    // A vao checking over a screen counts too (vb6, c5 empty, screen Nd4, e3 empty, Kf2).
    let mut p = pos("5k4/10/10/10/1v8/10/3N6/10/1R3K2R1/CV6VC w KQ - 0 1");
    assert!(p.in_check(), "vb6 checks f2 over the screen d4");
    assert!(castlings(&mut p).is_empty());
}

#[test]
fn c2_the_destination_is_tested_with_king_and_rook_moved() {
    // rj2 is shielded by Ri2 (which it pins) before castling; after any king-side castling the
    // i-rook has left i2 and rj2 sees the king on g2, h2 or i2.
    let mut p = pos("5k4/10/10/10/10/10/10/10/1R3K2Rr/CV6VC w KQ - 0 1");
    assert!(!p.in_check());
    assert_eq!(castlings(&mut p), set(&["b2f2", "f2d2", "f2c2", "f2b2"]));
    assert_eq!(p.legal_moves().len(), 53);
}

#[test]
fn c2_a_cannon_behind_the_king_sees_the_castled_king_over_its_rook() {
    // cc2 looks along rank 2 over the king f2 (a screen, so no check). Tested with the king on g2
    // or h2 and the rook still on i2 (f2 empty), the transit squares are safe: the king is the
    // first piece the cannon meets. But in every final position the castled rook stands between
    // cannon and king and is the screen: i2f2 (R f2, K g2), f2h2 (R g2, K h2), f2i2 (R h2, K i2).
    let mut p = pos("5k4/10/10/10/10/10/10/10/2c2K2R1/CV6VC w K - 0 1");
    assert!(!p.in_check());
    assert!(castlings(&mut p).is_empty(), "{:?}", castlings(&mut p));
    // Control: the cannon on c3 attacks nothing on rank 2.
    let mut p = pos("5k4/10/10/10/10/10/10/2c7/5K2R1/CV6VC w K - 0 1");
    assert_eq!(castlings(&mut p), set(&["i2f2", "f2h2", "f2i2"]));
}

// ----- C-3 -----

#[test]
fn c3_fen_load_drops_rights_whose_king_or_rook_is_not_in_place() {
    // King on e2, not f2: both rights dropped.
    let mut p = pos("5k4/10/10/10/10/10/10/10/1R2K3R1/CV6VC w KQ - 0 1");
    assert_eq!(p.castling_rights(), 0);
    assert!(fen_of(&p).contains(" w - - "), "{}", fen_of(&p));
    assert!(castlings(&mut p).is_empty());
    // No rook on b2: Q dropped, K kept.
    let mut p = pos("5k4/10/10/10/10/10/10/10/5K2R1/CV6VC w KQ - 0 1");
    assert!(fen_of(&p).contains(" w K - "), "{}", fen_of(&p));
    assert_eq!(castlings(&mut p), set(&["i2f2", "f2h2", "f2i2"]));
    // Black: the king off f9 drops k and q.
    let p = pos("cv6vc/1r2k3r1/10/10/10/10/10/10/10/5K4 b kq - 0 1");
    assert_eq!(p.castling_rights(), 0);
}

/// C-3: "loading a FEN drops flags whose king or rook is not in place" -- the K flag belongs to
/// the i2 rook (spec section 3), so with the king-side rook on h2 instead the flag must go.
///
/// K/Q are not read as X-FEN ("the outermost castling rook on that side";
/// src/core/position.rs `set_castling`): read so, the rook on h2 would get the K right and
/// castlings h2f2 (K g2, R f2) and f2h2 (K onto the rook's square h2, R g2) would be generated;
/// the same on the queen side with a rook on c2.
#[test]
fn c3_castling_right_needs_the_rook_on_its_original_square() {
    let mut p = pos("5k4/10/10/10/10/10/10/10/1R3K1R2/CV6VC w KQ - 0 1");
    assert!(fen_of(&p).contains(" w Q - "), "K must be dropped: {}", fen_of(&p));
    assert_eq!(castlings(&mut p), set(&["b2f2", "f2d2", "f2c2", "f2b2"]));
    let mut p = pos("5k4/10/10/10/10/10/10/10/2R2K2R1/CV6VC w KQ - 0 1");
    assert!(fen_of(&p).contains(" w K - "), "Q must be dropped: {}", fen_of(&p));
    assert_eq!(castlings(&mut p), set(&["i2f2", "f2h2", "f2i2"]));
}

#[test]
fn c3_a_rook_captured_on_its_square_loses_its_right() {
    let mut p = pos("5k4/10/10/10/4b5/10/10/10/1R3K2R1/CV6VC b KQ - 0 1");
    play(&mut p, "e6i2");
    assert_eq!(fen_of(&p), "5k4/10/10/10/10/10/10/10/1R3K2b1/CV6VC w Q - 0 2");
    assert_eq!(castlings(&mut p), set(&["b2f2", "f2d2", "f2c2", "f2b2"]));
    assert!(p.castling_rook(Color::White, 0).is_none());
    assert_eq!(p.castling_rook(Color::White, 1), Some(sq(&p, "b2")));
}

#[test]
fn c3_any_king_move_clears_both_rights_and_a_rook_move_its_own() {
    let mut p = pos(T7);
    play(&mut p, "f2f3");
    play(&mut p, "f10f9");
    play(&mut p, "f3f2");
    assert_eq!(fen_of(&p), "10/5k4/10/10/10/10/10/10/1R3K2R1/CV6VC b - - 3 2");
    play(&mut p, "f9f10");
    assert!(castlings(&mut p).is_empty());

    let mut p = pos(T7);
    play(&mut p, "i2i3");
    play(&mut p, "f10f9");
    play(&mut p, "i3i2");
    assert_eq!(fen_of(&p), "10/5k4/10/10/10/10/10/10/1R3K2R1/CV6VC b Q - 3 2");
    play(&mut p, "f9f10");
    assert_eq!(castlings(&mut p), set(&["b2f2", "f2d2", "f2c2", "f2b2"]));
}

// ----- fast pawns -----

#[test]
fn fast_pawn_double_steps_from_every_rank() {
    for rank in 1..=8 {
        let fen_text = {
            let mut rows = vec!["10".to_string(); 10];
            rows[0] = "9k".into();
            rows[9] = "K9".into();
            let row = 10 - rank;
            rows[row] = if rank == 1 { "K3P5".into() } else { "4P5".into() };
            format!("{} w - - 0 1", rows.join("/"))
        };
        let mut p = pos(&fen_text);
        let from = format!("e{rank}");
        let got = moves_from(&mut p, &from);
        let one = format!("{from}e{}", rank + 1);
        let two = format!("{from}e{}", rank + 2);
        if rank + 2 == 10 {
            assert!(
                got.contains(&one) && got.contains(&format!("{two}q")),
                "{fen_text}: {got:?}"
            );
            assert_eq!(got.len(), 7);
        } else {
            assert_eq!(got, set(&[&one, &two]), "{fen_text}");
        }
    }
    // Black: from rank 7 down to rank 5, and into promotion from rank 3.
    let mut p = pos("9k/10/10/4p5/10/10/10/10/10/K9 b - - 0 1");
    assert_eq!(moves_from(&mut p, "e7"), set(&["e7e6", "e7e5"]));
    let mut p = pos("9k/10/10/10/10/10/10/4p5/10/K9 b - - 0 1");
    let got = moves_from(&mut p, "e3");
    assert!(
        got.contains("e3e2") && got.contains("e3e1v") && got.len() == 7,
        "{got:?}"
    );
}

#[test]
fn fast_pawn_double_step_needs_an_empty_middle_square() {
    // e6 occupied (either colour): no e5-e7; e7 occupied: only e5-e6.
    let mut p = pos("9k/10/10/10/4n5/4P5/10/10/10/K9 w - - 0 1");
    assert!(moves_from(&mut p, "e5").is_empty());
    let mut p = pos("9k/10/10/4n5/10/4P5/10/10/10/K9 w - - 0 1");
    assert_eq!(moves_from(&mut p, "e5"), set(&["e5e6"]));
}

#[test]
fn fast_pawn_en_passant_after_double_steps_from_any_rank() {
    // White double steps e(r) -> e(r+2) beside a black pawn on d(r+2); d(r+2)x e(r+1) e.p.
    for rank in 1..=7 {
        let mut rows = vec!["10".to_string(); 10];
        rows[0] = "9k".into();
        rows[9] = "K9".into();
        rows[10 - rank] = if rank == 1 { "K3P5".into() } else { "4P5".into() };
        rows[10 - (rank + 2)] = "3p6".into();
        let fen_text = format!("{} w - - 0 1", rows.join("/"));
        let mut p = pos(&fen_text);
        let from = format!("e{rank}");
        play(&mut p, &format!("{from}{}", shift(&from, 2)));
        let target = format!("e{}", rank + 1);
        let capture = format!("d{}{target}", rank + 2);
        let ep = legal(&mut p, &capture).unwrap_or_else(|| panic!("{fen_text}: {capture} e.p."));
        assert_eq!(ep.kind(), MoveKind::EnPassant);
        p.make(ep);
        assert_eq!(
            (at(&p, &target), at(&p, &format!("e{}", rank + 2))),
            ('p', '.'),
            "{fen_text}"
        );
    }
}

#[test]
fn fast_pawn_single_step_gives_no_en_passant() {
    let mut p = pos("9k/10/10/10/3p6/10/4P5/10/10/K9 w - - 0 1");
    play(&mut p, "e4e5");
    assert!(p.en_passant().is_none());
    play(&mut p, "d6d5");
    assert!(p.en_passant().is_none());
    assert!(p.legal_moves().iter().all(|m| m.kind() != MoveKind::EnPassant));
}

// ----- super pawns and e.p. -----

#[test]
fn super_pawn_never_captures_en_passant() {
    // Black e7-e5 passes e6 beside the white super pawn d5; Sd5-e6 is an ordinary move that
    // leaves the pawn e5 alone (Sd5xe5, sideways, is an ordinary capture).
    let mut p = pos("9k/10/10/4p5/10/3S6/10/10/10/K9 b - - 0 1");
    play(&mut p, "e7e5");
    assert!(p.en_passant().is_none(), "no fast pawn can take: no e.p. right");
    assert!(p.legal_moves().iter().all(|m| m.kind() != MoveKind::EnPassant));
    let mv = play(&mut p, "d5e6");
    assert_eq!(mv.kind(), MoveKind::Normal);
    assert_eq!((at(&p, "e6"), at(&p, "e5")), ('S', 'p'));
    p.unmake();
    assert_eq!(legal(&mut p, "d5e5").unwrap().kind(), MoveKind::Normal);
}

#[test]
fn super_pawn_is_never_captured_en_passant() {
    // The black super pawn jumps d8-d6 beside the white fast pawn e6: no e6xd7 e.p.
    let mut p = pos("9k/10/3s6/10/4P5/10/10/10/10/K9 b - - 0 1");
    play(&mut p, "d8d6");
    assert!(p.en_passant().is_none());
    assert!(legal(&mut p, "e6d7").is_none());
    assert_eq!(moves(&mut p), with_king_a1(&["e6e7", "e6e8"]));
    // Also not with a fast pawn and a super pawn side by side after a fast-pawn double step:
    // only the fast pawn may take.
    let mut p = pos("9k/10/10/3p6/10/2P1S5/10/10/10/K9 b - - 0 1");
    play(&mut p, "d7d5");
    let eps: Vec<String> = p
        .legal_moves()
        .iter()
        .filter(|m| m.kind() == MoveKind::EnPassant)
        .map(|m| canonical(&p, m))
        .collect();
    assert_eq!(eps, vec!["c5d6".to_string()]);
}

// ----- wire notation on the 10-rank board -----

#[test]
fn wire_castling_is_two_legs_in_ranks_0_to_9() {
    let mut p = pos(T7);
    let expected = [
        ("i2f2", "f1g1,i1f1", "i1f1"),
        ("f2h2", "f1h1,i1g1", "f1h1"),
        ("f2i2", "f1i1,i1i1", "f1i1"),
        ("b2f2", "f1e1,b1f1", "b1f1"),
        ("f2d2", "f1d1,b1e1", "f1d1"),
        ("f2c2", "f1c1,b1d1", "f1c1"),
        ("f2b2", "f1b1,b1b1", "f1b1"),
    ];
    for (text, two_legs, plain) in expected {
        let mv = legal(&mut p, text).unwrap();
        assert_eq!(wire(&p, &mv), two_legs, "{text}");
        assert_eq!(parse_move(&p, two_legs, Coords::Wire), Ok(mv), "{two_legs}");
        assert_eq!(parse_move(&p, plain, Coords::Wire), Ok(mv), "{plain}");
        assert_eq!(parse_move(&p, text, Coords::Human), Ok(mv), "{text}");
    }
    // The 1-square king moves are king steps, not castlings, in both notations.
    for (human, wire_text) in [("f2g2", "f1g1"), ("f2e2", "f1e1")] {
        let mv = parse_move(&p, wire_text, Coords::Wire).unwrap();
        assert_eq!(mv.kind(), MoveKind::Normal, "{wire_text}");
        assert_eq!(canonical(&p, &mv), human);
    }
}

#[test]
fn wire_moves_use_ranks_0_to_9() {
    let mut p = pos("9k/10/4P5/10/10/10/10/10/10/K9 w - - 0 1");
    let promo = legal(&mut p, "e8e10q").unwrap();
    assert_eq!(wire(&p, &promo), "e7e9q");
    assert_eq!(parse_move(&p, "e7e9q", Coords::Wire), Ok(promo));
    assert!(
        parse_move(&p, "e8e10q", Coords::Wire).is_err(),
        "rank 10 does not exist on the wire"
    );
    let king = legal(&mut p, "a1b2").unwrap();
    assert_eq!(wire(&p, &king), "a0b1");
    assert_eq!(parse_move(&p, "a0b1", Coords::Wire), Ok(king));

    // The e.p. square in a wire FEN, and the e.p. capture on the wire.
    let mut p = pos(T5);
    let double = legal(&mut p, "e5e7").unwrap();
    assert_eq!(wire(&p, &double), "e4e6");
    p.make(double);
    assert_eq!(
        fen::to_fen(&p, Coords::Wire),
        "9k/10/10/3pP5/10/10/10/10/10/K9 b - e5 0 1"
    );
    let ep = parse_move(&p, "d6e5", Coords::Wire).unwrap();
    assert_eq!(ep.kind(), MoveKind::EnPassant);
    assert_eq!(canonical(&p, &ep), "d7e6");
    // The wire FEN reads back to the same position.
    let wire_fen = fen::to_fen(&p, Coords::Wire);
    let setup = fen::parse_fen(&wire_fen, Coords::Wire).unwrap();
    let back = Position::from_setup(&builtin("pillage"), &setup).unwrap();
    assert_eq!(fen_of(&back), fen_of(&p));

    // Start position: every legal move's wire text parses back to it.
    let mut p = pos(START);
    let list = p.legal_moves();
    for mv in list.iter() {
        let text = wire(&p, mv);
        assert!(!text.contains("10"), "{text}");
        assert_eq!(parse_move(&p, &text, Coords::Wire), Ok(*mv), "{text}");
    }
    let knight = legal(&mut p, "c2e1").unwrap();
    assert_eq!(wire(&p, &knight), "c1e0");
}

/// E.p. on the wire (pillage.toml `en_passant = "two-legs"`): two legs through the victim, which
/// XBoard 4.9.1 carries out wherever the capturing pawn stands (its own e.p. code removes the victim
/// only in the far half of the board, i.e. never after a later double step). The plain form is read
/// too.
#[test]
fn wire_en_passant_is_two_legs_through_the_victim_in_either_half() {
    // (position, the double step (canonical), the e.p. capture (canonical), its wire text)
    let cases = [
        // Black in its own half (T5): e5-e7 is a later double step.
        (T5, "e5e7", "d7e6", "d6e6,e6e5"),
        // Black in the far half, after White's first double step e3-e5.
        ("9k/10/10/10/10/3p6/10/4P5/10/K9 w - - 0 1", "e3e5", "d5e4", "d4e4,e4e3"),
        // White in its own half, after Black's later double step d7-d5.
        ("9k/10/10/3p6/10/4P5/10/10/10/K9 b - - 0 1", "d7d5", "e5d6", "e4d4,d4d5"),
        // White in the far half, after Black's first double step d8-d6.
        ("9k/10/3p6/10/4P5/10/10/10/10/K9 b - - 0 1", "d8d6", "e6d7", "e5d5,d5d6"),
    ];
    for (fen_text, double, capture, wire_text) in cases {
        let mut p = pos(fen_text);
        play(&mut p, double);
        let ep = legal(&mut p, capture).unwrap_or_else(|| panic!("{fen_text}: {capture} e.p."));
        let Move::EnPassant { from, to, victim, .. } = ep else {
            panic!("{fen_text}: {capture} is not e.p.: {ep:?}");
        };
        assert_eq!(wire(&p, &ep), wire_text, "{fen_text}: {capture}");
        let name = |s| fairybridge::notation::square_name(p.variant().shape, s, Coords::Wire);
        let (from, victim, to) = (name(from), name(victim), name(to));
        let plain = format!("{from}{to}");
        let two_legs = format!("{from}{victim},{victim}{to}");
        for text in [plain, two_legs] {
            assert_eq!(parse_move(&p, &text, Coords::Wire), Ok(ep), "{fen_text}: {text}");
        }
    }
}
