//! Tests of the evaluation's terms one by one: each fires where it should, with the sign it
//! should, for both colours.

use super::*;

use crate::search::eval_params::KindParams;
use crate::test_fixtures;
use crate::variants::{DefinitionSource, Registry, parse_definition};

/// The evaluation of `fen_text` in `variant` with the default weights changed by `change`.
fn eval_with(variant: &str, fen_text: &str, change: impl FnOnce(&mut EvalParams)) -> i32 {
    let v = Registry::builtin().get(variant).expect("a built-in variant");
    let p = test_fixtures::position_of(&v, fen_text);
    let mut params = EvalParams::defaults(&v);
    change(&mut params);
    evaluate(&p, &EvalTables::with_params(&v, params))
}

/// What raising one term by 100 (mg and eg) adds to the evaluation of `fen_text`.
fn effect(variant: &str, fen_text: &str, term: impl Fn(&mut EvalParams) -> &mut S) -> i32 {
    let base = eval_with(variant, fen_text, |_| {});
    let raised = eval_with(variant, fen_text, |p| *term(p) += s(100, 100));
    raised - base
}

/// The knight's `i`-th weight of placement in the list `list` picks (`rank` or `file`).
fn knight_place(list: fn(&mut KindParams) -> &mut Vec<S>, i: usize) -> impl Fn(&mut EvalParams) -> &mut S {
    move |p| {
        let k = p.kind_names.iter().position(|n| n == "Knight").expect("knight");
        &mut list(&mut p.kinds[k])[i]
    }
}

fn knight_rank(i: usize) -> impl Fn(&mut EvalParams) -> &mut S {
    knight_place(|k| &mut k.rank, i)
}

fn knight_file(i: usize) -> impl Fn(&mut EvalParams) -> &mut S {
    knight_place(|k| &mut k.file, i)
}

/// A piece's `rank` and `file` weights add to its placement, by owner-relative rank and by
/// file counted from the nearer edge, for either side.
#[test]
fn a_piece_s_rank_and_file_weights_place_it() {
    // A White knight on d5: fifth rank, fourth file from the edge.
    let white = "4k3/pp6/8/3N4/8/8/PP6/4K3 w - - 0 1";
    assert_eq!(effect("normal", white, knight_rank(4)), 100);
    assert_eq!(effect("normal", white, knight_rank(3)), 0);
    assert_eq!(effect("normal", white, knight_file(3)), 100);
    assert_eq!(effect("normal", white, knight_file(0)), 0);
    // A Black knight on e4: its fifth rank, the fourth file from the h edge.
    let black = "4k3/pp6/8/8/4n3/8/PP6/4K3 w - - 0 1";
    assert_eq!(effect("normal", black, knight_rank(4)), -100);
    assert_eq!(effect("normal", black, knight_rank(3)), 0);
    assert_eq!(effect("normal", black, knight_file(3)), -100);
    // One weight a rank, one a file up to the middle.
    let v = Registry::builtin().get("normal").expect("normal");
    let params = EvalParams::defaults(&v);
    assert!(params.kinds.iter().all(|k| k.rank.len() == 8 && k.file.len() == 4));
}

fn knight_square(i: usize) -> impl Fn(&mut EvalParams) -> &mut S {
    knight_place(|k| &mut k.square, i)
}

/// A piece's `square` weights are a piece-square table as its owner sees the board: rank by
/// rank from the owner's first, files from a (not mirrored left to right).
#[test]
fn a_piece_s_square_weights_place_it() {
    // A White knight on d5: its fifth rank (index 4), file d (3): 4 * 8 + 3.
    let white = "4k3/pp6/8/3N4/8/8/PP6/4K3 w - - 0 1";
    assert_eq!(effect("normal", white, knight_square(35)), 100);
    assert_eq!(effect("normal", white, knight_square(36)), 0);
    assert_eq!(effect("normal", white, knight_square(27)), 0);
    // A Black knight on e4: its fifth rank, file e (4), so 4 * 8 + 4, not d's 35.
    let black = "4k3/pp6/8/8/4n3/8/PP6/4K3 w - - 0 1";
    assert_eq!(effect("normal", black, knight_square(36)), -100);
    assert_eq!(effect("normal", black, knight_square(35)), 0);
    assert_eq!(effect("normal", black, knight_square(28)), 0);
    let v = Registry::builtin().get("normal").expect("normal");
    let params = EvalParams::defaults(&v);
    assert!(params.kinds.iter().all(|k| k.square.len() == 64));
}

fn knight_moves(i: usize) -> impl Fn(&mut EvalParams) -> &mut S {
    knight_place(|k| &mut k.moves, i)
}

/// A piece's `moves` weights score its count of safe moves: one entry a count, from none to
/// the most it has on an empty board, the last for any count beyond.
#[test]
fn a_piece_s_moves_weights_score_its_count_of_safe_moves() {
    // The knight on d5 reaches eight squares; b6 is a7's pawn's: seven are safe.
    let white = "4k3/pp6/8/3N4/8/8/PP6/4K3 w - - 0 1";
    assert_eq!(effect("normal", white, knight_moves(7)), 100);
    assert_eq!(effect("normal", white, knight_moves(8)), 0);
    assert_eq!(effect("normal", white, knight_moves(6)), 0);
    // Black's knight in the corner: two (with pawns, so that no drawish scaling applies).
    let black = "n3k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1";
    assert_eq!(effect("normal", black, knight_moves(2)), -100);
    assert_eq!(effect("normal", black, knight_moves(7)), 0);
    let v = Registry::builtin().get("normal").expect("normal");
    let params = EvalParams::defaults(&v);
    let lens: Vec<usize> = params.kinds.iter().map(|k| k.moves.len()).collect();
    // Pawn, knight, bishop, rook, queen, king: the most moves on an empty board, and one.
    assert_eq!(lens, [5, 9, 14, 15, 28, 9], "{:?}", params.kind_names);
    assert_eq!(super::tables::by_count(&[s(1, 1), s(2, 2)], 5), s(2, 2));
    assert_eq!(super::tables::by_count(&[s(1, 1), s(2, 2)], -1), s(1, 1));
}

