//! Tables precomputed from a variant's data: where each piece type can go from each square (rays),
//! which squares can attack each square (reverse rays), and Zobrist keys. Move generation and attack
//! detection read only these, so they never ask which variant they are playing.

use super::betza::{MoveAtom, mode};
use super::geometry::{BoardShape, Color, Square, SquareSet};
use super::piece::{MAX_KINDS, PieceType};
use super::zobrist::Zobrist;

/// One line of destinations of a piece type from a square.
#[derive(Copy, Clone, Debug)]
pub struct Ray {
    /// Start of the squares in `Tables::ray_squares`.
    pub start: u32,
    pub len: u8,
    /// Squares before this index must be empty and are no destinations (lame leaps).
    pub first_dest: u8,
    pub modes: u8,
    /// A lame forward push: moving two or more squares along it may give an en-passant right.
    pub multi_step: bool,
}

/// Squares from which pieces of `mask` attack a square with one leap.
#[derive(Copy, Clone, Debug)]
pub struct LeapAttack {
    pub from: Square,
    pub mask: u32,
    /// Must be empty for the attack (lame leaps), or `Square::NONE`.
    pub block: Square,
}

/// A line from a square outwards along which pieces of `mask` attack it.
#[derive(Copy, Clone, Debug)]
pub struct RideAttack {
    pub start: u32,
    pub len: u8,
    pub mask: u32,
    /// 0 = unlimited.
    pub max_steps: u8,
    /// The attacker must hop over exactly one screen.
    pub hop: bool,
}

#[derive(Debug, Default)]
pub struct Tables {
    pub num_squares: usize,
    pub rays: Vec<Ray>,
    pub ray_squares: Vec<Square>,
    /// Range into `rays` for `(kind * 2 + colour) * num_squares + square`.
    pub ray_index: Vec<(u32, u32)>,
    /// Promotion squares per `kind * 2 + colour`.
    pub promotion_zone: Vec<SquareSet>,
    /// Squares from which a piece could never move again, per `kind * 2 + colour`: no drop goes
    /// there and an optional promotion is forced there.
    pub immobile: Vec<SquareSet>,
    pub leap_attacks: Vec<LeapAttack>,
    /// Range into `leap_attacks` for `attacker colour * num_squares + target`.
    pub leap_index: Vec<(u32, u32)>,
    /// Like `leap_attacks`, for en-passant captures only.
    pub ep_attacks: Vec<LeapAttack>,
    pub ep_index: Vec<(u32, u32)>,
    pub ride_attacks: Vec<RideAttack>,
    pub ride_squares: Vec<Square>,
    pub ride_index: Vec<(u32, u32)>,
    /// Squares whose change of occupancy may change whether `colour` attacks a square through a
    /// rider, hopper or lame leaper: `attacker colour * num_squares + target`.
    pub line_mask: Vec<SquareSet>,
    /// Some piece type captures by hopping.
    pub has_hoppers: bool,
    /// Some piece type grows roses: turns may consist of several moves.
    pub multi_move_turns: bool,
    /// Piece types with a hook.
    pub hook_mask: u32,
    /// Piece types that cannot be captured (roses).
    pub uncapturable_mask: u32,
    pub zobrist: Zobrist,
}

fn orient(atom: &MoveAtom, color: Color) -> (i32, i32) {
    (atom.dx as i32, atom.dy as i32 * color.forward())
}

impl Tables {
    #[inline]
    pub fn rays(&self, kind: usize, color: Color, sq: Square) -> &[Ray] {
        let (a, b) = self.ray_index[(kind * 2 + color as usize) * self.num_squares + sq.index()];
        &self.rays[a as usize..b as usize]
    }

    #[inline]
    pub fn ray_squares(&self, ray: &Ray) -> &[Square] {
        &self.ray_squares[ray.start as usize..ray.start as usize + ray.len as usize]
    }

    #[inline]
    pub fn leap_attacks(&self, color: Color, target: Square) -> &[LeapAttack] {
        let (a, b) = self.leap_index[color as usize * self.num_squares + target.index()];
        &self.leap_attacks[a as usize..b as usize]
    }

    #[inline]
    pub fn ep_attacks(&self, color: Color, target: Square) -> &[LeapAttack] {
        let (a, b) = self.ep_index[color as usize * self.num_squares + target.index()];
        &self.ep_attacks[a as usize..b as usize]
    }

