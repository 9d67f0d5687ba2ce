//! Wreckage: the test positions T1-T14 of shared/rules/wreckage.md section 12, one test each and
//! asserting exactly the claims (plus move lists worked out by hand where the spec only names a
//! part), then rules the test positions do not cover (drops, the n-move count, FEN holdings), the
//! agreement of hook attack tests with hook move generation (C-1), and make/unmake and hash
//! invariants along random playouts that meet drops, detonations and double captures.
//!
//! All move lists were also checked with an independent generator written from the spec alone
//! (a Python script outside this repository that literally implements C-1: a king is in check iff
//! an opponent's pseudo-legal move removes it); it agrees with every count below.

mod common;

use std::collections::BTreeSet;
use std::sync::{Arc, OnceLock};

use fairybridge::core::moves::NEIGHBOURS;
use fairybridge::core::{Color, EndReason, Move, MoveKind, MoveList, Position, Square, Variant};
use fairybridge::notation::Coords;
use fairybridge::notation::movetext::{MoveTextError, canonical, parse_move};

use common::{XorShift, at, builtin, fen_of, legal, move_texts, moves, moves_from, play, position, set, sq};

const START: &str = "xrwbqkbfrd/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/XRWBQKBFRD[GJJJJJgjjjjj] w KQkq - 0 1";

fn wreckage() -> Arc<Variant> {
    static VARIANT: OnceLock<Arc<Variant>> = OnceLock::new();
    Arc::clone(VARIANT.get_or_init(|| builtin("wreckage")))
}

fn pos(fen_text: &str) -> Position {
    position(&wreckage(), fen_text)
}

fn name(p: &Position, s: Square) -> String {
    fairybridge::notation::square_name(p.variant().shape, s, Coords::Human)
}

/// The squares a legal move of the side to move captures on, by name.
fn victims(p: &Position, mv: &Move) -> BTreeSet<String> {
    p.captures_of(mv).map(|(s, _)| name(p, s)).collect()
}

fn field(fen_text: &str, i: usize) -> String {
    fen_text.split_whitespace().nth(i).unwrap().to_string()
}

// ----- T1 -----

#[test]
fn t1_start_position_has_exactly_the_36_listed_moves() {
    let mut p = pos(START);
    let mut expected = BTreeSet::new();
    for file in "abcdefghij".chars() {
        for rank in 3..=5 {
            expected.insert(format!("{file}2{file}{rank}"));
        }
    }
    assert_eq!(expected.len(), 30);
    expected.extend(set(&["a1b3", "j1i3", "c1b3", "c1d3", "h1g3", "h1i3"]));
    let got = moves(&mut p);
    assert_eq!(got, expected);
    assert_eq!(p.legal_moves().len(), 36);
    // No drops (ranks 1 and 2 are full) and no detonation (a1a1) exist.
    assert!(got.iter().all(|m| !m.contains('@')));
    assert!(p.legal_moves().iter().all(|m| m.kind() != MoveKind::Special));
}

// ----- T2, T3: pawns -----

#[test]
fn t2_pawn_pushes_depend_on_the_rank() {
    let mut p = pos("k9/4P5/10/3P6/10/2P7/10/10/10/5K4 w - - 0 1");
    assert_eq!(moves_from(&mut p, "c5"), set(&["c5c6"]), "middle rank: one square");
    assert_eq!(
        moves_from(&mut p, "d7"),
        set(&["d7d8", "d7d9"]),
        "enemy half: one or two"
    );
    let promotions: BTreeSet<String> = "qrbfwdgx".chars().map(|c| format!("e9e10{c}")).collect();
    assert_eq!(moves_from(&mut p, "e9"), promotions, "mandatory promotion to QRBFWDGX");
}

#[test]
fn t3_pawn_off_the_start_rank_may_not_cross_the_middle() {
    let mut p = pos("5k4/10/10/10/10/10/10/4P5/10/5K4 w - - 0 1");
    assert_eq!(moves_from(&mut p, "e3"), set(&["e3e4", "e3e5"]));
    assert_eq!(parse_move(&p, "e3e6", Coords::Human), Err(MoveTextError::Illegal));
}

// ----- T4: extended en passant -----

#[test]
fn t4_extended_en_passant_over_both_skipped_squares_and_its_expiry() {
    let start = "5k4/10/10/10/10/5p4/3p6/10/4P5/5K4 w - - 0 1";
    let mut p = pos(start);
    play(&mut p, "e2e5");
    assert_eq!(
        field(&fen_of(&p), 3),
        "e3",
        "the e.p. field names the first skipped square"
    );
    let black = moves(&mut p);
    for (text, lands) in [("d4e3", "e3"), ("f5e4", "e4")] {
        assert!(black.contains(text), "{text} missing: {black:?}");
        let mv = legal(&mut p, text).unwrap();
        assert_eq!(mv.kind(), MoveKind::EnPassant);
        assert_eq!(victims(&p, &mv), set(&["e5"]), "{text} removes the pawn on e5");
        p.make(mv);
        assert_eq!((at(&p, lands), at(&p, "e5")), ('p', '.'), "{text}");
        p.unmake();
    }
    // One ply later (another black move and a white reply) neither capture exists.
    play(&mut p, "f10g10");
    assert_eq!(field(&fen_of(&p), 3), "-");
    play(&mut p, "f1g1");
    let later = moves(&mut p);
    assert!(!later.contains("d4e3") && !later.contains("f5e4"), "{later:?}");
    assert!(p.legal_moves().iter().all(|m| m.kind() != MoveKind::EnPassant));
}

#[test]
fn ninja_pawns_neither_give_nor_take_en_passant() {
    // A ninja's three-square push gives no e.p. right to the pawn beside its path (§3.6.3, §7.3).
    let mut p = pos("5k4/10/10/10/10/10/3p6/10/4J5/5K4 w - - 0 1");
    play(&mut p, "e2e5");
    assert_eq!(field(&fen_of(&p), 3), "-");
    assert!(!moves(&mut p).contains("d4e3"));
    // A ninja beside a pawn's skipped squares cannot capture en passant.
    let mut p = pos("5k4/10/10/10/10/5j4/10/10/4P5/5K4 w - - 0 1");
    play(&mut p, "e2e5");
    let black = moves_from(&mut p, "f5");
    assert!(!black.contains("f5e4"), "{black:?}");
    assert!(
        black.contains("f5e5"),
        "sideways capture on black's rank 6 (rank 5) is legal: {black:?}"
    );
}

