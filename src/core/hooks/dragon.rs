//! Dragon (Wreckage §3.3): queen slides and knight leaps to empty squares (its Betza data,
//! `mQmN`); a slide in a forward direction captures the piece just beyond its landing square
//! (approach), a slide in a retreat direction captures the piece next to its start on the
//! opposite side (withdrawal). Capture is mandatory; the piece types in `hook_immune` (pawns) are
//! never captured.

use super::{Hook, MoveList, QUEEN, clear, empty, line_to, on_line, oriented, path_clear, ray, step, victim};
use crate::core::geometry::{Square, SquareSet};
use crate::core::moves::{Blast, Move};
use crate::core::position::Position;

pub struct Dragon;

/// Is a direction (owner-relative `dy`) a forward (approach) direction?
fn is_forward(dy: i32) -> bool {
    dy > 0
}

impl Hook for Dragon {
    fn name(&self) -> &'static str {
        "dragon"
    }

    fn quiet_betza(&self) -> &'static str {
        "mQmN"
    }

    fn adjust_quiet(&self, pos: &Position, from: Square, mv: &mut Move) {
        let shape = pos.variant().shape;
        let Some(color) = pos.color_at(from) else { return };
        let Move::Normal { to, promotion, .. } = *mv else {
            return;
        };
        let s = step(pos, from, to);
        // Knight leaps never capture.
        if !on_line(s) {
            return;
        }
        let d = (s.0.signum(), s.1.signum());
        let victim_sq = if is_forward(oriented(color, d).1) {
            shape.offset(to, d.0, d.1)
        } else {
            shape.offset(from, -d.0, -d.1)
        };
        if let Some(sq) = victim_sq.filter(|&sq| victim(pos, from, sq)) {
            *mv = Move::Special {
                from,
                to,
                victim: Some(sq),
                blast: Blast::NONE,
                promotion,
            };
        }
    }

    fn captures(&self, _pos: &Position, _from: Square, _list: &mut MoveList) {}

    fn attacks(&self, pos: &Position, from: Square, target: Square) -> bool {
        let shape = pos.variant().shape;
        let Some(color) = pos.color_at(from) else { return false };
        let (dxt, dyt) = step(pos, from, target);
        let dist = dxt.abs().max(dyt.abs());
        if !on_line((dxt, dyt)) {
            return false;
        }
        // (a) approach: target on a forward line at distance >= 2 with the squares between empty.
        let d = (dxt.signum(), dyt.signum());
        if dist >= 2
            && is_forward(oriented(color, d).1)
            && (1..dist).all(|k| {
                shape
                    .offset(from, d.0 * k, d.1 * k)
                    .is_some_and(|s| super::empty(pos, s))
            })
        {
            return true;
        }
        // (b) withdrawal: target adjacent against a retreat direction whose square is empty.
        if dist == 1 {
            let back = (-dxt, -dyt);
            if !is_forward(oriented(color, back).1) {
                return shape.offset(from, back.0, back.1).is_some_and(|s| super::empty(pos, s));
            }
        }
        false
    }

    fn attack_set(&self, pos: &Position, from: Square) -> SquareSet {
        let shape = pos.variant().shape;
        let mut set = SquareSet::EMPTY;
        let Some(color) = pos.color_at(from) else { return set };
        for d in QUEEN {
            let forward_dy = oriented(color, d).1;
            let mut line = ray(shape, from, d);
            let Some(next) = line.next() else { continue };
            // (b) withdrawal from the neighbour in direction `d`: a slide the other way, a retreat
            // (not forward) direction, onto an empty square.
            if !is_forward(-forward_dy) && shape.offset(from, -d.0, -d.1).is_some_and(|s| empty(pos, s)) {
                set.insert(next);
            }
            // (a) approach along a forward line: every square from distance 2 up to the first
            // piece, over an empty first square.
            if is_forward(forward_dy) && empty(pos, next) {
                for sq in line {
                    set.insert(sq);
                    if !empty(pos, sq) {
                        break;
                    }
                }
            }
        }
        set
    }

    fn may_capture_on(&self, pos: &Position, from: Square, target: Square, cleared: &SquareSet) -> bool {
        let Some(color) = pos.color_at(from) else { return false };
        let Some(line @ (d, dist)) = line_to(pos, from, target) else {
            return false;
        };
        if dist >= 2 {
            // An approach along a forward line, landing just before the target.
            return is_forward(oriented(color, d).1) && path_clear(pos, cleared, from, line);
        }
        // A withdrawal from the neighbour: a retreat the other way, onto a square that may be empty.
        let back = (-d.0, -d.1);
        !is_forward(oriented(color, back).1)
            && pos
                .variant()
                .shape
                .offset(from, back.0, back.1)
                .is_some_and(|s| clear(pos, cleared, s))
    }
}
