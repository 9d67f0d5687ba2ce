//! Holdings fed by captures, as data: crazyhouse (built in) and minishogi (the example
//! user file). Each rule the definitions state is checked here on a position that shows it; the
//! perft suites (`fixtures/perft/crazyhouse.perft`, `minishogi.perft`, counts from
//! Fairy-Stockfish) check the same rules in bulk.

mod common;

use std::sync::Arc;

use fairybridge::core::{Color, EndReason, Position, Variant};
use fairybridge::notation::san::{parse_san, to_san};
use fairybridge::notation::{Coords, fen};
use fairybridge::variants::Registry;

use common::{at, builtin, fen_of, legal, moves, moves_from, play, position};

fn minishogi() -> Arc<Variant> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/variants/examples/minishogi.toml");
    Registry::builtin().load_file(&path).expect("minishogi example loads")
}

fn hand(p: &Position, color: Color, letter: char) -> u8 {
    let kind = p.variant().kind_by_letter(letter).expect("a piece letter");
    p.hand_count(color, kind)
}

#[test]
fn a_capture_goes_to_the_capturers_hand_and_changes_sides() {
    let v = builtin("crazyhouse");
    let mut p = Position::start(&v);
    for m in ["e2e4", "d7d5", "e4d5"] {
        play(&mut p, m);
    }
    assert_eq!(hand(&p, Color::White, 'P'), 1);
    play(&mut p, "d8d5");
    assert_eq!(hand(&p, Color::Black, 'P'), 1);
    assert_eq!(
        fen_of(&p),
        "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3"
    );
    // The white pawn in hand is White's to drop.
    assert!(moves(&mut p).contains("P@e6"));
    p.unmake();
    assert_eq!(hand(&p, Color::Black, 'P'), 0);
    assert_eq!(p.hash(), p.recomputed_hash());
}

/// The pawn hash follows the pawns on the board: a pawn captured into a hand leaves it, a dropped
/// pawn enters it, a promoted one leaves it; unmake restores it exactly.
#[test]
fn the_pawn_hash_follows_pawns_on_the_board_through_captures_drops_and_promotion() {
    let v = builtin("crazyhouse");
    let mut p = Position::start(&v);
    let start = p.pawn_hash();
    play(&mut p, "g1f3");
    assert_eq!(p.pawn_hash(), start, "a knight move leaves the pawn structure alone");
    for m in ["d7d5", "e2e4", "d5e4", "f3e5", "e4e3", "e5f7", "e3d2"] {
        play(&mut p, m);
        assert_eq!(p.pawn_hash(), p.recomputed_pawn_hash(), "after {m}");
    }
    assert_eq!(hand(&p, Color::White, 'P'), 1);
    let before = p.pawn_hash();
    play(&mut p, "c1d2");
    assert_eq!(p.pawn_hash(), p.recomputed_pawn_hash());
    assert_ne!(
        p.pawn_hash(),
        before,
        "a pawn captured into a hand leaves the pawn structure"
    );
    let drop = p.pawn_hash();
    play(&mut p, "P@e6");
    assert_eq!(p.pawn_hash(), p.recomputed_pawn_hash());
    assert_ne!(p.pawn_hash(), drop, "a dropped pawn joins the pawn structure");
    p.unmake();
    assert_eq!(p.pawn_hash(), drop);
    while p.unmake().is_some() {}
    assert_eq!(p.pawn_hash(), start);

    let mut q = position(&v, "4k3/1P6/8/8/8/8/1r6/4K3[-] w - - 0 1");
    assert_ne!(q.pawn_hash(), 0);
    play(&mut q, "b7b8q");
    assert_eq!(q.pawn_hash(), 0, "the promoted pawn is no pawn any more");
    q.unmake();
    assert_eq!(q.pawn_hash(), q.recomputed_pawn_hash());
    assert_ne!(q.pawn_hash(), 0);
}

