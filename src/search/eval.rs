//! Evaluation from the side to move's point of view, built from each variant's piece data so that a
//! new variant gets sensible play without tuning:
//! - material from `PieceType::value` (pieces in hand count like pieces on the board);
//! - piece-square terms from each piece's mobility on an empty board (centralisation);
//! - for pieces that promote ("pawns"): advancement, passed, doubled and isolated pawns, the rule of
//!   the square, king distance to passers;
//! - king safety (`Royalty::King`): shelter, pawn storms and a back-rank, edge-file preference in
//!   the middlegame, the centre in the endgame, and the danger an attacking side makes (attacks on
//!   the king's neighbourhood, safe checks by its pieces and by drops, weak squares next to the
//!   king, whether it has a queen; `eval_params` describes the sum and its weights);
//! - threats: enemy pieces attacked by pawns or by pieces worth less, and undefended enemy pieces
//!   under attack;
//! - mobility (squares not attacked by enemy pawns), pairs of colour-bound pieces, rook-like pieces
//!   on open files, a mop-up term against a bare king, and drawish scaling without pawns.
//!
//! Hook pieces (Wreckage's Dragon, Detonator, Flying Guillotine) capture by their hook, not by their
//! movement atoms: their attacks come from `Hook::attack_set` (less the enemy kinds they cannot
//! take) and count in the attack maps, threats and king-zone attacks like any piece's; their
//! mobility from their quiet moves (their Betza data).
//!
//! The game phase comes from the non-pawn material of the variant's start position.

use std::ops::{Add, AddAssign, Neg, Sub};
use std::sync::Arc;

use crate::core::betza::mode;
use crate::core::hooks::HookRef;
use crate::core::tables::Tables;
use crate::core::{BoardShape, Color, Position, Royalty, Square, SquareSet, Variant};

use super::eval_params::{EvalParams, KindParams};
use super::score::EVAL_LIMIT;

/// A middlegame/endgame pair.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct S {
    pub mg: i32,
    pub eg: i32,
}

pub(crate) const fn s(mg: i32, eg: i32) -> S {
    S { mg, eg }
}

impl Add for S {
    type Output = S;
    #[inline]
    fn add(self, o: S) -> S {
        s(self.mg + o.mg, self.eg + o.eg)
    }
}

impl AddAssign for S {
    #[inline]
    fn add_assign(&mut self, o: S) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl Sub for S {
    type Output = S;
    #[inline]
    fn sub(self, o: S) -> S {
        s(self.mg - o.mg, self.eg - o.eg)
    }
}

impl Neg for S {
    type Output = S;
    #[inline]
    fn neg(self) -> S {
        s(-self.mg, -self.eg)
    }
}

/// What the evaluation knows about one piece type.
#[derive(Clone, Debug)]
pub(crate) struct KindInfo {
    pub value: i32,
    /// Value for exchanges: royal kings count as very valuable.
    pub see_value: i32,
    /// It promotes: pawn terms apply.
    pub pawn: bool,
    pub royal: bool,
    /// Of the variant's most valuable kinds (not pawns or royal: worth at least 3/4 of the most
    /// valuable one): a queen for king safety.
    heavy: bool,
    /// Mobility is counted for it in `pieces` (never for hook pieces: see `hook`).
    pub mobility: bool,
    /// Its captures come from this hook: `hook_pieces` counts its attacks and mobility (for pieces
    /// that are neither pawns nor royal).
    hook: Option<HookRef>,
    /// Bit `kind` of the piece types its hook never captures (`hook_immune`).
    hook_immune: u32,
    /// Expected mobility * 16.
    mob_center16: i32,
    /// All its moves keep the square colour (bishop-like).
    colorbound: bool,
    /// Slides orthogonally without limit, not diagonally (rook-like): likes open files.
    rook_like: bool,
    /// Owner-relative ranks it promotes on (sorted).
    promo_ranks: Vec<u8>,
}

/// Evaluation tables of one variant.
pub struct EvalTables {
    variant: Arc<Variant>,
    params: EvalParams,
    nsq: usize,
    pub(crate) kinds: Vec<KindInfo>,
    /// `(kind * 2 + colour) * nsq + square`: material + placement.
    psq: Vec<S>,
    /// Non-pawn material of the start position (both sides), the middlegame phase.
    phase_max: i32,
    /// Distance of each square from the centre (king-step-like, in squares).
    center_dist: Vec<i32>,
    /// Some piece type is a pawn.
    has_pawns: bool,
    /// The variant has goals or no kings: king safety terms are off.
    kingless: bool,
    /// Some piece type is a hook piece (not a pawn or royal): `hook_pieces` runs.
    has_hooks: bool,
    /// The kinds whose `safe_check` weight is not zero: only their checks are looked for.
    safe_check_kinds: u32,
    /// The kinds whose `drop_check` weight is not zero.
    drop_check_kinds: u32,
    /// Some `passed_blocked` or `passed_safe` weight is not zero: `passer_paths` runs.
    passer_paths: bool,
    /// Some `connected` or `backward` weight is not zero: `pawns` looks for them.
    pawn_shape: bool,
}

impl std::fmt::Debug for EvalTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EvalTables")
            .field("variant", &self.variant.name)
            .field("phase_max", &self.phase_max)
            .finish()
    }
}

/// A piece's weight for `count` safe moves: the table's last entry for any count beyond it (a
/// hopper's captures can outnumber its moves on an empty board).
#[inline]
fn by_count(table: &[S], count: i32) -> S {
    let at = usize::try_from(count).unwrap_or(0).min(table.len().saturating_sub(1));
    table.get(at).copied().unwrap_or_default()
}

/// A piece's mobility score for `mob` safe moves: the linear weight per move above its kind's
/// average (`mob_center16`, in sixteenths), and the count's own entry.
#[inline]
fn mobility_score(kp: &KindParams, mob_center16: i32, mob: i32) -> S {
    let above = mob * 16 - mob_center16;
    s(above * kp.mobility.mg / 16, above * kp.mobility.eg / 16) + by_count(&kp.moves, mob)
}

pub(crate) fn empty_board_mobility(v: &Variant, kind: usize, color: Color, sq: Square) -> i32 {
    v.tables
        .rays(kind, color, sq)
        .iter()
        .filter(|r| r.modes & (mode::MOVE | mode::CAPTURE) != 0 && r.modes & mode::HOP == 0)
        .map(|r| r.len as i32 - r.first_dest as i32)
        .sum()
}

impl EvalTables {
    /// Derives the tables from the variant's data and its definition's weights.
    pub fn new(variant: &Arc<Variant>) -> EvalTables {
        EvalTables::with_params(variant, EvalParams::of(variant))
    }