/// The position with colours exchanged: ranks mirrored, letters' case swapped (hands too),
/// the other side to move; no castling or en-passant rights.
fn flipped(fen_text: &str) -> String {
    let fields: Vec<&str> = fen_text.split_whitespace().collect();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let (board, hand) = match fields[0].find('[') {
        Some(i) => fields[0].split_at(i),
        None => (fields[0], ""),
    };
    let board: Vec<String> = board.split('/').rev().map(|r| r.chars().map(swap).collect()).collect();
    let hand: String = hand.chars().map(swap).collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    format!("{}{hand} {side} - - 0 1", board.join("/"))
}

/// The first four fields of an EPD line, with no castling or en-passant rights.
fn plain(epd: &str) -> String {
    let fields: Vec<&str> = epd.split_whitespace().collect();
    format!("{} {} - - 0 1", fields[0], fields[1])
}

#[test]
fn threats_fire_with_the_right_sign() {
    // Pawns on both sides in each position: a pawnless small edge is scaled down.
    type Term = fn(&mut EvalParams) -> &mut S;
    let pawn: Term = |p| &mut p.threat_pawn;
    let lesser: Term = |p| &mut p.threat_lesser;
    let hanging: Term = |p| &mut p.hanging;
    // A white pawn attacks a black knight defended by a pawn: a pawn threat, not hanging.
    let fen_text = "4k3/8/2p5/3n4/4P3/8/8/R3K3 w - - 0 1";
    assert_eq!(effect("normal", fen_text, pawn), 100);
    assert_eq!(effect("normal", fen_text, hanging), 0);
    assert_eq!(effect("normal", fen_text, lesser), 0);
    // The same for Black to move: the threat is the opponent's.
    assert_eq!(effect("normal", &fen_text.replace(" w ", " b "), pawn), -100);
    // A white knight attacks a black rook defended by the king: a threat by a lesser piece.
    let fen_text = "4k3/pp2r3/8/3N4/8/8/PP6/4K3 w - - 0 1";
    assert_eq!(effect("normal", fen_text, lesser), 100);
    assert_eq!(effect("normal", fen_text, hanging), 0);
    // A black bishop attacks an undefended white knight: hanging, no lesser threat (equal value
    // is not less); for White to move that is Black's.
    let fen_text = "4k3/pp6/8/8/3b4/8/1N4PP/4K3 w - - 0 1";
    assert_eq!(effect("normal", fen_text, hanging), -100);
    assert_eq!(effect("normal", fen_text, lesser), 0);
    // Kings are never threatened pieces (a check is no threat), but they do attack: the
    // checking rook next to the white king is hanging.
    assert_eq!(effect("normal", "4k3/pp6/8/8/8/8/6PP/3rK3 w - - 0 1", hanging), 100);
    // Pillage (10x10): a pawn attacking a rook.
    let fen_text = "4k5/10/10/10/4r5/5P4/10/10/10/5K4 w - - 0 1";
    assert_eq!(effect("pillage", fen_text, pawn), 100);
}

#[test]
fn a_detonator_threatens_its_neighbours() {
    type Term = fn(&mut EvalParams) -> &mut S;
    let lesser: Term = |p| &mut p.threat_lesser;
    let hanging: Term = |p| &mut p.hanging;
    // A white Detonator next to an undefended black bishop (which does not attack it back): the
    // bishop hangs; worth less than the Detonator, it is no lesser-piece threat.
    let fen_text = "5k4/2pp6/10/10/10/4b5/4X5/10/2PP6/5K4[-] w - - 0 1";
    assert_eq!(effect("wreckage", fen_text, hanging), 100);
    assert_eq!(effect("wreckage", fen_text, lesser), 0);
    // Colours exchanged, White still to move: the threat is the opponent's.
    let mirrored = flipped(fen_text).replace(" b ", " w ");
    assert_eq!(effect("wreckage", &mirrored, hanging), -100);
    // Next to a black queen defended by a pawn, itself defended by a pawn: a threat by a lesser
    // piece, nothing hangs (the queen's attack on it is no threat either).
    let fen_text = "5k4/10/10/2p7/3p6/4q5/4X5/3P6/2P7/5K4[-] w - - 0 1";
    assert_eq!(effect("wreckage", fen_text, lesser), 100);
    assert_eq!(effect("wreckage", fen_text, hanging), 0);
    let mirrored = flipped(fen_text).replace(" b ", " w ");
    assert_eq!(effect("wreckage", &mirrored, lesser), -100);
    // Ninja pawns survive a detonation: an undefended one next to it is not attacked.
    let fen_text = "5k4/2pp6/10/10/10/4j5/4X5/10/2PP6/5K4[-] w - - 0 1";
    assert_eq!(effect("wreckage", fen_text, hanging), 0);
}

#[test]
fn dragon_and_guillotine_attacks_on_the_king_zone_make_king_danger() {
    // King danger needs two attackers of the zone: a queen or rook and the hook piece. A
    // Guillotine two squares from the king's shelter pawn (distance-2 capture); a Dragon on
    // the king's diagonal (approach onto two empty squares next to the king).
    for fen_text in [
        "5k4/4ppp3/10/5G1Q2/10/10/10/10/PP8/9K[-] w - - 0 1",
        "5k4/pp8/10/3D6/10/10/10/10/PP8/4R4K[-] w - - 0 1",
    ] {
        let base = eval_with("wreckage", fen_text, |_| {});
        let doubled = eval_with("wreckage", fen_text, |p| p.king_danger[0] *= 2);
        assert!(doubled > base, "{fen_text}: {doubled} vs {base}");
        // Black to move: the danger is still White's.
        let black = fen_text.replace(" w ", " b ");
        let base = eval_with("wreckage", &black, |_| {});
        let doubled = eval_with("wreckage", &black, |p| p.king_danger[0] *= 2);
        assert!(doubled < base, "{black}: {doubled} vs {base}");
    }
}

