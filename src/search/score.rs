//! Scores: the search's internal values (centipawns, mate as `MATE - plies`), and the public
//! `Score` (centipawns or mate in moves), which each door writes in its own protocol's form.

/// Deepest ply the search reaches (extensions included).
pub(crate) const MAX_PLY: usize = 128;
/// Value of mating at the root; mate in `n` plies is `MATE - n`.
pub(crate) const MATE: i32 = 30_000;
/// Values beyond this are mate scores.
pub(crate) const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 8;
/// Larger than any value the search returns.
pub(crate) const INFINITE: i32 = 31_000;
/// Largest evaluation (kept clear of mate scores).
pub(crate) const EVAL_LIMIT: i32 = MATE_BOUND - 1_000;

/// The value of delivering mate (or winning by a goal) `ply` plies from the root.
#[inline]
pub(crate) fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// The value of being mated `ply` plies from the root.
#[inline]
pub(crate) fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

#[inline]
pub(crate) fn is_mate_value(v: i32) -> bool {
    v.abs() >= MATE_BOUND
}

/// Which side of the true value a score lies on.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Bound {
    /// The exact value.
    Exact,
    /// At least this much (fail high, beta cut).
    Lower,
    /// At most this much (fail low).
    Upper,
}

impl Bound {
    /// The bound of `best`, the best value found in the window (`alpha`, `beta`).
    #[inline]
    pub(crate) fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// A search result from the side to move's point of view.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in `n` moves: `n > 0` the side to move mates, `n < 0` it is mated in `-n` moves;
    /// `Mate(0)` means the side to move is mated already.
    Mate(i32),
}

impl Score {
    /// The public form of an internal value measured from the root.
    pub(crate) fn from_value(v: i32) -> Score {
        if v >= MATE_BOUND {
            let plies = MATE - v;
            Score::Mate((plies + 1) / 2)
        } else if v <= -MATE_BOUND {
            // Mated after `plies`: normally an even number; odd when a side loses by its own move
            // (a goal), which counts as one more move of its own.
            let plies = MATE + v;
            Score::Mate(-((plies + 1) / 2))
        } else {
            Score::Cp(v)
        }
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(c) => write!(f, "cp {c}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_values_convert_to_moves() {
        assert_eq!(Score::from_value(mate_in(1)), Score::Mate(1));
        assert_eq!(Score::from_value(mate_in(3)), Score::Mate(2));
        assert_eq!(Score::from_value(mated_in(2)), Score::Mate(-1));
        assert_eq!(Score::from_value(mated_in(4)), Score::Mate(-2));
        assert_eq!(Score::from_value(mated_in(0)), Score::Mate(0));
        assert_eq!(Score::from_value(mated_in(1)), Score::Mate(-1));
        assert_eq!(Score::from_value(35), Score::Cp(35));
    }
}
