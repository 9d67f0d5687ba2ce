//! Hook pieces: behaviour that movement atoms cannot express. A hook is a named implementation of
//! `Hook`, registered in `HOOKS` and referenced by name from variant data. Its quiet moves come
//! from its Betza string like any piece's; the hook adds its captures (and may turn a quiet move
//! into a capture) and answers which squares it attacks — check detection depends on both agreeing.
//!
//! To add one: a file here with a unit struct implementing `Hook`, and an entry in `HOOKS`. Its
//! attack on a square must keep the contract of `Hook::attacks`: only from a square on the queen
//! lines through the target, reading only squares on those lines (`Tables::queen_lines`).

mod detonator;
mod dragon;
mod guillotine;

use std::fmt;

use super::geometry::{BoardShape, Color, Square, SquareSet};
use super::moves::{Move, MoveList};
use super::position::Position;

/// A piece's behaviour beyond its movement atoms. Every hook attacks a square only from a square
/// on the eight queen lines through it, and whether it does depends only on the occupancy and
/// contents of squares on those lines (see `attacks`).
pub trait Hook: Sync {
    /// The name a definition file uses (`hook = "dragon"`).
    fn name(&self) -> &'static str;

    /// The Betza string of its quiet moves, for a definition that gives none.
    fn quiet_betza(&self) -> &'static str;

    /// Rewrites a quiet move generated from its Betza data where the hook makes it a capture (a
    /// Dragon's approach or withdrawal). `mv` starts on `from`.
    fn adjust_quiet(&self, _pos: &Position, _from: Square, _mv: &mut Move) {}

    /// Adds the moves that its Betza data cannot give (its captures) for the piece on `from`.
    fn captures(&self, pos: &Position, from: Square, list: &mut MoveList);

    /// Does the piece on `from` attack `target`, i.e. could it capture a (capturable) enemy piece
    /// standing there? Contract: `true` only if `from` is on a queen line through `target`, and the
    /// answer reads no square off those lines (`Tables::queen_lines`): check detection skips hook
    /// pieces off them, and legality and `Position::cannot_give_check` trust a move that neither
    /// leaves nor enters one of them not to change a hook's attack on a king.
    fn attacks(&self, pos: &Position, from: Square, target: Square) -> bool;

    /// Every square the piece on `from` attacks: exactly those `target`s for which `attacks` is
    /// true, at once (the evaluation's attack maps). This default asks `attacks` square by
    /// square; a hook gives a faster one walking its lines.
    fn attack_set(&self, pos: &Position, from: Square) -> SquareSet {
        pos.variant()
            .shape
            .squares()
            .filter(|&target| self.attacks(pos, from, target))
            .collect()
    }

    /// Could the piece on `from` capture an enemy piece (one it may capture) standing on `target`
    /// on this board or on one where any of the pieces on `cleared` have left? Static exchange
    /// evaluation asks, with the squares whose pieces may leave to capture on `target` during the
    /// exchange, and declines when the answer is yes. It must be sound: `true` whenever some such
    /// board allows a move of the piece that removes the one on `target` (which piece stands there
    /// is for the caller: `hook_immune`); it may be `true` more often. This default always is.
    fn may_capture_on(&self, _pos: &Position, _from: Square, _target: Square, _cleared: &SquareSet) -> bool {
        true
    }
}

/// Every hook, by name.
const HOOKS: [HookRef; 3] = [
    HookRef(&dragon::Dragon),
    HookRef(&detonator::Detonator),
    HookRef(&guillotine::Guillotine),
];

/// A registered hook (compared and printed by name).
#[derive(Copy, Clone)]
pub struct HookRef(&'static dyn Hook);

impl HookRef {
    /// The hook registered as `name`.
    pub fn named(name: &str) -> Option<HookRef> {
        HOOKS.iter().copied().find(|h| h.name() == name)
    }

    /// The names of all hooks (for error messages).
    pub fn names() -> impl Iterator<Item = &'static str> {
        HOOKS.iter().map(|h| h.name())
    }
}

impl std::ops::Deref for HookRef {
    type Target = dyn Hook;
    fn deref(&self) -> &Self::Target {
        self.0
    }
}

impl PartialEq for HookRef {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl Eq for HookRef {}

impl fmt::Debug for HookRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hook({})", self.name())
    }
}

// ----- what the hooks share -----

/// Queen directions as (dx, dy) in White's view.
const QUEEN: [(i32, i32); 8] = super::moves::NEIGHBOURS;

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

/// A direction in its owner's view (`dy > 0` is forward).
fn oriented(color: Color, (dx, dy): (i32, i32)) -> (i32, i32) {
    (dx, dy * color.forward())
}

fn empty(pos: &Position, sq: Square) -> bool {
    pos.piece_at(sq).is_none()
}

/// Is `sq` empty, or may its piece have left (one of `cleared`)?
fn clear(pos: &Position, cleared: &SquareSet, sq: Square) -> bool {
    cleared.contains(sq) || empty(pos, sq)
}

/// The line from `from` to `target`: its unit step and the distance, if they share a queen line.
fn line_to(pos: &Position, from: Square, target: Square) -> Option<((i32, i32), i32)> {
    let s = step(pos, from, target);
    on_line(s).then(|| ((s.0.signum(), s.1.signum()), s.0.abs().max(s.1.abs())))
}

/// Are the squares strictly between `from` and the square `dist` steps of `d` away all `clear`?
fn path_clear(pos: &Position, cleared: &SquareSet, from: Square, (d, dist): ((i32, i32), i32)) -> bool {
    ray(pos.variant().shape, from, d)
        .take((dist - 1) as usize)
        .all(|sq| clear(pos, cleared, sq))
}

/// The step from `from` to `to` as (dx, dy).
fn step(pos: &Position, from: Square, to: Square) -> (i32, i32) {
    let shape = pos.variant().shape;
    (
        shape.file(to) as i32 - shape.file(from) as i32,
        shape.rank(to) as i32 - shape.rank(from) as i32,
    )
}

/// The squares from `from` (not included) in direction `(dx, dy)` to the edge, nearest first:
/// coordinates kept as numbers so that each step costs no division.
fn ray(shape: BoardShape, from: Square, (dx, dy): (i32, i32)) -> impl Iterator<Item = Square> {
    let (files, ranks) = (shape.files as i32, shape.ranks as i32);
    let (mut f, mut r) = (shape.file(from) as i32, shape.rank(from) as i32);
    std::iter::from_fn(move || {
        f += dx;
        r += dy;
        (f >= 0 && r >= 0 && f < files && r < ranks).then(|| Square((r * files + f) as u8))
    })
}

/// Is the step a queen line (orthogonal or diagonal, not null)?
fn on_line((dx, dy): (i32, i32)) -> bool {
    (dx == 0 || dy == 0 || dx.abs() == dy.abs()) && (dx, dy) != (0, 0)
}
