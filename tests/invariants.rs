//! Invariants along random playouts (deterministic seeds, xorshift64) in `normal`, `wildcastle`,
//! `crazyhouse`, `pillage` and a user-defined minishogi:
//! at every ply
//! - the incremental hash equals `recomputed_hash()`, the pawn hash `recomputed_pawn_hash()`;
//! - the FEN round-trips (to_fen -> parse_fen -> from_setup -> to_fen), with the same hash;
//! - every legal move's canonical (and wire) text parses back to the same move;
//! - make/unmake of every legal move restores FEN, hash and pawn hash exactly, and `unmake` returns
//!   the move;
//! - after a legal move the side that moved is not in check; every pseudo-legal non-castling move
//!   the generator rejects does leave the mover's king attacked;
//! - a position without legal moves is over (`outcome()`), and checkmate iff in check.
//!
//! At the end the whole line is taken back to the start FEN.

mod common;

use std::sync::Arc;

use fairybridge::core::variant::Verdict;
use fairybridge::core::{EndReason, MoveKind, MoveList, Position, Variant};
use fairybridge::notation::movetext::canonical;
use fairybridge::notation::{Coords, fen};
use fairybridge::variants::shuffle::random_start;

use common::{XorShift, builtin, fen_of, move_texts, position};

/// Checks every invariant of one position; returns its legal moves.
fn check_position(p: &mut Position, ctx: &str) -> MoveList {
    let here = fen_of(p);
    let hash = p.hash();
    assert_eq!(
        hash,
        p.recomputed_hash(),
        "{ctx}: incremental hash differs from recomputed, {here}"
    );
    let pawn_hash = p.pawn_hash();
    assert_eq!(
        pawn_hash,
        p.recomputed_pawn_hash(),
        "{ctx}: incremental pawn hash, {here}"
    );

    // FEN round trip.
    let setup = fen::parse_fen(&here, Coords::Human).unwrap_or_else(|e| panic!("{ctx}: own FEN unreadable: {e}"));
    let again = Position::from_setup(p.variant(), &setup).unwrap_or_else(|e| panic!("{ctx}: own FEN {here}: {e}"));
    assert_eq!(fen_of(&again), here, "{ctx}: FEN round trip");
    assert_eq!(
        again.hash(),
        hash,
        "{ctx}: position from own FEN hashes differently, {here}"
    );

    let legal = p.legal_moves();
    let mover = p.side_to_move();
    for mv in legal.iter() {
        let (text, _) = move_texts(p, mv, ctx);

        p.make(*mv);
        assert!(
            !p.king_attacked(mover),
            "{ctx}: after legal {text} the mover is in check, {here}"
        );
        assert_eq!(p.hash(), p.recomputed_hash(), "{ctx}: hash after {text} from {here}");
        assert_eq!(
            p.pawn_hash(),
            p.recomputed_pawn_hash(),
            "{ctx}: pawn hash after {text} from {here}"
        );
        assert_ne!(p.side_to_move(), mover);
        assert_eq!(p.unmake(), Some(*mv), "{ctx}: unmake returned another move");
        assert_eq!(fen_of(p), here, "{ctx}: make/unmake {text} changed the FEN");
        assert_eq!(p.hash(), hash, "{ctx}: make/unmake {text} changed the hash, {here}");
        assert_eq!(
            p.pawn_hash(),
            pawn_hash,
            "{ctx}: make/unmake {text} changed the pawn hash, {here}"
        );
    }

    // The legality filter rejects only moves that really leave the king attacked.
    let mut pseudo = MoveList::new();
    p.generate_pseudo(&mut pseudo);
    for mv in pseudo.iter() {
        if legal.iter().any(|m| m == mv) {
            continue;
        }
        if mv.kind() == MoveKind::Castle {
            continue; // rejected for a transit square: covered by the castling tests and perft
        }
        let text = canonical(p, mv);
        p.make(*mv);
        let attacked = p.king_attacked(mover);
        p.unmake();
        assert!(
            attacked,
            "{ctx}: pseudo-legal {text} rejected though the king is safe, {here}"
        );
    }

    if legal.is_empty() {
        let o = p
            .outcome()
            .unwrap_or_else(|| panic!("{ctx}: no legal move but no outcome, {here}"));
        if p.in_check() && p.mated_by_forbidden_drop() {
            assert_eq!(
                (o.reason, o.winner),
                (EndReason::DropMate, Some(mover)),
                "{ctx}: {here}"
            );
        } else if p.in_check() {
            assert_eq!(
                (o.reason, o.winner),
                (EndReason::Checkmate, Some(mover.opposite())),
                "{ctx}: {here}"
            );
        } else {
            let winner = match p.variant().rules.stalemate {
                Verdict::Draw => None,
                Verdict::Loss => Some(mover.opposite()),
                Verdict::Win => Some(mover),
            };
            assert_eq!((o.reason, o.winner), (EndReason::Stalemate, winner), "{ctx}: {here}");
        }
    }
    legal
}