#[test]
fn colour_flipped_positions_evaluate_the_same() {
    let mut checked = 0;
    for variant in ["normal", "crazyhouse", "pillage", "wreckage", "wildcastle", "wildrose"] {
        let suite = match variant {
            "normal" => include_str!("../../../fixtures/openings/normal.epd"),
            "crazyhouse" => include_str!("../../../fixtures/openings/crazyhouse.epd"),
            "pillage" => include_str!("../../../fixtures/openings/pillage.epd"),
            "wreckage" => include_str!("../../../fixtures/openings/wreckage.epd"),
            "wildcastle" => include_str!("../../../fixtures/openings/wildcastle.epd"),
            _ => include_str!("../../../fixtures/openings/wildrose.epd"),
        };
        let v = Registry::builtin().get(variant).expect("a built-in variant");
        let tables = EvalTables::new(&v);
        for line in suite
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .take(40)
        {
            let fen_text = plain(line);
            let a = evaluate(&test_fixtures::position_of(&v, &fen_text), &tables);
            let b = evaluate(&test_fixtures::position_of(&v, &flipped(&fen_text)), &tables);
            assert_eq!(a, b, "{variant}: {fen_text}");
            checked += 1;
        }
    }
    assert!(checked >= 200, "{checked}");
    wreckage_hook_positions_evaluate_the_same_flipped();
    // Middlegames with threats on both sides.
    let v = Registry::builtin().get("normal").expect("normal");
    let tables = EvalTables::new(&v);
    for fen_text in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 1",
        "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b - - 0 1",
    ] {
        let a = evaluate(&test_fixtures::position_of(&v, fen_text), &tables);
        let b = evaluate(&test_fixtures::position_of(&v, &flipped(fen_text)), &tables);
        assert_eq!(a, b, "{fen_text}");
    }
}

/// Wreckage middlegames where hook pieces attack, defend and move: each evaluates the same with
/// colours exchanged, with the default weights and with the hook kinds' mobility and king-attack
/// weights raised, which must change the evaluation (the hook terms are live).
fn wreckage_hook_positions_evaluate_the_same_flipped() {
    let v = Registry::builtin().get("wreckage").expect("wreckage");
    let hook_kinds: Vec<usize> = (0..v.pieces.len()).filter(|&k| v.pieces[k].hook.is_some()).collect();
    assert_eq!(hook_kinds.len(), 3);
    let raise = |p: &mut EvalParams| {
        for &k in &hook_kinds {
            p.kinds[k].mobility += s(7, 5);
            p.kinds[k].king_attack += 3;
        }
    };
    let mut live = 0;
    for fen_text in [
        "5k4/2p1j1p3/1D1gX1r3/3Pb1J3/2g1G1x3/2dRJ1p3/3F1P4/2X2d4/10/5K4[Jj] w - - 0 1",
        "5k4/10/3pgp4/2J1D1j3/3xGX4/2r1d1R3/3PjP4/10/10/5K4[-] b - - 0 1",
        "xr3k2rd/ppp1pp1ppp/3p2p3/2X7/4G5/5d4/10/10/PPPPPPPPPP/1R3K2RD[GJJgjj] w - - 0 1",
        "1rwbqkbfr1/pppdpp1ppp/3p1x4/6p3/10/2G2D4/3X6/10/PPPPPPPPPP/1RWBQKBFR1[JJgjj] w - - 0 1",
        "5k4/4ppp3/10/5G1Q2/10/10/10/10/PP8/9K[-] w - - 0 1",
        "5k4/pp8/10/3D6/10/10/10/10/PP8/4R4K[-] b - - 0 1",
    ] {
        let a = eval_with("wreckage", fen_text, |_| {});
        let b = eval_with("wreckage", &flipped(fen_text), |_| {});
        assert_eq!(a, b, "{fen_text}");
        let raised_a = eval_with("wreckage", fen_text, raise);
        let raised_b = eval_with("wreckage", &flipped(fen_text), raise);
        assert_eq!(raised_a, raised_b, "{fen_text}, hook weights raised");
        live += usize::from(raised_a != a);
    }
    assert_eq!(live, 6, "the hook weights change every one of these evaluations");
}

/// Each side's king safety figure in `fen_text` with the trial king safety weights
/// (`set_trial_king_safety`) changed by `change`.
fn safety_with(variant: &str, fen_text: &str, change: impl FnOnce(&mut EvalParams)) -> [Option<i32>; 2] {
    let v = Registry::builtin().get(variant).expect("a built-in variant");
    let p = test_fixtures::position_of(&v, fen_text);
    let mut params = EvalParams::defaults(&v);
    params.set_trial_king_safety(&v);
    change(&mut params);
    king_safety_of(&p, &EvalTables::with_params(&v, params))
}

/// What raising the safe-check weight of the kind lettered `letter` by 100 adds to White's
/// king safety figure in `fen_text`.
fn safe_check_effect(variant: &str, fen_text: &str, letter: char) -> i32 {
    let v = Registry::builtin().get(variant).expect("a built-in variant");
    let k = v.kind_by_letter(letter).expect("a piece letter").index();
    let base = safety_with(variant, fen_text, |_| {})[0].expect("White's danger counts");
    let raised = safety_with(variant, fen_text, |p| p.kinds[k].safe_check += 100)[0].expect("counts");
    raised - base
}

#[test]
fn a_safe_check_counts_only_when_safe() {
    // The knight on d5 reaches e7 and f6, both checking squares; f6 is defended by the g7
    // pawn. The queen's attacks on f7 and h7 let the danger count.
    let open = "6k1/5ppp/8/3N3Q/8/8/5PPP/6K1 w - - 0 1";
    assert_eq!(safe_check_effect("normal", open, 'N'), 100);
    // A rook on e8 defends e7 too: no safe knight check left.
    let defended = "4r1k1/5ppp/8/3N3Q/8/8/5PPP/6K1 w - - 0 1";
    assert_eq!(safe_check_effect("normal", defended, 'N'), 0);
    // A white piece on e7 already: the knight cannot go there.
    let own = "6k1/4Bppp/8/3N3Q/8/8/5PPP/6K1 w - - 0 1";
    assert_eq!(safe_check_effect("normal", own, 'N'), 0);
    // Pillage: a cannon checks over a screen. The one on a6 slides to f6 (a quiet move: it
    // captures only by hopping), two squares behind the f8 pawn that screens the king on f9;
    // nothing of Black's defends f6.
    let cannon = "10/5k4/4pp4/10/C9/10/10/5Q4/PPPPP5/5K4 w - - 0 1";
    assert_eq!(safe_check_effect("pillage", cannon, 'C'), 100);
}