    /// Derives the tables from the variant's data and these weights (a tuner's trial).
    pub fn with_params(variant: &Arc<Variant>, params: EvalParams) -> EvalTables {
        let v = &**variant;
        let shape = v.shape;
        let nsq = shape.num_squares();
        let center_dist: Vec<i32> = shape
            .squares()
            .map(|sq| {
                let dx = (2 * shape.file(sq) as i32 - (shape.files as i32 - 1)).abs();
                let dy = (2 * shape.rank(sq) as i32 - (shape.ranks as i32 - 1)).abs();
                (dx + dy) / 2
            })
            .collect();
        let mut kinds = Vec::with_capacity(v.pieces.len());
        let mut psq = vec![S::default(); v.pieces.len() * 2 * nsq];
        let top_value = v
            .pieces
            .iter()
            .filter(|pt| pt.promotion.is_none() && pt.royalty == Royalty::None)
            .map(|pt| pt.value)
            .max()
            .unwrap_or(0);
        for (k, pt) in v.pieces.iter().enumerate() {
            let atoms = &pt.movement.atoms;
            let king = pt.royalty == Royalty::King;
            let royal = pt.royalty != Royalty::None;
            let pawn = pt.promotion.is_some();
            let mobs: Vec<i32> = shape
                .squares()
                .map(|sq| empty_board_mobility(v, k, Color::White, sq))
                .collect();
            let avg16 = if nsq > 0 {
                (mobs.iter().sum::<i32>() * 16) / nsq as i32
            } else {
                0
            };
            let avg = avg16 as f64 / 16.0;
            let kp = &params.kinds[k];
            let colorbound = !atoms.is_empty() && atoms.iter().all(|a| (a.dx as i32 + a.dy as i32) % 2 == 0) && !pawn;
            let orth_ride = atoms
                .iter()
                .any(|a| a.dx == 0 && a.max_steps == 0 && a.modes & mode::CAPTURE != 0);
            let diag_ride = atoms
                .iter()
                .any(|a| a.dx != 0 && a.dx.abs() == a.dy.abs() && a.max_steps == 0);
            let mut promo_ranks = pt.promotion.as_ref().map(|p| p.ranks.clone()).unwrap_or_default();
            promo_ranks.sort_unstable();
            let info = KindInfo {
                value: pt.value,
                see_value: if king { 20_000 } else { pt.value.max(1) },
                pawn,
                royal,
                heavy: !pawn && !royal && top_value > 0 && pt.value * 4 >= top_value * 3,
                mobility: !pawn && !royal && pt.hook.is_none() && avg > 0.5,
                hook: pt.hook.filter(|_| !pawn && !royal),
                hook_immune: pt.hook_immune.iter().fold(0, |m, k| m | 1 << k.0),
                mob_center16: avg16 * 45 / 100,
                colorbound,
                rook_like: orth_ride && !diag_ride,
                promo_ranks,
            };
            for color in Color::BOTH {
                for sq in shape.squares() {
                    let rel = shape.relative_rank(sq, color);
                    // Mobility is symmetric for most pieces; measure it for this colour.
                    let mob = empty_board_mobility(v, k, color, sq);
                    let central = mob * 16 - avg16;
                    let file = usize::from(shape.file(sq));
                    let edge_distance = file.min(usize::from(shape.files) - 1 - file);
                    let owner_square = usize::from(rel) * usize::from(shape.files) + file;
                    let mut t = kp.material
                        + kp.rank.get(usize::from(rel)).copied().unwrap_or_default()
                        + kp.file.get(edge_distance).copied().unwrap_or_default()
                        + kp.square.get(owner_square).copied().unwrap_or_default();
                    if king {
                        let files = shape.files as i32;
                        let cd = (2 * file as i32 - (files - 1)).abs();
                        let edge = if files > 1 {
                            cd * params.king_edge_mg / (files - 1) - params.king_edge_mg / 2
                        } else {
                            0
                        };
                        let ranks = &params.king_rank_mg;
                        let rank_pen = ranks[(rel as usize).min(ranks.len() - 1)];
                        t.mg += edge + rank_pen;
                        let [per_mobility, per_distance] = params.king_center_eg;
                        t.eg += central * per_mobility / 16 - per_distance * center_dist[sq.index()];
                    } else if pawn {
                        t.mg += central * params.pawn_center_mg / 16;
                        let d = promo_distance(&info.promo_ranks, rel);
                        let a = params.advance[d.min(params.advance.len() - 1)];
                        t += a;
                    } else if avg > 0.5 {
                        let c = |w: i32| (central as f64 / 16.0 * (w as f64 / avg)).round() as i32;
                        t.mg += c(kp.center.mg);
                        t.eg += c(kp.center.eg);
                    }
                    psq[(k * 2 + color as usize) * nsq + sq.index()] = t;
                }
            }
            kinds.push(info);
        }
        let start = Position::start(variant);
        let mut phase_max = 0;
        for color in Color::BOTH {
            for &sq in start.pieces_of(color) {
                if let Some(p) = start.piece_at(sq) {
                    let info = &kinds[p.kind().index()];
                    if !info.pawn && !info.royal {
                        phase_max += info.value.max(0);
                    }
                }
            }
            for (k, info) in kinds.iter().enumerate() {
                if !info.pawn && !info.royal {
                    phase_max += start.hand_count(color, crate::core::Kind(k as u8)) as i32 * info.value.max(0);
                }
            }
        }
        let weighted = |weight: fn(&KindParams) -> i32| {
            let kinds = params.kinds.iter().take(32).enumerate();
            kinds.filter(|(_, k)| weight(k) != 0).fold(0u32, |m, (i, _)| m | 1 << i)
        };
        let safe_check_kinds = weighted(|k| k.safe_check);
        let drop_check_kinds = weighted(|k| k.drop_check);
        let zero = S::default();
        let passer_paths = params
            .passed_blocked
            .iter()
            .chain(&params.passed_safe)
            .any(|&x| x != zero);
        let pawn_shape = params.backward != zero || params.connected.iter().any(|&x| x != zero);
        EvalTables {
            variant: Arc::clone(variant),
            params,
            nsq,
            has_pawns: kinds.iter().any(|k| k.pawn),
            has_hooks: kinds.iter().any(|k| k.hook.is_some()),
            kinds,
            psq,
            phase_max: phase_max.max(1),
            center_dist,
            kingless: v.king_kinds().next().is_none() || !v.rules.goals.is_empty(),
            safe_check_kinds,
            drop_check_kinds,
            passer_paths,
            pawn_shape,
        }
    }

    /// The weights these tables were built from.
    pub fn params(&self) -> &EvalParams {
        &self.params
    }

    /// Were these tables built for this variant?
    pub fn is_for(&self, variant: &Arc<Variant>) -> bool {
        Arc::ptr_eq(&self.variant, variant)
    }
}

/// Ranks to go from owner-relative rank `rel` to the nearest promotion rank ahead.
fn promo_distance(ranks: &[u8], rel: u8) -> usize {
    ranks
        .iter()
        .filter(|&&r| r > rel)
        .map(|&r| (r - rel) as usize)
        .min()
        .unwrap_or(usize::MAX)
}

#[inline]
fn king_distance(shape: crate::core::BoardShape, a: Square, b: Square) -> i32 {
    let dx = (shape.file(a) as i32 - shape.file(b) as i32).abs();
    let dy = (shape.rank(a) as i32 - shape.rank(b) as i32).abs();
    dx.max(dy)
}

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

/// Most pieces of one kind of list kept per side.
const LIST: usize = 64;

/// Most hook pieces kept per side (three in a game, more only by promotion and drops).
const HOOK_LIST: usize = 16;

/// Per-side facts gathered in the first pass.
struct Side {
    score: S,
    npm: i32,
    pawns: [Square; LIST],
    npawns: usize,
    pieces: [Square; LIST],
    npieces: usize,
    hooks: [Square; HOOK_LIST],
    nhooks: usize,
    /// Pawns per file.
    pawn_files: [u8; 16],
    /// Lowest and highest absolute rank of a pawn per file (255 / 0 if none).
    pawn_min: [u8; 16],
    pawn_max: [u8; 16],
    /// Bit `kind * 2 + light` of colour-bound pieces.
    bound_colors: u64,
    /// Squares its pawns stand on, and those of its passed pawns.
    pawn_set: SquareSet,
    passers: SquareSet,
    pawn_attacks: SquareSet,
    /// Squares its pawns, pieces (hook pieces too) and kings attack, and those attacked twice.
    att: SquareSet,
    att2: SquareSet,
    /// Enemy pieces one of its pieces (not a pawn) attacks with a piece worth less.
    lesser: SquareSet,
    /// Units of its pieces' attacks on the enemy king's neighbourhood, and how many pieces make them.
    king_units: i32,
    king_attackers: i32,
    /// Squares its pieces (pawns, kings, all) stand on.
    occupied: SquareSet,
    /// Squares its royal pieces attack, and those its queens (`KindInfo::heavy`) attack.
    royal_att: SquareSet,
    heavy_att: SquareSet,
    /// Its queens, on the board and in hand.
    heavies: i32,
    /// Bit `kind` of the kinds of its pieces in its mobility list, and of the kinds in its hand
    /// that may be dropped (not hook pieces); each of the first `CHECK_SLOTS` such kinds of
    /// `check_kinds` (the union) has a slot, in kind order.
    board_kinds: u32,
    hand_kinds: u32,
    check_kinds: u32,
    /// Per slot, the squares the side's pieces of that kind on the board can go to.
    kind_dest: [SquareSet; CHECK_SLOTS],
}

