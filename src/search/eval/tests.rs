//! Tests of the evaluation as a whole: balance, symmetry, material and placement, the king's shelter.

use super::*;

use crate::test_fixtures;
use crate::variants::Registry;

fn pos(fen_text: &str) -> Position {
    let v = Registry::builtin().get("normal").unwrap();
    test_fixtures::position_of(&v, fen_text)
}

fn eval(fen_text: &str) -> i32 {
    let p = pos(fen_text);
    let t = EvalTables::new(p.variant());
    evaluate(&p, &t)
}

#[test]
fn start_position_is_balanced_and_symmetric() {
    let w = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let b = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    // The side to move has only its tempo, whatever weights the game's definition tunes.
    let tempo = EvalParams::of(&Registry::builtin().get("normal").unwrap()).tempo;
    assert_eq!(w, tempo);
    assert_eq!(b, tempo);
}

#[test]
fn mirrored_positions_evaluate_the_same() {
    let a = eval("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 0 1");
    let b = eval("rnbqk2r/ppp2ppp/3p1n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R b KQkq - 0 1");
    assert_eq!(a, b);
}

#[test]
fn material_and_centralisation() {
    // An extra queen is worth about a queen.
    let q = eval("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    assert!(q > 900, "{q}");
    // A central knight beats a knight in the corner.
    let centre = eval("4k3/pp6/8/8/3N4/8/PP6/4K3 w - - 0 1");
    let corner = eval("4k3/pp6/8/8/8/8/PP6/N3K3 w - - 0 1");
    assert!(centre > corner + 20, "{centre} {corner}");
    // A far-advanced passed pawn is worth a lot in the endgame.
    let far = eval("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    let near = eval("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1");
    assert!(far > near + 100, "{far} {near}");
}

#[test]
fn bare_minor_piece_edge_is_scaled_down() {
    // A knight up without pawns rarely wins; with pawns it does.
    let bare = eval("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1");
    let pawns = eval("4k3/pp6/8/8/3N4/8/PP6/4K3 w - - 0 1");
    assert!(bare < 150 && pawns > 300, "{bare} {pawns}");
}

#[test]
fn king_prefers_shelter_in_the_middlegame() {
    let castled = eval("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 1");
    let exposed = eval("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPPKPPP/R1BQ3R w - - 0 1");
    assert!(castled > exposed + 30, "{castled} {exposed}");
}