#[test]
fn a_drop_check_counts_only_when_safe_and_on_an_empty_square() {
    // Crazyhouse: a knight in White's hand could be dropped on e7, f6 or h6 to check; f6 and h6
    // are defended by the g7 pawn, e7 is not. The queen and bishop attack the king's
    // neighbourhood, so the danger counts.
    let v = Registry::builtin().get("crazyhouse").expect("crazyhouse");
    let n = v.kind_by_letter('N').expect("knight").index();
    let effect = |fen_text: &str| {
        let base = safety_with("crazyhouse", fen_text, |_| {})[0].expect("counts");
        let raised = safety_with("crazyhouse", fen_text, |p| p.kinds[n].drop_check += 100)[0].expect("counts");
        raised - base
    };
    assert_eq!(effect("6k1/5ppp/8/7Q/8/3B4/5PPP/6K1[N] w - - 0 1"), 100);
    // e7 taken by a black piece: no drop there.
    assert_eq!(effect("6k1/4nppp/8/7Q/8/3B4/5PPP/6K1[N] w - - 0 1"), 0);
    // No knight in hand: nothing.
    assert_eq!(effect("6k1/5ppp/8/7Q/8/3B4/5PPP/6K1[B] w - - 0 1"), 0);
}

#[test]
fn removing_the_attackers_queen_changes_its_safety_by_the_no_queen_term() {
    // White's knight and bishop attack f7 and h7 next to the black king. White's queen, walled
    // in on a1, attacks nothing that matters to that king; taken off, only the no-queen term
    // changes White's safety.
    let with = "6k1/5pp1/7p/6N1/2B5/8/PP6/QR4K1 w - - 0 1";
    let without = "6k1/5pp1/7p/6N1/2B5/8/PP6/1R4K1 w - - 0 1";
    for no_queen in [-48, 0, 37] {
        let change = |p: &mut EvalParams| p.king_no_queen = no_queen;
        let a = safety_with("normal", with, change)[0].expect("counts with a queen");
        let b = safety_with("normal", without, change)[0].expect("counts: two attackers");
        assert_eq!(b - a, no_queen);
    }
    // A single attacker counts only with a queen.
    let lone = "6k1/5pp1/7p/6N1/8/8/PP6/QR4K1 w - - 0 1";
    assert!(safety_with("normal", lone, |_| {})[0].is_some());
    let lone = "6k1/5pp1/7p/6N1/8/8/PP6/1R4K1 w - - 0 1";
    assert_eq!(safety_with("normal", lone, |_| {})[0], None);
}

#[test]
fn king_safety_terms_are_live_and_colour_symmetric() {
    let terms: [(&str, Raise); 8] = [
        ("safe_check", |p| p.kinds.iter_mut().for_each(|k| k.safe_check += 40)),
        ("drop_check", |p| p.kinds.iter_mut().for_each(|k| k.drop_check += 40)),
        ("king_weak_square", |p| p.king_weak_square += 20),
        ("king_no_queen", |p| p.king_no_queen -= 30),
        ("king_danger_base", |p| p.king_danger_base += 20),
        ("king_danger_eg", |p| p.king_danger_eg += 20),
        ("king_storm", |p| p.king_storm.iter_mut().for_each(|x| *x -= 10)),
        ("king_attack", |p| p.kinds.iter_mut().for_each(|k| k.king_attack += 8)),
    ];
    let every = [
        "safe_check",
        "king_weak_square",
        "king_danger_base",
        "king_danger_eg",
        "king_attack",
    ];
    let chess = [
        "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b - - 0 1",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 1",
        "6k1/5pp1/7p/6N1/2B5/8/5PPP/6K1 w - - 0 1",
        "r2q1rk1/5ppp/8/6P1/8/8/5P1P/R2Q1RK1 w - - 0 1",
        "6k1/5ppp/8/3N3Q/8/8/5PPP/6K1 b - - 0 1",
    ];
    // The terms live in one game beside those of `every`.
    let also = |variant: &str| -> &[&str] {
        match variant {
            "normal" => &["king_no_queen", "king_storm"],
            "crazyhouse" => &["drop_check"],
            _ => &[],
        }
    };
    for (variant, positions) in std::iter::once(("normal", &chess[..])).chain(OTHER_GAMES) {
        let v = Registry::builtin().get(variant).expect("a built-in variant");
        let trial = |p: &mut EvalParams| p.set_trial_king_safety(&v);
        for (name, raise) in terms {
            let raised = |p: &mut EvalParams| {
                trial(p);
                raise(p);
            };
            let mut live = 0;
            for fen_text in positions {
                let a = eval_with(variant, fen_text, raised);
                let b = eval_with(variant, &flipped(fen_text), raised);
                assert_eq!(a, b, "{variant}, {name} raised: {fen_text}");
                live += usize::from(a != eval_with(variant, fen_text, trial));
            }
            if every.contains(&name) || also(variant).contains(&name) {
                assert!(live > 0, "{variant}: {name} changes no evaluation");
            }
        }
    }
}

#[test]
fn a_definitions_eval_section_sets_the_threat_terms() {
    let v = Registry::builtin().get("normal").expect("normal");
    let section = "[eval]\nthreat_pawn = [1, 2]\nthreat_lesser = [3, 4]\nhanging = [5, 6]\n";
    let text = crate::search::eval_params::with_section(&DefinitionSource::of(&v).text, section);
    let child = parse_definition(&text, "threats.toml").expect("parses");
    let params = EvalParams::of_source(&child, DefinitionSource::of(&child)).expect("reads");
    assert_eq!(
        (params.threat_pawn, params.threat_lesser, params.hanging),
        (s(1, 2), s(3, 4), s(5, 6))
    );
}