// ----- T5, T6: Dragon -----

#[test]
fn t5_dragon_approach_and_withdrawal() {
    let mut p = pos("9k/10/3r6/10/5p4/10/2bD6/3w6/10/K9 w - - 0 1");
    let dragon = moves_from(&mut p, "d4");
    // Worked out by hand: N d5 d6 d7, NE e5, E e4-j4, SE e3 f2 g1, SW c3 b2 (a1 own king),
    // NW c5 b6 a7, eight knight leaps; nothing west (c4) or south (d3).
    let expected = set(&[
        "d4d5", "d4d6", "d4d7", "d4e5", "d4e4", "d4f4", "d4g4", "d4h4", "d4i4", "d4j4", "d4e3", "d4f2", "d4g1", "d4c3",
        "d4b2", "d4c5", "d4b6", "d4a7", "d4e6", "d4f5", "d4f3", "d4e2", "d4c2", "d4b3", "d4b5", "d4c6",
    ]);
    assert_eq!(dragon, expected);
    let caught = |p: &mut Position, text: &str| {
        let mv = legal(p, text).unwrap_or_else(|| panic!("{text} not legal"));
        victims(p, &mv)
    };
    assert_eq!(caught(&mut p, "d4d7"), set(&["d8"]), "approach captures the rook");
    for plain in ["d4d5", "d4d6", "d4e5"] {
        assert!(
            caught(&mut p, plain).is_empty(),
            "{plain} is a plain move (f6 is an immune pawn)"
        );
    }
    for east in ["d4e4", "d4f4", "d4g4", "d4h4", "d4i4", "d4j4"] {
        assert_eq!(caught(&mut p, east), set(&["c4"]), "{east} withdraws from the bishop");
    }
    // Capture is mandatory: exactly one move per eastern square, and it is the capture.
    let (d4, shape) = (sq(&p, "d4"), p.variant().shape);
    let list = p.legal_moves();
    let east: Vec<&Move> = list
        .iter()
        .filter(|m| m.from() == Some(d4) && shape.rank(m.to()) == shape.rank(d4) && shape.file(m.to()) > shape.file(d4))
        .collect();
    assert_eq!(east.len(), 6);
    assert!(east.iter().all(|m| m.kind() == MoveKind::Special && p.is_capture(m)));
    for leap in ["d4e6", "d4f5", "d4f3", "d4e2", "d4c2", "d4b3", "d4b5", "d4c6"] {
        assert!(caught(&mut p, leap).is_empty(), "knight leap {leap} never captures");
    }
    // d3 is never captured, and nothing moves onto c4 or d3.
    let list = p.legal_moves();
    assert!(list.iter().all(|m| !victims(&p, m).contains("d3")));
    assert!(!dragon.contains("d4c4") && !dragon.contains("d4d3"));
    // The approach really removes d8 and lands on d7.
    play(&mut p, "d4d7");
    assert_eq!((at(&p, "d4"), at(&p, "d7"), at(&p, "d8")), ('.', 'D', '.'));
}

#[test]
fn t6_dragon_check_by_withdrawal_and_its_absence() {
    let mut p = pos("10/10/10/10/10/10/10/4k5/4D5/K9 b - - 0 1");
    assert!(p.in_check(), "withdrawal e2-e1 would remove the king");
    // By hand: d2/f2/d3/f3 are withdrawal targets, e4 an approach target; the king takes e2.
    assert_eq!(moves(&mut p), set(&["e3d4", "e3e2", "e3f4"]));

    let mut p = pos("10/10/10/10/10/10/10/4k5/4D5/K3R5 b - - 0 1");
    assert!(
        !p.in_check(),
        "retreat square e1 blocked, and the rook's file is blocked by the Dragon"
    );
    let e3 = sq(&p, "e3");
    assert!(!p.is_attacked(e3, Color::White));
    // Kxe2 now walks into the rook.
    assert_eq!(moves(&mut p), set(&["e3d4", "e3f4"]));
}

// ----- T7: Detonator -----

#[test]
fn t7_detonation_removes_every_adjacent_enemy_but_ninjas() {
    let mut p = pos("K8k/10/10/10/3jr5/4XP4/3b1p4/10/10/10 w - - 0 1");
    let mv = legal(&mut p, "e5e5").expect("detonation e5e5 is legal");
    assert_eq!(mv.kind(), MoveKind::Special);
    assert_eq!(victims(&p, &mv), set(&["e6", "d4", "f4"]));
    p.make(mv);
    assert_eq!(
        [
            at(&p, "e6"),
            at(&p, "d4"),
            at(&p, "f4"),
            at(&p, "d6"),
            at(&p, "f5"),
            at(&p, "e5")
        ],
        ['.', '.', '.', 'j', 'P', 'X']
    );
    assert_eq!(p.halfmove_clock(), 0, "a detonation is a capture");

    // Only a ninja adjacent: no detonation at all.
    let mut p = pos("K8k/10/10/10/3j6/4XP4/10/10/10/10 w - - 0 1");
    assert!(legal(&mut p, "e5e5").is_none());
    assert!(p.legal_moves().iter().all(|m| m.from() != Some(m.to())));
}

// ----- T8, T9, T10: Guillotine -----

