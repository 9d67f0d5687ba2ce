//! The evaluation tables of one variant: what the evaluation knows of each piece kind, the
//! piece-square table (material and placement) and the weights, made from the variant's piece data
//! and its `[eval]` section.

use std::sync::Arc;

use crate::core::betza::mode;
use crate::core::{BoardShape, Color, Position, Royalty, Square, SquareSet, Variant};
use crate::search::eval_params::{EvalParams, KindParams};

use super::pawns::promo_distance;
use super::{EvalTables, KindInfo, S, s};

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
pub(super) fn by_count(table: &[S], count: i32) -> S {
    let at = usize::try_from(count).unwrap_or(0).min(table.len().saturating_sub(1));
    table.get(at).copied().unwrap_or_default()
}

/// A piece's mobility score for `mob` safe moves: the linear weight per move above its kind's
/// average (`mob_center16`, in sixteenths), and the count's own entry.
#[inline]
pub(super) fn mobility_score(kp: &KindParams, mob_center16: i32, mob: i32) -> S {
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

/// Stockfish 11's king ring per square of the king, and its king flank by `colour * files +
/// file` of the king (see `EvalTables::ring`, `EvalTables::flank`), for any board. The flank's
/// files: the king's pair of files (b–c, d–e, f–g, …) and one more on each side, or at an edge
/// file the three nearest the edge: a–d, c–f, e–h and a–c, f–h on eight files, as Stockfish.
fn king_ring_and_flank(shape: BoardShape) -> (Vec<SquareSet>, Vec<SquareSet>) {
    let (files, ranks) = (i32::from(shape.files), i32::from(shape.ranks));
    let ring = shape
        .squares()
        .map(|k| {
            let f = (shape.file(k) as i32).clamp(1, (files - 2).max(1));
            let r = (shape.rank(k) as i32).clamp(1, (ranks - 2).max(1));
            let mut ring = SquareSet::EMPTY;
            for x in f - 1..=f + 1 {
                for y in r - 1..=r + 1 {
                    if (0..files).contains(&x) && (0..ranks).contains(&y) {
                        ring.insert(shape.square(x as u8, y as u8));
                    }
                }
            }
            ring
        })
        .collect();
    let mut flank = Vec::with_capacity(2 * files as usize);
    for color in Color::BOTH {
        for kf in 0..files {
            let (lo, hi) = flank_files(kf, files);
            let mut set = SquareSet::EMPTY;
            for sq in shape.squares() {
                let f = shape.file(sq) as i32;
                let camp = i32::from(shape.relative_rank(sq, color)) <= ranks / 2;
                if camp && f >= lo && f <= hi {
                    set.insert(sq);
                }
            }
            flank.push(set);
        }
    }
    (ring, flank)
}

/// Per square of the king, its zone: the square and its neighbours on the board.
fn king_zones(shape: BoardShape) -> Vec<SquareSet> {
    shape
        .squares()
        .map(|k| {
            let mut zone = SquareSet::EMPTY;
            for dx in -1..=1 {
                for dy in -1..=1 {
                    if let Some(z) = shape.offset(k, dx, dy) {
                        zone.insert(z);
                    }
                }
            }
            zone
        })
        .collect()
}

/// The material (neither pawns nor royal pieces) on the board and in hand at the start: the phase's
/// full middlegame, at least 1.
fn start_phase_material(variant: &Arc<Variant>, kinds: &[KindInfo]) -> i32 {
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
    phase_max.max(1)
}

/// The files of the flank of a king on file `kf` of `files` (see `king_ring_and_flank`), lowest
/// and highest, both within the board.
fn flank_files(kf: i32, files: i32) -> (i32, i32) {
    let (lo, hi) = if kf == 0 {
        (0, 2)
    } else if kf == files - 1 {
        (files - 3, files - 1)
    } else {
        let pair = (kf + 1) / 2;
        (2 * pair - 2, 2 * pair + 1)
    };
    (lo.max(0), hi.min(files - 1))
}

/// `flank_files` for a king on each file, as stored in `EvalTables::flank_files`.
fn flank_file_table(files: u8) -> Vec<(u8, u8)> {
    let files = i32::from(files);
    (0..files)
        .map(|kf| {
            let (lo, hi) = flank_files(kf, files);
            (lo as u8, hi as u8)
        })
        .collect()
}

/// Per square, its distance from the centre of the board (in steps, half-steps rounded down).
fn center_distances(shape: BoardShape) -> Vec<i32> {
    shape
        .squares()
        .map(|sq| {
            let dx = (2 * shape.file(sq) as i32 - (shape.files as i32 - 1)).abs();
            let dy = (2 * shape.rank(sq) as i32 - (shape.ranks as i32 - 1)).abs();
            (dx + dy) / 2
        })
        .collect()
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
        let center_dist = center_distances(shape);
        let king_zones = king_zones(shape);
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
        let phase_max = start_phase_material(variant, &kinds);
        let weighted = |weight: fn(&KindParams) -> i32| {
            let kinds = params.kinds.iter().take(32).enumerate();
            kinds.filter(|(_, k)| weight(k) != 0).fold(0u32, |m, (i, _)| m | 1 << i)
        };
        let safe_check_kinds = weighted(|k| k.safe_check) | weighted(|k| k.kd_check);
        let drop_check_kinds = weighted(|k| k.drop_check);
        let zero = S::default();
        let passer_paths = params
            .passed_blocked
            .iter()
            .chain(&params.passed_safe)
            .chain(&params.passed_path)
            .any(|&x| x != zero);
        let pawn_shape =
            params.backward != zero || params.bound_rammed != zero || params.connected.iter().any(|&x| x != zero);
        let ethereal_danger = params.king_danger[0] != 0 || params.king_danger_eg != 0;
        let sf_danger = params.kd_transform[..2].iter().any(|&x| x != 0) || params.flank_attack != zero;
        let shelter = params.shelter.iter().chain(&params.king_storm).any(|&x| x != 0);
        let sf_shelter =
            params.sf_shelter.iter().chain(&params.sf_storm).any(|&x| x != 0) || params.sf_storm_blocked != zero;
        let king_pawns = params.king_pawn_distance != zero || params.pawnless_flank != zero;
        let (ring, flank) = king_ring_and_flank(shape);
        let flank_files = flank_file_table(shape.files);
        EvalTables {
            variant: Arc::clone(variant),
            params,
            nsq,
            has_pawns: kinds.iter().any(|k| k.pawn),
            has_hooks: kinds.iter().any(|k| k.hook.is_some()),
            kinds,
            psq,
            phase_max,
            center_dist,
            king_zones,
            kingless: v.king_kinds().next().is_none() || !v.rules.goals.is_empty(),
            safe_check_kinds,
            drop_check_kinds,
            passer_paths,
            pawn_shape,
            ethereal_danger,
            sf_danger,
            shelter,
            sf_shelter,
            king_pawns,
            ring,
            flank,
            flank_files,
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