#[test]
fn pawn_shape_terms_fire_where_they_should() {
    type Term = fn(&mut EvalParams) -> &mut S;
    // Ranks to go: a white pawn on e4 has 4, on e3 5; a black pawn on a7 has 6.
    let connected4: Term = |p| &mut p.connected[4];
    let connected5: Term = |p| &mut p.connected[5];
    let connected6: Term = |p| &mut p.connected[6];
    let backward: Term = |p| &mut p.backward;
    // d4 and e4 side by side, and so a7 and b7: all four connected.
    let fen_text = "4k3/pp6/8/8/3PP3/8/8/4K3 w - - 0 1";
    assert_eq!(effect("normal", fen_text, connected4), 200);
    assert_eq!(effect("normal", fen_text, connected6), -200);
    // e4 defended by d3 is connected; d3, neither defended nor beside a pawn, is not.
    let fen_text = "4k3/p7/8/8/4P3/3P4/8/4K3 w - - 0 1";
    assert_eq!(effect("normal", fen_text, connected4), 100);
    assert_eq!(effect("normal", fen_text, connected5), 0);
    assert_eq!(effect("normal", fen_text, backward), 0);
    // With a black pawn on e5 attacking d4, d3 is backward (its neighbour e4 is ahead of it).
    let fen_text = "4k3/8/8/4p3/4P3/3P4/8/4K3 w - - 0 1";
    assert_eq!(effect("normal", fen_text, backward), 100);
    // An isolated pawn is not backward too.
    assert_eq!(effect("normal", "4k3/8/8/4p3/8/3P4/8/4K3 w - - 0 1", backward), 0);
}

#[test]
fn a_passer_s_stop_square_decides_blocked_or_safe() {
    type Term = fn(&mut EvalParams) -> &mut S;
    // A white passer on e5 has 3 ranks to go.
    let blocked: Term = |p| &mut p.passed_blocked[3];
    let safe: Term = |p| &mut p.passed_safe[3];
    let fen_text = "4k3/p7/4n3/4P3/8/8/P7/4K3 w - - 0 1";
    assert_eq!(effect("normal", fen_text, blocked), 100);
    assert_eq!(effect("normal", fen_text, safe), 0);
    let fen_text = "4k3/p7/8/4P3/8/8/P7/4K3 w - - 0 1";
    assert_eq!(effect("normal", fen_text, blocked), 0);
    assert_eq!(effect("normal", fen_text, safe), 100);
    // The black king on e7 guards e6: neither.
    let fen_text = "8/p3k3/8/4P3/8/8/P7/4K3 w - - 0 1";
    assert_eq!(effect("normal", fen_text, blocked), 0);
    assert_eq!(effect("normal", fen_text, safe), 0);
}

#[test]
fn a_passer_s_free_path_counts_only_when_every_square_is_empty_and_safe() {
    let path: fn(&mut EvalParams) -> &mut S = |p| &mut p.passed_path[3];
    // The black king on e8 stands on the path and guards e7.
    assert_eq!(effect("normal", "4k3/p7/8/4P3/8/8/P7/4K3 w - - 0 1", path), 0);
    assert_eq!(effect("normal", "k7/p7/8/4P3/8/8/P7/4K3 w - - 0 1", path), 100);
    // A black rook on e8 blocks the end of the path.
    assert_eq!(effect("normal", "k3r3/p7/8/4P3/8/8/P7/4K3 w - - 0 1", path), 0);
}

#[test]
fn king_push_and_rammed_pawn_threats_fire_where_they_should() {
    type Term = fn(&mut EvalParams) -> &mut S;
    let king: Term = |p| &mut p.threat_king;
    let push: Term = |p| &mut p.threat_push;
    let rammed: Term = |p| &mut p.bound_rammed;
    // The white king attacks the knight on d2.
    assert_eq!(effect("normal", "4k3/pp6/8/8/8/8/3n2PP/4K3 w - - 0 1", king), 100);
    // e4-e5 would attack the knight on d6; not when a black pawn guards e5, nor a pawn on d6.
    assert_eq!(effect("normal", "4k3/pp6/3n4/8/4P3/8/6PP/4K3 w - - 0 1", push), 100);
    assert_eq!(effect("normal", "4k3/pp6/3n1p2/8/4P3/8/6PP/4K3 w - - 0 1", push), 0);
    assert_eq!(effect("normal", "4k3/pp6/3p4/8/4P3/8/6PP/4K3 w - - 0 1", push), 0);
    // d4 is rammed by d5 on a dark square: it hems in the dark-squared bishop on c1, not the
    // light-squared one on f1.
    assert_eq!(effect("normal", "4k3/pp6/8/3p4/3P4/8/6PP/2B1K3 w - - 0 1", rammed), 100);
    assert_eq!(effect("normal", "4k3/pp6/8/3p4/3P4/8/6PP/4KB2 w - - 0 1", rammed), 0);
}

#[test]
fn an_outpost_is_defended_by_a_pawn_and_out_of_the_enemy_pawns_reach() {
    let outpost: fn(&mut EvalParams) -> &mut S = |p| &mut p.kinds[1].outpost;
    // The knight on d5, defended by e4; Black's pawns on a7 and h7 can never attack it.
    assert_eq!(effect("normal", "4k3/p6p/8/3N4/4P3/8/P6P/4K3 w - - 0 1", outpost), 100);
    // A black pawn on c4 is behind it: still an outpost.
    assert_eq!(
        effect("normal", "4k3/p6p/8/3N4/2p1P3/8/P6P/4K3 w - - 0 1", outpost),
        100
    );
    // One on c7 could come to c6: no outpost; nor without the defending pawn.
    assert_eq!(effect("normal", "4k3/p1p4p/8/3N4/4P3/8/P6P/4K3 w - - 0 1", outpost), 0);
    assert_eq!(effect("normal", "4k3/p6p/8/3N4/8/4P3/P6P/4K3 w - - 0 1", outpost), 0);
    // On the enemy's second rank it is no outpost; for Black, the same square seen from its side.
    assert_eq!(effect("normal", "4k3/p2N3p/4P3/8/8/8/P6P/4K3 w - - 0 1", outpost), 0);
    assert_eq!(effect("normal", "4k3/p6p/8/4p3/3n4/8/P6P/4K3 w - - 0 1", outpost), -100);
}