#[test]
fn t8_guillotine_has_exactly_15_moves() {
    let mut p = pos("7k2/10/10/10/10/9K/10/w9/10/G1f7 w - - 0 1");
    let g = moves_from(&mut p, "a1");
    assert_eq!(
        g,
        set(&[
            "a1a2", "a1a3", "a1a4", "a1b1", "a1c1", "a1d1", "a1b2", "a1c3", "a1d4", "a1e5", "a1f6", "a1g7", "a1h8",
            "a1i9", "a1j10"
        ])
    );
    let caught = |p: &mut Position, text: &str| {
        let mv = legal(p, text).unwrap();
        victims(p, &mv)
    };
    assert_eq!(caught(&mut p, "a1a3"), set(&["a3"]), "replacement at distance 2");
    assert_eq!(caught(&mut p, "a1a4"), set(&["a3"]), "fly-over");
    assert_eq!(caught(&mut p, "a1c1"), set(&["c1"]), "replacement at distance 2");
    assert_eq!(caught(&mut p, "a1d1"), set(&["c1"]), "fly-over");
    for plain in [
        "a1a2", "a1b1", "a1b2", "a1c3", "a1d4", "a1e5", "a1f6", "a1g7", "a1h8", "a1i9", "a1j10",
    ] {
        assert!(caught(&mut p, plain).is_empty(), "{plain}");
    }
    play(&mut p, "a1a4");
    assert_eq!((at(&p, "a1"), at(&p, "a3"), at(&p, "a4")), ('.', '.', 'G'));
}

#[test]
fn t9_guillotine_double_capture_is_the_only_capture_on_the_line() {
    let mut p = pos("9k/10/10/4r5/4p5/4G5/10/10/10/K9 w - - 0 1");
    let mv = legal(&mut p, "e5e7").expect("e5e7 legal");
    assert_eq!(victims(&p, &mv), set(&["e6", "e7"]));
    let list = p.legal_moves();
    assert!(
        list.iter().all(|m| victims(&p, m) != set(&["e6"])),
        "no move takes e6 alone"
    );
    let efile: BTreeSet<String> = moves_from(&mut p, "e5")
        .into_iter()
        .filter(|m| m.starts_with("e5e") && m[3..].parse::<u8>().unwrap() > 5)
        .collect();
    assert_eq!(efile, set(&["e5e7"]));
    p.make(mv);
    assert_eq!((at(&p, "e5"), at(&p, "e6"), at(&p, "e7")), ('.', '.', 'G'));

    // A white rook on e7: no landing square, so no capture on the e-file at all.
    let p = pos("9k/10/10/4R5/4p5/4G5/10/10/10/K9 w - - 0 1");
    let list = p.legal_moves();
    let e_file_captures: Vec<String> = list
        .iter()
        .filter(|m| canonical(&p, m).starts_with("e5") && !victims(&p, m).is_empty())
        .map(|m| canonical(&p, m))
        .collect();
    assert!(e_file_captures.is_empty(), "{e_file_captures:?}");
}

#[test]
fn t10_distance_two_check_cannot_be_blocked() {
    let mut p = pos("10/10/10/6k3/10/4G5/10/10/10/K9 b - - 0 1");
    assert!(p.in_check());
    // Only king moves parry it (nothing black can capture e5); by hand: f6 and h8 stay attacked.
    assert_eq!(moves(&mut p), set(&["g7f7", "g7f8", "g7g6", "g7g8", "g7h6", "g7h7"]));
    // A black piece on f6 would be double-captured with the king; a white one is jumped.
    for blocker in [
        "10/10/10/6k3/5r4/4G5/10/10/10/K9 b - - 0 1",
        "10/10/10/6k3/5B4/4G5/10/10/10/K9 b - - 0 1",
    ] {
        let p = pos(blocker);
        assert!(p.in_check(), "{blocker}");
    }
}

// ----- T11: ninja drops -----

#[test]
fn t11_ninja_drops_with_push() {
    let mut p = pos("10/10/10/10/3k6/10/10/10/PPPP1PPPPP/K9[J] w - - 0 1");
    let all = moves(&mut p);
    let drops: BTreeSet<String> = all.iter().filter(|m| m.contains('@')).cloned().collect();
    assert_eq!(drops, set(&["J@e2", "J@e3", "J@e4", "J@e5"]));
    // By hand: 4 drops, Ka1-b1, and 9 pawns with 3 pushes each.
    assert_eq!(all.len(), 32);
    assert_eq!(parse_move(&p, "J@e6", Coords::Human), Err(MoveTextError::Illegal));
    let mv = play(&mut p, "J@e5");
    assert_eq!(mv.kind(), MoveKind::Drop);
    assert!(p.in_check(), "J@e5 attacks d6 diagonally forward");
    assert_eq!(at(&p, "e5"), 'J');
    assert_eq!(field(&fen_of(&p), 0), "10/10/10/10/3k6/4J5/10/10/PPPP1PPPPP/K9[-]");
}

// ----- T12: ninja sideways capture -----

#[test]
fn t12_ninja_sideways_capture_only_in_the_enemy_half() {
    let mut p = pos("9k/10/10/10/3pJ5/10/10/10/10/K9 w - - 0 1");
    let mv = legal(&mut p, "e6d6").expect("e6xd6 is legal on rank 6");
    assert_eq!(victims(&p, &mv), set(&["d6"]));

    let mut p = pos("9k/10/10/10/10/3pJ5/10/10/10/K9 w - - 0 1");
    assert_eq!(moves_from(&mut p, "e5"), set(&["e5e6", "e5f5"]));
    assert_eq!(parse_move(&p, "e5d5", Coords::Human), Err(MoveTextError::Illegal));
}

// ----- T13: castling -----

#[test]
fn t13_flexible_castling() {
    let castles = |p: &mut Position| -> BTreeSet<String> {
        let list = p.legal_moves();
        list.iter()
            .filter(|m| m.kind() == MoveKind::Castle)
            .map(|m| canonical(p, m))
            .collect()
    };
    let mut p = pos("5k4/6r3/10/10/10/10/10/10/10/XR3K2RD w KQ - 0 1");
    assert_eq!(castles(&mut p), set(&["b1f1", "f1d1", "f1c1", "f1b1"]));
    // King and rook squares after each, and both flags gone.
    for (text, king, rook) in [
        ("b1f1", "e1", "f1"),
        ("f1d1", "d1", "e1"),
        ("f1c1", "c1", "d1"),
        ("f1b1", "b1", "c1"),
    ] {
        play(&mut p, text);
        assert_eq!((at(&p, king), at(&p, rook)), ('K', 'R'), "{text}");
        assert_eq!(field(&fen_of(&p), 2), "-", "{text} clears both white flags");
        p.unmake();
    }

    let mut p = pos("5k4/10/10/10/10/10/10/10/10/XR3K2RD w KQ - 0 1");
    assert_eq!(
        castles(&mut p),
        set(&["b1f1", "f1d1", "f1c1", "f1b1", "i1f1", "f1h1", "f1i1"])
    );
    for (text, king, rook) in [("i1f1", "g1", "f1"), ("f1h1", "h1", "g1"), ("f1i1", "i1", "h1")] {
        play(&mut p, text);
        assert_eq!((at(&p, king), at(&p, rook)), ('K', 'R'), "{text}");
        assert_eq!(field(&fen_of(&p), 2), "-");
        p.unmake();
    }
    // f1g1 and f1e1 stay plain king steps.
    assert_eq!(legal(&mut p, "f1g1").unwrap().kind(), MoveKind::Normal);
    assert_eq!(legal(&mut p, "f1e1").unwrap().kind(), MoveKind::Normal);
}