#[test]
fn hands_are_part_of_the_hash() {
    let v = builtin("crazyhouse");
    let with = position(&v, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
    let without = position(&v, "4k3/8/8/8/8/8/8/4K3[-] w - - 0 1");
    let black = position(&v, "4k3/8/8/8/8/8/8/4K3[n] w - - 0 1");
    assert_ne!(with.hash(), without.hash());
    assert_ne!(with.hash(), black.hash());
}

#[test]
fn a_promoted_pawn_is_marked_and_returns_to_hand_as_a_pawn() {
    let v = builtin("crazyhouse");
    let mut p = position(&v, "4k3/1P6/8/8/8/8/1r6/4K3[-] w - - 0 1");
    play(&mut p, "b7b8q");
    assert_eq!(fen_of(&p), "1Q~2k3/8/8/8/8/8/1r6/4K3[-] b - - 0 1");
    // It moves as a queen: it gives check along the rank.
    assert!(p.in_check());
    let q = position(&v, "1Q~2k3/8/8/8/8/8/1r6/4K3[-] b - - 0 1");
    assert_eq!(q.hash(), p.hash());
    play(&mut p, "b2b8");
    assert_eq!(hand(&p, Color::Black, 'P'), 1);
    assert_eq!(hand(&p, Color::Black, 'Q'), 0);
    // A queen that was never a pawn goes to hand as a queen.
    let mut r = position(&v, "1Q2k3/8/8/8/8/8/1r6/4K3[-] b - - 0 1");
    play(&mut r, "b2b8");
    assert_eq!(hand(&r, Color::Black, 'Q'), 1);
    assert_ne!(q.hash(), position(&v, "1Q2k3/8/8/8/8/8/1r6/4K3[-] b - - 0 1").hash());
}

#[test]
fn crazyhouse_pawns_are_not_dropped_on_the_first_or_last_rank() {
    let v = builtin("crazyhouse");
    let mut p = position(&v, "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1");
    let drops = moves_from(&mut p, "P@");
    let ranks_2_to_7: std::collections::BTreeSet<String> = (2..=7)
        .flat_map(|r| "abcdefgh".chars().map(move |f| format!("P@{f}{r}")))
        .collect();
    assert_eq!(drops, ranks_2_to_7);
    // Any other piece may go anywhere: 62 empty squares.
    let mut n = position(&v, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
    assert_eq!(moves_from(&mut n, "N@").len(), 62);
}

#[test]
fn a_drop_can_answer_check_and_give_mate() {
    let v = builtin("crazyhouse");
    // The rook on a1 checks the king on e1: drops on b1, c1 and d1 block it.
    let mut p = position(&v, "4k3/8/8/8/8/8/3PPP2/r3K3[B] w - - 0 1");
    let blocks = moves_from(&mut p, "B@");
    assert_eq!(blocks, common::set(&["B@b1", "B@c1", "B@d1"]));
    // A queen drop mates: Q@e7 protected by the pawn on d6.
    let mut m = position(&v, "4k3/8/3P4/8/8/8/8/4K3[Q] w - - 0 1");
    play(&mut m, "Q@e7");
    let o = m.outcome().expect("mate");
    assert_eq!((o.reason, o.winner), (EndReason::Checkmate, Some(Color::White)));
}

#[test]
fn san_writes_and_reads_drops_and_promotions() {
    let v = builtin("crazyhouse");
    let mut p = position(&v, "4k3/1P6/8/8/8/8/8/4K3[N] w - - 0 1");
    let drop = legal(&mut p, "N@f6").expect("drop");
    assert_eq!(to_san(&mut p, &drop), "N@f6+");
    assert_eq!(parse_san(&p, "N@f6+"), Ok(drop));
    let promo = legal(&mut p, "b7b8q").expect("promotion");
    assert_eq!(to_san(&mut p, &promo), "b8=Q+");
    assert_eq!(parse_san(&p, "b8=Q"), Ok(promo));
}

#[test]
fn a_dead_position_does_not_exist_in_crazyhouse() {
    let v = builtin("crazyhouse");
    let p = position(&v, "4k3/8/8/8/8/8/8/4K3[-] w - - 0 1");
    assert_eq!(p.outcome(), None);
}

#[test]
fn shogi_pieces_return_to_hand_unpromoted_and_fen_marks_them_with_plus() {
    let v = minishogi();
    let mut p = position(&v, "+Rbsgk/4p/5/P2+b1/KGS2[Rr] b - - 0 1");
    assert_eq!(fen_of(&p), "+Rbsgk/4p/5/P2+b1/KGS2[Rr] b - - 0 1");
    // The horse (+b on d2) takes the silver on c1: the silver goes to Black's hand.
    play(&mut p, "d2c1");
    assert_eq!(hand(&p, Color::Black, 'S'), 1);
    // The dragon (+R on a5) takes the bishop on b5 and stays a dragon.
    play(&mut p, "a5b5");
    assert_eq!(hand(&p, Color::White, 'B'), 1);
    assert_eq!(at(&p, "b5"), 'R');
    let fen_now = fen_of(&p);
    assert!(fen_now.starts_with("1+Rsgk/"), "{fen_now}");
}

#[test]
fn a_captured_promoted_shogi_piece_goes_to_hand_as_its_unpromoted_form() {
    let v = minishogi();
    // White's gold on b1 takes the black horse (+b) on b2.
    let mut p = position(&v, "4k/5/5/1+b3/KG3[-] w - - 0 1");
    play(&mut p, "b1b2");
    assert_eq!(hand(&p, Color::White, 'B'), 1);
    assert_eq!(fen_of(&p), "4k/5/5/1G3/K4[B] b - - 0 1");
}

#[test]
fn nifu_no_second_unpromoted_pawn_on_a_file() {
    let v = minishogi();
    let mut p = position(&v, "rbsgk/4p/5/P4/KGSBR[P] w - - 0 1");
    let drops = moves_from(&mut p, "P@");
    assert!(!drops.iter().any(|m| m.starts_with("P@a")), "{drops:?}");
    assert!(drops.contains("P@b3"));
    // A tokin on the file does not count.
    let mut t = position(&v, "rbsgk/4p/5/+P4/KGSBR[P] w - - 0 1");
    assert!(moves_from(&mut t, "P@").contains("P@a3"));
}

#[test]
fn no_drop_where_the_piece_could_never_move_again() {
    let v = minishogi();
    let mut p = position(&v, "4k/5/5/5/K4[PS] w - - 0 1");
    let pawn = moves_from(&mut p, "P@");
    assert!(!pawn.iter().any(|m| m.ends_with('5')), "{pawn:?}");
    // A silver can always move: every empty square.
    assert_eq!(moves_from(&mut p, "S@").len(), 23);
}

#[test]
fn promotion_is_optional_in_the_zone_forced_where_the_pawn_could_not_move() {
    let v = minishogi();
    // Silver c4 to c5/b5/d5 may promote or not; the pawn a4 must promote on a5.
    let mut p = position(&v, "4k/P1S2/5/5/K4[-] w - - 0 1");
    let silver = moves_from(&mut p, "c4");
    assert!(silver.contains("c4c5") && silver.contains("c4c5s"), "{silver:?}");
    let pawn = moves_from(&mut p, "a4");
    assert_eq!(pawn, common::set(&["a4a5p"]));
    // Leaving the zone promotes too: the silver on c5 steps back to b4/d4.
    let mut q = position(&v, "2S1k/5/5/5/K4[-] w - - 0 1");
    let back = moves_from(&mut q, "c5");
    assert!(back.contains("c5b4s") && back.contains("c5b4"), "{back:?}");
    // An unpromoted pawn may not stand on the last rank.
    let setup = fen::parse_fen("P3k/5/5/5/K4[-] w - - 0 1", Coords::Human).expect("reads");
    assert!(Position::from_setup(&v, &setup).is_err());
}

#[test]
fn a_pawn_drop_mate_loses_for_the_dropper() {
    let v = minishogi();
    let mut p = position(&v, "4k/2G2/4S/5/K4[P] w - - 0 1");
    play(&mut p, "P@e4");
    assert!(p.legal_moves().is_empty());
    let o = p.outcome().expect("game over");
    assert_eq!((o.reason, o.winner), (EndReason::DropMate, Some(Color::Black)));
    // The same mate by a gold drop wins.
    let mut g = position(&v, "4k/2G2/4S/5/K4[G] w - - 0 1");
    play(&mut g, "G@e4");
    let o = g.outcome().expect("game over");
    assert_eq!((o.reason, o.winner), (EndReason::Checkmate, Some(Color::White)));
}

#[test]
fn stalemate_loses_in_minishogi() {
    let v = minishogi();
    // Black's king on a5 has no move and is not in check.
    let p = position(&v, "k4/2G2/1G3/5/4K[-] b - - 0 1");
    assert!(!p.in_check());
    let o = p.outcome().expect("no move");
    assert_eq!((o.reason, o.winner), (EndReason::Stalemate, Some(Color::White)));
}

#[test]
fn definition_errors_for_holdings_data() {
    // crazyhouse.toml inherits normal: read among the built-in games.
    let base = include_str!("../fixtures/variants/crazyhouse.toml");
    let registry = Registry::builtin();
    let read = |text: &str, file: &str| registry.read_definition(text, file);
    let unknown = base.replacen("promoted_from = \"P\"", "promoted_from = \"Z\"", 1);
    let e = read(&unknown, "x.toml").expect_err("unknown piece");
    assert!(e.to_string().contains("promoted_from names unknown piece Z"), "{e}");
    let dropped = base.replacen("promoted_from = \"P\"", "promoted_from = \"P\"\ndrop = {}", 1);
    let e = read(&dropped, "x.toml").expect_err("dropped promoted piece");
    assert!(e.to_string().contains("neither royal nor dropped"), "{e}");
    let twice = base.replacen(
        "letter = \"R\"\nname = \"Promoted Rook\"",
        "letter = \"Q\"\nname = \"Promoted Rook\"",
        1,
    );
    let e = read(&twice, "x.toml").expect_err("two promoted queens");
    assert!(e.to_string().contains("piece letter Q is used twice"), "{e}");
    // A FEN that marks a piece promoted where the game has no such promoted piece.
    let v = builtin("crazyhouse");
    let setup = fen::parse_fen("4k3/8/8/8/8/8/8/K~7[-] w - - 0 1", Coords::Human).expect("reads");
    let err = Position::from_setup(&v, &setup).expect_err("no promoted king");
    assert!(err.to_string().contains("no promoted piece 'K'"), "{err}");
}