#[test]
fn pawn_shape_terms_are_live_and_colour_symmetric() {
    let raise = |p: &mut EvalParams| {
        // By distance to promotion, unevenly: equal counts of unequal pawns must not cancel.
        for (i, x) in (0..).zip(&mut p.connected) {
            *x += s(9 + 5 * i, 13 + 7 * i);
        }
        for (i, x) in (0..).zip(&mut p.passed_blocked) {
            *x += s(-7 - i, -21 - 3 * i);
        }
        for (i, x) in (0..).zip(&mut p.passed_safe) {
            *x += s(11 + i, 37 - 5 * i);
        }
        for (i, x) in (0..).zip(&mut p.passed_path) {
            *x += s(3 + 2 * i, 19 + i);
        }
        p.backward += s(-17, -5);
        p.bound_rammed += s(-6, -11);
        p.threat_push += s(27, 15);
        p.threat_king += s(13, 31);
        p.kinds.iter_mut().for_each(|k| k.outpost += s(23, 7));
    };
    for (variant, fen_text) in [
        (
            "normal",
            "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b - - 0 1",
        ),
        (
            "normal",
            "r1bq1rk1/pp3ppp/2n1pn2/3p4/2PP4/2N2N2/PP3PPP/R2QKB1R w KQ - 0 1",
        ),
        ("normal", "6k1/3n1pp1/2p4p/1pPpN3/1P1P4/4P3/5PPP/6K1 w - - 0 1"),
        ("pillage", "10/5k4/4pp4/10/C9/10/10/5Q4/PPPPP5/5K4 w - - 0 1"),
        (
            "crazyhouse",
            "r1b2rk1/ppp2ppp/2n5/3p3Q/3P4/2PB1N2/PP3PPP/R3K2R[QRBNPqp] b - - 0 1",
        ),
    ] {
        let a = eval_with(variant, fen_text, raise);
        assert_eq!(
            a,
            eval_with(variant, &flipped(fen_text), raise),
            "{variant}: {fen_text}"
        );
        assert_ne!(a, eval_with(variant, fen_text, |_| {}), "{variant}: {fen_text}");
    }
}

/// The evaluation of `fen_text` in `variant` with Stockfish 11's king danger at its trial weights
/// (`EvalParams::set_trial_sf_danger`), changed further by `change`.
fn sf_eval_with(variant: &str, fen_text: &str, change: impl FnOnce(&mut EvalParams)) -> i32 {
    let v = Registry::builtin().get(variant).expect("a built-in variant");
    eval_with(variant, fen_text, |p| {
        p.set_trial_sf_danger(&v);
        change(p);
    })
}

/// What Stockfish 11's king danger adds to the evaluation of `fen_text` (trial weights; the
/// linear flank attack left out).
fn sf_danger(fen_text: &str) -> i32 {
    let with = sf_eval_with("normal", fen_text, |p| p.flank_attack = S::default());
    let without = sf_eval_with("normal", fen_text, |p| {
        p.flank_attack = S::default();
        p.kd_transform = [0; 3];
    });
    with - without
}

/// A queen and a knight brought next to the castled king raise its danger, by far more than
/// either alone, and far more than the Ethereal-style danger these weights replace did.
#[test]
fn a_queen_and_knight_near_the_castled_king_raise_the_danger() {
    // The report's probes: a QGD-like middlegame, Black's king on g8, White to move.
    let base = "r1bqnrk1/pp2bppp/2n1p3/3p4/3P4/2NBPN2/PP2QPPP/R4RK1 w - - 0 10";
    let queen = "r1bqnrk1/pp2bppp/2n1p3/3p3Q/3P4/2NBPN2/PP3PPP/R4RK1 w - - 0 10";
    let knight = "r1bqnrk1/pp2bppp/2n1p3/3p2N1/3P4/2NBP3/PP2QPPP/R4RK1 w - - 0 10";
    let both = "r1bqnrk1/pp2bppp/2n1p3/3p2NQ/3P4/2NBP3/PP3PPP/R4RK1 w - - 0 10";
    let [d0, dq, dn, dqn] = [base, queen, knight, both].map(sf_danger);
    assert!(dq > d0 + 50 && dn > d0 && dqn > dq.max(dn), "{d0} {dq} {dn} {dqn}");
    // Black's view of the same danger, colours exchanged: the same evaluation.
    for fen_text in [base, queen, knight, both] {
        let a = sf_eval_with("normal", fen_text, |_| {});
        let b = sf_eval_with("normal", &flipped(fen_text), |_| {});
        assert_eq!(a, b, "{fen_text}");
    }
}

/// Flank attack: the squares of the king's flank (files e–h for a king on g8, Black's ranks 8 to
/// 4) the enemy attacks, plus those it attacks twice, scored per unit by `flank_attack`.
#[test]
fn a_flank_attack_counts_the_flank_squares_attacked_and_those_attacked_twice() {
    fn flank(p: &mut EvalParams) -> &mut S {
        &mut p.flank_attack
    }
    // The rook on e1 attacks e4–e8 in Black's camp: 5. White's king on a1 (flank a–c, ranks 1–5)
    // is not attacked there.
    let rook = "6k1/5ppp/8/8/8/8/PP6/K3R3 w - - 0 1";
    assert_eq!(effect("normal", rook, flank), 500);
    assert_eq!(effect("normal", &flipped(rook), flank), 500);
    // A queen on h1 adds h4–h7 and e4, which the rook attacks too: 9 squares, e4 twice.
    let both = "6k1/5ppp/8/8/8/8/PP6/K3R2Q w - - 0 1";
    assert_eq!(effect("normal", both, flank), 1000);
    assert_eq!(effect("normal", &flipped(both), flank), 1000);
    // A king in the middle of the board's flank is c–f.
    let centre = "3k4/5ppp/8/8/8/8/PP6/K6R w - - 0 1";
    assert_eq!(effect("normal", centre, flank), 0);
}

/// A change of the evaluation's weights, named by the term it raises.
type Raise = fn(&mut EvalParams);

