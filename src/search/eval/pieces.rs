//! The pass over the pieces: material and placement, mobility, outposts, colour-bound pairs and
//! open files, and the attack maps and king-zone attacks the later terms read (hook pieces by their
//! hooks).

use crate::core::betza::mode;
use crate::core::{Color, Position, Square, SquareSet};

use super::tables::mobility_score;
use super::{CHECK_SLOTS, HOOK_LIST, KindInfo, LIST, S, Shared, Side, check_slot, s};

/// The squares a piece of kind `k` and `color` on `sq` attacks (its capturing rays up to the
/// first piece; a hopper's beyond its screen).
fn attacks_of(pos: &Position, k: usize, color: Color, sq: Square) -> SquareSet {
    let tables = &pos.variant().tables;
    let mut out = SquareSet::EMPTY;
    for ray in tables.rays(k, color, sq) {
        if ray.modes & mode::CAPTURE == 0 {
            continue;
        }
        let mut screened = ray.modes & mode::HOP == 0;
        for (j, &to) in tables.ray_squares(ray).iter().enumerate() {
            let occupied = pos.piece_at(to).is_some();
            if j < ray.first_dest as usize {
                if occupied {
                    break;
                }
                continue;
            }
            if !screened {
                screened = occupied;
                continue;
            }
            out.insert(to);
            if occupied {
                break;
            }
        }
    }
    out
}

