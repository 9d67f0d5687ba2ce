//! Hook pieces: behaviour that movement atoms cannot express, each with its move generator and its
//! attack test (check detection depends on both agreeing). Referenced by name from variant data.
//!
//! - Dragon (Wreckage §3.3): queen slides and knight leaps to empty squares only; a slide in a
//!   forward direction captures the piece just beyond its landing square (approach), a slide in a
//!   retreat direction captures the piece next to its start on the opposite side (withdrawal).
//!   Capture is mandatory; the piece types in `hook_immune` (pawns) are never captured.
//! - Detonator (§3.4): queen slides and knight leaps to empty squares; detonation removes every
//!   adjacent enemy piece not in `hook_immune` (ninja pawns) and leaves the Detonator in place.
//! - Flying Guillotine (§3.5): queen slides; fly-over capture of the first piece on a line onto the
//!   empty square beyond it; replacement capture at distance 2 whatever stands between (a friend is
//!   jumped, an enemy is captured too); a short jump over an adjacent friend.

use super::geometry::{Color, Square};
use super::moves::{Move, MoveKind, MoveList, NEIGHBOURS};
use super::piece::HookId;
use super::position::Position;

const KNIGHT: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

/// Queen directions as (dx, dy) in White's view.
const QUEEN: [(i32, i32); 8] = NEIGHBOURS;

/// Is a Dragon direction (owner-relative `dy`) a forward (approach) direction?
#[inline]
fn is_forward(dy: i32) -> bool {
    dy > 0
}

/// Can the hook piece at `from` capture the piece on `sq`?
fn victim(pos: &Position, from: Square, sq: Square) -> bool {
    let (Some(attacker), Some(target)) = (pos.piece_at(from), pos.piece_at(sq)) else {
        return false;
    };
    if target.color() == attacker.color() {
        return false;
    }
    let v = pos.variant();
    v.tables.uncapturable_mask & (1 << target.kind().0) == 0
        && !v.piece(attacker.kind()).hook_immune.contains(&target.kind())
}

fn oriented(color: Color, (dx, dy): (i32, i32)) -> (i32, i32) {
    (dx, dy * color.forward())
}

fn empty(pos: &Position, sq: Square) -> bool {
    pos.piece_at(sq).is_none()
}

/// Knight leaps and queen slides to empty squares, each passed to `visit(direction, to)`.
fn quiet_moves(pos: &Position, from: Square, mut visit: impl FnMut(Option<(i32, i32)>, Square)) {
    let shape = pos.variant().shape;
    for (dx, dy) in KNIGHT {
        if let Some(to) = shape.offset(from, dx, dy)
            && empty(pos, to)
        {
            visit(None, to);
        }
    }
    for d in QUEEN {
        let mut k = 1;
        while let Some(to) = shape.offset(from, d.0 * k, d.1 * k) {
            if !empty(pos, to) {
                break;
            }
            visit(Some(d), to);
            k += 1;
        }
    }
}

