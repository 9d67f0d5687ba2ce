//! Detonator (Wreckage §3.4): queen slides and knight leaps to empty squares (its Betza data,
//! `mQmN`); detonation removes every adjacent enemy piece not in `hook_immune` (ninja pawns) and
//! leaves the Detonator in place.

use super::{Hook, MoveList, line_to, ray, victim};
use crate::core::geometry::{Square, SquareSet};
use crate::core::moves::{Blast, Move, NEIGHBOURS};
use crate::core::position::Position;

pub struct Detonator;

impl Hook for Detonator {
    fn name(&self) -> &'static str {
        "detonator"
    }

    fn quiet_betza(&self) -> &'static str {
        "mQmN"
    }

    fn captures(&self, pos: &Position, from: Square, list: &mut MoveList) {
        let shape = pos.variant().shape;
        let mut blast = 0u8;
        for (i, &(dx, dy)) in NEIGHBOURS.iter().enumerate() {
            if let Some(sq) = shape.offset(from, dx, dy)
                && victim(pos, from, sq)
            {
                blast |= 1 << i;
            }
        }
        if blast != 0 {
            list.push(Move::Special {
                from,
                to: from,
                victim: None,
                blast: Blast(blast),
                promotion: None,
            });
        }
    }

    fn attacks(&self, pos: &Position, from: Square, target: Square) -> bool {
        let (dx, dy) = super::step(pos, from, target);
        dx.abs().max(dy.abs()) == 1
    }

    fn attack_set(&self, pos: &Position, from: Square) -> SquareSet {
        let shape = pos.variant().shape;
        NEIGHBOURS.iter().filter_map(|&d| ray(shape, from, d).next()).collect()
    }

    fn may_capture_on(&self, pos: &Position, from: Square, target: Square, _cleared: &SquareSet) -> bool {
        // Detonating takes every neighbour it may take.
        line_to(pos, from, target).is_some_and(|(_, dist)| dist == 1)
    }
}