// ----- T14: the mate in two -----

const T14: &str = "5k3r/G3p1p3/4Xb4/2D7/10/5R4/10/10/10/K9 w - - 0 1";

#[test]
fn t14_first_move_checks_and_forces_rj10_g10() {
    let mut p = pos(T14);
    play(&mut p, "a9a10");
    assert!(p.in_check(), "fly-over check along rank 10");
    assert_eq!(moves(&mut p), set(&["j10g10"]));
    // Why: on e10 and g10 the king has an empty square beyond it, f9 touches the Detonator.
    for s in ["e10", "g10", "f9"] {
        assert!(king_there_in_check(&p, "f10", s), "{s}");
    }
}

/// Is the side to move in check with its king moved from `from` to `to` (nothing else changed)?
fn king_there_in_check(p: &Position, from: &str, to: &str) -> bool {
    let shape = p.variant().shape;
    let rows = shape.ranks as usize;
    let mut setup = p.to_setup();
    let (f, t) = (sq(p, from), sq(p, to));
    let king = setup.board[rows - 1 - shape.rank(f) as usize][shape.file(f) as usize].take();
    assert!(king.is_some_and(|k| k.eq_ignore_ascii_case(&'k')), "no king on {from}");
    setup.board[rows - 1 - shape.rank(t) as usize][shape.file(t) as usize] = king;
    Position::from_setup(p.variant(), &setup).unwrap().in_check()
}

#[test]
fn t14_line_a_detonation_mates() {
    let mut p = pos(T14);
    play(&mut p, "a9a10");
    play(&mut p, "j10g10");
    let mv = play(&mut p, "e8e8");
    p.unmake();
    assert_eq!(victims(&p, &mv), set(&["e9", "f8"]));
    p.make(mv);
    assert!(p.in_check());
    let o = p.outcome().expect("game over");
    assert_eq!((o.reason, o.winner), (EndReason::Checkmate, Some(Color::White)));
    // Double check: the rook f5 and the Dragon c7 (approach c7-d8-e9, f10 beyond) each give check.
    let after = fen_of(&p);
    assert_eq!(field(&after, 0), "G4kr3/6p3/4X5/2D7/10/5R4/10/10/10/K9[-]");
    assert!(
        pos("G4kr3/6p3/4X5/2D7/10/10/10/10/10/K9 b - - 0 2").in_check(),
        "Dragon alone"
    );
    assert!(
        pos("G4kr3/6p3/4X5/10/10/5R4/10/10/10/K9 b - - 0 2").in_check(),
        "rook alone"
    );
    // King squares: e10 (fly-over from a10), e9 and f9 (next to the Detonator).
    for s in ["e10", "e9", "f9"] {
        assert!(king_there_in_check(&p, "f10", s), "{s}");
    }
    assert_eq!((at(&p, "g9"), at(&p, "g10")), ('p', 'r'));
}

#[test]
fn t14_line_b_guillotine_to_d10_mates() {
    let mut p = pos(T14);
    play(&mut p, "a9a10");
    play(&mut p, "j10g10");
    play(&mut p, "a10d10");
    assert!(p.in_check(), "f10 is at distance 2 from d10");
    let o = p.outcome().expect("game over");
    assert_eq!((o.reason, o.winner), (EndReason::Checkmate, Some(Color::White)));
    // Ke10 walks next to the Guillotine with f10 empty behind it; f9 touches the Detonator.
    for s in ["e10", "f9"] {
        assert!(king_there_in_check(&p, "f10", s), "{s}");
    }
    assert!(!p.is_attacked(sq(&p, "d10"), Color::Black), "nothing can capture d10");
}

#[test]
fn t14_detonating_at_once_is_not_mate() {
    let mut p = pos(T14);
    play(&mut p, "e8e8");
    assert!(p.outcome().is_none());
    assert_eq!(moves(&mut p), set(&["f10e10", "f10g10"]));
}

// ----- drops, counters, FEN -----

#[test]
fn guillotine_drops_on_the_own_first_rank_only_and_hands_count_down() {
    let mut p = pos("5k4/10/10/10/10/10/10/10/PPPPPPPPPP/XR3K2RD[GJ] w - - 0 1");
    let g: BTreeSet<String> = moves(&mut p).into_iter().filter(|m| m.starts_with("G@")).collect();
    assert_eq!(g, set(&["G@c1", "G@d1", "G@e1", "G@g1", "G@h1"]));
    let gk = p.variant().kind_by_letter('G').unwrap();
    play(&mut p, "G@e1");
    assert_eq!(p.hand_count(Color::White, gk), 0);
    assert_eq!(field(&fen_of(&p), 0), "5k4/10/10/10/10/10/10/10/PPPPPPPPPP/XR2GK2RD[J]");
    // Black drops on its own first rank (rank 10) and second rank (9, pushed to 8..6).
    let mut p = pos("5k4/10/10/10/10/10/10/10/10/5K4[gj] b - - 0 1");
    let drops: BTreeSet<String> = moves(&mut p).into_iter().filter(|m| m.contains('@')).collect();
    assert!(drops.contains("G@a10") && drops.contains("J@a9") && drops.contains("J@a6"));
    assert!(!drops.contains("G@f10") && !drops.contains("J@a5") && !drops.contains("G@a9"));
    assert_eq!(drops.len(), 9 + 40);
}

