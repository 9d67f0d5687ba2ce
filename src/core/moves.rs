//! Moves: everything make/unmake and notation need, in 8 bytes.

use super::geometry::Square;
use super::piece::Kind;

/// A move: each kind carries exactly the squares and piece types it needs.
// `repr(u8)`: a tag byte, then each variant's fields in the order written, so the origin (byte 1)
// and the destination (byte 2) sit at the same place in every variant and `from()`/`to()` are
// plain loads, not a branch per variant (the default layout puts them anywhere).
// `PartialEq` by hand (below), field for field as the derive would, so `Hash` agrees with it.
#[allow(clippy::derived_hash_with_manual_eq)]
#[derive(Copy, Clone, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Move {
    /// A move to `to`, capturing whatever enemy stands there.
    Normal {
        from: Square,
        to: Square,
        promotion: Option<Kind>,
    },
    /// A pawn push of two or more squares that may give an en-passant right.
    MultiStep {
        from: Square,
        to: Square,
        promotion: Option<Kind>,
    },
    /// En-passant capture of the piece on `victim`; the mover lands on the empty `to`.
    EnPassant {
        from: Square,
        to: Square,
        victim: Square,
        promotion: Option<Kind>,
    },
    /// Castling: the king goes `king_from`→`king_to`, the rook `rook_from`→`rook_to`.
    Castle {
        king_from: Square,
        king_to: Square,
        rook_from: Square,
        rook_to: Square,
    },
    /// A piece from hand put on `to` (after any drop push).
    Drop { kind: Kind, to: Square },
    /// A hook move: captures on `to` (if occupied by an enemy), on `victim` and on the neighbours
    /// of `to` selected by `blast`; `from == to` for a move that stays put.
    Special {
        from: Square,
        to: Square,
        victim: Option<Square>,
        blast: Blast,
        promotion: Option<Kind>,
    },
    /// Growing roses: the piece goes to `to` (capturing there) and leaves the board, the enemy unit
    /// on `converts` (if any) changes its kind, and the same side moves again — the first sub-move
    /// of a turn of several moves.
    Grow {
        from: Square,
        to: Square,
        converts: Option<Square>,
    },
}

// Written out to be inlined: the derived comparison was a call of its own from the move scorer's
// loop (a million a bench). The same test as the derive's: same kind, then every field equal. The
// match is over `self` alone, so a new variant is a compile error here, not a move unequal to itself.
impl PartialEq for Move {
    #[inline(always)]
    fn eq(&self, other: &Move) -> bool {
        use Move::*;
        match *self {
            Normal { from, to, promotion } => {
                matches!(*other, Normal { from: f, to: t, promotion: p } if from == f && to == t && promotion == p)
            }
            MultiStep { from, to, promotion } => {
                matches!(*other, MultiStep { from: f, to: t, promotion: p } if from == f && to == t && promotion == p)
            }
            EnPassant {
                from,
                to,
                victim,
                promotion,
            } => matches!(
                *other,
                EnPassant { from: f, to: t, victim: v, promotion: p }
                    if from == f && to == t && victim == v && promotion == p
            ),
            Castle {
                king_from,
                king_to,
                rook_from,
                rook_to,
            } => matches!(
                *other,
                Castle { king_from: kf, king_to: kt, rook_from: rf, rook_to: rt }
                    if king_from == kf && king_to == kt && rook_from == rf && rook_to == rt
            ),
            Drop { kind, to } => matches!(*other, Drop { kind: k, to: t } if kind == k && to == t),
            Special {
                from,
                to,
                victim,
                blast,
                promotion,
            } => matches!(
                *other,
                Special { from: f, to: t, victim: v, blast: b, promotion: p }
                    if from == f && to == t && victim == v && blast == b && promotion == p
            ),
            Grow { from, to, converts } => {
                matches!(*other, Grow { from: f, to: t, converts: c } if from == f && to == t && converts == c)
            }
        }
    }
}

