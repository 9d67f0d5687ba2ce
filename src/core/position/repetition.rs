//! Repetition and the n-move rule: how often the current position occurred before, where, and
//! whether the move count is reached. The game end (`outcome`) and the search both ask here.

use super::*;

impl Position {
    /// How often the current position occurred before (same side, placement, hands, rights, e.p.).
    pub fn repetitions(&self) -> usize {
        self.earlier_occurrences().count()
    }

    /// Where the current position occurred before, most recent first, as indices into `history`
    /// (index `i`: the position after `i` plies of the recorded game). Only positions since the
    /// last irreversible move, with the same side to move, can repeat this one.
    #[inline]
    pub fn earlier_occurrences(&self) -> impl Iterator<Item = usize> + '_ {
        let h = self.men.hash;
        let n = self.history.len();
        let window = (self.halfmove as usize).min(n);
        (n - window..n)
            .rev()
            .skip(1)
            .step_by(2)
            .filter(move |&i| self.history[i] == h)
    }

    /// Has the halfmove clock reached the variant's n-move limit? Then the game is drawn, unless
    /// this position is already decided by checkmate or stalemate (`outcome` looks at those first).
    #[inline]
    pub fn move_rule_reached(&self) -> bool {
        self.variant
            .rules
            .move_rule
            .is_some_and(|limit| self.halfmove_clock() >= limit)
    }

    /// Has the current position occurred at any earlier point of the game?
    pub fn occurred_before(&self) -> bool {
        let h = self.men.hash;
        self.history.contains(&h)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::core::test_positions::{play, position};
    use crate::core::{Color, Position, Variant};
    use crate::variants::Registry;

    fn chess() -> Arc<Variant> {
        Registry::builtin().get("normal").expect("built-in")
    }

    #[test]
    fn earlier_occurrences_are_same_side_positions_since_the_last_irreversible_move() {
        let mut p = Position::start(&chess());
        let knights = ["g1f3", "g8f6", "f3g1", "f6g8"];
        play(&mut p, &knights);
        assert_eq!(p.earlier_occurrences().collect::<Vec<_>>(), [0]);
        play(&mut p, &["g1f3"]);
        assert_eq!(p.earlier_occurrences().collect::<Vec<_>>(), [1]);
        play(&mut p, &knights[1..]);
        play(&mut p, &["g1f3", "g8f6", "f3g1", "f6g8"]);
        assert_eq!(p.earlier_occurrences().collect::<Vec<_>>(), [8, 4, 0]);
        assert_eq!(p.repetitions(), 3);
        // A pawn move: nothing before it can come back.
        play(&mut p, &["e2e4", "e7e5", "g1f3", "g8f6", "f3g1", "f6g8"]);
        assert_eq!(p.earlier_occurrences().collect::<Vec<_>>(), [14]);
    }

    #[test]
    fn the_move_rule_is_reached_at_the_variants_count() {
        // 4k3/8/8/8/8/8/4P3/4K2R w - - 98
        let pieces = [('k', "e8"), ('P', "e2"), ('K', "e1"), ('R', "h1")];
        let mut p = position(&chess(), &pieces, Color::White, 98);
        assert!(!p.move_rule_reached());
        play(&mut p, &["h1h2"]);
        assert!(!p.move_rule_reached());
        play(&mut p, &["e8d8"]);
        assert!(p.move_rule_reached(), "100 plies: the fifty-move rule");
        let mut q = position(&chess(), &pieces, Color::White, 99);
        play(&mut q, &["e2e3"]);
        assert!(!q.move_rule_reached(), "a pawn move resets the count");
    }
}