#[test]
fn drops_reset_the_move_count_and_100_quiet_plies_draw() {
    let mut p = pos("5k4/10/10/10/10/10/10/10/10/5K4[J] w - - 98 60");
    play(&mut p, "J@a3");
    assert_eq!(p.halfmove_clock(), 0, "a drop resets the count");
    let mut p = pos("5k4/10/10/10/10/10/10/10/10/5K4[J] w - - 99 60");
    assert!(p.outcome().is_none());
    play(&mut p, "f1e1");
    let o = p.outcome().expect("100 plies without capture, pawn move or drop");
    assert_eq!((o.reason, o.winner), (EndReason::MoveRule { plies: 100 }, None));
}

#[test]
fn fen_holdings_round_trip_and_empty_hands_are_written_as_dash() {
    let p = pos(START);
    // Order of the piece table (ninjas before the Guillotine), as XBoard writes them too.
    assert_eq!(
        fen_of(&p),
        "xrwbqkbfrd/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/XRWBQKBFRD[JJJJJGjjjjjg] w KQkq - 0 1"
    );
    let again = pos(&fen_of(&p));
    assert_eq!((fen_of(&again), again.hash()), (fen_of(&p), p.hash()));
    // Empty hands: `[-]` on output; `[]`, `[-]` and no brackets on input.
    let want = "5k4/10/10/10/10/10/10/10/10/5K4[-] w - - 0 1";
    for input in [
        "5k4/10/10/10/10/10/10/10/10/5K4[-] w - - 0 1",
        "5k4/10/10/10/10/10/10/10/10/5K4[] w - - 0 1",
        "5k4/10/10/10/10/10/10/10/10/5K4 w - - 0 1",
    ] {
        assert_eq!(fen_of(&pos(input)), want, "{input}");
    }
    // One side's hand only.
    assert_eq!(
        field(&fen_of(&pos("5k4/10/10/10/10/10/10/10/10/5K4[jjg] b - - 3 9")), 0),
        "5k4/10/10/10/10/10/10/10/10/5K4[jjg]"
    );
}

// ----- C-1: hook attack tests agree with hook move generation -----

/// A random legal move, half the time one of the captures and special moves (drops, castlings,
/// detonations) if there are any, so that random games reach the hook pieces' rules often.
fn random_move_preferring_specials(p: &Position, legal: &MoveList, rng: &mut XorShift) -> Move {
    let special: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| m.kind() != MoveKind::Normal || p.is_capture(m))
        .collect();
    if !special.is_empty() && rng.below(2) == 0 {
        special[rng.below(special.len())]
    } else {
        legal.0[rng.below(legal.len())]
    }
}

/// Squares a hook move captures on (pieces of the other colour than the mover's).
fn hook_victims(p: &Position, mv: &Move, mover: Color) -> Vec<Square> {
    let shape = p.variant().shape;
    let mut squares = vec![];
    if mv.from() != Some(mv.to()) {
        squares.push(mv.to());
    }
    match *mv {
        Move::EnPassant { victim, .. } => squares.push(victim),
        Move::Grow { converts, .. } => squares.extend(converts),
        Move::Special { victim, blast, .. } => {
            squares.extend(victim);
            for (i, &(dx, dy)) in NEIGHBOURS.iter().enumerate() {
                if blast.0 & (1 << i) != 0 {
                    squares.extend(shape.offset(mv.to(), dx, dy));
                }
            }
        }
        _ => {}
    }
    squares.retain(|&s| p.piece_at(s).is_some_and(|pc| pc.color() != mover));
    squares
}

/// For every hook piece and every empty square (and the king's own square): with the enemy king
/// moved there, `Hook::attacks` says "attacked" iff one of the hook's generated moves removes it.
fn check_hook_attacks(p: &Position, ctx: &str) -> usize {
    let v = Arc::clone(p.variant());
    let shape = v.shape;
    let mut compared = 0;
    for attacker in Color::BOTH {
        let defender = attacker.opposite();
        let Some(&king) = p.kings(defender).first() else {
            continue;
        };
        let hook_squares: Vec<Square> = p
            .pieces_of(attacker)
            .iter()
            .copied()
            .filter(|&s| v.piece(p.piece_at(s).unwrap().kind()).hook.is_some())
            .collect();
        if hook_squares.is_empty() {
            continue;
        }
        for target in shape.squares() {
            if target != king && p.piece_at(target).is_some() {
                continue;
            }
            let mut setup = p.to_setup();
            let (kf, kr) = (shape.file(king) as usize, shape.rank(king) as usize);
            let (tf, tr) = (shape.file(target) as usize, shape.rank(target) as usize);
            let rows = shape.ranks as usize;
            let letter = setup.board[rows - 1 - kr][kf].take();
            setup.board[rows - 1 - tr][tf] = letter;
            setup.side = defender;
            setup.ep = None;
            // Positions where the attacker's own king would be in check are not positions.
            let Ok(q) = Position::from_setup(&v, &setup) else {
                continue;
            };
            for &from in &hook_squares {
                let hook = v.piece(q.piece_at(from).unwrap().kind()).hook.unwrap();
                // The attacker's moves as if it were its turn (same board: a null move).
                let mut attacker_to_move = q.clone();
                attacker_to_move.make_null();
                let mut list = MoveList::new();
                attacker_to_move.moves_from(from, &mut list);
                let by_moves = list.iter().any(|m| hook_victims(&q, m, attacker).contains(&target));
                let by_test = hook.attacks(&q, from, target);
                assert_eq!(
                    by_test,
                    by_moves,
                    "{ctx}: {hook:?} on {} vs king on {}: attacks() {by_test}, moves {by_moves}, {}",
                    name(&q, from),
                    name(&q, target),
                    fen_of(&q)
                );
                compared += 1;
            }
            // And the king is in check iff some piece attacks it.
            let any_hook = hook_squares.iter().any(|&from| {
                let hook = v.piece(q.piece_at(from).unwrap().kind()).hook.unwrap();
                hook.attacks(&q, from, target)
            });
            if any_hook {
                assert!(q.in_check(), "{ctx}: hook attack but no check, {}", fen_of(&q));
            }
        }
    }
    compared
}