/// Positions of the games with other boards and pieces (Pillage's hoppers, crazyhouse's hands,
/// Wreckage's hooks) on which each group of king terms is checked.
const OTHER_GAMES: [(&str, &[&str]); 3] = [
    (
        "pillage",
        &[
            "10/5k4/4pp4/10/C9/10/10/5Q4/PPPPP5/5K4 w - - 0 1",
            "cv6vc/srnbqk1nrs/pppp1ppppp/4p5/2b1P5/5Q4/10/PPPP1PPPPP/SRNB1KBNRS/CV6VC w - - 0 1",
        ],
    ),
    (
        "crazyhouse",
        &[
            "6k1/5ppp/8/7Q/8/3B4/5PPP/6K1[Nb] w - - 0 1",
            "r1b2rk1/ppp2ppp/2n5/3p3Q/3P4/2PB1N2/PP3PPP/R3K2R[QRBNPqp] b - - 0 1",
        ],
    ),
    (
        "wreckage",
        &[
            "5k4/4ppp3/10/5G1Q2/10/10/10/10/PP8/9K[-] w - - 0 1",
            "5k4/pp8/10/3D6/10/10/10/10/PP8/4R4K[-] b - - 0 1",
            "xr3k2rd/ppp1pp1ppp/3p2p3/2X7/4G5/5d4/10/10/PPPPPPPPPP/1R3K2RD[GJJgjj] w - - 0 1",
        ],
    ),
];

/// Every evaluation `eval` makes of the `chess` positions and of `OTHER_GAMES` is the same with
/// colours exchanged, with each of `terms` raised; in chess each term changes some evaluation,
/// and in every game some term does.
fn assert_live_and_colour_symmetric(terms: &[(&str, Raise)], chess: &[&str], eval: impl Fn(&str, &str, Raise) -> i32) {
    for (variant, positions) in std::iter::once(("normal", chess)).chain(OTHER_GAMES) {
        let all_live = variant == "normal";
        let mut live_any = 0;
        for &(name, raise) in terms {
            let mut live = 0;
            for fen_text in positions {
                let a = eval(variant, fen_text, raise);
                let b = eval(variant, &flipped(fen_text), raise);
                assert_eq!(a, b, "{variant}, {name} raised: {fen_text}");
                live += usize::from(a != eval(variant, fen_text, |_| {}));
            }
            assert!(!all_live || live > 0, "{variant}: {name} changes no evaluation");
            live_any += live;
        }
        assert!(live_any > 0, "{variant}: no term changes an evaluation");
    }
}

/// Each weight of Stockfish 11's king danger changes some evaluation, and every evaluation is the
/// same with colours exchanged, in chess and in games with other boards and pieces.
#[test]
fn sf_king_danger_terms_are_live_and_colour_symmetric() {
    let terms: [(&str, Raise); 14] = [
        ("kd_attacker", |p| p.kinds.iter_mut().for_each(|k| k.kd_attacker += 30)),
        ("kd_check", |p| p.kinds.iter_mut().for_each(|k| k.kd_check += 300)),
        ("kd_adjacent", |p| p.kd_adjacent += 100),
        ("kd_weak_ring", |p| p.kd_weak_ring += 100),
        ("kd_unsafe_check", |p| p.kd_unsafe_check += 200),
        ("kd_flank_attack", |p| p.kd_flank[0] += 8),
        ("kd_flank_defence", |p| p.kd_flank[1] -= 20),
        ("kd_mobility", |p| p.kd_mobility += 32),
        ("kd_shelter", |p| p.kd_shelter -= 32),
        ("kd_defender", |p| p.kinds.iter_mut().for_each(|k| k.kd_defender -= 200)),
        ("kd_no_queen", |p| p.kd_no_queen += 500),
        ("kd_base", |p| p.kd_base += 300),
        ("kd_transform_eg", |p| p.kd_transform[1] += 40),
        ("flank_attack", |p| p.flank_attack += s(10, 10)),
    ];
    let chess = [
        "r1bqnrk1/pp2bppp/2n1p3/3p2NQ/3P4/2NBP3/PP3PPP/R4RK1 w - - 0 10",
        "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b - - 0 1",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 1",
        "6k1/5pp1/7p/6N1/2B5/8/5PPP/6K1 w - - 0 1",
        "r2q1rk1/5ppp/8/6P1/8/8/5P1P/R2Q1RK1 w - - 0 1",
        "6k1/5ppp/8/3N3Q/8/8/5PPP/6K1 b - - 0 1",
        "r1b2rk1/pp3ppp/2n5/3p3Q/3P4/2PB1N2/PP3PPP/R3K2R b - - 0 1",
    ];
    assert_live_and_colour_symmetric(&terms, &chess, |variant, fen_text, raise| {
        sf_eval_with(variant, fen_text, raise)
    });
}

/// Only chess weights Stockfish 11's king danger: every other game keeps the Ethereal-style danger
/// alone, so its evaluation is what it was before the terms came.
#[test]
fn only_chess_weights_the_sf_king_danger() {
    for v in Registry::builtin().all() {
        let t = EvalTables::new(v);
        let chess = v.name == "normal";
        assert_eq!(t.sf_danger, chess, "{}", v.name);
        assert_eq!(t.ethereal_danger, !chess, "{}", v.name);
    }
}

/// Stockfish 11's shelter and storm and the king–pawn terms of each side in `fen_text` (chess,
/// trial weights: SF11's tables at our chess scale), by colour.
fn sf_king_terms(fen_text: &str) -> [(S, S); 2] {
    let v = Registry::builtin().get("normal").expect("normal");
    let p = test_fixtures::position_of(&v, fen_text);
    let mut params = EvalParams::defaults(&v);
    params.set_trial_sf_shelter(&v);
    sf_king_terms_of(&p, &EvalTables::with_params(&v, params))
}