    #[inline]
    pub fn ride_attacks(&self, color: Color, target: Square) -> &[RideAttack] {
        let (a, b) = self.ride_index[color as usize * self.num_squares + target.index()];
        &self.ride_attacks[a as usize..b as usize]
    }

    #[inline]
    pub fn ride_squares(&self, r: &RideAttack) -> &[Square] {
        &self.ride_squares[r.start as usize..r.start as usize + r.len as usize]
    }

    #[inline]
    pub fn line_mask(&self, attacker: Color, target: Square) -> &SquareSet {
        &self.line_mask[attacker as usize * self.num_squares + target.index()]
    }

    /// The attack tables and Zobrist keys of a board and its pieces.
    ///
    /// # Panics
    ///
    /// More piece kinds than [`MAX_KINDS`]: a variant is validated before its tables are built.
    pub fn build(shape: BoardShape, pieces: &[PieceType]) -> Tables {
        assert!(
            pieces.len() <= MAX_KINDS,
            "piece table validated before building tables"
        );
        let n = shape.num_squares();
        let mut t = Tables {
            num_squares: n,
            zobrist: Zobrist::new(n, pieces.len()),
            ..Tables::default()
        };
        for (k, p) in pieces.iter().enumerate() {
            if p.hook.is_some() {
                t.hook_mask |= 1 << k;
            }
            if p.movement.atoms.iter().any(|a| a.modes & mode::HOP != 0) {
                t.has_hoppers = true;
            }
            if p.promotion.as_ref().is_some_and(|pr| pr.convert.is_some()) {
                t.multi_move_turns = true;
            }
            if p.royalty == super::piece::Royalty::Rose {
                t.uncapturable_mask |= 1 << k;
            }
        }
        // Forward rays.
        for p in pieces {
            for color in Color::BOTH {
                let mut zone = SquareSet::EMPTY;
                if let Some(promo) = &p.promotion {
                    for sq in shape.squares() {
                        if promo.ranks.contains(&shape.relative_rank(sq, color)) {
                            zone.insert(sq);
                        }
                    }
                }
                t.promotion_zone.push(zone);
                let mut immobile = SquareSet::EMPTY;
                for sq in shape.squares() {
                    let begin = t.rays.len() as u32;
                    let rel = shape.relative_rank(sq, color);
                    for atom in &p.movement.atoms {
                        if atom.modes & mode::INITIAL != 0 && !p.initial_ranks.contains(&rel) {
                            continue;
                        }
                        let (dx, dy) = orient(atom, color);
                        let start = t.ray_squares.len() as u32;
                        let (first_dest, multi_step) = if atom.modes & mode::LAME != 0 {
                            // A lame leap walks unit steps; only the last square is a destination.
                            let k = dx.abs().max(dy.abs());
                            let (ux, uy) = (dx / k, dy / k);
                            let path: Vec<Square> = (1..=k).map_while(|i| shape.offset(sq, ux * i, uy * i)).collect();
                            if path.len() as i32 != k {
                                continue;
                            }
                            t.ray_squares.extend(path);
                            ((k - 1) as u8, p.en_passant_victim && dx == 0)
                        } else {
                            let max = if atom.max_steps == 0 {
                                255
                            } else {
                                atom.max_steps as i32
                            };
                            let mut i = 1;
                            while i <= max {
                                match shape.offset(sq, dx * i, dy * i) {
                                    Some(s) => t.ray_squares.push(s),
                                    None => break,
                                }
                                i += 1;
                            }
                            (0, false)
                        };
                        let len = t.ray_squares.len() as u32 - start;
                        if len == 0 {
                            continue;
                        }
                        t.rays.push(Ray {
                            start,
                            len: len as u8,
                            first_dest,
                            modes: atom.modes & !(mode::INITIAL | mode::LAME),
                            multi_step,
                        });
                    }
                    if let Some(push) = &p.push {
                        let max = push.get(rel as usize).copied().unwrap_or(0) as i32;
                        let start = t.ray_squares.len() as u32;
                        for i in 1..=max {
                            match shape.offset(sq, 0, color.forward() * i) {
                                Some(s) => t.ray_squares.push(s),
                                None => break,
                            }
                        }
                        let len = t.ray_squares.len() as u32 - start;
                        if len > 0 {
                            t.rays.push(Ray {
                                start,
                                len: len as u8,
                                first_dest: 0,
                                modes: mode::MOVE,
                                multi_step: p.en_passant_victim,
                            });
                        }
                    }
                    if begin == t.rays.len() as u32 && p.hook.is_none() {
                        immobile.insert(sq);
                    }
                    t.ray_index.push((begin, t.rays.len() as u32));
                }
                t.immobile.push(immobile);
            }
        }
        // Reverse attack tables, per attacking colour and target square.
        for color in Color::BOTH {
            for target in shape.squares() {
                let leap_begin = t.leap_attacks.len() as u32;
                let ep_begin = t.ep_attacks.len() as u32;
                let ride_begin = t.ride_attacks.len() as u32;
                let mut lines = SquareSet::EMPTY;
                for (k, p) in pieces.iter().enumerate() {
                    if p.hook.is_some() {
                        continue;
                    }
                    for atom in &p.movement.atoms {
                        if atom.modes & mode::CAPTURE == 0 {
                            continue;
                        }
                        let (dx, dy) = orient(atom, color);
                        let hop = atom.modes & mode::HOP != 0;
                        if atom.max_steps == 1 && !hop {
                            let Some(from) = shape.offset(target, -dx, -dy) else {
                                continue;
                            };
                            if atom.modes & mode::INITIAL != 0
                                && !p.initial_ranks.contains(&shape.relative_rank(from, color))
                            {
                                continue;
                            }
                            let mut blocks = Vec::new();
                            if atom.modes & mode::LAME != 0 {
                                let steps = dx.abs().max(dy.abs());
                                for i in 1..steps {
                                    if let Some(b) = shape.offset(from, dx / steps * i, dy / steps * i) {
                                        blocks.push(b);
                                    }
                                }
                            }
                            // Only single-square blocks are stored; longer lame leaps are not used.
                            let block = blocks.first().copied().unwrap_or(Square::NONE);
                            if atom.modes & mode::EN_PASSANT != 0 {
                                t.ep_attacks.push(LeapAttack {
                                    from,
                                    mask: 1 << k,
                                    block,
                                });
                            }
                            lines.extend_from(&blocks);
                            let range = leap_begin as usize..t.leap_attacks.len();
                            match t.leap_attacks[range]
                                .iter_mut()
                                .find(|e| e.from == from && e.block == block)
                            {
                                Some(e) => e.mask |= 1 << k,
                                None => t.leap_attacks.push(LeapAttack {
                                    from,
                                    mask: 1 << k,
                                    block,
                                }),
                            }
                        } else {
                            let max_steps = atom.max_steps;
                            let range = ride_begin as usize..t.ride_attacks.len();
                            let existing = t.ride_attacks[range].iter().position(|r| {
                                r.max_steps == max_steps
                                    && r.hop == hop
                                    && t.ride_squares.get(r.start as usize) == shape.offset(target, -dx, -dy).as_ref()
                            });
                            if let Some(i) = existing {
                                t.ride_attacks[ride_begin as usize + i].mask |= 1 << k;
                                continue;
                            }
                            let start = t.ride_squares.len() as u32;
                            let mut i = 1;
                            while let Some(s) = shape.offset(target, -dx * i, -dy * i) {
                                if max_steps != 0 && i > max_steps as i32 {
                                    break;
                                }
                                t.ride_squares.push(s);
                                lines.insert(s);
                                i += 1;
                            }
                            let len = t.ride_squares.len() as u32 - start;
                            if len > 0 {
                                t.ride_attacks.push(RideAttack {
                                    start,
                                    len: len as u8,
                                    mask: 1 << k,
                                    max_steps,
                                    hop,
                                });
                            }
                        }
                    }
                }
                t.leap_index.push((leap_begin, t.leap_attacks.len() as u32));
                t.ep_index.push((ep_begin, t.ep_attacks.len() as u32));
                t.ride_index.push((ride_begin, t.ride_attacks.len() as u32));
                t.line_mask.push(lines);
            }
        }
        t
    }
}

trait ExtendFrom {
    fn extend_from(&mut self, squares: &[Square]);
}

impl ExtendFrom for SquareSet {
    fn extend_from(&mut self, squares: &[Square]) {
        for &s in squares {
            self.insert(s);
        }
    }
}
