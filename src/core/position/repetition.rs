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
    use crate::core::Position;
    use crate::notation::{Coords, fen, movetext};
    use crate::variants::Registry;

    fn pos(fen_text: &str) -> Position {
        let v = Registry::builtin().get("normal").expect("built-in");
        Position::from_setup(&v, &fen::parse_fen(fen_text, Coords::Human).expect("fen")).expect("legal")
    }

    fn play(p: &mut Position, moves: &[&str]) {
        for m in moves {
            let mv = movetext::parse_move(p, m, Coords::Human).expect("legal move");
            p.make(mv);
        }
    }

    #[test]
    fn earlier_occurrences_are_same_side_positions_since_the_last_irreversible_move() {
        let mut p = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
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
        let mut p = pos("4k3/8/8/8/8/8/4P3/4K2R w - - 98 80");
        assert!(!p.move_rule_reached());
        play(&mut p, &["h1h2"]);
        assert!(!p.move_rule_reached());
        play(&mut p, &["e8d8"]);
        assert!(p.move_rule_reached(), "100 plies: the fifty-move rule");
        let mut q = pos("4k3/8/8/8/8/8/4P3/4K2R w - - 99 80");
        play(&mut q, &["e2e3"]);
        assert!(!q.move_rule_reached(), "a pawn move resets the count");
    }
}
