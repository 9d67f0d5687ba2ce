//! Repetition: how often the current position occurred before.

use super::*;

impl Position {
    /// How often the current position occurred before (same side, placement, hands, rights, e.p.).
    pub fn repetitions(&self) -> usize {
        let h = self.men.hash;
        let n = self.history.len();
        let window = (self.halfmove as usize).min(n);
        self.history[n - window..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|&&x| x == h)
            .count()
    }

    /// Has the current position occurred at any earlier point of the game?
    pub fn occurred_before(&self) -> bool {
        let h = self.men.hash;
        self.history.contains(&h)
    }
}