#[test]
fn hook_attack_tests_agree_with_hook_moves_in_crowded_positions() {
    let positions = [
        // Crowded middle games with every hook piece of both sides near each other.
        "5k4/2p1j1p3/1D1gX1r3/3Pb1J3/2g1G1x3/2dRJ1p3/3F1P4/2X2d4/10/5K4[-] w - - 0 1",
        "5k4/10/3pgp4/2J1D1j3/3xGX4/2r1d1R3/3PjP4/10/10/5K4[-] b - - 0 1",
        "9k/10/2GrG5/2jDj5/2XgX5/10/10/10/10/K9[-] w - - 0 1",
        "k9/1g8/2D7/3x6/4G5/5d4/6X3/7p2/10/9K[-] w - - 0 1",
        "10/1k2pG4/2d2j4/1XgR1D4/10/10/1x8/10/10/4K5[-] b - - 0 1",
    ];
    let mut compared = 0;
    for fen_text in positions {
        compared += check_hook_attacks(&pos(fen_text), fen_text);
    }
    assert!(compared > 1000, "only {compared} comparisons");
}

/// For every hook piece in `p` and every square: `Hook::attack_set` holds the square iff
/// `Hook::attacks` says it is attacked. Returns the number of hook pieces checked.
fn check_attack_sets(p: &Position, ctx: &str) -> usize {
    let v = Arc::clone(p.variant());
    let mut checked = 0;
    for color in Color::BOTH {
        for &from in p.pieces_of(color) {
            let Some(hook) = p.piece_at(from).and_then(|pc| v.piece(pc.kind()).hook) else {
                continue;
            };
            let set = hook.attack_set(p, from);
            for target in v.shape.squares() {
                assert_eq!(
                    set.contains(target),
                    hook.attacks(p, from, target),
                    "{ctx}: {hook:?} on {}, square {}: attack_set vs attacks(), {}",
                    name(p, from),
                    name(p, target),
                    fen_of(p)
                );
            }
            checked += 1;
        }
    }
    checked
}

/// The first `n` positions of Wreckage's opening suite as FENs (the suite's EPD has no move counters).
fn suite_positions(n: usize) -> impl Iterator<Item = String> {
    include_str!("../fixtures/openings/wreckage.epd")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .take(n)
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            format!("{} {} {} {} 0 1", f[0], f[1], f[2], f[3])
        })
}

/// `Hook::attack_set` is exactly the squares `Hook::attacks` holds attacked, for every hook: in the
/// opening suite's positions, along random games from them (captures and drops preferred, so
/// that lines open and pieces crowd), and in hand-made positions with hooks on edges and corners,
/// crowded by friends and enemies, ninja pawns (immune to Detonator and Dragon) among them.
#[test]
fn hook_attack_sets_are_exactly_the_squares_attacks_holds() {
    let openings: Vec<String> = suite_positions(60).collect();
    let hand_made = [
        "X8D/G8G/10/4k5/10/10/5K4/10/g8g/d8x[-] w - - 0 1",
        "Gx8/dX8/10/10/4k5/10/10/5K4/8Dx/8gG[-] b - - 0 1",
        "10/1k2pG4/2d2j4/1XgR1D4/10/10/1x8/10/10/4K5[-] b - - 0 1",
        "9k/10/2GrG5/2jDj5/2XgX5/10/10/10/10/K9[-] w - - 0 1",
        "5k4/2p1j1p3/1D1gX1r3/3Pb1J3/2g1G1x3/2dRJ1p3/3F1P4/2X2d4/10/5K4[-] w - - 0 1",
        "k9/10/10/3pjp4/3jGj4/3pXp4/3JDJ4/10/10/9K[-] w - - 0 1",
        "k9/10/3GGG4/3GdG4/3GGG4/3xxx4/3xDx4/3xxx4/10/9K[-] b - - 0 1",
    ];
    // The hand-made positions first, then the suite's.
    let starts: Vec<String> = hand_made.iter().map(|s| s.to_string()).chain(openings).collect();
    let mut checked = 0;
    for fen_text in &starts {
        checked += check_attack_sets(&pos(fen_text), fen_text);
    }
    let mut rng = XorShift::new(7);
    for (i, start) in starts.iter().take(hand_made.len() + 20).enumerate() {
        let mut p = pos(start);
        for ply in 0..40 {
            let legal = p.legal_moves();
            if legal.is_empty() || p.outcome().is_some() {
                break;
            }
            let mv = random_move_preferring_specials(&p, &legal, &mut rng);
            p.make(mv);
            checked += check_attack_sets(&p, &format!("game {i} from {start}, ply {ply}"));
        }
    }
    assert!(checked > 3000, "only {checked} hook pieces checked");
}

// ----- random playouts -----

#[derive(Default, Debug)]
struct Seen {
    drops: usize,
    pushed_drops: usize,
    detonations: usize,
    multi_detonations: usize,
    double_captures: usize,
    dragon_captures: usize,
    fly_overs: usize,
    en_passant: usize,
    castles: usize,
    promotions: usize,
}

