//! When the engine takes a draw it is offered: one policy for every door, whatever its wire.

use crate::core::Position;

/// Below this score of its last search (centipawns, from its own side) the engine takes a draw.
const TAKES_DRAW_BELOW_CP: i32 = -150;

/// Does the engine take a draw offered in `pos`? In a dead position (nobody can win), or when its
/// last search (`last_score_cp`: centipawns from its side, `None` before any) saw it clearly worse.
pub fn takes_draw(pos: &Position, last_score_cp: Option<i32>) -> bool {
    pos.dead_position() || last_score_cp.is_some_and(|s| s < TAKES_DRAW_BELOW_CP)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_fixtures::position_of;
    use crate::variants::{NORMAL, Registry};

    #[test]
    fn a_draw_is_taken_when_dead_or_clearly_worse() {
        let normal = Registry::builtin().get(NORMAL).expect("normal");
        let start = Position::start(&normal);
        assert!(!takes_draw(&start, None));
        assert!(!takes_draw(&start, Some(0)));
        assert!(!takes_draw(&start, Some(TAKES_DRAW_BELOW_CP)));
        assert!(takes_draw(&start, Some(TAKES_DRAW_BELOW_CP - 1)));
        let bare_kings = position_of(&normal, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert!(takes_draw(&bare_kings, None));
        assert!(takes_draw(&bare_kings, Some(500)));
    }
}
