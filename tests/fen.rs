//! FEN input: bad FENs give typed errors (`FenError` from `parse_fen`, `PositionError` from
//! `Position::from_setup`), never panics; X-FEN/Shredder castling letters, the en-passant field
//! and XBoard holdings brackets are handled.
//!
//! Expected legal-move lists were computed with python-chess 1.11 (pip `chess`).

mod common;

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use fairybridge::core::{CastlingRight, CastlingRook, Color, Position, PositionError, Variant};
use fairybridge::notation::movetext::canonical;
use fairybridge::notation::{Coords, fen};

use common::{XorShift, builtin, fen_of, moves};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn normal() -> Arc<Variant> {
    builtin("normal")
}

/// parse_fen + from_setup; a parse failure is reported as `Err(None)`.
fn setup_in(v: &Arc<Variant>, text: &str) -> Result<Position, Option<PositionError>> {
    let setup = fen::parse_fen(text, Coords::Human).map_err(|_| None)?;
    Position::from_setup(v, &setup).map_err(Some)
}

fn position_error(text: &str) -> PositionError {
    let setup = fen::parse_fen(text, Coords::Human).unwrap_or_else(|e| panic!("{text} should parse: {e}"));
    match Position::from_setup(&normal(), &setup) {
        Ok(p) => panic!("{text} accepted as {p:?}"),
        Err(e) => e,
    }
}

fn pos(v: &Arc<Variant>, text: &str) -> Position {
    setup_in(v, text).unwrap_or_else(|e| panic!("{text}: {e:?}"))
}

fn set(s: &str) -> BTreeSet<String> {
    s.split_whitespace().map(str::to_string).collect()
}

// ----- board shape -----

#[test]
fn wrong_rank_count() {
    for (text, ranks) in [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", 7),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1", 9),
        ("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1", 10),
        ("8 w - - 0 1", 1),
    ] {
        match position_error(text) {
            PositionError::BoardSize {
                expected: (8, 8),
                found: (_, found),
                rank: None,
            } => assert_eq!(found, ranks, "{text}"),
            e => panic!("{text}: {e:?}"),
        }
    }
    // More than 16 ranks is refused by the parser already.
    let seventeen = vec!["8"; 17].join("/") + " w - - 0 1";
    assert!(fen::parse_fen(&seventeen, Coords::Human).is_err());
}