/// Checks make/unmake, hashes, FEN and move text round trips in one position; returns its legal moves.
fn check_position(p: &mut Position, ctx: &str, seen: &mut Seen) -> MoveList {
    let here = fen_of(p);
    let hash = p.hash();
    assert_eq!(hash, p.recomputed_hash(), "{ctx}: incremental hash, {here}");
    let pawn_hash = p.pawn_hash();
    assert_eq!(
        pawn_hash,
        p.recomputed_pawn_hash(),
        "{ctx}: incremental pawn hash, {here}"
    );
    let again = pos(&here);
    assert_eq!(fen_of(&again), here, "{ctx}: FEN round trip");
    assert_eq!(
        again.hash(),
        hash,
        "{ctx}: hash of the position read back from its FEN, {here}"
    );

    let legal = p.legal_moves();
    let mover = p.side_to_move();
    for mv in legal.iter() {
        let (text, _) = move_texts(p, mv, ctx);
        let victims = p.captures_of(mv).count();
        match mv.kind() {
            MoveKind::Drop => {
                seen.drops += 1;
                let second = if mover == Color::White { 1 } else { 8 };
                if p.variant().shape.rank(mv.to()) != second && p.variant().piece(mv.dropped().unwrap()).letter == 'J' {
                    seen.pushed_drops += 1;
                }
            }
            MoveKind::Special if mv.from() == Some(mv.to()) => {
                seen.detonations += 1;
                if victims > 1 {
                    seen.multi_detonations += 1;
                }
            }
            MoveKind::Special => {
                let letter = p.variant().piece(p.piece_at(mv.from().unwrap()).unwrap().kind()).letter;
                match (letter, victims) {
                    ('G', 2) => seen.double_captures += 1,
                    ('G', _) => seen.fly_overs += 1,
                    _ => seen.dragon_captures += 1,
                }
            }
            MoveKind::EnPassant => seen.en_passant += 1,
            MoveKind::Castle => seen.castles += 1,
            _ if mv.promotion().is_some() => seen.promotions += 1,
            _ => {}
        }
        p.make(*mv);
        assert!(
            !p.king_attacked(mover),
            "{ctx}: {text} leaves the mover in check, {here}"
        );
        assert_eq!(p.hash(), p.recomputed_hash(), "{ctx}: hash after {text}, {here}");
        assert_eq!(
            p.pawn_hash(),
            p.recomputed_pawn_hash(),
            "{ctx}: pawn hash after {text}, {here}"
        );
        let after = fen_of(p);
        assert_eq!(
            pos(&after).hash(),
            p.hash(),
            "{ctx}: hash after {text} vs its FEN {after}"
        );
        assert_eq!(p.unmake(), Some(*mv));
        assert_eq!(fen_of(p), here, "{ctx}: make/unmake {text}");
        assert_eq!(p.hash(), hash, "{ctx}: hash after make/unmake {text}, {here}");
        assert_eq!(
            p.pawn_hash(),
            pawn_hash,
            "{ctx}: pawn hash after make/unmake {text}, {here}"
        );
    }
    // Every pseudo-legal non-castling move the filter rejects does leave the king attacked.
    let mut pseudo = MoveList::new();
    p.generate_pseudo(&mut pseudo);
    for mv in pseudo.iter() {
        if mv.kind() == MoveKind::Castle || legal.iter().any(|m| m == mv) {
            continue;
        }
        p.make(*mv);
        let attacked = p.king_attacked(mover);
        p.unmake();
        assert!(attacked, "{ctx}: {} rejected though legal, {here}", canonical(p, mv));
    }
    if legal.is_empty() {
        let o = p.outcome().expect("no legal move: the game is over");
        let want = if p.in_check() {
            (EndReason::Checkmate, Some(mover.opposite()))
        } else {
            (EndReason::Stalemate, None)
        };
        assert_eq!((o.reason, o.winner), want, "{ctx}: {here}");
    }
    legal
}

/// Random playout that prefers captures, drops and other special moves half of the time.
fn playout(start: &str, seed: u64, max_plies: usize, seen: &mut Seen) {
    let mut p = pos(start);
    let mut rng = XorShift::new(seed);
    let mut line = Vec::new();
    for ply in 0..max_plies {
        let ctx = format!("seed {seed} ply {ply} after {line:?}");
        let legal = check_position(&mut p, &ctx, seen);
        if ply % 4 == 0 {
            check_hook_attacks(&p, &ctx);
        }
        if legal.is_empty() || p.outcome().is_some() {
            break;
        }
        let mv = random_move_preferring_specials(&p, &legal, &mut rng);
        line.push(canonical(&p, &mv));
        p.make(mv);
    }
    assert_eq!(p.plies_played(), line.len());
    while p.unmake().is_some() {}
    assert_eq!(fen_of(&p), fen_of(&pos(start)), "seed {seed}: taking back {line:?}");
}

#[test]
fn random_playouts_keep_every_invariant_and_meet_every_special_move() {
    let starts = [
        START,
        "5k4/2p1j1p3/1D1gX1r3/3Pb1J3/2g1G1x3/2dRJ1p3/3F1P4/2X2d4/10/5K4[Jj] w - - 0 1",
        "xr3k2rd/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/XR3K2RD[GJJgjj] w KQkq - 0 1",
    ];
    let mut seen = Seen::default();
    for (i, start) in starts.iter().enumerate() {
        for seed in 0..3 {
            playout(start, 100 * i as u64 + seed, 70, &mut seen);
        }
    }
    assert!(
        seen.drops > 0
            && seen.pushed_drops > 0
            && seen.detonations > 0
            && seen.multi_detonations > 0
            && seen.double_captures > 0
            && seen.dragon_captures > 0
            && seen.fly_overs > 0
            && seen.en_passant > 0
            && seen.castles > 0
            && seen.promotions > 0,
        "{seen:?}"
    );
}

/// The engine finds the mate in 2 of the rule page (T14). Checked by depth, not by the clock (timed
/// tests flake on shared machines): a depth-4 search is a few thousand nodes.
#[test]
fn search_finds_the_mate_in_two() {
    use fairybridge::search::{Limits, Score, SearchControl, Searcher};
    let mut p = pos(T14);
    let mut searcher = Searcher::new(16);
    let result = searcher.search(&mut p, &Limits::depth(4), &SearchControl::new(), &mut |_| {});
    assert_eq!(result.score, Score::Mate(2), "{result:?}");
    let best = result.best.expect("a move");
    assert_eq!(canonical(&p, &best), "a9a10");
    assert!(result.nodes < 1_000_000, "{} nodes", result.nodes);
}

// ----- answers given without playing the move -----

/// What the oracle saw: moves judged, how many were illegal, how many gave check, how many
/// `cannot_give_check` was true of.
#[derive(Default, Debug)]
struct Answers {
    moves: usize,
    illegal: usize,
    checks: usize,
    no_check_said: usize,
}

