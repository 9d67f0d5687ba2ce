//! `--shard K/N`: the K-th of N disjoint parts of a match, so parts can run on different machines
//! with the same seed and be merged. The unit is a game pair (a game without a partner is a unit
//! of its own): a pair is never split, and its opening goes with it.

use std::fmt;

/// Part `index + 1` of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// `K/N` with `1 ≤ K ≤ N`.
    ///
    /// # Errors
    ///
    /// Not `I/N` with `1 <= I <= N`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("expected K/N with 1 <= K <= N, got \"{text}\"");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n): (u32, u32) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { index: k - 1, count: n })
    }

    /// Does this shard play the pair (or lone game) `unit`? Pairs are dealt round-robin, so every
    /// shard gets openings from the whole list and the shards are the same size within one pair.
    pub fn takes(&self, unit: u32) -> bool {
        unit % self.count == self.index
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_deals_disjoint_parts() {
        let shards: Vec<Shard> = ["1/3", "2/3", "3/3"].iter().map(|s| Shard::parse(s).unwrap()).collect();
        for unit in 0..30 {
            assert_eq!(shards.iter().filter(|s| s.takes(unit)).count(), 1, "unit {unit}");
        }
        assert_eq!(shards[1].to_string(), "2/3");
        for bad in ["0/2", "3/2", "1", "a/b", "1/0", "-1/2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
