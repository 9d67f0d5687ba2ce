//! Wild Castle: the test positions T1-T10 of shared/rules/wildcastle.md section 7, one test each,
//! plus the setup generator (18 arrays, seeded random starts).
//!
//! Expected move lists and FENs were checked with python-chess (e-file positions) and with
//! tests/support/wildcastle_perft.py (d-file castling per spec section 4.3).

mod common;

use std::collections::BTreeSet;

use fairybridge::core::{Color, EndReason, Move, MoveKind, Position};
use fairybridge::notation::Coords;
use fairybridge::notation::movetext::{MoveTextError, parse_move};
use fairybridge::protocol::xboard::variant_info::wire;
use fairybridge::variants::shuffle::{arrangements, random_start, start_fen};

use common::{at, builtin, fen_of, legal, moves, play, position, set, sq};

fn pos(fen_text: &str) -> Position {
    position(&builtin("wildcastle"), fen_text)
}

const PAWN_MOVES: [&str; 16] = [
    "a2a3", "a2a4", "b2b3", "b2b4", "c2c3", "c2c4", "d2d3", "d2d4", "e2e3", "e2e4", "f2f3", "f2f4", "g2g3", "g2g4",
    "h2h3", "h2h4",
];

#[test]
fn t1_rbbqknnr_white_has_exactly_the_20_listed_moves() {
    let mut p = pos("rbbqknnr/pppppppp/8/8/8/8/PPPPPPPP/RBBQKNNR w KQkq - 0 1");
    let mut expected = set(&PAWN_MOVES);
    expected.extend(set(&["f1e3", "f1g3", "g1f3", "g1h3"]));
    assert_eq!(moves(&mut p), expected);
    assert_eq!(p.legal_moves().len(), 20);
}

#[test]
fn t1_every_one_of_the_18_setups_gives_white_exactly_20_moves() {
    let v = builtin("wildcastle");
    let rule = v.shuffle.as_ref().expect("wildcastle has a shuffle rule");
    let all = arrangements(rule);
    assert_eq!(all.len(), 18);
    for rank in &all {
        let fen_text = start_fen(&v, rank);
        let mut p = pos(&fen_text);
        let got = moves(&mut p);
        assert_eq!(got.len(), 20, "{fen_text}: {got:?}");
        // 16 pawn moves, and each knight exactly 2 moves (to rank 3); nothing else moves.
        let pawn: BTreeSet<String> = got.iter().filter(|m| &m[1..2] == "2").cloned().collect();
        assert_eq!(pawn, set(&PAWN_MOVES), "{fen_text}");
        for (file, piece) in rank.chars().enumerate() {
            let from = format!("{}1", (b'a' + file as u8) as char);
            let n = got.iter().filter(|m| m.starts_with(&from)).count();
            let want = if piece == 'N' { 2 } else { 0 };
            assert_eq!(n, want, "{fen_text}: {piece} on {from} has {n} moves");
        }
        // Black, to move after any waiting move, has the mirror image: also 20.
        play(&mut p, "a2a3");
        assert_eq!(p.legal_moves().len(), 20, "{fen_text} after a2a3");
    }
}