fn playout(v: &Arc<Variant>, start: &str, seed: u64, max_plies: usize) {
    let mut p = position(v, start);
    let mut rng = XorShift::new(seed);
    let mut line = Vec::new();
    for ply in 0..max_plies {
        let ctx = format!("{} seed {seed} ply {ply} from {start}", v.name);
        let legal = check_position(&mut p, &ctx);
        if legal.is_empty() || p.outcome().is_some() {
            break;
        }
        let mv = legal.0[rng.below(legal.len())];
        line.push(canonical(&p, &mv));
        p.make(mv);
    }
    assert_eq!(p.plies_played(), line.len());
    while p.unmake().is_some() {}
    assert_eq!(fen_of(&p), start.trim(), "{} seed {seed}: taking back {line:?}", v.name);
}

const NORMAL_STARTS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];

const WILDCASTLE_STARTS: [&str; 6] = [
    "rbbqknnr/pppppppp/8/8/8/8/PPPPPPPP/RBBQKNNR w KQkq - 0 1",
    "r2k3r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R w KQkq - 0 1",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R w KQkq - 0 1",
    "r2k3r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R2K3R w KQkq - 0 1",
    "rbbqknnr/ppp1pppp/8/8/2Pp4/8/PP1PPPPP/RBBQKNNR b KQkq c3 0 2",
    "r2k3r/1P4P1/8/8/8/8/1p4p1/R2K3R w KQkq - 0 1",
];

/// Crazyhouse: captures fill the hands, promoted pawns (`Q~`) return to hand as pawns.
const CRAZYHOUSE_STARTS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-] w KQkq - 0 1",
    "r1b1k2r/1P3ppp/8/8/8/8/5PPP/4K2R[NBRQnbrq] w Kkq - 0 1",
    "4k3/1Q~6/8/8/8/8/6q~1/4K3[RRrr] w - - 0 1",
    "r2q1rk1/ppp2ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPP2PPP/R2Q1RK1[PPpp] w - - 0 9",
];

#[test]
fn playouts_crazyhouse() {
    let v = builtin("crazyhouse");
    for (i, start) in CRAZYHOUSE_STARTS.iter().enumerate() {
        for seed in 0..3 {
            playout(&v, start, 7000 + 100 * i as u64 + seed, 120);
        }
    }
}

/// Minishogi (the example user file): hands, `+P`-style promoted pieces, optional promotion, nifu.
const MINISHOGI_STARTS: [&str; 3] = [
    "rbsgk/4p/5/P4/KGSBR[-] w - - 0 1",
    "+Rbsgk/4p/5/P2+b1/KGS2[Rr] b - - 0 1",
    "4k/5/5/5/K4[PSGBRpsgbr] w - - 0 1",
];

#[test]
fn playouts_minishogi() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/variants/examples/minishogi.toml");
    let mut registry = fairybridge::protocol::builtin_games();
    let v = registry.load_file(&path).expect("minishogi example loads");
    for (i, start) in MINISHOGI_STARTS.iter().enumerate() {
        for seed in 0..3 {
            playout(&v, start, 9000 + 100 * i as u64 + seed, 150);
        }
    }
}

/// Pillage: cannons, vaos, super pawns, fast pawns' double steps from any rank, two-leg castling.
const PILLAGE_STARTS: [&str; 2] = [
    "cv6vc/srnbqkbnrs/pppppppppp/10/10/10/10/PPPPPPPPPP/SRNBQKBNRS/CV6VC w KQkq - 0 1",
    "5k4/10/10/10/10/10/10/10/1R3K2R1/CV6VC w KQ - 0 1",
];

#[test]
fn playouts_pillage() {
    let v = builtin("pillage");
    for (i, start) in PILLAGE_STARTS.iter().enumerate() {
        for seed in 0..3 {
            playout(&v, start, 5000 + 100 * i as u64 + seed, 120);
        }
    }
}

#[test]
fn playouts_normal() {
    let v = builtin("normal");
    for (i, start) in NORMAL_STARTS.iter().enumerate() {
        for seed in 0..4 {
            playout(&v, start, 1000 * i as u64 + seed, 160);
        }
    }
}

#[test]
fn playouts_wildcastle_fixed_positions() {
    let v = builtin("wildcastle");
    for (i, start) in WILDCASTLE_STARTS.iter().enumerate() {
        for seed in 0..4 {
            playout(&v, start, 7000 + 1000 * i as u64 + seed, 160);
        }
    }
}

#[test]
fn playouts_wildcastle_random_starts() {
    let v = builtin("wildcastle");
    for seed in 0..12u64 {
        let start = random_start(&v, seed);
        playout(&v, &start, seed, 200);
    }
}

#[test]
fn check_position_sees_castling_and_en_passant() {
    // The invariant walk must actually meet the special moves: count them over the fixed starts.
    let v = builtin("wildcastle");
    let mut castles = 0;
    let mut eps = 0;
    let mut promos = 0;
    for start in WILDCASTLE_STARTS {
        let mut p = position(&v, start);
        for mv in check_position(&mut p, start).iter() {
            match mv.kind() {
                MoveKind::Castle => castles += 1,
                MoveKind::EnPassant => eps += 1,
                _ if mv.promotion().is_some() => promos += 1,
                _ => {}
            }
        }
    }
    // Castlings: T4 2, mixed files 2, Kiwipete-d 2; none in the last position (b2 attacks c1, g2
    // attacks f1). T7: one e.p. Promotions: b7b8, b7xa8, g7g8, g7xh8, 4 choices each = 16.
    // (Counted independently with tests/support/wildcastle_perft.py.)
    assert_eq!((castles, eps, promos), (6, 1, 16));
}