/// The shelter reads, per file of the king's three, the rearmost own pawn not behind the king and
/// the enemy's nearest pawn, by the file's distance from the edge: Stockfish 11's tables.
#[test]
fn sf_shelter_scores_the_pawns_in_front_of_the_king_and_the_storm() {
    // White: f2 g2 h2 (shelter 26 + 21 + 29), Black's f7, g7 storming from afar (+5, -7), none on
    // h (-30): 44. Black: f7 g7 and no h-pawn (26 + 21 - 2), White's pawns far (+5, -7, -18): 25.
    let fen_text = "6k1/5pp1/8/8/8/8/5PPP/6K1 w - - 0 1";
    let [white, black] = sf_king_terms(fen_text);
    assert_eq!((white.0, black.0), (s(44, 0), s(25, 0)));
    // Colours exchanged, the same values for the other side.
    let [white, black] = sf_king_terms(&flipped(fen_text));
    assert_eq!((white.0, black.0), (s(25, 0), s(44, 0)));
    // An enemy pawn on g4 storms the king (-16 for the g-file); on g3, just in front of the own
    // pawn on the king's third rank, it is a blocked storm: -29 in both phases instead.
    let [g4, _] = sf_king_terms("6k1/8/8/8/6p1/8/5PPP/6K1 w - - 0 1");
    let [g3, _] = sf_king_terms("6k1/8/8/8/8/6p1/5PPP/6K1 w - - 0 1");
    assert_eq!((g4.0, g3.0), (s(32, 0), s(19, -29)));
    let [_, g5] = sf_king_terms("6k1/5ppp/8/6P1/8/8/8/6K1 b - - 0 1");
    let [_, g6] = sf_king_terms("6k1/5ppp/6P1/8/8/8/8/6K1 b - - 0 1");
    assert_eq!((g5.0, g6.0), (s(32, 0), s(19, -29)));
}

/// With a castling right held, the shelter is the better of the king's square and the square
/// castling takes it to, for either colour.
#[test]
fn sf_shelter_counts_the_castled_king_s_square_while_castling_is_allowed() {
    let [castle, _] = sf_king_terms("4k3/8/8/8/8/8/5PPP/4K2R w K - 0 1");
    let [castled, _] = sf_king_terms("4k3/8/8/8/8/8/5PPP/5RK1 w - - 0 1");
    let [stay, _] = sf_king_terms("4k3/8/8/8/8/8/5PPP/4K2R w - - 0 1");
    assert_eq!(castle.0, castled.0);
    assert!(stay.0.mg < castle.0.mg, "{stay:?} {castle:?}");
    let [_, castle] = sf_king_terms("4k2r/5ppp/8/8/8/8/8/4K3 b k - 0 1");
    let [_, castled] = sf_king_terms("5rk1/5ppp/8/8/8/8/8/4K3 b - - 0 1");
    let [_, stay] = sf_king_terms("4k2r/5ppp/8/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(castle.0, castled.0);
    assert!(stay.0.mg < castle.0.mg, "{stay:?} {castle:?}");
}

/// The king far from its pawns pays per square of distance to the nearest (none without pawns),
/// and a king on a flank with no pawn of either colour pays `pawnless_flank`.
#[test]
fn king_pawn_distance_and_pawnless_flank_fire() {
    // White's king on e1, its pawn on a2: 4 squares (-24 eg); no pawn on files c–f (-6, -33).
    // Black's king on e8 has no pawn: the flank term alone.
    let fen_text = "4k3/8/8/8/8/8/P7/4K3 w - - 0 1";
    let [white, black] = sf_king_terms(fen_text);
    assert_eq!((white.1, black.1), (s(-6, -57), s(-6, -33)));
    let [white, black] = sf_king_terms(&flipped(fen_text));
    assert_eq!((white.1, black.1), (s(-6, -33), s(-6, -57)));
    // A pawn next to the king: distance 1; a pawn on the flank: no flank term.
    let [white, _] = sf_king_terms("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1");
    assert_eq!(white.1, s(0, -6));
}

/// Each weight of the shelter, storm and king–pawn terms changes some chess evaluation, and every
/// evaluation is the same with colours exchanged, in chess and in games with other boards.
#[test]
fn sf_shelter_terms_are_live_and_colour_symmetric() {
    let terms: [(&str, Raise); 5] = [
        // Each weight raised by its own amount: a raise common to all cancels between the sides.
        ("sf_shelter", |p| {
            p.sf_shelter.iter_mut().zip(1..).for_each(|(x, i)| *x += 7 * i)
        }),
        ("sf_storm", |p| {
            p.sf_storm.iter_mut().zip(1..).for_each(|(x, i)| *x += 7 * i)
        }),
        ("sf_storm_blocked", |p| p.sf_storm_blocked += s(20, 20)),
        ("king_pawn_distance", |p| p.king_pawn_distance += s(-10, -10)),
        ("pawnless_flank", |p| p.pawnless_flank += s(-20, -20)),
    ];
    let trial = |variant: &str, fen_text: &str, raise: Raise| {
        let v = Registry::builtin().get(variant).expect("a built-in variant");
        eval_with(variant, fen_text, |p| {
            p.set_trial_sf_shelter(&v);
            raise(p);
        })
    };
    let chess = [
        "r1bqnrk1/pp2bppp/2n1p3/3p2NQ/3P4/2NBP3/PP3PPP/R4RK1 w - - 0 10",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 1",
        "2kr3r/ppp2ppp/8/8/8/6p1/5PP1/R5K1 w - - 0 1",
        // Black's king on a flank without pawns, White's not.
        "k7/8/8/8/8/8/5PP1/4K3 w - - 0 1",
    ];
    assert_live_and_colour_symmetric(&terms, &chess, trial);
}

/// Only chess weights Stockfish 11's shelter, storm and king–pawn terms: every other game's
/// evaluation is what it was before the terms came.
#[test]
fn only_chess_weights_the_sf_shelter_and_king_pawn_terms() {
    for v in Registry::builtin().all() {
        let t = EvalTables::new(v);
        let chess = v.name == "normal";
        assert_eq!(t.sf_shelter, chess, "{}", v.name);
        assert_eq!(t.king_pawns, chess, "{}", v.name);
        let rows = 4 * usize::from(v.shape.ranks);
        assert_eq!(
            (t.params.sf_shelter.len(), t.params.sf_storm.len()),
            (rows, rows),
            "{}",
            v.name
        );
    }
}