/// Most kinds of piece whose checks a side's king safety counts.
const CHECK_SLOTS: usize = 10;

/// The slot of `kind` among the kinds of `kinds` (see `Side::kind_dest`).
#[inline]
fn check_slot(kinds: u32, kind: usize) -> usize {
    (kinds & ((1u32 << kind) - 1)).count_ones() as usize
}

impl Side {
    fn new() -> Side {
        Side {
            score: S::default(),
            npm: 0,
            pawns: [Square::NONE; LIST],
            npawns: 0,
            pieces: [Square::NONE; LIST],
            npieces: 0,
            hooks: [Square::NONE; HOOK_LIST],
            nhooks: 0,
            pawn_files: [0; 16],
            pawn_min: [255; 16],
            pawn_max: [0; 16],
            bound_colors: 0,
            pawn_set: SquareSet::EMPTY,
            passers: SquareSet::EMPTY,
            pawn_attacks: SquareSet::EMPTY,
            att: SquareSet::EMPTY,
            att2: SquareSet::EMPTY,
            lesser: SquareSet::EMPTY,
            king_units: 0,
            king_attackers: 0,
            occupied: SquareSet::EMPTY,
            royal_att: SquareSet::EMPTY,
            heavy_att: SquareSet::EMPTY,
            heavies: 0,
            board_kinds: 0,
            hand_kinds: 0,
            check_kinds: 0,
            kind_dest: [SquareSet::EMPTY; CHECK_SLOTS],
        }
    }

    /// Has this side no pawn on file `x` ahead of rank `r`, looking the way `toward`'s pawns
    /// move (a pawn on rank `r` is not ahead)?
    #[inline]
    fn no_pawn_ahead(&self, x: usize, r: u8, toward: Color) -> bool {
        let x = x.min(15);
        self.pawn_files[x] == 0
            || match toward {
                Color::White => self.pawn_max[x] <= r,
                Color::Black => self.pawn_min[x] >= r,
            }
    }
}

/// What every part of one evaluation reads: the position, the variant's tables and weights, and
/// where the kings stand.
struct Shared<'a> {
    pos: &'a Position,
    t: &'a EvalTables,
    w: &'a EvalParams,
    shape: BoardShape,
    tables: &'a Tables,
    /// Each side's (first) king, by colour.
    kings: [Option<Square>; 2],
}

/// The static evaluation of `pos` from the side to move's point of view.
pub fn evaluate(pos: &Position, t: &EvalTables) -> i32 {
    let x = Shared::new(pos, t);
    let mut sides = [Side::new(), Side::new()];
    x.gather(&mut sides);
    for color in Color::BOTH {
        let danger = x.king_danger(&sides, color);
        sides[color as usize].score += danger;
    }
    for color in Color::BOTH {
        let bonus = x.threats(&sides, color);
        sides[color as usize].score += bonus;
    }
    if t.passer_paths {
        for color in Color::BOTH {
            let bonus = x.passer_paths(&sides, color);
            sides[color as usize].score += bonus;
        }
    }
    if !t.kingless && t.has_pawns {
        for color in Color::BOTH {
            let shelter = x.shelter(&sides, color);
            sides[color as usize].score.mg += shelter;
        }
    }
    x.total(&sides)
}

/// Each side's king safety figure in `pos` (see `Shared::king_safety`), by colour: what the tests
/// of its terms read.
#[cfg(test)]
fn king_safety_of(pos: &Position, t: &EvalTables) -> [Option<i32>; 2] {
    let x = Shared::new(pos, t);
    let mut sides = [Side::new(), Side::new()];
    x.gather(&mut sides);
    [x.king_safety(&sides, Color::White), x.king_safety(&sides, Color::Black)]
}

impl<'a> Shared<'a> {
    #[inline(always)]
    fn new(pos: &'a Position, t: &'a EvalTables) -> Shared<'a> {
        let v = &*t.variant;
        Shared {
            pos,
            t,
            w: &t.params,
            shape: v.shape,
            tables: &v.tables,
            kings: [
                pos.kings(Color::White).first().copied(),
                pos.kings(Color::Black).first().copied(),
            ],
        }
    }

    /// The first passes, which fill in both sides: material and the lists, pawns, pieces and hook
    /// pieces with their attack maps.
    #[inline(always)]
    fn gather(&self, sides: &mut [Side; 2]) {
        for color in Color::BOTH {
            self.material(&mut sides[color as usize], color);
        }
        if self.t.has_pawns {
            for color in Color::BOTH {
                let bonus = self.pawns(sides, color);
                sides[color as usize].score += bonus;
            }
        }
        for color in Color::BOTH {
            self.pieces(sides, color);
        }
        if self.t.has_hooks {
            for color in Color::BOTH {
                self.hook_pieces(sides, color);
            }
        }
    }
}

