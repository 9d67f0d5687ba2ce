//! FIDE dead positions (`Position::dead_position`): bare kings, a lone minor piece, bishops all
//! on one colour.

mod common;

use common::{builtin, position};

fn dead(fen_text: &str) -> bool {
    position(&builtin("normal"), fen_text).dead_position()
}

#[test]
fn fide_dead_positions() {
    assert!(dead("8/8/8/4k3/8/8/4K3/8 w - - 0 1"));
    assert!(dead("8/8/8/4k3/8/8/3BK3/8 w - - 0 1"));
    assert!(dead("8/8/8/4k3/8/8/3NK3/8 w - - 0 1"));
    // Bishops all on the same colour, any number, either side.
    assert!(dead("8/8/8/2b1k3/8/8/3BK3/8 w - - 0 1"));
    assert!(!dead("8/8/8/3bk3/8/8/3BK3/8 w - - 0 1"));
    assert!(!dead("8/8/8/4k3/8/8/2NNK3/8 w - - 0 1"));
    assert!(!dead("8/8/8/4k3/8/8/3PK3/8 w - - 0 1"));
    assert!(!dead("8/8/8/4k3/8/8/3RK3/8 w - - 0 1"));
}