/// Adds the moves of a hook piece.
pub fn generate(pos: &Position, hook: HookId, from: Square, list: &mut MoveList) {
    let shape = pos.variant().shape;
    let Some(color) = pos.color_at(from) else { return };
    match hook {
        HookId::Dragon => quiet_moves(pos, from, |dir, to| {
            let victim_sq = dir.and_then(|d| {
                let (_, rel_dy) = oriented(color, d);
                let sq = if is_forward(rel_dy) {
                    shape.offset(to, d.0, d.1)
                } else {
                    shape.offset(from, -d.0, -d.1)
                };
                sq.filter(|&s| victim(pos, from, s))
            });
            match victim_sq {
                Some(sq) => {
                    let mut mv = Move::new(from, to, MoveKind::Special);
                    mv.extra[0] = sq;
                    list.push(mv);
                }
                None => list.push(Move::new(from, to, MoveKind::Normal)),
            }
        }),
        HookId::Detonator => {
            quiet_moves(pos, from, |_, to| list.push(Move::new(from, to, MoveKind::Normal)));
            let mut blast = 0u8;
            for (i, &(dx, dy)) in NEIGHBOURS.iter().enumerate() {
                if let Some(sq) = shape.offset(from, dx, dy)
                    && victim(pos, from, sq)
                {
                    blast |= 1 << i;
                }
            }
            if blast != 0 {
                let mut mv = Move::new(from, from, MoveKind::Special);
                mv.blast = blast;
                list.push(mv);
            }
        }
        HookId::Guillotine => {
            for d in QUEEN {
                let a = shape.offset(from, d.0, d.1);
                let b = shape.offset(from, 2 * d.0, 2 * d.1);
                // Plain slides, then the fly-over capture of the first piece met.
                let mut k = 1;
                while let Some(sq) = shape.offset(from, d.0 * k, d.1 * k) {
                    if empty(pos, sq) {
                        list.push(Move::new(from, sq, MoveKind::Normal));
                        k += 1;
                        continue;
                    }
                    if victim(pos, from, sq)
                        && let Some(beyond) = shape.offset(sq, d.0, d.1)
                        && empty(pos, beyond)
                    {
                        let mut mv = Move::new(from, beyond, MoveKind::Special);
                        mv.extra[0] = sq;
                        list.push(mv);
                    }
                    break;
                }
                let (Some(a), Some(b)) = (a, b) else { continue };
                let a_piece = pos.piece_at(a);
                let a_friend = a_piece.is_some_and(|p| p.color() == color);
                if victim(pos, from, b) {
                    match a_piece {
                        None => list.push(Move::new(from, b, MoveKind::Normal)),
                        Some(_) if a_friend => list.push(Move::new(from, b, MoveKind::Normal)),
                        Some(_) if victim(pos, from, a) => {
                            let mut mv = Move::new(from, b, MoveKind::Special);
                            mv.extra[0] = a;
                            list.push(mv);
                        }
                        Some(_) => {}
                    }
                } else if a_friend && empty(pos, b) {
                    list.push(Move::new(from, b, MoveKind::Normal));
                }
            }
        }
    }
}

/// Does the hook piece on `from` attack `target`, i.e. could it capture a (capturable) enemy
/// piece standing there?
pub fn attacks(pos: &Position, hook: HookId, from: Square, target: Square) -> bool {
    let shape = pos.variant().shape;
    let Some(color) = pos.color_at(from) else { return false };
    // The step from `from` to `target`.
    let dxt = shape.file(target) as i32 - shape.file(from) as i32;
    let dyt = shape.rank(target) as i32 - shape.rank(from) as i32;
    match hook {
        HookId::Dragon => {
            // (a) approach: target on a forward line at distance >= 2 with the squares between empty.
            let (adx, ady) = (dxt.abs(), dyt.abs());
            let on_line = dxt == 0 || dyt == 0 || adx == ady;
            let dist = adx.max(ady);
            if on_line && dist >= 2 {
                let d = (dxt.signum(), dyt.signum());
                if is_forward(oriented(color, d).1)
                    && (1..dist).all(|k| shape.offset(from, d.0 * k, d.1 * k).is_some_and(|s| empty(pos, s)))
                {
                    return true;
                }
            }
            // (b) withdrawal: target adjacent against a retreat direction whose square is empty.
            if dist == 1 && on_line {
                let d = (-dxt, -dyt);
                if !is_forward(oriented(color, d).1) {
                    return shape.offset(from, d.0, d.1).is_some_and(|s| empty(pos, s));
                }
            }
            false
        }
        HookId::Detonator => dxt.abs().max(dyt.abs()) == 1,
        HookId::Guillotine => {
            let (adx, ady) = (dxt.abs(), dyt.abs());
            if !(dxt == 0 || dyt == 0 || adx == ady) || (adx == 0 && ady == 0) {
                return false;
            }
            let dist = adx.max(ady);
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
    }
}
