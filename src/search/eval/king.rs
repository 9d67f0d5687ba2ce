//! King safety: the king's neighbourhood, the danger the enemy's attacks and safe checks make
//! there, and the pawn shelter and storms in front of it.

use crate::core::{Color, Square, SquareSet};
use crate::search::score::EVAL_LIMIT;

use super::{CHECK_SLOTS, S, Shared, Side, check_slot, king_distance, s};

impl Shared<'_> {
    /// The squares around `color`'s king (empty in games without kings).
    #[inline]
    pub(super) fn king_zone(&self, color: Color) -> SquareSet {
        match self.kings[color as usize] {
            Some(k) if !self.t.kingless => self.t.king_zones[k.index()],
            _ => SquareSet::EMPTY,
        }
    }

    /// `color`'s king ring (`EvalTables::ring`) less the squares two of its (`side`'s) pawns defend;
    /// empty without a king.
    #[inline]
    pub(super) fn king_ring(&self, side: &Side, color: Color) -> SquareSet {
        match self.kings[color as usize] {
            Some(k) if !self.t.kingless => self.t.ring[k.index()].difference(&side.pawn_att2),
            _ => SquareSet::EMPTY,
        }
    }

    /// Stockfish 11's king danger `color` makes for the enemy king, and its flank attack (see
    /// `eval_params`), as a bonus for `color`. Out of line: only games that weight it call it.
    #[inline(never)]
    pub(super) fn king_danger_sf(&self, sides: &[Side; 2], color: Color) -> S {
        let (t, w) = (self.t, self.w);
        let c = color as usize;
        let (own, enemy) = (&sides[c], &sides[1 - c]);
        let Some(king) = self.kings[1 - c].filter(|_| !t.kingless) else {
            return S::default();
        };
        let full_ring = t.ring[king.index()];
        let ring = full_ring.difference(&enemy.pawn_att2);
        // Pawns count as attackers per ring square they hit (before the squares two defending
        // pawns cover are taken out, as Stockfish), with no weight of their own.
        let attackers = own.kd_attackers + full_ring.intersection(&own.pawn_attacks).len() as i32;
        let mut kd = attackers * own.kd_weight + own.kd_adjacent * w.kd_adjacent;
        let guarded = enemy.att.difference(&enemy.royal_att.union(&enemy.heavy_att));
        let weak = own.att.difference(&enemy.att2).difference(&guarded);
        kd += ring.intersection(&weak).len() as i32 * w.kd_weak_ring;
        if own.check_kinds & own.board_kinds != 0 {
            // Safe squares to check from: not defended (or weak and attacked twice), not its own.
            let unsafe_squares = enemy.att.difference(&weak.intersection(&own.att2)).union(&own.occupied);
            let checks = self.check_squares(color, king, own.check_kinds);
            // Per slot of a kind on the board: the squares it reaches and checks from, its weight.
            let mut reach = [SquareSet::EMPTY; CHECK_SLOTS];
            let mut weight = [i32::MIN; CHECK_SLOTS];
            let mut heavy = [false; CHECK_SLOTS];
            let mut kinds = own.check_kinds;
            let mut slot = 0;
            while kinds != 0 && slot < CHECK_SLOTS {
                let k = kinds.trailing_zeros() as usize;
                kinds &= kinds - 1;
                if own.board_kinds & (1 << k) != 0 {
                    reach[slot] = checks[slot].intersection(&own.kind_dest[slot]);
                    weight[slot] = w.kinds[k].kd_check;
                    heavy[slot] = t.kinds[k].heavy;
                }
                slot += 1;
            }
            let mut unsafe_checks = SquareSet::EMPTY;
            let slots = reach.iter().zip(weight.iter().zip(heavy)).take(slot);
            for (own_reach, (&own_weight, heavy)) in slots.clone() {
                if own_weight == i32::MIN {
                    continue;
                }
                // A queen's check counts only from squares where no kind of higher weight checks
                // safely (Stockfish: where a rook could check, the check is the rook's).
                let mut mine = own_reach.difference(&unsafe_squares);
                if heavy {
                    for (other, (&other_weight, _)) in slots.clone() {
                        if other_weight > own_weight {
                            mine = mine.difference(other);
                        }
                    }
                }
                // Without one, its checks count as unsafe, but a queen's never (Stockfish).
                if !mine.is_empty() {
                    kd += own_weight;
                } else if !heavy {
                    unsafe_checks = unsafe_checks.union(own_reach);
                }
            }
            kd += unsafe_checks.len() as i32 * w.kd_unsafe_check;
        }
        let files = usize::from(self.shape.files);
        let flank = t.flank[(1 - c) * files + usize::from(self.shape.file(king))];
        let attacked = own.att.intersection(&flank);
        let flank_attack = (attacked.len() + attacked.intersection(&own.att2).len()) as i32;
        kd += flank_attack * flank_attack * w.kd_flank[0] / 8;
        kd += enemy.att.intersection(&flank).len() as i32 * w.kd_flank[1];
        kd += (own.mob_mg - enemy.mob_mg) * w.kd_mobility / 16;
        kd += enemy.shelter_mg * w.kd_shelter / 16;
        let mut defending = enemy.defending_kinds;
        while defending != 0 {
            kd += w.kinds[defending.trailing_zeros() as usize].kd_defender;
            defending &= defending - 1;
        }
        if own.heavies == 0 {
            kd += w.kd_no_queen;
        }
        kd += w.kd_base;
        let mut score = s(w.flank_attack.mg * flank_attack, w.flank_attack.eg * flank_attack);
        if kd > w.kd_min {
            let [mg, eg, cap] = w.kd_transform;
            let kd = i64::from(kd);
            let mg = ((kd * kd * i64::from(mg)) >> 20).min(i64::from(cap));
            let eg = (kd * i64::from(eg) / 1024).clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT));
            score += s(mg as i32, eg as i32);
        }
        score
    }

    /// The danger `color` makes for the enemy king, from its king safety figure (`king_safety`):
    /// quadratic in the middlegame up to a cap, linear in the endgame, none when it is negative.
    #[inline]
    pub(super) fn king_danger(&self, sides: &[Side; 2], color: Color) -> S {
        let Some(safety) = self.king_safety(sides, color) else {
            return S::default();
        };
        if safety <= 0 {
            return S::default();
        }
        let [scale, cap] = self.w.king_danger;
        let safety = i64::from(safety);
        let mg = (safety * safety * i64::from(scale) / 2048).min(i64::from(cap));
        let eg = safety * i64::from(self.w.king_danger_eg) / 64;
        s(mg as i32, eg.min(i64::from(EVAL_LIMIT)) as i32)
    }

    /// King safety in Ethereal's style: the units of the danger `color` makes for the enemy king
    /// (see `eval_params`), or `None` when it does not count: no enemy king, or fewer of its
    /// pieces attack the king's neighbourhood than `king_attackers` asks (without, with a queen).
    /// Out of line: in most evaluations it returns at its first test.
    #[inline(never)]
    pub(super) fn king_safety(&self, sides: &[Side; 2], color: Color) -> Option<i32> {
        let (t, w) = (self.t, self.w);
        let c = color as usize;
        let (own, enemy) = (&sides[c], &sides[1 - c]);
        let needed = w.king_attackers[usize::from(own.heavies > 0)];
        if own.king_attackers < needed || t.kingless {
            return None;
        }
        let king = self.kings[1 - c]?;
        let zone = self.king_zone(color.opposite());
        let mut safety = own.king_units + w.king_danger_base;
        if own.heavies == 0 {
            safety += w.king_no_queen;
        }
        // Weak: attacked, defended at most once, and then only by the king or a queen.
        let guarded = enemy.att.difference(&enemy.royal_att.union(&enemy.heavy_att));
        let weak = own.att.difference(&enemy.att2).difference(&guarded);
        safety += weak.intersection(&zone).len() as i32 * w.king_weak_square;
        // Safe squares to check from: not defended (or weak and attacked twice), not its own.
        let unsafe_squares = enemy.att.difference(&weak.intersection(&own.att2)).union(&own.occupied);
        if own.check_kinds != 0 {
            let checks = self.check_squares(color, king, own.check_kinds);
            let occupied = own.occupied.union(&enemy.occupied);
            let mut kinds = own.check_kinds;
            let mut slot = 0;
            while kinds != 0 && slot < CHECK_SLOTS {
                let k = kinds.trailing_zeros() as usize;
                kinds &= kinds - 1;
                let safe = checks[slot].difference(&unsafe_squares);
                if own.board_kinds & (1 << k) != 0 {
                    safety += safe.intersection(&own.kind_dest[slot]).len() as i32 * w.kinds[k].safe_check;
                }
                if own.hand_kinds & (1 << k) != 0 {
                    let drops = safe
                        .intersection(&self.tables.drop_zone[k * 2 + c])
                        .difference(&occupied);
                    safety += drops.len() as i32 * w.kinds[k].drop_check;
                }
                slot += 1;
            }
        }
        Some(safety)
    }

    /// Per slot of the kinds `kinds` (see `Side::kind_dest`), the squares from which a piece of
    /// that kind and `color` would attack `target` as the board stands: the attack tables read
    /// backwards (leaps whose lame square is empty; along rides, the squares up to and including
    /// the first piece, or for hoppers those beyond the screen up to and including the next).
    fn check_squares(&self, color: Color, target: Square, kinds: u32) -> [SquareSet; CHECK_SLOTS] {
        let (pos, tables) = (self.pos, self.tables);
        let mut out = [SquareSet::EMPTY; CHECK_SLOTS];
        let mut add = |mask: u32, squares: &SquareSet| {
            let mut m = mask & kinds;
            while m != 0 {
                let slot = check_slot(kinds, m.trailing_zeros() as usize);
                m &= m - 1;
                if slot < CHECK_SLOTS {
                    out[slot] = out[slot].union(squares);
                }
            }
        };
        for a in tables.leap_attacks(color, target) {
            if a.mask & kinds != 0 && (a.block.is_none() || pos.piece_at(a.block).is_none()) {
                let mut one = SquareSet::EMPTY;
                one.insert(a.from);
                add(a.mask, &one);
            }
        }
        for r in tables.ride_attacks(color, target) {
            if r.mask & kinds == 0 {
                continue;
            }
            let mut line = SquareSet::EMPTY;
            let mut screened = !r.hop;
            for (i, &sq) in tables.ride_squares(r).iter().enumerate() {
                if r.max_steps != 0 && i >= r.max_steps as usize {
                    break;
                }
                let occupied = pos.piece_at(sq).is_some();
                if screened {
                    line.insert(sq);
                    if occupied {
                        break;
                    }
                } else {
                    screened = occupied;
                }
            }
            add(r.mask, &line);
        }
        out
    }

    /// Shelter in front of `color`'s king on its first ranks, and the enemy pawns storming it (mg).
    #[inline]
    pub(super) fn shelter(&self, sides: &[Side; 2], color: Color) -> i32 {
        let (pos, t, w, shape) = (self.pos, self.t, self.w, self.shape);
        let (side, enemy) = (&sides[color as usize], &sides[1 - color as usize]);
        let Some(k) = self.kings[color as usize] else { return 0 };
        if shape.relative_rank(k, color) > 1 {
            return 0;
        }
        let kf = shape.file(k) as i32;
        let mut shelter = 0;
        for df in -1..=1 {
            let f = kf + df;
            if f < 0 || f >= shape.files as i32 {
                continue;
            }
            let near = shape.offset(k, df, color.forward());
            let far = shape.offset(k, df, 2 * color.forward());
            let is_own_pawn = |sq: Option<Square>| {
                sq.and_then(|x| pos.piece_at(x))
                    .is_some_and(|p| p.color() == color && t.kinds[p.kind().index()].pawn)
            };
            if is_own_pawn(near) {
                shelter += w.shelter[0];
            } else if is_own_pawn(far) {
                shelter += w.shelter[1];
            } else if side.pawn_files[(f as usize).min(15)] == 0 {
                shelter += w.shelter[2];
            }
            shelter += self.storm(enemy, k, df, color);
        }
        shelter
    }

    /// Stockfish 11's shelter and storm for `color`'s king (see `eval_params`): of its square and
    /// the squares its held castlings would take it to, the value best in the middlegame. Out of
    /// line: only games that weight it call it.
    #[inline(never)]
    pub(super) fn sf_shelter(&self, sides: &[Side; 2], color: Color) -> S {
        let Some(k) = self.kings[color as usize] else {
            return S::default();
        };
        let mut best = self.sf_shelter_at(sides, color, k);
        if self.pos.castling_rights() != 0
            && let Some(rule) = &self.t.variant.castling
        {
            let step = i32::from(rule.king_steps.iter().copied().max().unwrap_or(0));
            for side in 0..2 {
                let Some(rook) = self.pos.castling_rook(color, side) else {
                    continue;
                };
                let dx = if self.shape.file(rook) > self.shape.file(k) {
                    step
                } else {
                    -step
                };
                if let Some(to) = self.shape.offset(k, dx, 0) {
                    let v = self.sf_shelter_at(sides, color, to);
                    if v.mg > best.mg {
                        best = v;
                    }
                }
            }
        }
        best
    }

    /// Stockfish 11's shelter and storm for `color`'s king were it on `k` (`Pawns::evaluate_shelter`
    /// without its constant).
    fn sf_shelter_at(&self, sides: &[Side; 2], color: Color, k: Square) -> S {
        let (w, shape) = (self.w, self.shape);
        let (own, enemy) = (&sides[color as usize], &sides[1 - color as usize]);
        let ranks = usize::from(shape.ranks);
        let files = i32::from(shape.files);
        let kr = shape.relative_rank(k, color);
        let center = i32::from(shape.file(k)).clamp(1, (files - 2).max(1));
        let lo = center - 1;
        // Per file of the three: the relative rank (`color`'s view) of `side`'s pawn on it nearest
        // `color`'s first rank and not behind the king; 0 for none. One pass over the pawns.
        let rearmost = |side: &Side| {
            let mut out = [0u8; 3];
            for &sq in &side.pawns[..side.npawns] {
                let i = i32::from(shape.file(sq)) - lo;
                if (0..3).contains(&i) {
                    let r = shape.relative_rank(sq, color);
                    let slot = &mut out[i as usize];
                    if r >= kr && (*slot == 0 || r < *slot) {
                        *slot = r;
                    }
                }
            }
            out
        };
        let (ours, theirs) = (rearmost(own), rearmost(enemy));
        let mut bonus = S::default();
        for (i, f) in (lo..lo + 3).enumerate() {
            if f < 0 || f >= files {
                continue;
            }
            let d = f.min(files - 1 - f).min(3) as usize;
            let (ours, theirs) = (usize::from(ours[i]), usize::from(theirs[i]));
            bonus.mg += w.sf_shelter[d * ranks + ours];
            if ours != 0 && ours + 1 == theirs {
                if theirs == 2 {
                    bonus = bonus - w.sf_storm_blocked;
                }
            } else {
                bonus.mg -= w.sf_storm[d * ranks + theirs];
            }
        }
        bonus
    }

    /// `king_pawn_distance` per square from `color`'s king to its nearest pawn, and
    /// `pawnless_flank` when no pawn stands on the king's flank files (see `eval_params`).
    #[inline(never)]
    pub(super) fn king_pawns(&self, sides: &[Side; 2], color: Color) -> S {
        let Some(k) = self.kings[color as usize] else {
            return S::default();
        };
        let (w, shape) = (self.w, self.shape);
        let (own, enemy) = (&sides[color as usize], &sides[1 - color as usize]);
        let mut bonus = S::default();
        if let Some(d) = own.pawns[..own.npawns]
            .iter()
            .map(|&sq| king_distance(shape, k, sq))
            .min()
        {
            bonus += s(w.king_pawn_distance.mg * d, w.king_pawn_distance.eg * d);
        }
        let (lo, hi) = self.t.flank_files[usize::from(shape.file(k))];
        let pawnless = (lo..=hi).all(|f| {
            let f = usize::from(f).min(15);
            own.pawn_files[f] == 0 && enemy.pawn_files[f] == 0
        });
        if pawnless {
            bonus += w.pawnless_flank;
        }
        bonus
    }

    /// The storm on the file `df` files from `color`'s king on `k` (its own or one beside it): the
    /// enemy pawn on it nearest to the king's rank ahead of it, 1 to 4 ranks ahead, unless an own
    /// pawn stands just in front of it.
    #[inline]
    fn storm(&self, enemy: &Side, k: Square, df: i32, color: Color) -> i32 {
        let (pos, t, shape) = (self.pos, self.t, self.shape);
        let f = ((shape.file(k) as i32 + df) as usize).min(15);
        if enemy.pawn_files[f] == 0 {
            return 0;
        }
        let kr = shape.rank(k) as i32;
        let ahead = match color {
            Color::White => enemy.pawn_min[f] as i32 - kr,
            Color::Black => kr - enemy.pawn_max[f] as i32,
        };
        if !(1..=4).contains(&ahead) {
            return 0;
        }
        let blocker = shape.offset(k, df, color.forward() * (ahead - 1));
        let blocked = ahead > 1
            && blocker
                .and_then(|x| pos.piece_at(x))
                .is_some_and(|p| p.color() == color && t.kinds[p.kind().index()].pawn);
        if blocked {
            0
        } else {
            self.w.king_storm[ahead as usize - 1]
        }
    }
}