/// The pattern of a move of one piece from a square to another, promoting or not (`Normal`,
/// `MultiStep`, `EnPassant`, `Special`), binding its `from`, `to` and `promotion`. Make, unmake and
/// notation treat these four alike; a pattern (not an accessor returning an `Option`) keeps their
/// `match`es exhaustive, so a new kind of move must still be placed in each of them.
macro_rules! piece_move {
    ($from:pat, $to:pat, $promotion:pat) => {
        $crate::core::Move::Normal {
            from: $from,
            to: $to,
            promotion: $promotion,
        } | $crate::core::Move::MultiStep {
            from: $from,
            to: $to,
            promotion: $promotion,
        } | $crate::core::Move::EnPassant {
            from: $from,
            to: $to,
            promotion: $promotion,
            ..
        } | $crate::core::Move::Special {
            from: $from,
            to: $to,
            promotion: $promotion,
            ..
        }
    };
}
pub(crate) use piece_move;

// Move lists, the search stack and the undo records hold moves by value.
const _: () = assert!(std::mem::size_of::<Move>() <= 8);

/// The kind of a move without its data (for filters and tallies).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum MoveKind {
    Normal,
    MultiStep,
    EnPassant,
    Castle,
    Drop,
    Special,
    Grow,
}

/// Neighbour directions (bit i = `NEIGHBOURS[i]`) whose pieces a Special move captures.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default)]
pub struct Blast(pub u8);

impl Blast {
    pub const NONE: Blast = Blast(0);

    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The directions of `NEIGHBOURS` this blast reaches.
    #[inline]
    pub fn directions(self) -> impl Iterator<Item = (i32, i32)> {
        NEIGHBOURS
            .iter()
            .enumerate()
            .filter(move |&(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, &d)| d)
    }
}