impl Shared<'_> {
    /// Material and placement of `color`'s pieces on the board and in hand, the pair of
    /// colour-bound pieces, and the lists and pawn attacks the later parts read.
    #[inline]
    fn material(&self, side: &mut Side, color: Color) {
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

    /// `color`'s doubled, isolated, connected, backward and passed pawns; the passers are kept
    /// in its side's `passers`.
    #[inline]
    fn pawns(&self, sides: &mut [Side; 2], color: Color) -> S {
        let (pos, t, w, shape) = (self.pos, self.t, self.w, self.shape);
        let c = color as usize;
        let (own, enemy) = (&sides[c], &sides[1 - c]);
        let mut bonus = S::default();
        let mut passers = SquareSet::EMPTY;
        for i in 0..own.npawns {
            let sq = own.pawns[i];
            let Some(p) = pos.piece_at(sq) else { continue };
            let info = &t.kinds[p.kind().index()];
            let f = shape.file(sq) as usize;
            let r = shape.rank(sq);
            if own.pawn_files[f.min(15)] > 1 {
                bonus += w.doubled;
            }
            let left = f.checked_sub(1).map_or(0, |x| own.pawn_files[x.min(15)]);
            let right = if f + 1 < shape.files as usize {
                own.pawn_files[(f + 1).min(15)]
            } else {
                0
            };
            let lo = f.saturating_sub(1);
            let hi = (f + 1).min(shape.files as usize - 1);
            if left == 0 && right == 0 {
                bonus += w.isolated;
            } else if t.pawn_shape {
                let beside = |dx: i32| shape.offset(sq, dx, 0).is_some_and(|x| own.pawn_set.contains(x));
                if own.pawn_attacks.contains(sq) || beside(-1) || beside(1) {
                    let d = promo_distance(&info.promo_ranks, shape.relative_rank(sq, color));
                    bonus += w.connected[d.min(w.connected.len() - 1)];
                } else {
                    // Backward: every own pawn on the files beside it is ahead of it (none is
                    // level with it: that one would have made it connected).
                    let all_ahead = (lo..=hi)
                        .filter(|&x| x != f)
                        .all(|x| own.no_pawn_ahead(x, r, color.opposite()));
                    let stop = shape.offset(sq, 0, color.forward());
                    if all_ahead && stop.is_some_and(|x| enemy.pawn_attacks.contains(x)) {
                        bonus += w.backward;
                    }
                }
            }
            // Passed: no enemy pawn ahead on this or a neighbouring file.
            let passed = (lo..=hi).all(|x| enemy.no_pawn_ahead(x, r, color));
            if passed {
                passers.insert(sq);
                bonus += self.passer(enemy, info, color, sq);
            }
        }
        sides[c].passers = passers;
        bonus
    }

    /// What stands on `color`'s passers' stop squares: a piece (`passed_blocked`), or nothing and
    /// no enemy attack (`passed_safe`). After `gather`, which makes the attack maps.
    #[inline(never)]
    fn passer_paths(&self, sides: &[Side; 2], color: Color) -> S {
        let (pos, t, w, shape) = (self.pos, self.t, self.w, self.shape);
        let (own, enemy) = (&sides[color as usize], &sides[1 - color as usize]);
        let mut bonus = S::default();
        for sq in own.passers.iter() {
            let Some(p) = pos.piece_at(sq) else { continue };
            let Some(stop) = shape.offset(sq, 0, color.forward()) else {
                continue;
            };
            let info = &t.kinds[p.kind().index()];
            let d = promo_distance(&info.promo_ranks, shape.relative_rank(sq, color));
            let d = d.min(w.passed_safe.len() - 1);
            if pos.piece_at(stop).is_some() {
                bonus += w.passed_blocked[d];
            } else if !enemy.att.contains(stop) {
                bonus += w.passed_safe[d];
            }
        }
        bonus
    }

    /// A passed pawn of `color` on `sq`: by its distance to promotion, and in the endgame the
    /// kings' distances to its stop square and the rule of the square against a bare king.
    /// Out of line: passers are rare, and inlined, its set-up is hoisted out of `pawns`' loop, to
    /// run for every side whether it has a passer or not.
    #[inline(never)]
    fn passer(&self, enemy: &Side, info: &KindInfo, color: Color, sq: Square) -> S {
        let (pos, w, shape) = (self.pos, self.w, self.shape);
        let c = color as usize;
        let mut bonus = S::default();
        let rel = shape.relative_rank(sq, color);
        let d = promo_distance(&info.promo_ranks, rel);
        if d == usize::MAX {
            return bonus;
        }
        bonus += w.passed[d.min(w.passed.len() - 1)];
        let Some(stop) = shape.offset(sq, 0, color.forward()) else {
            return bonus;
        };
        if let (Some(ok), Some(ek)) = (self.kings[c], self.kings[1 - c]) {
            let per = w.passer_king[d.min(w.passer_king.len() - 1)];
            bonus.eg += (king_distance(shape, ek, stop) - king_distance(shape, ok, stop)) * per;
            // Rule of the square against a bare king (pawns only on the other side).
            if enemy.npm == 0 {
                let promo = shape.offset(sq, 0, color.forward() * d as i32);
                if let Some(promo) = promo {
                    let tempo = if pos.side_to_move() == color { 0 } else { 1 };
                    let path_clear = (1..=d as i32).all(|i| {
                        shape
                            .offset(sq, 0, color.forward() * i)
                            .is_some_and(|x| pos.piece_at(x).is_none())
                    });
                    if path_clear && king_distance(shape, ek, promo) - tempo > d as i32 {
                        bonus.eg += w.unstoppable;
                    }
                }
            }
        }
        bonus
    }

    /// The squares around `color`'s king (empty in games without kings).
    #[inline]
    fn king_zone(&self, color: Color) -> SquareSet {
        let mut zone = SquareSet::EMPTY;
        if !self.t.kingless
            && let Some(k) = self.kings[color as usize]
        {
            for dx in -1..=1 {
                for dy in -1..=1 {
                    if let Some(z) = self.shape.offset(k, dx, dy) {
                        zone.insert(z);
                    }
                }
            }
        }
        zone
    }

    /// `color`'s pieces (those in its mobility list): mobility, rook-like pieces on open files,
    /// and the units of their attacks on the enemy king's neighbourhood; the side's attack maps
    /// completed with theirs. Out of line: inlined into `evaluate`, its loop's values are spilled
    /// for want of registers, which costs more instructions than the call.
    #[inline(never)]
    fn pieces(&self, sides: &mut [Side; 2], color: Color) {
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
            bonus += mobility_score(kp, info.mob_center16, reach.mob);
            if kp.outpost != S::default() && self.is_outpost(&sides[c], &sides[them], color, sq) {
                bonus += kp.outpost;
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
    fn hook_pieces(&self, sides: &mut [Side; 2], color: Color) {
        let (pos, t, w) = (self.pos, self.t, self.w);
        let c = color as usize;
        let zone = self.king_zone(color.opposite());
        let enemy_pawn_attacks = sides[1 - c].pawn_attacks;
        let uncapturable = self.tables.uncapturable_mask;
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
            side.score += mobility_score(kp, info.mob_center16, reach.mob);
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

    /// The danger `color` makes for the enemy king, from its king safety figure (`king_safety`):
    /// quadratic in the middlegame up to a cap, linear in the endgame, none when it is negative.
    #[inline]
    fn king_danger(&self, sides: &[Side; 2], color: Color) -> S {
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
    fn king_safety(&self, sides: &[Side; 2], color: Color) -> Option<i32> {
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

    /// Threats of `color`: enemy pieces attacked by a pawn or by a piece worth less, and
    /// undefended ones.
    #[inline]
    fn threats(&self, sides: &[Side; 2], color: Color) -> S {
        let (pos, t, w) = (self.pos, self.t, self.w);
        let uncapturable = self.tables.uncapturable_mask;
        let (own, enemy) = (&sides[color as usize], &sides[1 - color as usize]);
        let mut bonus = S::default();
        for &sq in pos.pieces_of(color.opposite()) {
            if !own.att.contains(sq) {
                continue;
            }
            let Some(p) = pos.piece_at(sq) else { continue };
            let info = &t.kinds[p.kind().index()];
            if info.royal || uncapturable & (1 << p.kind().0) != 0 {
                continue;
            }
            if !info.pawn && own.pawn_attacks.contains(sq) {
                bonus += w.threat_pawn;
            } else if own.lesser.contains(sq) {
                bonus += w.threat_lesser;
            }
            if !enemy.att.contains(sq) {
                bonus += w.hanging;
            }
        }
        bonus
    }

    /// Shelter in front of `color`'s king on its first ranks, and the enemy pawns storming it (mg).
    #[inline]
    fn shelter(&self, sides: &[Side; 2], color: Color) -> i32 {
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

    /// The sides' scores blended by the game phase, with the mop-up against a bare king and the
    /// drawish scaling without pawns, from the side to move's point of view with its tempo.
    #[inline]
    fn total(&self, sides: &[Side; 2]) -> i32 {
        let t = self.t;
        let diff = sides[0].score - sides[1].score;
        let npm = sides[0].npm + sides[1].npm;
        let phase = npm.clamp(0, t.phase_max);
        let mut value = (diff.mg * phase + diff.eg * (t.phase_max - phase)) / t.phase_max;

        // Against a bare king: drive it to the edge and bring the own king closer.
        let strong = if value > 0 { 0 } else { 1 };
        let weak = 1 - strong;
        if sides[weak].npm == 0
            && sides[weak].npawns == 0
            && sides[strong].npm >= 400
            && let (Some(sk), Some(wk)) = (self.kings[strong], self.kings[weak])
        {
            let mop = 12 * t.center_dist[wk.index()] + 6 * (16 - king_distance(self.shape, sk, wk)).max(0);
            value += if strong == 0 { mop } else { -mop };
        }
        // Without pawns, a small material edge rarely wins.
        if sides[strong].npawns == 0 && sides[strong].npm - sides[weak].npm < 400 && sides[strong].npm < 1300 {
            value /= 4;
        }

        let v = if self.pos.side_to_move() == Color::White {
            value
        } else {
            -value
        };
        (v + self.w.tempo).clamp(-EVAL_LIMIT, EVAL_LIMIT)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_fixtures;
    use crate::variants::Registry;

    fn pos(fen_text: &str) -> Position {
        let v = Registry::builtin().get("normal").unwrap();
        test_fixtures::position_of(&v, fen_text)
    }

    fn eval(fen_text: &str) -> i32 {
        let p = pos(fen_text);
        let t = EvalTables::new(p.variant());
        evaluate(&p, &t)
    }

    #[test]
    fn start_position_is_balanced_and_symmetric() {
        let w = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let b = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        // The side to move has only its tempo, whatever weights the game's definition tunes.
        let tempo = EvalParams::of(&Registry::builtin().get("normal").unwrap()).tempo;
        assert_eq!(w, tempo);
        assert_eq!(b, tempo);
    }

    #[test]
    fn mirrored_positions_evaluate_the_same() {
        let a = eval("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 0 1");
        let b = eval("rnbqk2r/ppp2ppp/3p1n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R b KQkq - 0 1");
        assert_eq!(a, b);
    }

    #[test]
    fn material_and_centralisation() {
        // An extra queen is worth about a queen.
        let q = eval("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        assert!(q > 900, "{q}");
        // A central knight beats a knight in the corner.
        let centre = eval("4k3/pp6/8/8/3N4/8/PP6/4K3 w - - 0 1");
        let corner = eval("4k3/pp6/8/8/8/8/PP6/N3K3 w - - 0 1");
        assert!(centre > corner + 20, "{centre} {corner}");
        // A far-advanced passed pawn is worth a lot in the endgame.
        let far = eval("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
        let near = eval("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1");
        assert!(far > near + 100, "{far} {near}");
    }

    #[test]
    fn bare_minor_piece_edge_is_scaled_down() {
        // A knight up without pawns rarely wins; with pawns it does.
        let bare = eval("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1");
        let pawns = eval("4k3/pp6/8/8/3N4/8/PP6/4K3 w - - 0 1");
        assert!(bare < 150 && pawns > 300, "{bare} {pawns}");
    }

    #[test]
    fn king_prefers_shelter_in_the_middlegame() {
        let castled = eval("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 1");
        let exposed = eval("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPPKPPP/R1BQ3R w - - 0 1");
        assert!(castled > exposed + 30, "{castled} {exposed}");
    }
}

#[cfg(test)]
mod term_tests {
    use super::*;
    use crate::test_fixtures;
    use crate::variants::{DefinitionSource, Registry, parse_definition};

    /// The evaluation of `fen_text` in `variant` with the default weights changed by `change`.
    fn eval_with(variant: &str, fen_text: &str, change: impl FnOnce(&mut EvalParams)) -> i32 {
        let v = Registry::builtin().get(variant).expect("a built-in variant");
        let p = test_fixtures::position_of(&v, fen_text);
        let mut params = EvalParams::defaults(&v);
        change(&mut params);
        evaluate(&p, &EvalTables::with_params(&v, params))
    }

    /// What raising one term by 100 (mg and eg) adds to the evaluation of `fen_text`.
    fn effect(variant: &str, fen_text: &str, term: impl Fn(&mut EvalParams) -> &mut S) -> i32 {
        let base = eval_with(variant, fen_text, |_| {});
        let raised = eval_with(variant, fen_text, |p| *term(p) += s(100, 100));
        raised - base
    }

    /// The knight's `i`-th weight of placement in the list `list` picks (`rank` or `file`).
    fn knight_place(list: fn(&mut KindParams) -> &mut Vec<S>, i: usize) -> impl Fn(&mut EvalParams) -> &mut S {
        move |p| {
            let k = p.kind_names.iter().position(|n| n == "Knight").expect("knight");
            &mut list(&mut p.kinds[k])[i]
        }
    }

    fn knight_rank(i: usize) -> impl Fn(&mut EvalParams) -> &mut S {
        knight_place(|k| &mut k.rank, i)
    }

    fn knight_file(i: usize) -> impl Fn(&mut EvalParams) -> &mut S {
        knight_place(|k| &mut k.file, i)
    }

    /// A piece's `rank` and `file` weights add to its placement, by owner-relative rank and by
    /// file counted from the nearer edge, for either side.
    #[test]
    fn a_piece_s_rank_and_file_weights_place_it() {
        // A White knight on d5: fifth rank, fourth file from the edge.
        let white = "4k3/pp6/8/3N4/8/8/PP6/4K3 w - - 0 1";
        assert_eq!(effect("normal", white, knight_rank(4)), 100);
        assert_eq!(effect("normal", white, knight_rank(3)), 0);
        assert_eq!(effect("normal", white, knight_file(3)), 100);
        assert_eq!(effect("normal", white, knight_file(0)), 0);
        // A Black knight on e4: its fifth rank, the fourth file from the h edge.
        let black = "4k3/pp6/8/8/4n3/8/PP6/4K3 w - - 0 1";
        assert_eq!(effect("normal", black, knight_rank(4)), -100);
        assert_eq!(effect("normal", black, knight_rank(3)), 0);
        assert_eq!(effect("normal", black, knight_file(3)), -100);
        // One weight a rank, one a file up to the middle.
        let v = Registry::builtin().get("normal").expect("normal");
        let params = EvalParams::defaults(&v);
        assert!(params.kinds.iter().all(|k| k.rank.len() == 8 && k.file.len() == 4));
    }

    fn knight_square(i: usize) -> impl Fn(&mut EvalParams) -> &mut S {
        knight_place(|k| &mut k.square, i)
    }

    /// A piece's `square` weights are a piece-square table as its owner sees the board: rank by
    /// rank from the owner's first, files from a (not mirrored left to right).
    #[test]
    fn a_piece_s_square_weights_place_it() {
        // A White knight on d5: its fifth rank (index 4), file d (3): 4 * 8 + 3.
        let white = "4k3/pp6/8/3N4/8/8/PP6/4K3 w - - 0 1";
        assert_eq!(effect("normal", white, knight_square(35)), 100);
        assert_eq!(effect("normal", white, knight_square(36)), 0);
        assert_eq!(effect("normal", white, knight_square(27)), 0);
        // A Black knight on e4: its fifth rank, file e (4), so 4 * 8 + 4, not d's 35.
        let black = "4k3/pp6/8/8/4n3/8/PP6/4K3 w - - 0 1";
        assert_eq!(effect("normal", black, knight_square(36)), -100);
        assert_eq!(effect("normal", black, knight_square(35)), 0);
        assert_eq!(effect("normal", black, knight_square(28)), 0);
        let v = Registry::builtin().get("normal").expect("normal");
        let params = EvalParams::defaults(&v);
        assert!(params.kinds.iter().all(|k| k.square.len() == 64));
    }

    fn knight_moves(i: usize) -> impl Fn(&mut EvalParams) -> &mut S {
        knight_place(|k| &mut k.moves, i)
    }

    /// A piece's `moves` weights score its count of safe moves: one entry a count, from none to
    /// the most it has on an empty board, the last for any count beyond.
    #[test]
    fn a_piece_s_moves_weights_score_its_count_of_safe_moves() {
        // The knight on d5 reaches eight squares; b6 is a7's pawn's: seven are safe.
        let white = "4k3/pp6/8/3N4/8/8/PP6/4K3 w - - 0 1";
        assert_eq!(effect("normal", white, knight_moves(7)), 100);
        assert_eq!(effect("normal", white, knight_moves(8)), 0);
        assert_eq!(effect("normal", white, knight_moves(6)), 0);
        // Black's knight in the corner: two (with pawns, so that no drawish scaling applies).
        let black = "n3k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1";
        assert_eq!(effect("normal", black, knight_moves(2)), -100);
        assert_eq!(effect("normal", black, knight_moves(7)), 0);
        let v = Registry::builtin().get("normal").expect("normal");
        let params = EvalParams::defaults(&v);
        let lens: Vec<usize> = params.kinds.iter().map(|k| k.moves.len()).collect();
        // Pawn, knight, bishop, rook, queen, king: the most moves on an empty board, and one.
        assert_eq!(lens, [5, 9, 14, 15, 28, 9], "{:?}", params.kind_names);
        assert_eq!(super::by_count(&[s(1, 1), s(2, 2)], 5), s(2, 2));
        assert_eq!(super::by_count(&[s(1, 1), s(2, 2)], -1), s(1, 1));
    }

    /// The position with colours exchanged: ranks mirrored, letters' case swapped (hands too),
    /// the other side to move; no castling or en-passant rights.
    fn flipped(fen_text: &str) -> String {
        let fields: Vec<&str> = fen_text.split_whitespace().collect();
        let swap = |c: char| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        };
        let (board, hand) = match fields[0].find('[') {
            Some(i) => fields[0].split_at(i),
            None => (fields[0], ""),
        };
        let board: Vec<String> = board.split('/').rev().map(|r| r.chars().map(swap).collect()).collect();
        let hand: String = hand.chars().map(swap).collect();
        let side = if fields[1] == "w" { "b" } else { "w" };
        format!("{}{hand} {side} - - 0 1", board.join("/"))
    }

    /// The first four fields of an EPD line, with no castling or en-passant rights.
    fn plain(epd: &str) -> String {
        let fields: Vec<&str> = epd.split_whitespace().collect();
        format!("{} {} - - 0 1", fields[0], fields[1])
    }

    #[test]
    fn threats_fire_with_the_right_sign() {
        // Pawns on both sides in each position: a pawnless small edge is scaled down.
        type Term = fn(&mut EvalParams) -> &mut S;
        let pawn: Term = |p| &mut p.threat_pawn;
        let lesser: Term = |p| &mut p.threat_lesser;
        let hanging: Term = |p| &mut p.hanging;
        // A white pawn attacks a black knight defended by a pawn: a pawn threat, not hanging.
        let fen_text = "4k3/8/2p5/3n4/4P3/8/8/R3K3 w - - 0 1";
        assert_eq!(effect("normal", fen_text, pawn), 100);
        assert_eq!(effect("normal", fen_text, hanging), 0);
        assert_eq!(effect("normal", fen_text, lesser), 0);
        // The same for Black to move: the threat is the opponent's.
        assert_eq!(effect("normal", &fen_text.replace(" w ", " b "), pawn), -100);
        // A white knight attacks a black rook defended by the king: a threat by a lesser piece.
        let fen_text = "4k3/pp2r3/8/3N4/8/8/PP6/4K3 w - - 0 1";
        assert_eq!(effect("normal", fen_text, lesser), 100);
        assert_eq!(effect("normal", fen_text, hanging), 0);
        // A black bishop attacks an undefended white knight: hanging, no lesser threat (equal value
        // is not less); for White to move that is Black's.
        let fen_text = "4k3/pp6/8/8/3b4/8/1N4PP/4K3 w - - 0 1";
        assert_eq!(effect("normal", fen_text, hanging), -100);
        assert_eq!(effect("normal", fen_text, lesser), 0);
        // Kings are never threatened pieces (a check is no threat), but they do attack: the
        // checking rook next to the white king is hanging.
        assert_eq!(effect("normal", "4k3/pp6/8/8/8/8/6PP/3rK3 w - - 0 1", hanging), 100);
        // Pillage (10x10): a pawn attacking a rook.
        let fen_text = "4k5/10/10/10/4r5/5P4/10/10/10/5K4 w - - 0 1";
        assert_eq!(effect("pillage", fen_text, pawn), 100);
    }

    #[test]
    fn a_detonator_threatens_its_neighbours() {
        type Term = fn(&mut EvalParams) -> &mut S;
        let lesser: Term = |p| &mut p.threat_lesser;
        let hanging: Term = |p| &mut p.hanging;
        // A white Detonator next to an undefended black bishop (which does not attack it back): the
        // bishop hangs; worth less than the Detonator, it is no lesser-piece threat.
        let fen_text = "5k4/2pp6/10/10/10/4b5/4X5/10/2PP6/5K4[-] w - - 0 1";
        assert_eq!(effect("wreckage", fen_text, hanging), 100);
        assert_eq!(effect("wreckage", fen_text, lesser), 0);
        // Colours exchanged, White still to move: the threat is the opponent's.
        let mirrored = flipped(fen_text).replace(" b ", " w ");
        assert_eq!(effect("wreckage", &mirrored, hanging), -100);
        // Next to a black queen defended by a pawn, itself defended by a pawn: a threat by a lesser
        // piece, nothing hangs (the queen's attack on it is no threat either).
        let fen_text = "5k4/10/10/2p7/3p6/4q5/4X5/3P6/2P7/5K4[-] w - - 0 1";
        assert_eq!(effect("wreckage", fen_text, lesser), 100);
        assert_eq!(effect("wreckage", fen_text, hanging), 0);
        let mirrored = flipped(fen_text).replace(" b ", " w ");
        assert_eq!(effect("wreckage", &mirrored, lesser), -100);
        // Ninja pawns survive a detonation: an undefended one next to it is not attacked.
        let fen_text = "5k4/2pp6/10/10/10/4j5/4X5/10/2PP6/5K4[-] w - - 0 1";
        assert_eq!(effect("wreckage", fen_text, hanging), 0);
    }

    #[test]
    fn dragon_and_guillotine_attacks_on_the_king_zone_make_king_danger() {
        // King danger needs two attackers of the zone: a queen or rook and the hook piece. A
        // Guillotine two squares from the king's shelter pawn (distance-2 capture); a Dragon on
        // the king's diagonal (approach onto two empty squares next to the king).
        for fen_text in [
            "5k4/4ppp3/10/5G1Q2/10/10/10/10/PP8/9K[-] w - - 0 1",
            "5k4/pp8/10/3D6/10/10/10/10/PP8/4R4K[-] w - - 0 1",
        ] {
            let base = eval_with("wreckage", fen_text, |_| {});
            let doubled = eval_with("wreckage", fen_text, |p| p.king_danger[0] *= 2);
            assert!(doubled > base, "{fen_text}: {doubled} vs {base}");
            // Black to move: the danger is still White's.
            let black = fen_text.replace(" w ", " b ");
            let base = eval_with("wreckage", &black, |_| {});
            let doubled = eval_with("wreckage", &black, |p| p.king_danger[0] *= 2);
            assert!(doubled < base, "{black}: {doubled} vs {base}");
        }
    }

    #[test]
    fn colour_flipped_positions_evaluate_the_same() {
        let mut checked = 0;
        for variant in ["normal", "crazyhouse", "pillage", "wreckage", "wildcastle", "wildrose"] {
            let suite = match variant {
                "normal" => include_str!("../../fixtures/openings/normal.epd"),
                "crazyhouse" => include_str!("../../fixtures/openings/crazyhouse.epd"),
                "pillage" => include_str!("../../fixtures/openings/pillage.epd"),
                "wreckage" => include_str!("../../fixtures/openings/wreckage.epd"),
                "wildcastle" => include_str!("../../fixtures/openings/wildcastle.epd"),
                _ => include_str!("../../fixtures/openings/wildrose.epd"),
            };
            let v = Registry::builtin().get(variant).expect("a built-in variant");
            let tables = EvalTables::new(&v);
            for line in suite
                .lines()
                .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
                .take(40)
            {
                let fen_text = plain(line);
                let a = evaluate(&test_fixtures::position_of(&v, &fen_text), &tables);
                let b = evaluate(&test_fixtures::position_of(&v, &flipped(&fen_text)), &tables);
                assert_eq!(a, b, "{variant}: {fen_text}");
                checked += 1;
            }
        }
        assert!(checked >= 200, "{checked}");
        wreckage_hook_positions_evaluate_the_same_flipped();
        // Middlegames with threats on both sides.
        let v = Registry::builtin().get("normal").expect("normal");
        let tables = EvalTables::new(&v);
        for fen_text in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 1",
            "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b - - 0 1",
        ] {
            let a = evaluate(&test_fixtures::position_of(&v, fen_text), &tables);
            let b = evaluate(&test_fixtures::position_of(&v, &flipped(fen_text)), &tables);
            assert_eq!(a, b, "{fen_text}");
        }
    }

    /// Wreckage middlegames where hook pieces attack, defend and move: each evaluates the same with
    /// colours exchanged, with the default weights and with the hook kinds' mobility and king-attack
    /// weights raised, which must change the evaluation (the hook terms are live).
    fn wreckage_hook_positions_evaluate_the_same_flipped() {
        let v = Registry::builtin().get("wreckage").expect("wreckage");
        let hook_kinds: Vec<usize> = (0..v.pieces.len()).filter(|&k| v.pieces[k].hook.is_some()).collect();
        assert_eq!(hook_kinds.len(), 3);
        let raise = |p: &mut EvalParams| {
            for &k in &hook_kinds {
                p.kinds[k].mobility += s(7, 5);
                p.kinds[k].king_attack += 3;
            }
        };
        let mut live = 0;
        for fen_text in [
            "5k4/2p1j1p3/1D1gX1r3/3Pb1J3/2g1G1x3/2dRJ1p3/3F1P4/2X2d4/10/5K4[Jj] w - - 0 1",
            "5k4/10/3pgp4/2J1D1j3/3xGX4/2r1d1R3/3PjP4/10/10/5K4[-] b - - 0 1",
            "xr3k2rd/ppp1pp1ppp/3p2p3/2X7/4G5/5d4/10/10/PPPPPPPPPP/1R3K2RD[GJJgjj] w - - 0 1",
            "1rwbqkbfr1/pppdpp1ppp/3p1x4/6p3/10/2G2D4/3X6/10/PPPPPPPPPP/1RWBQKBFR1[JJgjj] w - - 0 1",
            "5k4/4ppp3/10/5G1Q2/10/10/10/10/PP8/9K[-] w - - 0 1",
            "5k4/pp8/10/3D6/10/10/10/10/PP8/4R4K[-] b - - 0 1",
        ] {
            let a = eval_with("wreckage", fen_text, |_| {});
            let b = eval_with("wreckage", &flipped(fen_text), |_| {});
            assert_eq!(a, b, "{fen_text}");
            let raised_a = eval_with("wreckage", fen_text, raise);
            let raised_b = eval_with("wreckage", &flipped(fen_text), raise);
            assert_eq!(raised_a, raised_b, "{fen_text}, hook weights raised");
            live += usize::from(raised_a != a);
        }
        assert_eq!(live, 6, "the hook weights change every one of these evaluations");
    }

    /// Each side's king safety figure in `fen_text` with the trial king safety weights
    /// (`set_trial_king_safety`) changed by `change`.
    fn safety_with(variant: &str, fen_text: &str, change: impl FnOnce(&mut EvalParams)) -> [Option<i32>; 2] {
        let v = Registry::builtin().get(variant).expect("a built-in variant");
        let p = test_fixtures::position_of(&v, fen_text);
        let mut params = EvalParams::defaults(&v);
        params.set_trial_king_safety(&v);
        change(&mut params);
        king_safety_of(&p, &EvalTables::with_params(&v, params))
    }

    /// What raising the safe-check weight of the kind lettered `letter` by 100 adds to White's
    /// king safety figure in `fen_text`.
    fn safe_check_effect(variant: &str, fen_text: &str, letter: char) -> i32 {
        let v = Registry::builtin().get(variant).expect("a built-in variant");
        let k = v.kind_by_letter(letter).expect("a piece letter").index();
        let base = safety_with(variant, fen_text, |_| {})[0].expect("White's danger counts");
        let raised = safety_with(variant, fen_text, |p| p.kinds[k].safe_check += 100)[0].expect("counts");
        raised - base
    }

    #[test]
    fn a_safe_check_counts_only_when_safe() {
        // The knight on d5 reaches e7 and f6, both checking squares; f6 is defended by the g7
        // pawn. The queen's attacks on f7 and h7 let the danger count.
        let open = "6k1/5ppp/8/3N3Q/8/8/5PPP/6K1 w - - 0 1";
        assert_eq!(safe_check_effect("normal", open, 'N'), 100);
        // A rook on e8 defends e7 too: no safe knight check left.
        let defended = "4r1k1/5ppp/8/3N3Q/8/8/5PPP/6K1 w - - 0 1";
        assert_eq!(safe_check_effect("normal", defended, 'N'), 0);
        // A white piece on e7 already: the knight cannot go there.
        let own = "6k1/4Bppp/8/3N3Q/8/8/5PPP/6K1 w - - 0 1";
        assert_eq!(safe_check_effect("normal", own, 'N'), 0);
        // Pillage: a cannon checks over a screen. The one on a6 slides to f6 (a quiet move: it
        // captures only by hopping), two squares behind the f8 pawn that screens the king on f9;
        // nothing of Black's defends f6.
        let cannon = "10/5k4/4pp4/10/C9/10/10/5Q4/PPPPP5/5K4 w - - 0 1";
        assert_eq!(safe_check_effect("pillage", cannon, 'C'), 100);
    }

    #[test]
    fn a_drop_check_counts_only_when_safe_and_on_an_empty_square() {
        // Crazyhouse: a knight in White's hand could be dropped on e7, f6 or h6 to check; f6 and h6
        // are defended by the g7 pawn, e7 is not. The queen and bishop attack the king's
        // neighbourhood, so the danger counts.
        let v = Registry::builtin().get("crazyhouse").expect("crazyhouse");
        let n = v.kind_by_letter('N').expect("knight").index();
        let effect = |fen_text: &str| {
            let base = safety_with("crazyhouse", fen_text, |_| {})[0].expect("counts");
            let raised = safety_with("crazyhouse", fen_text, |p| p.kinds[n].drop_check += 100)[0].expect("counts");
            raised - base
        };
        assert_eq!(effect("6k1/5ppp/8/7Q/8/3B4/5PPP/6K1[N] w - - 0 1"), 100);
        // e7 taken by a black piece: no drop there.
        assert_eq!(effect("6k1/4nppp/8/7Q/8/3B4/5PPP/6K1[N] w - - 0 1"), 0);
        // No knight in hand: nothing.
        assert_eq!(effect("6k1/5ppp/8/7Q/8/3B4/5PPP/6K1[B] w - - 0 1"), 0);
    }

    #[test]
    fn removing_the_attackers_queen_changes_its_safety_by_the_no_queen_term() {
        // White's knight and bishop attack f7 and h7 next to the black king. White's queen, walled
        // in on a1, attacks nothing that matters to that king; taken off, only the no-queen term
        // changes White's safety.
        let with = "6k1/5pp1/7p/6N1/2B5/8/PP6/QR4K1 w - - 0 1";
        let without = "6k1/5pp1/7p/6N1/2B5/8/PP6/1R4K1 w - - 0 1";
        for no_queen in [-48, 0, 37] {
            let change = |p: &mut EvalParams| p.king_no_queen = no_queen;
            let a = safety_with("normal", with, change)[0].expect("counts with a queen");
            let b = safety_with("normal", without, change)[0].expect("counts: two attackers");
            assert_eq!(b - a, no_queen);
        }
        // A single attacker counts only with a queen.
        let lone = "6k1/5pp1/7p/6N1/8/8/PP6/QR4K1 w - - 0 1";
        assert!(safety_with("normal", lone, |_| {})[0].is_some());
        let lone = "6k1/5pp1/7p/6N1/8/8/PP6/1R4K1 w - - 0 1";
        assert_eq!(safety_with("normal", lone, |_| {})[0], None);
    }

    #[test]
    fn king_safety_terms_are_live_and_colour_symmetric() {
        type Raise = fn(&mut EvalParams);
        let terms: [(&str, Raise); 8] = [
            ("safe_check", |p| p.kinds.iter_mut().for_each(|k| k.safe_check += 40)),
            ("drop_check", |p| p.kinds.iter_mut().for_each(|k| k.drop_check += 40)),
            ("king_weak_square", |p| p.king_weak_square += 20),
            ("king_no_queen", |p| p.king_no_queen -= 30),
            ("king_danger_base", |p| p.king_danger_base += 20),
            ("king_danger_eg", |p| p.king_danger_eg += 20),
            ("king_storm", |p| p.king_storm.iter_mut().for_each(|x| *x -= 10)),
            ("king_attack", |p| p.kinds.iter_mut().for_each(|k| k.king_attack += 8)),
        ];
        let every = [
            "safe_check",
            "king_weak_square",
            "king_danger_base",
            "king_danger_eg",
            "king_attack",
        ];
        let cases: [(&str, &[&str], &[&str]); 4] = [
            (
                "normal",
                &[
                    "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b - - 0 1",
                    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 1",
                    "6k1/5pp1/7p/6N1/2B5/8/5PPP/6K1 w - - 0 1",
                    "r2q1rk1/5ppp/8/6P1/8/8/5P1P/R2Q1RK1 w - - 0 1",
                    "6k1/5ppp/8/3N3Q/8/8/5PPP/6K1 b - - 0 1",
                ],
                &["king_no_queen", "king_storm"],
            ),
            (
                "pillage",
                &[
                    "10/5k4/4pp4/10/C9/10/10/5Q4/PPPPP5/5K4 w - - 0 1",
                    "cv6vc/srnbqk1nrs/pppp1ppppp/4p5/2b1P5/5Q4/10/PPPP1PPPPP/SRNB1KBNRS/CV6VC w - - 0 1",
                ],
                &[],
            ),
            (
                "crazyhouse",
                &[
                    "6k1/5ppp/8/7Q/8/3B4/5PPP/6K1[Nb] w - - 0 1",
                    "r1b2rk1/ppp2ppp/2n5/3p3Q/3P4/2PB1N2/PP3PPP/R3K2R[QRBNPqp] b - - 0 1",
                ],
                &["drop_check"],
            ),
            (
                "wreckage",
                &[
                    "5k4/4ppp3/10/5G1Q2/10/10/10/10/PP8/9K[-] w - - 0 1",
                    "5k4/pp8/10/3D6/10/10/10/10/PP8/4R4K[-] b - - 0 1",
                    "xr3k2rd/ppp1pp1ppp/3p2p3/2X7/4G5/5d4/10/10/PPPPPPPPPP/1R3K2RD[GJJgjj] w - - 0 1",
                ],
                &[],
            ),
        ];
        for (variant, positions, also) in cases {
            let v = Registry::builtin().get(variant).expect("a built-in variant");
            let trial = |p: &mut EvalParams| p.set_trial_king_safety(&v);
            for (name, raise) in terms {
                let raised = |p: &mut EvalParams| {
                    trial(p);
                    raise(p);
                };
                let mut live = 0;
                for fen_text in positions {
                    let a = eval_with(variant, fen_text, raised);
                    let b = eval_with(variant, &flipped(fen_text), raised);
                    assert_eq!(a, b, "{variant}, {name} raised: {fen_text}");
                    live += usize::from(a != eval_with(variant, fen_text, trial));
                }
                if every.contains(&name) || also.contains(&name) {
                    assert!(live > 0, "{variant}: {name} changes no evaluation");
                }
            }
        }
    }

    #[test]
    fn a_definitions_eval_section_sets_the_threat_terms() {
        let v = Registry::builtin().get("normal").expect("normal");
        let section = "[eval]\nthreat_pawn = [1, 2]\nthreat_lesser = [3, 4]\nhanging = [5, 6]\n";
        let text = crate::search::eval_params::with_section(&DefinitionSource::of(&v).text, section);
        let child = parse_definition(&text, "threats.toml").expect("parses");
        let params = EvalParams::of_source(&child, DefinitionSource::of(&child)).expect("reads");
        assert_eq!(
            (params.threat_pawn, params.threat_lesser, params.hanging),
            (s(1, 2), s(3, 4), s(5, 6))
        );
    }

    #[test]
    fn pawn_shape_terms_fire_where_they_should() {
        type Term = fn(&mut EvalParams) -> &mut S;
        // Ranks to go: a white pawn on e4 has 4, on e3 5; a black pawn on a7 has 6.
        let connected4: Term = |p| &mut p.connected[4];
        let connected5: Term = |p| &mut p.connected[5];
        let connected6: Term = |p| &mut p.connected[6];
        let backward: Term = |p| &mut p.backward;
        // d4 and e4 side by side, and so a7 and b7: all four connected.
        let fen_text = "4k3/pp6/8/8/3PP3/8/8/4K3 w - - 0 1";
        assert_eq!(effect("normal", fen_text, connected4), 200);
        assert_eq!(effect("normal", fen_text, connected6), -200);
        // e4 defended by d3 is connected; d3, neither defended nor beside a pawn, is not.
        let fen_text = "4k3/p7/8/8/4P3/3P4/8/4K3 w - - 0 1";
        assert_eq!(effect("normal", fen_text, connected4), 100);
        assert_eq!(effect("normal", fen_text, connected5), 0);
        assert_eq!(effect("normal", fen_text, backward), 0);
        // With a black pawn on e5 attacking d4, d3 is backward (its neighbour e4 is ahead of it).
        let fen_text = "4k3/8/8/4p3/4P3/3P4/8/4K3 w - - 0 1";
        assert_eq!(effect("normal", fen_text, backward), 100);
        // An isolated pawn is not backward too.
        assert_eq!(effect("normal", "4k3/8/8/4p3/8/3P4/8/4K3 w - - 0 1", backward), 0);
    }

    #[test]
    fn a_passer_s_stop_square_decides_blocked_or_safe() {
        type Term = fn(&mut EvalParams) -> &mut S;
        // A white passer on e5 has 3 ranks to go.
        let blocked: Term = |p| &mut p.passed_blocked[3];
        let safe: Term = |p| &mut p.passed_safe[3];
        let fen_text = "4k3/p7/4n3/4P3/8/8/P7/4K3 w - - 0 1";
        assert_eq!(effect("normal", fen_text, blocked), 100);
        assert_eq!(effect("normal", fen_text, safe), 0);
        let fen_text = "4k3/p7/8/4P3/8/8/P7/4K3 w - - 0 1";
        assert_eq!(effect("normal", fen_text, blocked), 0);
        assert_eq!(effect("normal", fen_text, safe), 100);
        // The black king on e7 guards e6: neither.
        let fen_text = "8/p3k3/8/4P3/8/8/P7/4K3 w - - 0 1";
        assert_eq!(effect("normal", fen_text, blocked), 0);
        assert_eq!(effect("normal", fen_text, safe), 0);
    }

    #[test]
    fn an_outpost_is_defended_by_a_pawn_and_out_of_the_enemy_pawns_reach() {
        let outpost: fn(&mut EvalParams) -> &mut S = |p| &mut p.kinds[1].outpost;
        // The knight on d5, defended by e4; Black's pawns on a7 and h7 can never attack it.
        assert_eq!(effect("normal", "4k3/p6p/8/3N4/4P3/8/P6P/4K3 w - - 0 1", outpost), 100);
        // A black pawn on c4 is behind it: still an outpost.
        assert_eq!(
            effect("normal", "4k3/p6p/8/3N4/2p1P3/8/P6P/4K3 w - - 0 1", outpost),
            100
        );
        // One on c7 could come to c6: no outpost; nor without the defending pawn.
        assert_eq!(effect("normal", "4k3/p1p4p/8/3N4/4P3/8/P6P/4K3 w - - 0 1", outpost), 0);
        assert_eq!(effect("normal", "4k3/p6p/8/3N4/8/4P3/P6P/4K3 w - - 0 1", outpost), 0);
        // On the enemy's second rank it is no outpost; for Black, the same square seen from its side.
        assert_eq!(effect("normal", "4k3/p2N3p/4P3/8/8/8/P6P/4K3 w - - 0 1", outpost), 0);
        assert_eq!(effect("normal", "4k3/p6p/8/4p3/3n4/8/P6P/4K3 w - - 0 1", outpost), -100);
    }

    #[test]
    fn pawn_shape_terms_are_live_and_colour_symmetric() {
        let raise = |p: &mut EvalParams| {
            // By distance to promotion, unevenly: equal counts of unequal pawns must not cancel.
            for (i, x) in (0..).zip(&mut p.connected) {
                *x += s(9 + 5 * i, 13 + 7 * i);
            }
            for (i, x) in (0..).zip(&mut p.passed_blocked) {
                *x += s(-7 - i, -21 - 3 * i);
            }
            for (i, x) in (0..).zip(&mut p.passed_safe) {
                *x += s(11 + i, 37 - 5 * i);
            }
            p.backward += s(-17, -5);
            p.kinds.iter_mut().for_each(|k| k.outpost += s(23, 7));
        };
        for (variant, fen_text) in [
            (
                "normal",
                "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b - - 0 1",
            ),
            (
                "normal",
                "r1bq1rk1/pp3ppp/2n1pn2/3p4/2PP4/2N2N2/PP3PPP/R2QKB1R w KQ - 0 1",
            ),
            ("normal", "6k1/3n1pp1/2p4p/1pPpN3/1P1P4/4P3/5PPP/6K1 w - - 0 1"),
            ("pillage", "10/5k4/4pp4/10/C9/10/10/5Q4/PPPPP5/5K4 w - - 0 1"),
            (
                "crazyhouse",
                "r1b2rk1/ppp2ppp/2n5/3p3Q/3P4/2PB1N2/PP3PPP/R3K2R[QRBNPqp] b - - 0 1",
            ),
        ] {
            let a = eval_with(variant, fen_text, raise);
            assert_eq!(
                a,
                eval_with(variant, &flipped(fen_text), raise),
                "{variant}: {fen_text}"
            );
            assert_ne!(a, eval_with(variant, fen_text, |_| {}), "{variant}: {fen_text}");
        }
    }
}
