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
//!
//! The parts: `tables` (a variant's tables and weights), `pieces` (material, placement, mobility
//! and the attack maps), `pawns`, `king` (king safety), `threats`; this file holds what they share
//! and adds them up.

use std::ops::{Add, AddAssign, Neg, Sub};
use std::sync::Arc;

use crate::core::hooks::HookRef;
use crate::core::tables::Tables;
use crate::core::{BoardShape, Color, Position, Square, SquareSet, Variant};

use super::eval_params::EvalParams;
use super::score::EVAL_LIMIT;

mod king;
mod pawns;
mod pieces;
mod tables;
mod threats;

#[cfg(test)]
mod term_tests;
#[cfg(test)]
mod tests;

pub(crate) use tables::empty_board_mobility;

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
    /// Per square, it and its neighbours: the zone of a king standing there (`Shared::king_zone`,
    /// read several times an evaluation).
    king_zones: Vec<SquareSet>,
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
    /// Some `passed_blocked`, `passed_safe` or `passed_path` weight is not zero: `passer_paths`
    /// runs.
    passer_paths: bool,
    /// Some `connected`, `backward` or `bound_rammed` weight is not zero: `pawns` looks for them.
    pawn_shape: bool,
    /// The Ethereal-style danger can score (`king_danger` or `king_danger_eg` is not zero).
    ethereal_danger: bool,
    /// Stockfish 11's king danger or the flank attack can score (`kd_transform` or `flank_attack`
    /// is not zero): `pieces` gathers its attackers, `king_danger_sf` runs.
    sf_danger: bool,
    /// Some `shelter` or `king_storm` weight is not zero: `shelter` runs.
    shelter: bool,
    /// Some weight of Stockfish 11's shelter and storm is not zero (`sf_shelter`, `sf_storm`,
    /// `sf_storm_blocked`): `sf_shelter` runs.
    sf_shelter: bool,
    /// `king_pawn_distance` or `pawnless_flank` is not zero: `king_pawns` runs.
    king_pawns: bool,
    /// Per square of the king, its ring (`eval_params`): the 3×3 around the square moved one step
    /// in from each edge (without the removal of squares two own pawns defend).
    ring: Vec<SquareSet>,
    /// By `colour * files + file` of the king, its flank: the files (`eval_params`) on that
    /// colour's first half of the ranks and one more.
    flank: Vec<SquareSet>,
    /// By file of the king, the lowest and highest file of its flank (all ranks).
    flank_files: Vec<(u8, u8)>,
}

#[inline]
fn king_distance(shape: crate::core::BoardShape, a: Square, b: Square) -> i32 {
    let dx = (shape.file(a) as i32 - shape.file(b) as i32).abs();
    let dy = (shape.rank(a) as i32 - shape.rank(b) as i32).abs();
    dx.max(dy)
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
    /// Its pawns whose stop square holds an enemy pawn, on dark and on light squares.
    rammed: [i32; 2],
    pawn_attacks: SquareSet,
    /// Squares its pawns, pieces (hook pieces too) and kings attack, and those attacked twice.
    att: SquareSet,
    att2: SquareSet,
    /// Enemy pieces one of its pieces (not a pawn) attacks with a piece worth less.
    lesser: SquareSet,
    /// Units of its pieces' attacks on the enemy king's neighbourhood, and how many pieces make them.
    king_units: i32,
    king_attackers: i32,
    /// Squares two of its pawns attack.
    pawn_att2: SquareSet,
    /// Stockfish 11's king danger (when `sf_danger`): its pieces whose attacks reach the enemy
    /// king's ring, the sum of their kinds' `kd_attacker`, their attacks on squares next to the
    /// enemy king, and the sum of their middlegame mobility scores.
    kd_attackers: i32,
    kd_weight: i32,
    kd_adjacent: i32,
    mob_mg: i32,
    /// Bit `kind` of its kinds with a piece attacking a square next to its own king (when
    /// `sf_danger`), and its shelter (mg).
    defending_kinds: u32,
    shelter_mg: i32,
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
            rammed: [0; 2],
            pawn_attacks: SquareSet::EMPTY,
            att: SquareSet::EMPTY,
            att2: SquareSet::EMPTY,
            lesser: SquareSet::EMPTY,
            king_units: 0,
            king_attackers: 0,
            pawn_att2: SquareSet::EMPTY,
            kd_attackers: 0,
            kd_weight: 0,
            kd_adjacent: 0,
            mob_mg: 0,
            defending_kinds: 0,
            shelter_mg: 0,
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
    // The shelter first: Stockfish 11's king danger reads it.
    if !t.kingless && t.has_pawns {
        for color in Color::BOTH {
            let mut shelter = S::default();
            if t.shelter {
                shelter.mg += x.shelter(&sides, color);
            }
            if t.sf_shelter {
                shelter += x.sf_shelter(&sides, color);
            }
            sides[color as usize].shelter_mg = shelter.mg;
            sides[color as usize].score += shelter;
        }
    }
    if !t.kingless && t.king_pawns {
        x.add_to_each_side(&mut sides, Shared::king_pawns);
    }
    if t.ethereal_danger {
        x.add_to_each_side(&mut sides, Shared::king_danger);
    }
    if t.sf_danger {
        x.add_to_each_side(&mut sides, Shared::king_danger_sf);
    }
    x.add_to_each_side(&mut sides, Shared::threats);
    if t.params.threat_push != S::default() {
        x.add_to_each_side(&mut sides, Shared::push_threats);
    }
    if t.passer_paths {
        x.add_to_each_side(&mut sides, Shared::passer_paths);
    }
    x.total(&sides)
}

/// Each side's Stockfish 11 shelter and storm and its king–pawn terms in `pos` (see
/// `Shared::sf_shelter`, `Shared::king_pawns`), by colour, whatever the weights' switches say.
#[cfg(test)]
fn sf_king_terms_of(pos: &Position, t: &EvalTables) -> [(S, S); 2] {
    let x = Shared::new(pos, t);
    let mut sides = [Side::new(), Side::new()];
    x.gather(&mut sides);
    Color::BOTH.map(|c| (x.sf_shelter(&sides, c), x.king_pawns(&sides, c)))
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

    /// Adds a term of each side to that side's score, White's first.
    #[inline(always)]
    fn add_to_each_side(&self, sides: &mut [Side; 2], term: impl Fn(&Self, &[Side; 2], Color) -> S) {
        for color in Color::BOTH {
            let bonus = term(self, sides, color);
            sides[color as usize].score += bonus;
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