#[test]
fn wrong_rank_length() {
    for (text, rank, files) in [
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5, 9),
        ("rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5, 7),
        ("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 9),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", 0, 7),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR7 w KQkq - 0 1", 0, 15),
        ("rnbqkbnr/pppppppp//8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5, 0),
        ("rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5, 44),
    ] {
        match position_error(text) {
            PositionError::BoardSize {
                expected: (8, 8),
                found: (f, 8),
                rank: Some(r),
            } => assert_eq!((r, f), (rank, files), "{text}"),
            e => panic!("{text}: {e:?}"),
        }
    }
    // Zero and absurd empty runs are refused by the parser.
    for text in [
        "rnbqkbnr/pppppppp/0/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/65/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ] {
        assert!(fen::parse_fen(text, Coords::Human).is_err(), "{text}");
    }
}

#[test]
fn unknown_piece_letter() {
    assert_eq!(
        position_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1"),
        PositionError::UnknownPiece('X')
    );
    assert_eq!(
        position_error("rnbqkbnr/ppppzppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        PositionError::UnknownPiece('z')
    );
    // Non-ASCII is not a piece letter at all: the parser refuses it.
    assert!(
        fen::parse_fen(
            "rnbqkbnr/ppppäppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            Coords::Human
        )
        .is_err()
    );
}

#[test]
fn missing_king() {
    assert_eq!(
        position_error("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"),
        PositionError::KingCount {
            color: Color::Black,
            found: 0
        }
    );
    assert_eq!(
        position_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1"),
        PositionError::KingCount {
            color: Color::White,
            found: 0
        }
    );
    assert!(matches!(
        position_error("8/8/8/8/8/8/8/8 w - - 0 1"),
        PositionError::KingCount { found: 0, .. }
    ));
}

#[test]
fn side_not_to_move_in_check() {
    assert_eq!(
        position_error("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1"),
        PositionError::OpponentInCheck
    );
    // Kings touching: each attacks the other.
    assert_eq!(
        position_error("8/8/8/8/8/8/8/3Kk3 w - - 0 1"),
        PositionError::OpponentInCheck
    );
    // The same placement with the checked side to move is fine.
    let mut p = pos(&normal(), "4k3/8/8/8/8/8/4R3/4K3 b - - 0 1");
    assert!(p.in_check());
    assert_eq!(moves(&mut p), set("e8d7 e8d8 e8f7 e8f8"));
}

#[test]
fn pieces_on_the_promotion_rank() {
    assert_eq!(
        position_error("P3k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        PositionError::UnpromotedPiece('P')
    );
    assert_eq!(
        position_error("4k3/8/8/8/8/8/8/p3K3 b - - 0 1"),
        PositionError::UnpromotedPiece('p')
    );
    assert!(matches!(
        setup_in(
            &builtin("wildcastle"),
            "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        ),
        Err(Some(PositionError::UnpromotedPiece('P')))
    ));
    // A black pawn on rank 8 is merely unusual (it stands on its own back rank), not unpromoted.
    assert!(setup_in(&normal(), "4k2p/8/8/8/8/8/8/4K3 b - - 0 1").is_ok());
}

// ----- castling field -----

#[test]
fn bad_castling_letters() {
    // Letters that name nothing are the FEN reader's to refuse.
    for field in ["KQkz", "KQk1", "X", "KQ-"] {
        let text = format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w {field} - 0 1");
        assert!(fen::parse_fen(&text, Coords::Human).is_err(), "{text}");
    }
    // File letters off the board or on the king's file are the position's.
    for (field, file) in [("KQkI", 8), ("KQkE", 4)] {
        let text = format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w {field} - 0 1");
        let setup = fen::parse_fen(&text, Coords::Human).unwrap();
        let right = CastlingRight {
            color: Color::White,
            rook: CastlingRook::File(file),
        };
        assert_eq!(
            Position::from_setup(&normal(), &setup).map(|_| ()),
            Err(PositionError::BadCastling(right)),
            "{text}"
        );
    }
}

#[test]
fn shredder_and_x_fen_castling_letters_equal_kqkq() {
    let v = normal();
    for (kqkq, files) in [
        (START, "HAha"),
        (START, "AHah"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "HAha"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1", "Ha"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w Qk - 0 1", "Ah"),
        ("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R w KQkq - 0 1", "HAha"),
    ] {
        let (a_text, b_text) = (
            kqkq.to_string(),
            kqkq.replacen(kqkq.split(' ').nth(2).unwrap(), files, 1),
        );
        let vv = if kqkq.contains("R2K3R") {
            builtin("wildcastle")
        } else {
            Arc::clone(&v)
        };
        let mut a = pos(&vv, &a_text);
        let mut b = pos(&vv, &b_text);
        assert_eq!(moves(&mut a), moves(&mut b), "{b_text}");
        assert_eq!(a.hash(), b.hash(), "{b_text}");
        assert_eq!(a.castling_rights(), b.castling_rights(), "{b_text}");
        assert_eq!(fen_of(&b), a_text, "X-FEN writes K/Q/k/q for outermost rooks");
    }
    // The castling really is there: e1g1 and e1c1 in the HAha version.
    let mut p = pos(&v, "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
    let m = moves(&mut p);
    assert!(m.contains("e1g1") && m.contains("e1c1"));
}

#[test]
fn castling_rights_without_their_rook_are_dropped() {
    // python-chess drops these rights as well (Board.clean_castling_rights).
    let mut p = pos(&normal(), "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1");
    assert_eq!(fen_of(&p), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(p.castling_rights(), 0);
    assert_eq!(moves(&mut p), set("e1d1 e1d2 e1e2 e1f1 e1f2"));
    let p = pos(&normal(), "r3k3/8/8/8/8/8/8/4K2R w KQkq - 0 1");
    assert_eq!(fen_of(&p), "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1");
}

/// No castling rights for a king that is not on its first rank (src/core/position.rs
/// `set_castling`): with them the generator would castle along the king's current rank (e4g4
/// with the rook h4 going to f4). FIDE 3.8.2: castling is along the player's first rank. python-chess drops the
/// right and gives these 17 moves (FEN written with `-`).
#[test]
fn castling_right_for_a_king_off_its_first_rank() {
    let mut p = pos(&normal(), "4k3/8/8/8/4K2R/8/8/8 w K - 0 1");
    assert_eq!(
        moves(&mut p),
        set("e4d3 e4d4 e4d5 e4e3 e4e5 e4f3 e4f4 e4f5 h4f4 h4g4 h4h1 h4h2 h4h3 h4h5 h4h6 h4h7 h4h8"),
        "no castling e4g4 from the fourth rank"
    );
    let mut q = pos(&normal(), "4k3/8/8/8/8/8/4K2R/8 w K - 0 1");
    assert!(!moves(&mut q).contains("e2g2"), "no castling e2g2 from the second rank");
    // Black king on rank 1 with a `k` right.
    let mut r = pos(&builtin("wildcastle"), "4K3/8/8/8/8/8/8/4k2r b k - 0 1");
    assert!(
        !moves(&mut r).contains("e1g1"),
        "no black castling on White's first rank"
    );
}

/// Castling rights depend on the king's file (same place). In `normal` (FIDE) the
/// king castles only from e1/e8: python-chess drops `K` for a king on f1 (13 moves: no f1h1) and
/// `KQ` for a king on d1 (24 moves: no d1f1/d1b1). In `wildcastle` castling is from the d- or
/// e-file only (wildcastle.md 3.3 and A-1; XBoard's GenLegal loops over those two files), so a
/// king on b1 or c1 must not castle (b1d1, c1a1, c1e1 are no castlings).
#[test]
fn castling_right_for_a_king_off_its_castling_file() {
    let mut p = pos(&normal(), "4k3/8/8/8/8/8/8/5K1R w K - 0 1");
    assert_eq!(
        moves(&mut p),
        set("f1e1 f1e2 f1f2 f1g1 f1g2 h1g1 h1h2 h1h3 h1h4 h1h5 h1h6 h1h7 h1h8"),
        "normal: no castling from f1"
    );
    let mut p = pos(&normal(), "4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1");
    let m = moves(&mut p);
    assert_eq!(m.len(), 24, "normal: no castling from d1, got {m:?}");
    let wc = builtin("wildcastle");
    let mut b = pos(&wc, "4k3/8/8/8/8/8/8/RK5R w KQ - 0 1");
    assert!(!moves(&mut b).contains("b1d1"), "wildcastle: no castling from b1");
    let mut c = pos(&wc, "4k3/8/8/8/8/8/8/R1K4R w KQ - 0 1");
    let m = moves(&mut c);
    assert!(
        !m.contains("c1a1") && !m.contains("c1e1"),
        "wildcastle: no castling from c1: {m:?}"
    );
}

// ----- en-passant field -----

#[test]
fn en_passant_field() {
    let v = normal();
    // A real e.p. chance is kept and playable.
    let text = "rnbqkbnr/ppp1pppp/8/8/2Pp4/8/PP1PPPPP/RNBQKBNR b KQkq c3 0 2";
    let mut p = pos(&v, text);
    assert_eq!(fen_of(&p), text);
    assert!(moves(&mut p).contains("d4c3"));
    // The same without the field: no e.p.
    let mut q = pos(&v, &text.replace(" c3 ", " - "));
    assert!(!moves(&mut q).contains("d4c3"));
    assert_ne!(p.hash(), q.hash(), "the e.p. right is part of the hash");
    // A square no pawn can take on is dropped, as python-chess's FEN does ("legal" e.p. only).
    let p = pos(&v, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_eq!(fen_of(&p), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    // Malformed squares are parse errors.
    for ep in ["e9", "i3", "e", "3e", "e33", "E3", "e0"] {
        let bad = format!("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq {ep} 0 1");
        assert!(fen::parse_fen(&bad, Coords::Human).is_err(), "{bad}");
    }
}

/// The e.p. square is checked against the rank a double step skips (rank 6 with White to move, 3
/// with Black; src/core/position.rs `set_ep_from_fen`). With White to move, `e6` or
/// `e4` and a black pawn on e3 must not give White the impossible "en-passant" capture d3xe4 that removes
/// the pawn on e3. python-chess ignores the field: 4 moves d3d4 e1d1 e1e2 e1f1, FEN with `-`.
/// (Rejecting the FEN with a PositionError would be fine too.)
#[test]
fn en_passant_square_on_the_wrong_rank() {
    for ep in ["e6", "e4"] {
        let text = format!("4k3/8/8/8/8/3Pp3/8/4K3 w - {ep} 0 1");
        match setup_in(&normal(), &text) {
            Err(Some(_)) => {}
            Err(None) => panic!("{text}: parse error"),
            Ok(mut p) => {
                assert_eq!(moves(&mut p), set("d3d4 e1d1 e1e2 e1f1"), "{text}");
                assert_eq!(fen_of(&p), "4k3/8/8/8/8/3Pp3/8/4K3 w - - 0 1", "{text}");
            }
        }
    }
}

// ----- holdings -----

#[test]
fn holdings_in_a_variant_without_drops() {
    // Empty holdings (`[]`, `[-]`, with or without a space) are accepted and mean nothing;
    // FEN output of a drop-less variant has no brackets.
    let v = normal();
    let plain = pos(&v, START);
    for text in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-] w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR [-] w KQkq - 0 1",
    ] {
        let p = pos(&v, text);
        assert_eq!(fen_of(&p), START, "{text}");
        assert_eq!(p.hash(), plain.hash(), "{text}");
        assert_eq!(p.legal_moves().len(), 20);
    }
    // Pieces in hand are a clear error, not silently dropped.
    assert_eq!(
        position_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qq] w KQkq - 0 1"),
        PositionError::NotDroppable('Q')
    );
    assert_eq!(
        position_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[n] w KQkq - 0 1"),
        PositionError::NotDroppable('n')
    );
    assert_eq!(
        position_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[X] w KQkq - 0 1"),
        PositionError::UnknownPiece('X')
    );
    assert!(matches!(
        setup_in(
            &builtin("wildcastle"),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[P] w KQkq - 0 1"
        ),
        Err(Some(PositionError::NotDroppable('P')))
    ));
    // Unclosed or malformed brackets are parse errors.
    for text in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qq w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Q1] w KQkq - 0 1",
    ] {
        assert!(fen::parse_fen(text, Coords::Human).is_err(), "{text}");
    }
}

// ----- counters and garbage -----

#[test]
fn move_counters() {
    let v = normal();
    // Counters may be omitted (EPD style): 0 and 1.
    let p = pos(&v, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
    assert_eq!(fen_of(&p), START);
    let p = pos(&v, "4k3/8/8/8/8/8/8/4K3 b - - 17 42");
    assert_eq!((p.halfmove_clock(), p.fullmove_number()), (17, 42));
    assert_eq!(fen_of(&p), "4k3/8/8/8/8/8/8/4K3 b - - 17 42");
    // Numbers beyond u32 are errors, not panics or wrap-arounds.
    for text in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999999999999 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999999",
        "rnbqkbnr/pppppppp/99999999999999999999/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/18446744073709551616/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
    ] {
        assert!(fen::parse_fen(text, Coords::Human).is_err(), "{text}");
    }
    // u32-sized counters are accepted and kept exactly.
    let p = pos(
        &v,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4294967295 4294967295",
    );
    assert_eq!((p.halfmove_clock(), p.fullmove_number()), (u32::MAX, u32::MAX));
}

#[test]
fn garbage_and_empty_strings_are_errors() {
    for text in [
        "",
        " ",
        "hello world",
        "////////",
        "8/8/8/8/8/8/8/8",
        "rnbqkbnr",
        START.split(' ').next().unwrap(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - a b",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw\tKQkq\t-\t0\t1\u{0}",
        "🙂/8/8/8/8/8/8/8 w - - 0 1",
        "\u{0}\u{1}\u{2}",
        "[]",
    ] {
        assert!(fen::parse_fen(text, Coords::Human).is_err(), "{text:?} parsed");
    }
    // These parse (an empty board field reads as one empty rank) but are no position.
    for text in ["[Q] w - - 0 1", " w - - 0 1", "/ w - - 0 1", "[-] b - - 0 1"] {
        for v in [normal(), builtin("wildcastle")] {
            assert!(
                matches!(
                    setup_in(&v, text),
                    Err(Some(PositionError::BoardSize { .. })) | Err(None)
                ),
                "{text:?}"
            );
        }
    }
}

/// Mutated FENs (deterministic): parsing, validating and, when valid, generating moves, writing
/// the FEN and reading it back never panic.
#[test]
fn mutated_fens_never_panic() {
    let seeds = [
        START,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1pppp/8/8/2Pp4/8/PP1PPPPP/RNBQKBNR b KQkq c3 0 2",
        "r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R[-] w HAha - 0 1",
        "7k/P7/8/8/8/8/8/K7 w - - 0 1",
    ];
    let alphabet: Vec<char> = "0123456789/ []-~kqrbnpKQRBNPwWhHaAzZ9é".chars().collect();
    let variants = [normal(), builtin("wildcastle")];
    let mut rng = XorShift::new(0x2545_F491_4F6C_DD1D);
    let mut panics = Vec::new();
    let mut valid = 0;
    for i in 0..4000 {
        let base: Vec<char> = seeds[i % seeds.len()].chars().collect();
        let mut s = base.clone();
        for _ in 0..1 + rng.next() % 3 {
            let at = (rng.next() as usize) % (s.len() + 1);
            let c = alphabet[(rng.next() as usize) % alphabet.len()];
            match rng.next() % 3 {
                0 if at < s.len() => s[at] = c,
                1 if at < s.len() => {
                    s.remove(at);
                }
                _ => s.insert(at, c),
            }
        }
        let text: String = s.into_iter().collect();
        let v = &variants[i % 2];
        let r = catch_unwind(AssertUnwindSafe(|| {
            let Ok(setup) = fen::parse_fen(&text, Coords::Human) else {
                return false;
            };
            let Ok(mut p) = Position::from_setup(v, &setup) else {
                return false;
            };
            let list = p.legal_moves();
            for m in list.iter() {
                let _ = canonical(&p, m);
                p.make(*m);
                p.unmake();
            }
            let out = fen_of(&p);
            let again = fen::parse_fen(&out, Coords::Human).expect("own FEN parses");
            let q = Position::from_setup(v, &again).expect("own FEN is valid");
            assert_eq!(fen_of(&q), out);
            let _ = p.outcome();
            true
        }));
        match r {
            Ok(true) => valid += 1,
            Ok(false) => {}
            Err(_) => panics.push(format!("{} {text:?}", v.name)),
        }
    }
    eprintln!("{valid} of 4000 mutated FENs were valid positions");
    assert!(panics.is_empty(), "panics on:\n{}", panics.join("\n"));
    assert!(
        valid >= 100,
        "only {valid} mutated FENs were valid: the test exercises too little"
    );
}

/// Random placements with random castling, e.p. and counter fields (deterministic): no panic; for
/// every valid one, make/unmake of each legal move restores FEN and hash, the incremental hash
/// equals the recomputed one, and the FEN round-trips.
#[test]
fn random_positions_never_panic_and_round_trip() {
    let variants = [normal(), builtin("wildcastle")];
    let pieces: Vec<char> = "QRRBBNNPPPPqrrbbnnpppp".chars().collect();
    let castlings = [
        "-", "KQkq", "KQ", "kq", "Kq", "HAha", "BGbg", "Hh", "Qk", "CFcf", "DEde",
    ];
    let mut rng = XorShift::new(0x9E37_79B9_7F4A_7C15);
    let mut valid = 0;
    let mut failures = Vec::new();
    for i in 0..3000 {
        let mut board = [['.'; 8]; 8];
        let mut put = |c: char, rng: &mut XorShift| loop {
            let (f, r) = ((rng.next() % 8) as usize, (rng.next() % 8) as usize);
            if board[r][f] == '.' {
                board[r][f] = c;
                break;
            }
        };
        put('K', &mut rng);
        put('k', &mut rng);
        for _ in 0..rng.next() % 14 {
            put(pieces[(rng.next() as usize) % pieces.len()], &mut rng);
        }
        let placement: Vec<String> = board
            .iter()
            .map(|row| {
                let s: String = row.iter().collect();
                let mut out = String::new();
                let mut run = 0;
                for c in s.chars() {
                    if c == '.' {
                        run += 1;
                    } else {
                        if run > 0 {
                            out.push_str(&run.to_string());
                            run = 0;
                        }
                        out.push(c);
                    }
                }
                if run > 0 {
                    out.push_str(&run.to_string());
                }
                out
            })
            .collect();
        let side = if rng.next().is_multiple_of(2) { "w" } else { "b" };
        let castling = castlings[(rng.next() as usize) % castlings.len()];
        let ep = if rng.next().is_multiple_of(3) {
            format!("{}{}", (b'a' + (rng.next() % 8) as u8) as char, 1 + rng.next() % 8)
        } else {
            "-".to_string()
        };
        let text = format!(
            "{} {side} {castling} {ep} {} {}",
            placement.join("/"),
            rng.next() % 120,
            1 + rng.next() % 200
        );
        let v = &variants[i % 2];
        let r = catch_unwind(AssertUnwindSafe(|| {
            let setup = fen::parse_fen(&text, Coords::Human).expect("generated FENs are well-formed");
            let Ok(mut p) = Position::from_setup(v, &setup) else {
                return Ok(false);
            };
            let here = fen_of(&p);
            let hash = p.hash();
            if hash != p.recomputed_hash() {
                return Err(format!("hash differs from recomputed in {here}"));
            }
            let back = fen::parse_fen(&here, Coords::Human).expect("own FEN parses");
            let q = Position::from_setup(v, &back).expect("own FEN is valid");
            if fen_of(&q) != here || q.hash() != hash {
                return Err(format!("FEN round trip of {here} gave {}", fen_of(&q)));
            }
            let list = p.legal_moves();
            for m in list.iter() {
                let t = canonical(&p, m);
                p.make(*m);
                let ok = p.hash() == p.recomputed_hash();
                p.unmake();
                if !ok {
                    return Err(format!("hash after {t} in {here}"));
                }
                if fen_of(&p) != here || p.hash() != hash {
                    return Err(format!("make/unmake {t} changed {here}"));
                }
            }
            let _ = p.outcome();
            Ok(true)
        }));
        match r {
            Ok(Ok(true)) => valid += 1,
            Ok(Ok(false)) => {}
            Ok(Err(msg)) => failures.push(format!("{}: {text}: {msg}", v.name)),
            Err(_) => failures.push(format!("{}: {text}: PANIC", v.name)),
        }
    }
    eprintln!("{valid} of 3000 random positions were valid");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        valid >= 600,
        "only {valid} of 3000 random positions were valid: the test exercises too little"
    );
}