impl Shared<'_> {
    /// Material and placement of `color`'s pieces on the board and in hand, the pair of
    /// colour-bound pieces, and the lists and pawn attacks the later parts read.
    #[inline]
    pub(super) fn material(&self, side: &mut Side, color: Color) {
        let (pos, t, shape, tables) = (self.pos, self.t, self.shape, self.tables);
        let c = color as usize;
        for &sq in pos.pieces_of(color) {
            let Some(p) = pos.piece_at(sq) else { continue };
            let k = p.kind().index();
            let info = &t.kinds[k];
            side.score += t.psq[(k * 2 + c) * t.nsq + sq.index()];
            side.occupied.insert(sq);
            if info.pawn {
                if side.npawns < LIST {
                    side.pawns[side.npawns] = sq;
                    side.npawns += 1;
                }
                side.pawn_set.insert(sq);
                let f = (shape.file(sq) as usize).min(15);
                let r = shape.rank(sq);
                side.pawn_files[f] += 1;
                side.pawn_min[f] = side.pawn_min[f].min(r);
                side.pawn_max[f] = side.pawn_max[f].max(r);
                for ray in tables.rays(k, color, sq) {
                    if ray.modes & mode::CAPTURE != 0 && ray.modes & mode::HOP == 0 && ray.first_dest == 0 {
                        let to = tables.ray_squares(ray)[0];
                        if side.pawn_attacks.contains(to) {
                            side.att2.insert(to);
                            side.pawn_att2.insert(to);
                        }
                        side.pawn_attacks.insert(to);
                    }
                }
            } else if info.royal {
                let a = attacks_of(pos, k, color, sq);
                side.att2 = side.att2.union(&side.att.intersection(&a));
                side.att = side.att.union(&a);
                side.royal_att = side.royal_att.union(&a);
            } else {
                side.npm += info.value;
                side.heavies += i32::from(info.heavy);
                if info.colorbound {
                    side.bound_colors |= 1 << ((k * 2 + shape.is_light(sq) as usize) & 63);
                }
                if info.mobility && side.npieces < LIST {
                    side.pieces[side.npieces] = sq;
                    side.npieces += 1;
                    side.board_kinds |= 1 << k;
                } else if info.hook.is_some() && side.nhooks < HOOK_LIST {
                    side.hooks[side.nhooks] = sq;
                    side.nhooks += 1;
                }
            }
        }
        for (k, info) in t.kinds.iter().enumerate() {
            let n = pos.hand_count(color, crate::core::Kind(k as u8)) as i32;
            if n > 0 {
                let hand = self.w.kinds[k].hand;
                side.score += s(hand.mg * n, hand.eg * n);
                if !info.pawn && !info.royal {
                    side.npm += info.value * n;
                    side.heavies += i32::from(info.heavy) * n;
                }
                // Royal kinds never count as checking pieces.
                if !info.royal && info.hook.is_none() && !self.tables.drop_zone[k * 2 + c].is_empty() {
                    side.hand_kinds |= 1 << k;
                }
            }
        }
        side.check_kinds = (side.board_kinds & t.safe_check_kinds) | (side.hand_kinds & t.drop_check_kinds);
        side.att2 = side.att2.union(&side.att.intersection(&side.pawn_attacks));
        side.att = side.att.union(&side.pawn_attacks);
        let b = side.bound_colors;
        if b & (b >> 1) & 0x5555_5555_5555_5555 != 0 {
            side.score += self.w.color_pair;
        }
    }

    /// `color`'s pieces (those in its mobility list): mobility, rook-like pieces on open files,
    /// and the units of their attacks on the enemy king's neighbourhood; the side's attack maps
    /// completed with theirs. Out of line: inlined into `evaluate`, its loop's values are spilled
    /// for want of registers, which costs more instructions than the call.
    #[inline(never)]
    pub(super) fn pieces(&self, sides: &mut [Side; 2], color: Color) {
        let (pos, t, w, shape) = (self.pos, self.t, self.w, self.shape);
        let c = color as usize;
        let them = 1 - c;
        let zone = self.king_zone(color.opposite());
        let enemy_pawn_attacks = sides[them].pawn_attacks;
        let mut bonus = S::default();
        let mut units = 0;
        let mut attackers = 0;
        let mut att = sides[c].att;
        let mut att2 = sides[c].att2;
        let mut lesser = SquareSet::EMPTY;
        let sf = t.sf_danger;
        let (ring, next) = if sf {
            (self.king_ring(&sides[them], color.opposite()), sides[them].royal_att)
        } else {
            (SquareSet::EMPTY, SquareSet::EMPTY)
        };
        let (mut kd_attackers, mut kd_weight, mut kd_adjacent, mut mob_mg) = (0, 0, 0, 0);
        let (own_next, mut defending) = (sides[c].royal_att, 0u32);
        for i in 0..sides[c].npieces {
            let sq = sides[c].pieces[i];
            let Some(p) = pos.piece_at(sq) else { continue };
            let k = p.kind().index();
            let info = &t.kinds[k];
            let reach = self.reach(k, info, color, sq, zone, enemy_pawn_attacks, &mut lesser);
            att2 = att2.union(&att.intersection(&reach.attacks));
            att = att.union(&reach.attacks);
            let slot = check_slot(sides[c].check_kinds, k);
            if slot < CHECK_SLOTS {
                let dest = &mut sides[c].kind_dest[slot];
                *dest = dest.union(&reach.attacks).union(&reach.quiet);
            }
            if info.heavy {
                sides[c].heavy_att = sides[c].heavy_att.union(&reach.attacks);
            }
            let kp = &w.kinds[k];
            let mobility = mobility_score(kp, info.mob_center16, reach.mob);
            bonus += mobility;
            if sf {
                mob_mg += mobility.mg;
                if !reach.attacks.intersection(&ring).is_empty() {
                    kd_attackers += 1;
                    kd_weight += kp.kd_attacker;
                    kd_adjacent += reach.attacks.intersection(&next).len() as i32;
                }
                if k < 32 && !reach.attacks.intersection(&own_next).is_empty() {
                    defending |= 1 << k;
                }
            }
            if kp.outpost != S::default() && self.is_outpost(&sides[c], &sides[them], color, sq) {
                bonus += kp.outpost;
            }
            if info.colorbound && w.bound_rammed != S::default() {
                let n = sides[c].rammed[usize::from(shape.is_light(sq))];
                bonus += s(w.bound_rammed.mg * n, w.bound_rammed.eg * n);
            }
            if reach.hits > 0 {
                units += reach.hits * kp.king_attack;
                attackers += 1;
            }
            if info.rook_like && t.has_pawns {
                let f = (shape.file(sq) as usize).min(15);
                if sides[c].pawn_files[f] == 0 {
                    bonus += if sides[them].pawn_files[f] == 0 {
                        w.open_file
                    } else {
                        w.half_open_file
                    };
                }
            }
        }
        let side = &mut sides[c];
        side.score += bonus;
        side.att = att;
        side.att2 = att2;
        side.lesser = lesser;
        side.king_units = units;
        side.king_attackers = attackers;
        side.kd_attackers = kd_attackers;
        side.kd_weight = kd_weight;
        side.kd_adjacent = kd_adjacent;
        side.mob_mg = mob_mg;
        side.defending_kinds = defending;
    }

    /// Is `sq` an outpost for a piece of `color` (`own`'s side): between the middle rank and the
    /// enemy's last two, defended by an own pawn, and out of reach of every enemy pawn on the
    /// files beside it (none of them is ahead of it)?
    #[inline]
    fn is_outpost(&self, own: &Side, enemy: &Side, color: Color, sq: Square) -> bool {
        let shape = self.shape;
        let rel = shape.relative_rank(sq, color);
        if rel < (shape.ranks - 1) / 2 || rel + 3 > shape.ranks || !own.pawn_attacks.contains(sq) {
            return false;
        }
        let (f, r) = (shape.file(sq) as i32, shape.rank(sq));
        [f - 1, f + 1].into_iter().all(|x| {
            if x < 0 || x >= shape.files as i32 {
                return true;
            }
            enemy.no_pawn_ahead(x as usize, r, color)
        })
    }

    /// `color`'s hook pieces (those in its hook list): their attacks, from their hook, join the
    /// side's attack maps, lesser-piece threats and king-zone attacks; their mobility counts their
    /// quiet moves (`reach` over their Betza data) by the same formula as other pieces'. After
    /// `pieces`, whose totals it adds to. Out of line: only games with hook pieces call it.
    #[inline(never)]
    pub(super) fn hook_pieces(&self, sides: &mut [Side; 2], color: Color) {
        let (pos, t, w) = (self.pos, self.t, self.w);
        let c = color as usize;
        let zone = self.king_zone(color.opposite());
        let enemy_pawn_attacks = sides[1 - c].pawn_attacks;
        let uncapturable = self.tables.uncapturable_mask;
        let (ring, next) = if t.sf_danger {
            (self.king_ring(&sides[1 - c], color.opposite()), sides[1 - c].royal_att)
        } else {
            (SquareSet::EMPTY, SquareSet::EMPTY)
        };
        let side = &mut sides[c];
        for i in 0..side.nhooks {
            let sq = side.hooks[i];
            let Some(p) = pos.piece_at(sq) else { continue };
            let k = p.kind().index();
            let info = &t.kinds[k];
            let Some(hook) = info.hook else { continue };
            let reach = self.reach(k, info, color, sq, zone, enemy_pawn_attacks, &mut side.lesser);
            let hook_attacks = hook.attack_set(pos, sq);
            let mut attacks = hook_attacks;
            for to in hook_attacks.iter() {
                let Some(victim) = pos.piece_at(to).filter(|v| v.color() != color) else {
                    continue;
                };
                let victim_info = &t.kinds[victim.kind().index()];
                if info.hook_immune & (1 << victim.kind().0) != 0 {
                    // It cannot take this piece: no attack on it, no threat.
                    attacks.remove(to);
                } else if victim_info.value > info.value
                    && !victim_info.royal
                    && uncapturable & (1 << victim.kind().0) == 0
                {
                    side.lesser.insert(to);
                }
            }
            // Captures its Betza data may give besides (none in Wreckage).
            let attacks = attacks.union(&reach.attacks);
            side.att2 = side.att2.union(&side.att.intersection(&attacks));
            side.att = side.att.union(&attacks);
            if info.heavy {
                side.heavy_att = side.heavy_att.union(&attacks);
            }
            let kp = &w.kinds[k];
            let mobility = mobility_score(kp, info.mob_center16, reach.mob);
            side.score += mobility;
            if t.sf_danger {
                side.mob_mg += mobility.mg;
                if !attacks.intersection(&ring).is_empty() {
                    side.kd_attackers += 1;
                    side.kd_weight += kp.kd_attacker;
                    side.kd_adjacent += attacks.intersection(&next).len() as i32;
                }
                if k < 32 && !attacks.intersection(&side.royal_att).is_empty() {
                    side.defending_kinds |= 1 << k;
                }
            }
            let hits = attacks.intersection(&zone).len() as i32;
            if hits > 0 {
                side.king_units += hits * kp.king_attack;
                side.king_attackers += 1;
            }
        }
    }

    /// Where the piece of kind `k` (`info`) and `color` on `sq` goes and attacks: its mobility (not
    /// counting squares `enemy_pawn_attacks` covers), its hits on the enemy king's `zone`, the
    /// squares it attacks and the empty squares it moves to along rays on which it does not
    /// capture; enemy pieces worth more than it that it attacks are added to `lesser`.
    /// Always inlined: with two callers (`pieces`, `hook_pieces`) the compiler would call it out of
    /// line from `pieces`' loop, which costs games without hook pieces about 1% of all instructions.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn reach(
        &self,
        k: usize,
        info: &KindInfo,
        color: Color,
        sq: Square,
        zone: SquareSet,
        enemy_pawn_attacks: SquareSet,
        lesser: &mut SquareSet,
    ) -> Reach {
        let (pos, t, tables) = (self.pos, self.t, self.tables);
        let uncapturable = tables.uncapturable_mask;
        let mut mob = 0;
        let mut hits = 0;
        let mut attacks = SquareSet::EMPTY;
        let mut quiet = SquareSet::EMPTY;
        for ray in tables.rays(k, color, sq) {
            if ray.modes & (mode::MOVE | mode::CAPTURE) == 0 {
                continue;
            }
            let captures = ray.modes & mode::CAPTURE != 0;
            let squares = tables.ray_squares(ray);
            let hop = ray.modes & mode::HOP != 0;
            let mut screened = !hop;
            for (j, &to) in squares.iter().enumerate() {
                let occupant = pos.piece_at(to);
                if j < ray.first_dest as usize {
                    if occupant.is_some() {
                        break;
                    }
                    continue;
                }
                if !screened {
                    screened = occupant.is_some();
                    continue;
                }
                if !enemy_pawn_attacks.contains(to) {
                    mob += 1;
                }
                if zone.contains(to) {
                    hits += 1;
                }
                if captures {
                    attacks.insert(to);
                    if let Some(victim) = occupant
                        && victim.color() != color
                        && t.kinds[victim.kind().index()].value > info.value
                        && !t.kinds[victim.kind().index()].royal
                        && uncapturable & (1 << victim.kind().0) == 0
                    {
                        lesser.insert(to);
                    }
                } else if occupant.is_none() {
                    quiet.insert(to);
                }
                if occupant.is_some() {
                    break;
                }
            }
        }
        Reach {
            mob,
            hits,
            attacks,
            quiet,
        }
    }
}

/// What one piece's moves reach (see `Shared::reach`).
struct Reach {
    mob: i32,
    hits: i32,
    attacks: SquareSet,
    /// Empty squares it moves to by rays on which it does not capture (a cannon's slides).
    quiet: SquareSet,
}
