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
    /// last move that cannot be undone (`cannot_come_back`), with the same side to move, can
    /// repeat this one.
    #[inline]
    pub fn earlier_occurrences(&self) -> impl Iterator<Item = usize> + '_ {
        let h = self.men.hash;
        let n = self.history.len();
        let window = (self.reversible as usize).min(n);
        (n - window..n)
            .rev()
            .skip(1)
            .step_by(2)
            .filter(move |&i| self.history[i] == h)
    }

    /// In a game without hands, can no position before this piece move (of `moved` from `from`
    /// to `to`) come back after it? `make` asks, and closes the window on drops and growing roses
    /// too, and in any game on a loss of castling rights (which only ever go); with hands
    /// (crazyhouse) a captured man comes back by a drop, so nothing else closes it there. The
    /// window must never be shorter than the truth: the n-move count is not it, since a sideways
    /// step of a pawn (Pillage's super pawn) resets the count and can be stepped back.
    ///
    /// A capture lowers the number of men for good, a promotion to a type that does not promote
    /// again lowers the number of men that can promote, and a forward step of a piece that never
    /// moves backwards takes it nearer its last rank for good.
    pub(super) fn cannot_come_back(
        v: &Variant,
        (moved, from, to): (Piece, Square, Square),
        captured: bool,
        promotion: Option<Kind>,
    ) -> bool {
        let color = moved.color();
        let advancing = v.tables.advancing_mask & 1 << moved.kind().index() != 0;
        captured
            || promotion.is_some_and(|kind| v.piece(kind).promotion.is_none())
            || advancing && v.shape.relative_rank(to, color) > v.shape.relative_rank(from, color)
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

    use crate::core::test_positions::{play, position, square};
    use crate::core::{Color, EndReason, Move, Position, Variant};
    use crate::variants::Registry;

    fn chess() -> Arc<Variant> {
        Registry::builtin().get("normal").expect("built-in")
    }

    fn game(name: &str) -> Arc<Variant> {
        Registry::builtin().get(name).expect("built-in")
    }

    /// Plays the moves, each written `g1f3` or, for a drop, `N@c3`.
    fn play_with_drops(pos: &mut Position, moves: &[&str]) {
        for text in moves {
            if let Some((letter, to)) = text.split_once('@') {
                let to = square(pos, to);
                let mv = pos
                    .legal_moves()
                    .iter()
                    .copied()
                    .find(|m| {
                        matches!(*m, Move::Drop { kind, to: t }
                            if t == to && pos.variant().piece(kind).letter.to_string() == letter.to_uppercase())
                    })
                    .unwrap_or_else(|| panic!("{text}: no such legal drop"));
                pos.make(mv);
            } else {
                play(pos, &[text]);
            }
        }
    }

    #[test]
    fn sideways_super_pawn_steps_repeat_though_they_reset_the_move_count() {
        // Pillage (spec, draw rules): threefold repetition draws; the 50-move count is reset by
        // every super-pawn move, sideways ones too, and those can be stepped back.
        let mut p = position(
            &game("pillage"),
            &[('K', "a1"), ('k', "j9"), ('s', "e5")],
            Color::White,
            0,
        );
        let shuffle = ["a1a2", "e5f5", "a2a1", "f5e5"];
        play(&mut p, &shuffle);
        assert_eq!(p.halfmove_clock(), 0, "a super-pawn move resets the count");
        assert_eq!(p.repetitions(), 1);
        assert_eq!(p.outcome(), None);
        play(&mut p, &shuffle);
        assert_eq!(p.earlier_occurrences().collect::<Vec<_>>(), [4, 0]);
        let outcome = p.outcome().expect("threefold repetition");
        assert_eq!((outcome.winner, outcome.reason), (None, EndReason::Repetition));
        // A forward step cannot be taken back: nothing before it comes again.
        play(&mut p, &["a1a2", "e5e4", "a2a1"]);
        assert_eq!(p.repetitions(), 0);
        assert_eq!(p.earlier_occurrences().count(), 0);
    }

    #[test]
    fn with_hands_a_position_repeats_across_captures_and_drops() {
        // Crazyhouse: the knight taken on d5 comes back by a drop, the rook goes round.
        let pieces = [('K', "a1"), ('N', "c3"), ('k', "h8"), ('r', "d8"), ('n', "d5")];
        let mut p = position(&game("crazyhouse"), &pieces, Color::White, 0);
        let cycle = ["c3d5", "d8d5", "N@c3", "d5d7", "a1b1", "d7d8", "b1a1", "n@d5"];
        play_with_drops(&mut p, &cycle);
        assert_eq!(p.halfmove_clock(), 0);
        assert_eq!(p.earlier_occurrences().collect::<Vec<_>>(), [0]);
        play_with_drops(&mut p, &cycle);
        let outcome = p.outcome().expect("threefold repetition");
        assert_eq!(outcome.reason, EndReason::Repetition);
        // Without hands a capture is for good.
        let mut q = position(&chess(), &pieces, Color::White, 0);
        play(&mut q, &["c3d5", "d8d5"]);
        assert_eq!(q.earlier_occurrences().count(), 0);
    }

    #[test]
    fn a_pass_closes_the_window_and_castling_keeps_the_count_going() {
        let mut p = Position::start(&chess());
        play(&mut p, &["g1f3", "g8f6", "f3g1", "f6g8"]);
        assert_eq!(p.repetitions(), 1);
        p.make_null();
        p.make_null();
        assert_eq!(p.repetitions(), 0, "no repetition across a pass");
        p.unmake_null();
        p.unmake_null();
        assert_eq!(p.repetitions(), 1, "taking the passes back opens it again");
        play(&mut p, &["e2e4", "e7e5", "g1f3", "g8f6", "f1c4", "f8c5"]);
        let castle = p
            .legal_moves()
            .iter()
            .copied()
            .find(|m| matches!(m, Move::Castle { .. }))
            .expect("White may castle");
        let count = p.halfmove_clock();
        p.make(castle);
        assert_eq!(p.halfmove_clock(), count + 1, "castling keeps the count going");
        play(&mut p, &["f6g8", "f1e1", "g8f6", "e1f1", "f6g8"]);
        assert_eq!(p.earlier_occurrences().collect::<Vec<_>>(), [p.history().len() - 4]);
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
