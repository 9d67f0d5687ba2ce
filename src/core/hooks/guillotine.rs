//! Flying Guillotine (Wreckage §3.5): queen slides (its Betza data, `mQ`); fly-over capture of the
//! first piece on a line onto the empty square beyond it; replacement capture at distance 2
//! whatever stands between (a friend is jumped, an enemy is captured too); a short jump over an
//! adjacent friend.

use super::{Hook, MoveList, QUEEN, clear, empty, line_to, on_line, path_clear, ray, step, victim};
use crate::core::geometry::{Square, SquareSet};
use crate::core::moves::{Blast, Move};
use crate::core::position::Position;

pub struct Guillotine;

impl Hook for Guillotine {
    fn name(&self) -> &'static str {
        "guillotine"
    }

    fn quiet_betza(&self) -> &'static str {
        "mQ"
    }

    fn captures(&self, pos: &Position, from: Square, list: &mut MoveList) {
        let shape = pos.variant().shape;
        let Some(color) = pos.color_at(from) else { return };
        for d in QUEEN {
            // The fly-over capture of the first piece met (the slides before it are Betza's).
            let mut k = 1;
            while let Some(sq) = shape.offset(from, d.0 * k, d.1 * k) {
                if empty(pos, sq) {
                    k += 1;
                    continue;
                }
                if victim(pos, from, sq)
                    && let Some(beyond) = shape.offset(sq, d.0, d.1)
                    && empty(pos, beyond)
                {
                    list.push(Move::Special {
                        from,
                        to: beyond,
                        victim: Some(sq),
                        blast: Blast::NONE,
                        promotion: None,
                    });
                }
                break;
            }
            let (Some(a), Some(b)) = (shape.offset(from, d.0, d.1), shape.offset(from, 2 * d.0, 2 * d.1)) else {
                continue;
            };
            let a_piece = pos.piece_at(a);
            let a_friend = a_piece.is_some_and(|p| p.color() == color);
            if victim(pos, from, b) {
                match a_piece {
                    None => list.push(Move::normal(from, b)),
                    Some(_) if a_friend => list.push(Move::normal(from, b)),
                    Some(_) if victim(pos, from, a) => {
                        list.push(Move::Special {
                            from,
                            to: b,
                            victim: Some(a),
                            blast: Blast::NONE,
                            promotion: None,
                        });
                    }
                    Some(_) => {}
                }
            } else if a_friend && empty(pos, b) {
                list.push(Move::normal(from, b));
            }
        }
    }

    fn attacks(&self, pos: &Position, from: Square, target: Square) -> bool {
        let shape = pos.variant().shape;
        let (dxt, dyt) = step(pos, from, target);
        if !on_line((dxt, dyt)) {
            return false;
        }
        let dist = dxt.abs().max(dyt.abs());
        let d = (dxt.signum(), dyt.signum());
        if dist == 2 {
            return true;
        }
        // Fly-over: target is the first piece on the line and the square beyond is empty.
        let first = (1..dist).all(|k| shape.offset(from, d.0 * k, d.1 * k).is_some_and(|s| empty(pos, s)));
        if first && shape.offset(target, d.0, d.1).is_some_and(|s| empty(pos, s)) {
            return true;
        }
        // Double capture: target adjacent and a capturable enemy two squares away (whatever
        // stands on the target now: the question is about an enemy piece standing there).
        if dist == 1
            && let Some(b) = shape.offset(from, 2 * d.0, 2 * d.1)
        {
            return victim(pos, from, b);
        }
        false
    }

    fn attack_set(&self, pos: &Position, from: Square) -> SquareSet {
        let shape = pos.variant().shape;
        let mut set = SquareSet::EMPTY;
        for d in QUEEN {
            let mut line = ray(shape, from, d);
            let (Some(near), Some(far)) = (line.next(), line.next()) else {
                // A lone neighbour on the edge: nothing beyond it to land on or take.
                continue;
            };
            // Distance 2: replacement capture whatever stands between.
            set.insert(far);
            // The neighbour: a fly-over onto an empty `far`, or a double capture with a victim there.
            if empty(pos, far) || victim(pos, from, far) {
                set.insert(near);
            }
            // Farther: a fly-over of the first piece on the line onto the empty square beyond it.
            if !(empty(pos, near) && empty(pos, far)) {
                continue;
            }
            let mut target = line.next();
            while let Some(sq) = target {
                let beyond = line.next();
                if beyond.is_some_and(|b| empty(pos, b)) {
                    set.insert(sq);
                }
                if !empty(pos, sq) {
                    break;
                }
                target = beyond;
            }
        }
        set
    }

    fn may_capture_on(&self, pos: &Position, from: Square, target: Square, cleared: &SquareSet) -> bool {
        let Some(line @ (d, dist)) = line_to(pos, from, target) else {
            return false;
        };
        // Distance 2: a replacement (or double) capture, whatever stands between.
        if dist == 2 {
            return true;
        }
        let beyond = pos.variant().shape.offset(target, d.0, d.1);
        // A fly-over: the target the first piece on the line, the square beyond it empty.
        if path_clear(pos, cleared, from, line) && beyond.is_some_and(|b| clear(pos, cleared, b)) {
            return true;
        }
        // A double capture of the neighbour and an enemy beyond it.
        dist == 1 && beyond.is_some_and(|b| victim(pos, from, b))
    }
}