/// Plays `plies` random moves (special moves preferred) from each start and checks, for every
/// pseudo-legal move of every position met, that what the core says of the move without playing
/// it agrees with playing it: the legal moves and the search's legality test are exactly the
/// moves that leave no king of the mover attacked, and `Position::cannot_give_check` is never true
/// of a move that checks.
fn check_answers_without_playing(variant: &Arc<Variant>, starts: &[String], plies: usize, seed: u64) -> Answers {
    let mut rng = XorShift::new(seed);
    let mut seen = Answers::default();
    for (i, start) in starts.iter().enumerate() {
        let mut p = position(variant, start);
        for ply in 0..plies {
            let ctx = format!("game {i} from {start}, ply {ply}: {}", fen_of(&p));
            let legal = p.legal_moves();
            let mut pseudo = MoveList::new();
            p.generate_pseudo(&mut pseudo);
            let lctx = p.legality_context();
            let us = p.side_to_move();
            // Castling is also illegal through an attacked square, which playing it does not show.
            for mv in pseudo.iter().copied().filter(|mv| !matches!(mv, Move::Castle { .. })) {
                let listed = legal.iter().any(|m| *m == mv);
                let judged = p.is_legal_with(&lctx, &mv);
                let said_no_check = p.cannot_give_check(&mv);
                p.make(mv);
                let played = !p.king_attacked(us);
                let check = p.side_to_move() == us || p.in_check();
                p.unmake();
                assert_eq!(
                    (listed, judged),
                    (played, played),
                    "{ctx}: {mv:?} legal by the list, the search's test, playing"
                );
                if played {
                    assert!(!(said_no_check && check), "{ctx}: {mv:?} checks, yet cannot_give_check");
                    seen.checks += usize::from(check);
                    seen.no_check_said += usize::from(said_no_check);
                }
                seen.moves += 1;
                seen.illegal += usize::from(!played);
            }
            if legal.is_empty() || p.outcome().is_some() {
                break;
            }
            let mv = random_move_preferring_specials(&p, &legal, &mut rng);
            p.make(mv);
        }
    }
    seen
}

/// The oracle of `check_answers_without_playing` in Wreckage: legal moves (most judged on the
/// board they leave, against enemy hook pieces too when the move neither leaves nor enters a
/// queen line from a king) and `cannot_give_check`. In the opening suite's positions, along
/// random games from some of them, and in hand-made positions where a hook's attack alone
/// decides: a capture that puts a victim behind the king for an adjacent Guillotine's double
/// capture, a piece that leaves a rook's line to the king, a Dragon withdrawal and a Guillotine
/// fly-over opened by a piece leaving the line.
#[test]
fn answers_without_playing_the_move_agree_with_playing_it() {
    let openings = suite_positions(80);
    let hand_made = [
        // Fd2xe4 puts a victim behind the white king on e5 for the Guillotine on e6: illegal.
        "k9/10/10/10/4g5/4K5/4p5/10/3F6/10[-] w - - 0 1",
        // Black to move: fd8xe6 puts a victim behind the black king on e5 for the Guillotine on e4.
        "K9/10/3f6/10/4P5/4k5/4G5/10/10/10[-] b - - 0 1",
        // Fe6 off the e-file: discovered check by the rook on e2 on the king on e9.
        "10/4k5/10/10/4F5/10/10/10/4R5/K9[-] w - - 0 1",
        // Fe8 off the e-file: the Dragon on e9 then checks the king on e10 by withdrawal.
        "4k5/4D5/4F5/10/10/10/10/10/10/K9[-] w - - 0 1",
        // Fe4 off the e-file: the Guillotine on e2 then flies over the king on e6 (e7 empty).
        "9k/10/10/10/4K5/10/4f5/10/4g5/10[-] b - - 0 1",
    ];
    let starts: Vec<String> = hand_made.iter().map(|s| s.to_string()).chain(openings).collect();
    // Random games from the hand-made positions and the first 40 openings; the other openings
    // only as they are.
    let (games, single) = starts.split_at(hand_made.len() + 40);
    let mut seen = check_answers_without_playing(&wreckage(), games, 40, 11);
    let alone = check_answers_without_playing(&wreckage(), single, 1, 11);
    seen.moves += alone.moves;
    seen.illegal += alone.illegal;
    seen.checks += alone.checks;
    seen.no_check_said += alone.no_check_said;
    assert!(
        seen.moves > 100_000 && seen.illegal > 500 && seen.checks > 1000 && seen.no_check_said > 50_000,
        "{seen:?}"
    );
}

/// Wreckage whose queen, rooks and bishops leap: hook pieces among leapers, no rider. Nothing but
/// the hook pieces' queen lines (`Tables::queen_lines`) then says which moves may expose a king
/// to a hook piece or give check with one; in Wreckage the riders' lines cover every queen line.
const LEAPING_WRECKAGE: &str = r#"
name = "leaping-wreckage"
inherit = "wreckage"
description = "Wreckage with a leaping queen, rooks and bishops: hook pieces and no rider"

[[piece]]
letter = "Q"
betza = "KNAD"

[[piece]]
letter = "R"
betza = "WD"

[[piece]]
letter = "B"
betza = "FA"
"#;

/// The oracle of `check_answers_without_playing` where only the hook pieces' queen lines tell the
/// moves that cannot expose a king or give check from the others: in random games of Wreckage
/// with leapers for its riders, from the start, the opening suite's first positions and the
/// hand-made positions above that have no rook (a Guillotine's double capture and fly-over, a
/// Dragon's withdrawal).
#[test]
fn answers_without_playing_the_move_agree_with_playing_it_among_leapers() {
    let variant = fairybridge::protocol::builtin_games()
        .read_definition(LEAPING_WRECKAGE, "leaping-wreckage.toml")
        .unwrap_or_else(|e| panic!("{e}"));
    // No line of any rider to any square: the tables leave every queen line to the hooks' rule.
    assert!(variant.tables.line_mask.iter().all(|lines| lines.is_empty()));
    let hand_made = [
        "k9/10/10/10/4g5/4K5/4p5/10/3F6/10[-] w - - 0 1",
        "K9/10/3f6/10/4P5/4k5/4G5/10/10/10[-] b - - 0 1",
        "4k5/4D5/4F5/10/10/10/10/10/10/K9[-] w - - 0 1",
        "9k/10/10/10/4K5/10/4f5/10/4g5/10[-] b - - 0 1",
    ];
    let openings = suite_positions(40);
    let starts: Vec<String> = hand_made
        .iter()
        .chain(&[START])
        .map(|s| s.to_string())
        .chain(openings)
        .collect();
    let seen = check_answers_without_playing(&variant, &starts, 60, 13);
    assert!(
        seen.moves > 100_000 && seen.illegal > 500 && seen.checks > 1000 && seen.no_check_said > 50_000,
        "{seen:?}"
    );
}
