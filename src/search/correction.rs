//! Correction history: what the search learnt about the static evaluation's error, per pawn
//! structure. The evaluation misjudges some structures consistently (a blockade it does not see,
//! a passer it overrates); where a node's searched value was found above or below its static
//! evaluation, the entry of its pawn key moves towards that error, and the static evaluation the
//! pruning and ordering read is corrected by it. Per thread (like the other histories).

use crate::core::{Color, Position};

use super::score::EVAL_LIMIT;

/// Entries per colour (a power of two: the pawn key's low bits index them).
const ENTRIES: usize = 16384;
/// Fixed-point units of an entry per unit of evaluation.
const GRAIN: i32 = 256;
/// The weights of an update are out of this.
const WEIGHT_SCALE: i32 = 256;
/// Largest correction (evaluation units, either way).
const MAX_CORRECTION: i32 = 64;

pub(crate) struct CorrectionHistory {
    /// `[colour to move][pawn key]`: the running average of the evaluation's error, in GRAIN units.
    table: Vec<i16>,
}

impl CorrectionHistory {
    pub fn new() -> CorrectionHistory {
        CorrectionHistory {
            table: vec![0; 2 * ENTRIES],
        }
    }

    pub fn clear(&mut self) {
        self.table.fill(0);
    }

    #[inline]
    fn slot(pos: &Position) -> usize {
        let side = usize::from(pos.side_to_move() == Color::Black);
        side * ENTRIES + (pos.pawn_hash() as usize & (ENTRIES - 1))
    }

    /// The static evaluation `raw` of `pos` corrected by what was learnt (never made a mate
    /// score: within the evaluation's limits).
    #[inline]
    pub fn corrected(&self, pos: &Position, raw: i32) -> i32 {
        let c = i32::from(self.table[Self::slot(pos)]) / GRAIN;
        (raw + c).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// Learns from a node searched to `depth` whose value `searched` (not a mate score) differs
    /// from its static evaluation `raw`: a running average, weighted more for deeper searches.
    pub fn update(&mut self, pos: &Position, depth: i32, raw: i32, searched: i32) {
        let error = (searched - raw).clamp(-MAX_CORRECTION, MAX_CORRECTION) * GRAIN;
        let weight = (depth + 1).clamp(1, 16);
        let entry = &mut self.table[Self::slot(pos)];
        let blended = (i32::from(*entry) * (WEIGHT_SCALE - weight) + error * weight) / WEIGHT_SCALE;
        *entry = blended.clamp(-MAX_CORRECTION * GRAIN, MAX_CORRECTION * GRAIN) as i16;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Registry;

    #[test]
    fn corrections_move_towards_the_error_stay_bounded_and_are_per_side_and_structure() {
        let chess = Registry::builtin().get("normal").expect("built-in");
        let start = Position::start(&chess);
        let mut c = CorrectionHistory::new();
        assert_eq!(c.corrected(&start, 10), 10);
        for _ in 0..200 {
            c.update(&start, 10, 10, 40);
        }
        let learnt = c.corrected(&start, 10);
        assert!((35..=40).contains(&learnt), "converges towards the error: {learnt}");
        for _ in 0..500 {
            c.update(&start, 20, 0, 10_000);
        }
        // The error is clamped, and the average approaches it from below (integer steps).
        let most = c.corrected(&start, 0);
        assert!((MAX_CORRECTION - 4..=MAX_CORRECTION).contains(&most), "clamped: {most}");
        // The other side to move, and another pawn structure, learnt nothing.
        let mut other = start.clone();
        crate::core::test_positions::play(&mut other, &["g1f3"]);
        assert_eq!(other.pawn_hash(), start.pawn_hash());
        assert_eq!(c.corrected(&other, 0), 0);
        crate::core::test_positions::play(&mut other, &["e7e5"]);
        assert_eq!(c.corrected(&other, 0), 0);
        c.clear();
        assert_eq!(c.corrected(&start, 0), 0);
    }
}