/// The eight neighbour directions used by `Blast`: N, NE, E, SE, S, SW, W, NW.
pub const NEIGHBOURS: [(i32, i32); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

impl Move {
    /// A plain move from `from` to `to`.
    #[inline]
    pub fn normal(from: Square, to: Square) -> Move {
        Move::Normal {
            from,
            to,
            promotion: None,
        }
    }

    #[inline]
    pub fn drop(kind: Kind, to: Square) -> Move {
        Move::Drop { kind, to }
    }

    /// The same move promoting to `kind`. Castling, drops and growing roses never promote: they
    /// are returned as they are.
    #[inline]
    pub fn with_promotion(self, kind: Kind) -> Move {
        let mut mv = self;
        match &mut mv {
            piece_move!(_, _, promotion) => *promotion = Some(kind),
            Move::Castle { .. } | Move::Drop { .. } | Move::Grow { .. } => {}
        }
        mv
    }

    /// The kind of move, without its data.
    #[inline]
    pub fn kind(&self) -> MoveKind {
        match self {
            Move::Normal { .. } => MoveKind::Normal,
            Move::MultiStep { .. } => MoveKind::MultiStep,
            Move::EnPassant { .. } => MoveKind::EnPassant,
            Move::Castle { .. } => MoveKind::Castle,
            Move::Drop { .. } => MoveKind::Drop,
            Move::Special { .. } => MoveKind::Special,
            Move::Grow { .. } => MoveKind::Grow,
        }
    }

    /// The square the moving piece leaves (the king's, for castling); a drop has none.
    #[inline]
    pub fn from(&self) -> Option<Square> {
        match *self {
            Move::Normal { from, .. }
            | Move::MultiStep { from, .. }
            | Move::EnPassant { from, .. }
            | Move::Special { from, .. }
            | Move::Grow { from, .. } => Some(from),
            Move::Castle { king_from, .. } => Some(king_from),
            Move::Drop { .. } => None,
        }
    }

    /// The square the moving (or dropped) piece arrives on (the king's, for castling).
    #[inline]
    pub fn to(&self) -> Square {
        match *self {
            Move::Normal { to, .. }
            | Move::MultiStep { to, .. }
            | Move::EnPassant { to, .. }
            | Move::Special { to, .. }
            | Move::Grow { to, .. }
            | Move::Drop { to, .. } => to,
            Move::Castle { king_to, .. } => king_to,
        }
    }

    /// Does the piece stay where it is (a detonation)? Castling never counts as staying.
    #[inline]
    pub fn stays(&self) -> bool {
        match *self {
            Move::Normal { from, to, .. }
            | Move::MultiStep { from, to, .. }
            | Move::EnPassant { from, to, .. }
            | Move::Special { from, to, .. }
            | Move::Grow { from, to, .. } => from == to,
            Move::Castle { .. } | Move::Drop { .. } => false,
        }
    }

    /// The promotion piece type, if the move promotes.
    #[inline]
    pub fn promotion(&self) -> Option<Kind> {
        match *self {
            piece_move!(_, _, promotion) => promotion,
            Move::Castle { .. } | Move::Drop { .. } | Move::Grow { .. } => None,
        }
    }

    /// The dropped piece type, if the move is a drop.
    #[inline]
    pub fn dropped(&self) -> Option<Kind> {
        match *self {
            Move::Drop { kind, .. } => Some(kind),
            _ => None,
        }
    }
}

/// A growable list of moves.
#[derive(Clone, Debug, Default)]
pub struct MoveList(pub Vec<Move>);

impl MoveList {
    pub fn new() -> MoveList {
        MoveList(Vec::with_capacity(128))
    }

    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.0.push(mv);
    }

    #[inline]
    pub fn clear(&mut self) {
        self.0.clear();
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.0.iter()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hand-written `eq`: every variant equals its copy, and a change of any one field (or of
    /// the variant) makes it unequal.
    #[test]
    fn eq_compares_the_variant_and_every_field() {
        let (a, b, c, d) = (Square(1), Square(2), Square(3), Square(4));
        let q = Some(Kind(4));
        let moves = [
            (
                Move::Normal {
                    from: a,
                    to: b,
                    promotion: None,
                },
                Move::Normal {
                    from: a,
                    to: b,
                    promotion: q,
                },
            ),
            (
                Move::MultiStep {
                    from: a,
                    to: b,
                    promotion: None,
                },
                Move::MultiStep {
                    from: a,
                    to: c,
                    promotion: None,
                },
            ),
            (
                Move::EnPassant {
                    from: a,
                    to: b,
                    victim: c,
                    promotion: None,
                },
                Move::EnPassant {
                    from: a,
                    to: b,
                    victim: d,
                    promotion: None,
                },
            ),
            (
                Move::Castle {
                    king_from: a,
                    king_to: b,
                    rook_from: c,
                    rook_to: d,
                },
                Move::Castle {
                    king_from: a,
                    king_to: b,
                    rook_from: c,
                    rook_to: a,
                },
            ),
            (Move::Drop { kind: Kind(1), to: b }, Move::Drop { kind: Kind(2), to: b }),
            (
                Move::Special {
                    from: a,
                    to: b,
                    victim: None,
                    blast: Blast::NONE,
                    promotion: None,
                },
                Move::Special {
                    from: a,
                    to: b,
                    victim: None,
                    blast: Blast(1),
                    promotion: None,
                },
            ),
            (
                Move::Grow {
                    from: a,
                    to: b,
                    converts: None,
                },
                Move::Grow {
                    from: a,
                    to: b,
                    converts: Some(c),
                },
            ),
        ];
        for (i, &(m, changed)) in moves.iter().enumerate() {
            let copy = m;
            assert_eq!(m, copy, "{m:?}");
            assert_ne!(m, changed, "{m:?}");
            for (j, &(other, _)) in moves.iter().enumerate() {
                assert_eq!(i == j, m == other, "{m:?} against {other:?}");
            }
        }
    }
}
