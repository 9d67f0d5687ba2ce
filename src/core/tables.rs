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
    /// Squares a move onto which may promote, of any kind and colour (every square where a move
    /// leaving a zone promotes).
    pub promotion_targets: SquareSet,
    /// Squares from which a piece could never move again, per `kind * 2 + colour`: no drop goes
    /// there and an optional promotion is forced there.
    pub immobile: Vec<SquareSet>,
    /// Squares a piece of the kind in that colour's hand may be dropped on, per `kind * 2 +
    /// colour`: its drop rule's ranks less `immobile` (empty without a drop rule). Occupancy, the
    /// push of a drop and one-per-file rules depend on the position.
    pub drop_zone: Vec<SquareSet>,
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
    /// Per target square, the squares on the eight queen lines from it (not itself), when some
    /// piece type has a hook (empty otherwise): every hook piece attacking the target stands on
    /// one of them, and only the occupancy and contents of these squares decide whether it does
    /// (Wreckage §3.3–3.5: a Dragon's, Detonator's or Guillotine's attack on a square reads the
    /// squares between, one square beyond the target and two beyond its own square, all on the
    /// line through both).
    pub queen_lines: Vec<SquareSet>,
    /// Piece types that never move backwards (no hook, every atom forward or sideways): a forward
    /// move of one cannot be undone.
    pub advancing_mask: u32,
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

    /// The squares on the queen lines from `target` (see `queen_lines`); none in a variant
    /// without hook pieces, which has no table of them.
    #[inline]
    pub fn queen_lines(&self, target: Square) -> &SquareSet {
        self.queen_lines.get(target.index()).unwrap_or(&SquareSet::EMPTY)
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
            zobrist: Zobrist::new(n, &pieces.iter().map(|p| p.promotion.is_some()).collect::<Vec<_>>()),
            ..Tables::default()
        };
        for (k, p) in pieces.iter().enumerate() {
            t.note_piece(k, p);
        }
        // Forward rays, per piece, colour and square.
        for p in pieces {
            for color in Color::BOTH {
                t.add_forward_rays(shape, p, color);
            }
        }
        for zone in &t.promotion_zone {
            t.promotion_targets = t.promotion_targets.union(zone);
        }
        if pieces
            .iter()
            .any(|p| p.promotion.as_ref().is_some_and(|pr| pr.from_zone))
        {
            t.promotion_targets = shape.squares().collect();
        }
        // Reverse attack tables, per attacking colour and target square.
        for color in Color::BOTH {
            for target in shape.squares() {
                t.add_attacks_on(shape, pieces, color, target);
            }
        }
        if t.hook_mask != 0 {
            t.queen_lines = shape
                .squares()
                .map(|target| {
                    let (f, r) = (shape.file(target) as i32, shape.rank(target) as i32);
                    shape
                        .squares()
                        .filter(|&s| {
                            let (dx, dy) = (shape.file(s) as i32 - f, shape.rank(s) as i32 - r);
                            s != target && (dx == 0 || dy == 0 || dx.abs() == dy.abs())
                        })
                        .collect()
                })
                .collect();
        }
        t
    }

    /// The masks and flags of piece kind `k`.
    fn note_piece(&mut self, k: usize, p: &PieceType) {
        if p.hook.is_some() {
            self.hook_mask |= 1 << k;
        } else if p.movement.atoms.iter().all(|a| a.dy >= 0) {
            self.advancing_mask |= 1 << k;
        }
        if p.movement.atoms.iter().any(|a| a.modes & mode::HOP != 0) {
            self.has_hoppers = true;
        }
        if p.promotion.as_ref().is_some_and(|pr| pr.convert.is_some()) {
            self.multi_move_turns = true;
        }
        if p.royalty == super::piece::Royalty::Rose {
            self.uncapturable_mask |= 1 << k;
        }
    }

    /// The promotion zone, the rays from every square, the squares it cannot leave and its drop
    /// zone, of piece `p` of `color`.
    fn add_forward_rays(&mut self, shape: BoardShape, p: &PieceType, color: Color) {
        let mut zone = SquareSet::EMPTY;
        if let Some(promo) = &p.promotion {
            for sq in shape.squares() {
                if promo.ranks.contains(&shape.relative_rank(sq, color)) {
                    zone.insert(sq);
                }
            }
        }
        self.promotion_zone.push(zone);
        let mut immobile = SquareSet::EMPTY;
        for sq in shape.squares() {
            let begin = self.rays.len() as u32;
            let rel = shape.relative_rank(sq, color);
            for atom in &p.movement.atoms {
                if atom.modes & mode::INITIAL != 0 && !p.initial_ranks.contains(&rel) {
                    continue;
                }
                self.add_atom_ray(shape, p, color, sq, atom);
            }
            if let Some(push) = &p.push {
                self.add_push_ray(shape, p, color, sq, push.get(rel as usize).copied().unwrap_or(0) as i32);
            }
            if begin == self.rays.len() as u32 && p.hook.is_none() {
                immobile.insert(sq);
            }
            self.ray_index.push((begin, self.rays.len() as u32));
        }
        let mut drop_zone = SquareSet::EMPTY;
        if let Some(rule) = &p.drop {
            for sq in shape.squares() {
                if rule.ranks.contains(&shape.relative_rank(sq, color)) && !immobile.contains(sq) {
                    drop_zone.insert(sq);
                }
            }
        }
        self.immobile.push(immobile);
        self.drop_zone.push(drop_zone);
    }

    /// The ray of one atom of piece `p` of `color` from `sq`, if it has a square.
    fn add_atom_ray(&mut self, shape: BoardShape, p: &PieceType, color: Color, sq: Square, atom: &MoveAtom) {
        let (dx, dy) = orient(atom, color);
        let start = self.ray_squares.len() as u32;
        let (first_dest, multi_step) = if atom.modes & mode::LAME != 0 {
            // A lame leap walks unit steps; only the last square is a destination.
            let k = dx.abs().max(dy.abs());
            let (ux, uy) = (dx / k, dy / k);
            let path: Vec<Square> = (1..=k).map_while(|i| shape.offset(sq, ux * i, uy * i)).collect();
            if path.len() as i32 != k {
                return;
            }
            self.ray_squares.extend(path);
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
                    Some(s) => self.ray_squares.push(s),
                    None => break,
                }
                i += 1;
            }
            (0, false)
        };
        let len = self.ray_squares.len() as u32 - start;
        if len == 0 {
            return;
        }
        self.rays.push(Ray {
            start,
            len: len as u8,
            first_dest,
            modes: atom.modes & !(mode::INITIAL | mode::LAME),
            multi_step,
        });
    }

    /// The push (a pawn's straight move of up to `max` squares) of piece `p` of `color` from `sq`.
    fn add_push_ray(&mut self, shape: BoardShape, p: &PieceType, color: Color, sq: Square, max: i32) {
        let start = self.ray_squares.len() as u32;
        for i in 1..=max {
            match shape.offset(sq, 0, color.forward() * i) {
                Some(s) => self.ray_squares.push(s),
                None => break,
            }
        }
        let len = self.ray_squares.len() as u32 - start;
        if len > 0 {
            self.rays.push(Ray {
                start,
                len: len as u8,
                first_dest: 0,
                modes: mode::MOVE,
                multi_step: p.en_passant_victim,
            });
        }
    }

    /// Where `color`'s pieces attack `target` from: leaps, e.p. captures, rides, and the squares
    /// on their lines.
    fn add_attacks_on(&mut self, shape: BoardShape, pieces: &[PieceType], color: Color, target: Square) {
        let leap_begin = self.leap_attacks.len() as u32;
        let ep_begin = self.ep_attacks.len() as u32;
        let ride_begin = self.ride_attacks.len() as u32;
        let mut lines = SquareSet::EMPTY;
        for (k, p) in pieces.iter().enumerate() {
            if p.hook.is_some() {
                continue;
            }
            for atom in &p.movement.atoms {
                if atom.modes & mode::CAPTURE == 0 {
                    continue;
                }
                let hop = atom.modes & mode::HOP != 0;
                if atom.max_steps == 1 && !hop {
                    self.add_leap_attack(shape, p, k, color, target, atom, leap_begin, &mut lines);
                } else {
                    self.add_ride_attack(shape, k, color, target, atom, ride_begin, &mut lines);
                }
            }
        }
        self.leap_index.push((leap_begin, self.leap_attacks.len() as u32));
        self.ep_index.push((ep_begin, self.ep_attacks.len() as u32));
        self.ride_index.push((ride_begin, self.ride_attacks.len() as u32));
        self.line_mask.push(lines);
    }

    /// A leaping capture of kind `k` onto `target` (entries of this target from `leap_begin` on).
    #[allow(clippy::too_many_arguments)]
    fn add_leap_attack(
        &mut self,
        shape: BoardShape,
        p: &PieceType,
        k: usize,
        color: Color,
        target: Square,
        atom: &MoveAtom,
        leap_begin: u32,
        lines: &mut SquareSet,
    ) {
        let (dx, dy) = orient(atom, color);
        let Some(from) = shape.offset(target, -dx, -dy) else {
            return;
        };
        if atom.modes & mode::INITIAL != 0 && !p.initial_ranks.contains(&shape.relative_rank(from, color)) {
            return;
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
            self.ep_attacks.push(LeapAttack {
                from,
                mask: 1 << k,
                block,
            });
        }
        lines.extend_from(&blocks);
        let range = leap_begin as usize..self.leap_attacks.len();
        match self.leap_attacks[range]
            .iter_mut()
            .find(|e| e.from == from && e.block == block)
        {
            Some(e) => e.mask |= 1 << k,
            None => self.leap_attacks.push(LeapAttack {
                from,
                mask: 1 << k,
                block,
            }),
        }
    }

    /// A riding (or hopping) capture of kind `k` onto `target` (entries of this target from
    /// `ride_begin` on).
    #[allow(clippy::too_many_arguments)]
    fn add_ride_attack(
        &mut self,
        shape: BoardShape,
        k: usize,
        color: Color,
        target: Square,
        atom: &MoveAtom,
        ride_begin: u32,
        lines: &mut SquareSet,
    ) {
        let (dx, dy) = orient(atom, color);
        let hop = atom.modes & mode::HOP != 0;
        let max_steps = atom.max_steps;
        let range = ride_begin as usize..self.ride_attacks.len();
        let existing = self.ride_attacks[range].iter().position(|r| {
            r.max_steps == max_steps
                && r.hop == hop
                && self.ride_squares.get(r.start as usize) == shape.offset(target, -dx, -dy).as_ref()
        });
        if let Some(i) = existing {
            self.ride_attacks[ride_begin as usize + i].mask |= 1 << k;
            return;
        }
        let start = self.ride_squares.len() as u32;
        let mut i = 1;
        while let Some(s) = shape.offset(target, -dx * i, -dy * i) {
            if max_steps != 0 && i > max_steps as i32 {
                break;
            }
            self.ride_squares.push(s);
            lines.insert(s);
            i += 1;
        }
        let len = self.ride_squares.len() as u32 - start;
        if len > 0 {
            self.ride_attacks.push(RideAttack {
                start,
                len: len as u8,
                mask: 1 << k,
                max_steps,
                hop,
            });
        }
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

#[cfg(test)]
mod tests {
    use crate::variants::Registry;

    /// Queen lines: every square on the eight lines from a square in a game with hook pieces
    /// (27 from a corner of Wreckage's 10x10 board, 9 on each line), none in one without.
    #[test]
    fn queen_lines_only_in_a_game_with_hook_pieces() {
        let registry = Registry::builtin();
        let wreckage = registry.get("wreckage").expect("wreckage");
        let corner = wreckage.shape.squares().next().expect("a square");
        assert_eq!(wreckage.tables.queen_lines(corner).len(), 27);
        let chess = registry.get("normal").expect("normal");
        assert!(chess.shape.squares().all(|s| chess.tables.queen_lines(s).is_empty()));
    }
}