#[test]
fn t2_e_file_castling_both_ways() {
    let mut p = pos("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    let short = legal(&mut p, "e1g1").expect("e1g1 legal");
    let long = legal(&mut p, "e1c1").expect("e1c1 legal");
    assert_eq!(short.kind(), MoveKind::Castle);
    assert_eq!(long.kind(), MoveKind::Castle);
    p.make(short);
    assert_eq!(
        (at(&p, "g1"), at(&p, "f1"), at(&p, "e1"), at(&p, "h1")),
        ('K', 'R', '.', '.')
    );
    assert_eq!(fen_of(&p), "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1");
    p.unmake();
    p.make(long);
    assert_eq!(
        (at(&p, "c1"), at(&p, "d1"), at(&p, "e1"), at(&p, "a1")),
        ('K', 'R', '.', '.')
    );
    assert_eq!(fen_of(&p), "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq - 1 1");
}

#[test]
fn t3_e_file_castling_through_attacked_f1_is_illegal() {
    let mut p = pos("r3kr2/ppppp1pp/8/8/8/8/PPPPP1PP/R3K2R w KQq - 0 1");
    assert!(
        legal(&mut p, "e1g1").is_none(),
        "e1g1 must be illegal: f1 attacked by the rook f8"
    );
    assert_eq!(parse_move(&p, "e1g1", Coords::Human), Err(MoveTextError::Illegal));
    assert!(legal(&mut p, "e1c1").is_some(), "e1c1 legal");
    // The king's own moves on rank 1: only d1 (f1 attacked) besides e1c1.
    let king: BTreeSet<String> = moves(&mut p).into_iter().filter(|m| m.starts_with("e1")).collect();
    assert_eq!(king, set(&["e1c1", "e1d1"]));
}

#[test]
fn t4_d_file_castlings_and_the_position_after_d1f1() {
    let mut p = pos("r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R w KQkq - 0 1");
    let king: BTreeSet<String> = moves(&mut p).into_iter().filter(|m| m.starts_with("d1")).collect();
    // Two plain king steps and the two wild castlings; no Chess960-style d1g1/d1c1 castling.
    assert_eq!(king, set(&["d1b1", "d1c1", "d1e1", "d1f1"]));
    let f = legal(&mut p, "d1f1").expect("d1f1 legal");
    let b = legal(&mut p, "d1b1").expect("d1b1 legal");
    assert_eq!((f.kind(), b.kind()), (MoveKind::Castle, MoveKind::Castle));
    // d1e1 and d1c1 are ordinary king steps, not castling.
    assert_eq!(legal(&mut p, "d1e1").unwrap().kind(), MoveKind::Normal);
    assert_eq!(legal(&mut p, "d1c1").unwrap().kind(), MoveKind::Normal);

    p.make(f);
    assert_eq!(fen_of(&p), "r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R3RK2 b kq - 1 1");
    assert!(p.castling_rook(Color::White, 0).is_none() && p.castling_rook(Color::White, 1).is_none());
    // Black (same files) may castle either way in reply.
    assert!(legal(&mut p, "d8f8").is_some() && legal(&mut p, "d8b8").is_some());
    p.unmake();
    assert_eq!(fen_of(&p), "r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R w KQkq - 0 1");

    // d1b1: K d1-b1, R a1-c1 (spec 4.3).
    p.make(b);
    assert_eq!(fen_of(&p), "r2k3r/pppppppp/8/8/8/8/PPPPPPPP/1KR4R b kq - 1 1");
}

#[test]
fn t4_castling_text_is_the_king_move_on_the_wire_too() {
    let mut p = pos("r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R w KQkq - 0 1");
    for text in ["d1f1", "d1b1"] {
        let mv = legal(&mut p, text).unwrap();
        assert_eq!(wire(&p, &mv), text);
        assert_eq!(parse_move(&p, text, Coords::Wire), Ok(mv));
        assert_eq!(parse_move(&p, text, Coords::Human), Ok(mv));
    }
}

#[test]
fn t5_d_file_castling_blocked_by_bishop_on_f1() {
    let mut p = pos("r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R2K1B1R w KQkq - 0 1");
    assert!(legal(&mut p, "d1f1").is_none(), "d1f1 must be illegal: f1 occupied");
    assert!(legal(&mut p, "d1b1").is_some(), "d1b1 legal");
    let king: BTreeSet<String> = moves(&mut p).into_iter().filter(|m| m.starts_with("d1")).collect();
    assert_eq!(king, set(&["d1b1", "d1c1", "d1e1"]));
}

#[test]
fn t6_d_file_castling_through_attacked_e1_is_illegal() {
    let mut p = pos("r2kr3/pppp1ppp/8/8/8/8/PPPP1PPP/R2K3R w KQq - 0 1");
    assert!(
        legal(&mut p, "d1f1").is_none(),
        "d1f1 must be illegal: e1 attacked by the rook e8"
    );
    assert!(legal(&mut p, "d1b1").is_some(), "d1b1 legal");
    let king: BTreeSet<String> = moves(&mut p).into_iter().filter(|m| m.starts_with("d1")).collect();
    assert_eq!(king, set(&["d1b1", "d1c1"]));
}

#[test]
fn t7_en_passant_is_legal_only_immediately() {
    let start = "rbbqknnr/ppp1pppp/8/8/2Pp4/8/PP1PPPPP/RBBQKNNR b KQkq c3 0 2";
    let mut p = pos(start);
    assert_eq!(fen_of(&p), start, "the e.p. square is kept (a pawn can take)");
    let ep = legal(&mut p, "d4c3").expect("d4xc3 e.p. legal");
    assert_eq!(ep.kind(), MoveKind::EnPassant);
    p.make(ep);
    assert_eq!((at(&p, "c3"), at(&p, "c4"), at(&p, "d4")), ('p', '.', '.'));
    assert_eq!(fen_of(&p), "rbbqknnr/ppp1pppp/8/8/8/2p5/PP1PPPPP/RBBQKNNR w KQkq - 0 3");
    p.unmake();
    assert_eq!(fen_of(&p), start);

    // Not taken at once: gone after one move pair.
    play(&mut p, "g8h6");
    assert_eq!(
        fen_of(&p),
        "rbbqkn1r/ppp1pppp/7n/8/2Pp4/8/PP1PPPPP/RBBQKNNR w KQkq - 1 3"
    );
    play(&mut p, "g1h3");
    assert!(legal(&mut p, "d4c3").is_none(), "e.p. no longer legal");
    assert_eq!(
        fen_of(&p),
        "rbbqkn1r/ppp1pppp/7n/8/2Pp4/7N/PP1PPPPP/RBBQKN1R b KQkq - 2 3"
    );
}

#[test]
fn t8_promotion_has_exactly_four_choices() {
    let mut p = pos("7k/P7/8/8/8/8/8/K7 w - - 0 1");
    let all = moves(&mut p);
    assert_eq!(all, set(&["a1a2", "a1b1", "a1b2", "a7a8b", "a7a8n", "a7a8q", "a7a8r"]));
    let list = p.legal_moves();
    let promos: Vec<Move> = list
        .iter()
        .filter(|m| m.from() == Some(sq(&p, "a7")))
        .copied()
        .collect();
    assert_eq!(promos.len(), 4);
    let mut got = BTreeSet::new();
    for mv in promos {
        assert_eq!(mv.to(), sq(&p, "a8"));
        let kind = mv.promotion().expect("a move to the last rank promotes");
        p.make(mv);
        got.insert(at(&p, "a8"));
        assert_eq!(at(&p, "a7"), '.');
        assert_eq!(p.piece_at(sq(&p, "a8")).unwrap().kind(), kind);
        p.unmake();
    }
    assert_eq!(got, ['B', 'N', 'Q', 'R'].into_iter().collect());
}

#[test]
fn t9_fools_mate_is_checkmate_black_wins() {
    let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let p = pos(mate);
    assert!(p.in_check());
    assert_eq!(p.legal_moves().len(), 0);
    let o = p.outcome().expect("game over");
    assert_eq!(o.winner, Some(Color::Black));
    assert_eq!(o.reason, EndReason::Checkmate);
    assert_eq!(o.result().as_str(), "0-1");

    // The claim's move order from the orthodox array (one of the 18 setups) reaches it.
    let mut q = Position::start(&builtin("wildcastle"));
    assert_eq!(fen_of(&q), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    for m in ["f2f3", "e7e5", "g2g4"] {
        play(&mut q, m);
        assert_eq!(q.outcome(), None, "not over after {m}");
    }
    play(&mut q, "d8h4");
    assert_eq!(fen_of(&q), mate);
    assert_eq!(q.outcome(), Some(o));
}

/// Independent enumeration: Q, B, B, N, N on b1 c1 d1 f1 g1, one bishop on a light square
/// (b1 d1 f1) and one on a dark square (c1 g1).
fn expected_setups() -> BTreeSet<String> {
    let free = [1usize, 2, 3, 5, 6];
    let light = |f: usize| matches!(f, 1 | 3 | 5);
    let mut out = BTreeSet::new();
    for &b1 in &free {
        for &b2 in &free {
            if b1 >= b2 || light(b1) == light(b2) {
                continue;
            }
            for &q in &free {
                if q == b1 || q == b2 {
                    continue;
                }
                let mut r: Vec<char> = "R...K..R".chars().collect();
                r[b1] = 'B';
                r[b2] = 'B';
                r[q] = 'Q';
                for c in r.iter_mut() {
                    if *c == '.' {
                        *c = 'N';
                    }
                }
                out.insert(r.into_iter().collect());
            }
        }
    }
    out
}

#[test]
fn t10_exactly_18_setups_with_the_listed_valid_and_invalid_examples() {
    let v = builtin("wildcastle");
    let all = arrangements(v.shuffle.as_ref().unwrap());
    let distinct: BTreeSet<String> = all.iter().cloned().collect();
    assert_eq!(all.len(), 18);
    assert_eq!(distinct.len(), 18, "no duplicates");
    let expected = expected_setups();
    assert_eq!(expected.len(), 18);
    assert_eq!(distinct, expected);
    for valid in ["RQBNKBNR", "RNBBKQNR", "RNBQKBNR", "RBBQKNNR"] {
        assert!(distinct.contains(valid), "{valid} must be generated");
    }
    // Both bishops light (b1+d1, b1+f1, d1+f1) or both dark (c1+g1): never generated.
    for invalid in ["RBQBKNNR", "RBNQKBNR", "RNQBKBNR", "RNBQKNBR", "RQBNKNBR"] {
        assert!(!distinct.contains(invalid), "{invalid} must not be generated");
    }
    for rank in &all {
        assert_eq!(&rank[4..5], "K", "{rank}: king on e1 (decision A-1)");
        assert_eq!((&rank[0..1], &rank[7..8]), ("R", "R"), "{rank}: rooks in the corners");
        let fen_text = start_fen(&v, rank);
        let p = pos(&fen_text);
        // Black copies White file for file (decision A-2).
        for file in 'a'..='h' {
            let w = at(&p, &format!("{file}1"));
            let b = at(&p, &format!("{file}8"));
            assert_eq!(b, w.to_ascii_lowercase(), "{fen_text}: file {file}");
        }
        assert_eq!(fen_of(&p), fen_text);
        assert_eq!(p.castling_rook(Color::White, 0), Some(sq(&p, "h1")));
        assert_eq!(p.castling_rook(Color::White, 1), Some(sq(&p, "a1")));
        assert_eq!(p.castling_rook(Color::Black, 0), Some(sq(&p, "h8")));
        assert_eq!(p.castling_rook(Color::Black, 1), Some(sq(&p, "a8")));
    }
    assert_eq!(
        start_fen(&v, "RQBNKBNR"),
        "rqbnkbnr/pppppppp/8/8/8/8/PPPPPPPP/RQBNKBNR w KQkq - 0 1"
    );
}

#[test]
fn t10_invalid_arrays_are_still_accepted_as_fens() {
    // Decision A-3: the opposite-colour rule binds the generator only; any FEN is accepted.
    let p = pos("rbqbknnr/pppppppp/8/8/8/8/PPPPPPPP/RBQBKNNR w KQkq - 0 1");
    assert_eq!(p.legal_moves().len(), 20);
}

#[test]
fn random_start_is_deterministic_and_always_one_of_the_18() {
    let v = builtin("wildcastle");
    let fens: BTreeSet<String> = expected_setups().iter().map(|r| start_fen(&v, r)).collect();
    let mut seen = BTreeSet::new();
    for seed in 0..2000u64 {
        let a = random_start(&v, seed);
        assert_eq!(a, random_start(&v, seed), "seed {seed} not deterministic");
        assert!(fens.contains(&a), "seed {seed}: {a} is not one of the 18 setups");
        seen.insert(a);
    }
    for seed in [u64::MAX, u64::MAX - 1, 1 << 63, 0xDEAD_BEEF] {
        assert!(fens.contains(&random_start(&v, seed)));
    }
    // 2000 seeds reach every setup (and so do not all map to one).
    assert_eq!(seen.len(), 18);
    // Orthodox chess has no shuffle: its start position whatever the seed.
    let normal = fairybridge::protocol::builtin_games().get("normal").unwrap();
    assert_eq!(random_start(&normal, 7), fairybridge::notation::fen::start_fen(&normal));
}
