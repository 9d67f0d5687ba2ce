//! The evaluation's weights as one parameter vector: every number `eval` uses to score a position,
//! by name, so that a tuner can fit them and a definition file can keep the result.
//!
//! The defaults come from each variant's piece data (material from `PieceType::value`, mobility
//! weights from each piece's mobility on an empty board), so a new game plays sensibly untuned.
//! A definition's `[eval]` section (read here; the rules never read it) replaces any group by name:
//!
//! ```toml
//! [eval]
//! tempo = [12]
//! passed = [0, 0, 60, 150, 40, 95, 20, 55, 10, 30, 6, 15, 5, 10]   # (mg, eg) by ranks to go
//! [eval.piece.Knight]
//! material = [320, 320]
//! mobility = [8, 8]
//! ```
//!
//! Groups of middlegame/endgame pairs are written flat, `mg, eg, mg, eg, …`. A file that inherits
//! another does not inherit its section: weights are fitted to one game's play.
//!
//! The groups (see each field of [`EvalParams`] and [`KindParams`]): `tempo`, `advance`, `passed`,
//! `passer_king`, `doubled`, `isolated`, `unstoppable`; pawn shape, zero by default:
//! `passed_blocked`, `passed_safe`, `passed_path`, `connected`, `backward`, `bound_rammed`;
//! `color_pair`, `open_file`,
//! `half_open_file`, `shelter`, `king_rank_mg`, `king_edge_mg`, `king_center_eg`,
//! `pawn_center_mg`; king safety: `king_danger`, `king_danger_eg`, `king_danger_base`,
//! `king_weak_square`, `king_no_queen`, `king_storm`; Stockfish 11's king danger, zero by default:
//! `kd_transform`, `kd_min`, `kd_base`, `kd_no_queen`, `kd_adjacent`, `kd_weak_ring`,
//! `kd_unsafe_check`, `kd_flank`, `kd_mobility`, `kd_shelter`, `flank_attack`; Stockfish 11's
//! shelter, storm and king–pawn terms, zero by default: `sf_shelter`, `sf_storm` (a row of one
//! weight per rank for each file distance from the edge, 0 to 3), `sf_storm_blocked`,
//! `king_pawn_distance`, `pawnless_flank`; threats, each an `(mg, eg)` pair per enemy
//! piece: `threat_pawn` (a non-pawn attacked by a pawn), `threat_lesser` (attacked by a piece worth
//! less), `hanging` (attacked and undefended), `threat_push` (attacked by a pawn after a safe
//! step), `threat_king` (attacked by the king), the last two zero by default; and per piece `material`, `hand`, `mobility`,
//! `center`, `king_attack`, `safe_check`, `drop_check`, `outpost`, `kd_attacker`, `kd_check`,
//! `kd_defender` (the last four zero by default), `rank` (an `(mg, eg)` pair per
//! owner-relative rank), `file` (a pair per file from the nearer edge to the middle), `moves` (a
//! pair per count of safe moves) and `square` (a pair per square as the owner sees the board: its
//! first rank from file a, then the next); the last two are left out of a written section while
//! zero.
//!
//! King safety (after Ethereal's `evaluateKings`) adds up, for the side attacking a king, a
//! *safety* figure in units: `king_attack` per attack of one of its pieces on a square next to the
//! king, `safe_check` per square from which a piece of that kind could check the king and which it
//! can reach safely, `drop_check` per such square a piece of that kind in hand could be dropped on,
//! `king_weak_square` per square next to the king it attacks and the king's side defends at most
//! once and then only with the king or a queen, `king_no_queen` when it has no queen (its most
//! valuable kind of piece), and `king_danger_base`. It counts when `king_attackers[0]` of its
//! pieces attack the king's neighbourhood, `king_attackers[1]` when it has a queen. The
//! middlegame bonus is quadratic in it, `safety² * king_danger[0] / 2048` up to `king_danger[1]`;
//! the endgame bonus linear, `safety * king_danger_eg / 64`; none when the safety is negative.
//! Every term but `king_attack` is zero by default, and `king_attackers` is [2, 2]: a game's king
//! danger is the attacks on the king's neighbourhood alone until its own fit sets the rest.
//!
//! King danger in Stockfish 11's form (`Evaluation::king`), zero by default, besides or instead of
//! the sum above (a game that zeroes `king_danger` and `king_danger_eg` skips that one). For the king
//! of the side attacked, its *ring* is the 3×3 around the king's square moved one step in from each
//! edge, less the squares two of its own pawns defend. The attacker's danger `kd`, in Stockfish's
//! internal units, adds: attackers × weight, where each attacking piece whose attacks reach the ring
//! adds 1 to attackers and its kind's `kd_attacker` to weight, and each ring square the attacker's
//! pawns attack adds 1 to attackers; `kd_adjacent` per attack of a piece on a square next to the
//! king; `kd_weak_ring` per weak ring square (as `king_weak_square`); per kind of piece on the
//! board with a safe check (a square it reaches from which it would check, not defended or weak and
//! attacked twice, not its own) its `kd_check` once, a queen's (`KindInfo::heavy`) only from a
//! square where no kind of higher `kd_check` checks safely (Stockfish's queen checks that are not
//! rook checks), and for a kind without one, not a queen, `kd_unsafe_check` per square it could
//! check from; from the *flank* (the
//! king's file and those beside it, Stockfish's a–d, c–f, e–h by pairs of files and a–c, f–h at the
//! edges, on the king's side's first half of the ranks and one more), with flank attack = flank
//! squares the attacker attacks plus those it attacks twice, `flank_attack² * kd_flank[0] / 8` and
//! `kd_flank[1]` per flank square the king's side attacks; `kd_mobility` per sixteenth of the
//! attacker's middlegame mobility score minus the defender's; `kd_shelter` per sixteenth of the
//! defender's shelter (mg); per kind of the defender's pieces that attack a square next to its
//! king its `kd_defender` once; `kd_no_queen` when the attacker has no queen; `kd_base`. Above `kd_min` it scores `kd² * kd_transform[0] / 2^20` (at most
//! `kd_transform[2]`) in the middlegame and `kd * kd_transform[1] / 1024` in the endgame for the
//! attacker: Stockfish's kd²/4096 and kd/16 times our scale, 0.35 for chess (100/213 × 0.75, its
//! pawn 213 against our 0.75 of its centipawns). `flank_attack` is scored per unit of flank attack,
//! outside the danger. Left out of Stockfish's sum: pinned and discovered-check blockers, x-ray
//! attacks through queens, and drop checks.
//!
//! Shelter and storm in Stockfish 11's form (`Pawns::evaluate_shelter`), zero by default, besides
//! or instead of `shelter` and `king_storm`: for a king square, over the king's file moved one in
//! from the edges and the files beside it, each file at distance `d` (at most 3) from the nearer
//! edge adds `sf_shelter[d * ranks + r]`, `r` the relative rank of the side's rearmost pawn on the
//! file not behind the king (0 for none), and subtracts `sf_storm[d * ranks + e]`, `e` the
//! relative rank of the enemy's pawn on the file nearest the side's first rank, not behind the
//! king (0 for none) — or, when that pawn stands just in front of the side's own pawn,
//! `sf_storm_blocked` if it is on the side's third rank and nothing otherwise. The king's square
//! and the squares its held castlings would take it to are scored so, and the best middlegame
//! value counts (it is also the shelter Stockfish's king danger reads). In the endgame,
//! `king_pawn_distance` per square from the king to its side's nearest pawn (none without pawns),
//! and `pawnless_flank` when no pawn stands on the king's flank files (both colours).

use std::fmt::Write as _;

use serde::Deserialize;

use crate::core::{Color, Variant};
use crate::variants::{DefinitionError, DefinitionSource};

use super::eval::{S, empty_board_mobility, s};

/// The weights of one piece type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindParams {
    /// Material on the board.
    pub material: S,
    /// Material in hand (games with holdings): a piece in hand can go anywhere.
    pub hand: S,
    /// Per square of mobility above its average (x16 internally, see `eval`).
    pub mobility: S,
    /// Centralisation: placement bonus per square of empty-board mobility above the average,
    /// times the average (so that every piece's scale is alike).
    pub center: S,
    /// King safety units per attack of one of its pieces on the enemy king's neighbourhood.
    pub king_attack: i32,
    /// Placement by owner-relative rank (one per rank of the board; zero by default): what the
    /// empty-board centralisation above cannot say, e.g. a knight's outpost ranks, fitted per game.
    pub rank: Vec<S>,
    /// Placement by file, counted from the nearer edge (one per file up to the middle; zero by
    /// default).
    pub file: Vec<S>,
    /// Mobility by count: an (mg, eg) pair per number of safe moves, from none to the most it
    /// has on an empty board (zero by default): the curve the linear `mobility` cannot draw.
    pub moves: Vec<S>,
    /// Placement by square as its owner sees the board (rank by rank from the owner's first,
    /// files from a; zero by default): a full piece-square table, for fits with data enough.
    pub square: Vec<S>,
    /// King safety units per square from which a piece of this kind on the board could check the
    /// enemy king and which it reaches safely (not counted for pawns, royal pieces and hook pieces,
    /// whose hook decides what they capture).
    pub safe_check: i32,
    /// King safety units per empty square from which a piece of this kind in hand, dropped there,
    /// would check the enemy king safely (games with drops).
    pub drop_check: i32,
    /// On an outpost (zero by default): on the enemy's half short of its last rank, defended by an
    /// own pawn, where no enemy pawn on a file beside it can ever attack it.
    pub outpost: S,
    /// King danger in Stockfish 11's form (see the module's documentation; zero by default): the
    /// attacker weight of this kind, added once per piece of it whose attacks reach the enemy
    /// king's ring (the danger takes attackers × their summed weight).
    pub kd_attacker: i32,
    /// King danger units when some piece of this kind on the board has a safe check (counted
    /// once per kind, not per square; zero by default).
    pub kd_check: i32,
    /// King danger units when some piece of this kind attacks a square next to its own king
    /// (counted once per kind; zero by default; Stockfish's knight defender, −100).
    pub kd_defender: i32,
}

/// Every weight of the evaluation of one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// Bonus for the side to move.
    pub tempo: i32,
    /// Pawn advancement by distance to promotion (index = ranks to go).
    pub advance: [S; 7],
    /// Passed pawn by distance to promotion.
    pub passed: [S; 7],
    /// Per square of king distance (enemy minus own) to a passer's stop square, by distance to
    /// promotion (endgame).
    pub passer_king: [i32; 7],
    pub doubled: S,
    pub isolated: S,
    /// A passer the bare enemy king cannot catch (endgame).
    pub unstoppable: i32,
    /// A passer whose stop square holds a piece, by distance to promotion (on top of `passed`;
    /// zero by default).
    pub passed_blocked: [S; 7],
    /// A passer whose stop square is empty and not attacked by the enemy, by distance to promotion
    /// (on top of `passed`; zero by default).
    pub passed_safe: [S; 7],
    /// A passer whose every square to promotion is empty and not attacked by the enemy, by
    /// distance to promotion (on top of `passed_safe`; zero by default).
    pub passed_path: [S; 7],
    /// A pawn defended by an own pawn or with one beside it on the same rank, by distance to
    /// promotion (zero by default).
    pub connected: [S; 7],
    /// A pawn that no own pawn beside it can defend any more (those on the files beside it are all
    /// ahead of it) and whose stop square an enemy pawn attacks (zero by default).
    pub backward: S,
    /// Per own pawn on a colour-bound piece's square colour whose stop square holds an enemy pawn
    /// (the piece's own pawns hem it in for good; zero by default).
    pub bound_rammed: S,
    /// Two colour-bound pieces of one kind on both colours.
    pub color_pair: S,
    pub open_file: S,
    pub half_open_file: S,
    /// Shelter per file in front of the king: own pawn one ahead, two ahead, no own pawn (mg).
    pub shelter: [i32; 3],
    /// King rank penalty in the middlegame by owner-relative rank.
    pub king_rank_mg: [i32; 6],
    /// The king on an edge file rather than the centre, in the middlegame (whole width).
    pub king_edge_mg: i32,
    /// King centralisation in the endgame: per sixteenth of empty-board mobility above the
    /// average, and per square of distance from the centre.
    pub king_center_eg: [i32; 2],
    /// Pawn centralisation in the middlegame, per sixteenth of mobility above the average.
    pub pawn_center_mg: i32,
    /// King danger in the middlegame: `safety² * scale / 2048`, at most `cap` (see the module's
    /// documentation for the safety).
    pub king_danger: [i32; 2],
    /// King danger in the endgame: `safety * n / 64`.
    pub king_danger_eg: i32,
    /// The fewest of a side's pieces attacking the enemy king's neighbourhood for its king safety
    /// to count: without a queen, and with one (Ethereal counts one attacker with a queen).
    pub king_attackers: [i32; 2],
    /// King safety units always added (when the king-safety terms count at all).
    pub king_danger_base: i32,
    /// King safety units per weak square next to the enemy king: attacked, defended at most once
    /// and then only by the king or a queen.
    pub king_weak_square: i32,
    /// King safety units when the attacking side has no queen (no piece of its most valuable kinds,
    /// on the board or in hand).
    pub king_no_queen: i32,
    /// Per file in front of the king (its own and the two beside it), an enemy pawn 1, 2, 3 or 4
    /// ranks ahead of the king that no own pawn blocks (mg; the king on its first two ranks).
    pub king_storm: [i32; 4],
    /// Per enemy piece (not a pawn, not royal) a pawn attacks.
    pub threat_pawn: S,
    /// Per enemy piece attacked by a piece (not a pawn) worth less than it.
    pub threat_lesser: S,
    /// Per enemy piece (pawns too, not royal) attacked and not defended.
    pub hanging: S,
    /// Per enemy piece (not a pawn, not royal) an own pawn would attack after a safe step
    /// forward (zero by default).
    pub threat_push: S,
    /// Per enemy piece (not a pawn, not royal) the own king attacks (zero by default).
    pub threat_king: S,
    /// Stockfish 11's king danger `kd` (see the module's documentation), zero by default: the
    /// middlegame bonus `kd² * kd_transform[0] / 2^20` up to `kd_transform[2]`, the endgame bonus
    /// `kd * kd_transform[1] / 1024`, when `kd` is above `kd_min`.
    pub kd_transform: [i32; 3],
    /// The danger counts only above this (a setting: Stockfish 11's 100).
    pub kd_min: i32,
    /// Danger units always added.
    pub kd_base: i32,
    /// Danger units when the attacker has no queen (no piece of its most valuable kinds).
    pub kd_no_queen: i32,
    /// Danger units per attack of an attacking piece (not a pawn) on a square next to the king.
    pub kd_adjacent: i32,
    /// Danger units per weak square of the king's ring (attacked, defended at most once and then
    /// only by the king or a queen).
    pub kd_weak_ring: i32,
    /// Danger units per square from which a piece of a kind with no safe check could check.
    pub kd_unsafe_check: i32,
    /// Danger units from the flank: `flank_attack² * kd_flank[0] / 8`, plus `kd_flank[1]` per
    /// square of the flank the king's side attacks.
    pub kd_flank: [i32; 2],
    /// Danger units per sixteenth of the attacker's middlegame mobility score minus the king's
    /// side's.
    pub kd_mobility: i32,
    /// Danger units per sixteenth of the king's side's shelter (mg, storms included).
    pub kd_shelter: i32,
    /// Per unit of flank attack (linear, outside the danger; zero by default).
    pub flank_attack: S,
    /// Stockfish 11's pawn shelter (mg; zero by default): per file of the king's three (its file
    /// moved one in from the edges, and those beside it), by the file's distance from the nearer
    /// edge (0 to 3, rows of `ranks` weights) and the relative rank of the side's rearmost pawn on
    /// the file not behind the king (0: none).
    pub sf_shelter: Vec<i32>,
    /// Stockfish 11's pawn storm (mg, subtracted; zero by default): per file of the same three, by
    /// its distance from the edge and the relative rank (from the king's side) of the enemy's pawn
    /// on the file nearest the king's side, not behind the king (0: none); not when it stands just
    /// in front of the side's own pawn.
    pub sf_storm: Vec<i32>,
    /// Subtracted instead when that enemy pawn stands just in front of the side's own pawn, on
    /// the side's third rank (zero by default).
    pub sf_storm_blocked: S,
    /// Per square of distance from the king to its side's nearest pawn (zero by default).
    pub king_pawn_distance: S,
    /// When no pawn of either side stands on the king's flank files (zero by default).
    pub pawnless_flank: S,
    /// Per piece type, by `Kind` index.
    pub kinds: Vec<KindParams>,
    /// The name each piece type's group has in a definition (its `name`; made unique).
    pub kind_names: Vec<String>,
}

/// Mobility weight of a piece type whose average empty-board mobility is `avg` squares: pieces with
/// many moves gain less per move.
fn default_mobility(avg: f64) -> i32 {
    if avg > 0.5 {
        (14.0 / avg.sqrt()).round() as i32
    } else {
        0
    }
}

impl EvalParams {
    /// The weights for a variant before any definition says otherwise.
    pub fn defaults(v: &Variant) -> EvalParams {
        let shape = v.shape;
        let nsq = shape.num_squares();
        let mut kinds = Vec::with_capacity(v.pieces.len());
        let mut kind_names: Vec<String> = Vec::with_capacity(v.pieces.len());
        for (k, pt) in v.pieces.iter().enumerate() {
            let mobility: Vec<i32> = shape
                .squares()
                .map(|sq| empty_board_mobility(v, k, Color::White, sq))
                .collect();
            let total: i32 = mobility.iter().sum();
            let most = mobility.iter().copied().max().unwrap_or(0).max(0);
            let avg16 = if nsq > 0 { (total * 16) / nsq as i32 } else { 0 };
            let mob = default_mobility(avg16 as f64 / 16.0);
            kinds.push(KindParams {
                material: s(pt.value, pt.value),
                hand: s(pt.value, pt.value),
                mobility: s(mob, mob),
                center: s(40, 40),
                king_attack: 8 * (pt.value / 200).clamp(1, 6),
                rank: vec![S::default(); usize::from(shape.ranks)],
                file: vec![S::default(); usize::from(shape.files).div_ceil(2)],
                moves: vec![S::default(); most as usize + 1],
                square: vec![S::default(); nsq],
                safe_check: 0,
                drop_check: 0,
                outpost: S::default(),
                kd_attacker: 0,
                kd_check: 0,
                kd_defender: 0,
            });
            let mut name = pt.name.clone();
            if kind_names.contains(&name) {
                name = format!("{name}#{k}");
            }
            kind_names.push(name);
        }
        EvalParams {
            tempo: 12,
            advance: [s(0, 0), s(30, 55), s(16, 32), s(8, 16), s(3, 6), s(0, 2), s(0, 0)],
            passed: [s(0, 0), s(60, 150), s(40, 95), s(20, 55), s(10, 30), s(6, 15), s(5, 10)],
            passer_king: [0, 9, 8, 6, 4, 2, 1],
            doubled: s(-10, -22),
            isolated: s(-10, -14),
            unstoppable: 600,
            passed_blocked: [S::default(); 7],
            passed_safe: [S::default(); 7],
            passed_path: [S::default(); 7],
            connected: [S::default(); 7],
            backward: S::default(),
            bound_rammed: S::default(),
            color_pair: s(28, 50),
            open_file: s(24, 10),
            half_open_file: s(11, 6),
            shelter: [14, 7, -14],
            king_rank_mg: [0, -14, -34, -52, -66, -76],
            king_edge_mg: 25,
            king_center_eg: [4, 5],
            pawn_center_mg: 3,
            king_danger: [16, 500],
            king_danger_eg: 0,
            king_attackers: [2, 2],
            king_danger_base: 0,
            king_weak_square: 0,
            king_no_queen: 0,
            king_storm: [0; 4],
            threat_pawn: s(70, 45),
            threat_lesser: s(45, 35),
            hanging: s(35, 20),
            threat_push: S::default(),
            threat_king: S::default(),
            kd_transform: [0; 3],
            kd_min: 0,
            kd_base: 0,
            kd_no_queen: 0,
            kd_adjacent: 0,
            kd_weak_ring: 0,
            kd_unsafe_check: 0,
            kd_flank: [0; 2],
            kd_mobility: 0,
            kd_shelter: 0,
            flank_attack: S::default(),
            sf_shelter: vec![0; 4 * usize::from(shape.ranks)],
            sf_storm: vec![0; 4 * usize::from(shape.ranks)],
            sf_storm_blocked: S::default(),
            king_pawn_distance: S::default(),
            pawnless_flank: S::default(),
            kinds,
            kind_names,
        }
    }

    /// The weights of a variant: the defaults with its own definition file's `[eval]` section laid
    /// over them. A parent's section is not inherited: weights are fitted to one game's play.
    ///
    /// # Errors
    /// The section's mistake (a TOML error, an unknown term or piece, a wrong number of values),
    /// with the file and line where known.
    pub fn of_source(v: &Variant, source: &DefinitionSource) -> Result<EvalParams, DefinitionError> {
        let mut params = EvalParams::defaults(v);
        params.apply(&source.text, &source.file)?;
        Ok(params)
    }

    /// Ethereal-like king safety weights for tests of the terms, which are zero by default: safe
    /// checks 24 (not for pawns, royals and kinds that promote), drop checks 8, weak squares 12,
    /// no queen -48, base -16, endgame 8, storm [0, -12, -8, -4], one attacker with a queen.
    #[cfg(test)]
    pub(crate) fn set_trial_king_safety(&mut self, v: &Variant) {
        for (kind, pt) in self.kinds.iter_mut().zip(&v.pieces) {
            let plain = pt.royalty == crate::core::Royalty::None;
            kind.safe_check = if plain && pt.promotion.is_none() { 24 } else { 0 };
            kind.drop_check = if plain { 8 } else { 0 };
        }
        self.king_weak_square = 12;
        self.king_no_queen = -48;
        self.king_danger_base = -16;
        self.king_danger_eg = 8;
        self.king_storm = [0, -12, -8, -4];
        self.king_attackers = [2, 1];
    }

    /// Stockfish 11's king danger for tests of its terms, which are zero by default: its chess
    /// weights (`kd_attacker` N 81, B 52, R 44, Q 10; `kd_check` N 790, B 635, R 1080, Q 780;
    /// other plain kinds 40 and 600), the Ethereal-style danger off, and the transform at our
    /// chess scale.
    #[cfg(test)]
    pub(crate) fn set_trial_sf_danger(&mut self, v: &Variant) {
        for ((kind, name), pt) in self.kinds.iter_mut().zip(&self.kind_names).zip(&v.pieces) {
            let plain = pt.royalty == crate::core::Royalty::None && pt.promotion.is_none();
            kind.kd_defender = if name == "Knight" { -100 } else { 0 };
            (kind.kd_attacker, kind.kd_check) = match name.as_str() {
                "Knight" => (81, 790),
                "Bishop" => (52, 635),
                "Rook" => (44, 1080),
                "Queen" => (10, 780),
                _ if plain => (40, 600),
                _ => (0, 0),
            };
        }
        self.king_danger = [0, 0];
        self.king_danger_eg = 0;
        self.kd_transform = [90, 23, 1056];
        self.kd_min = 100;
        self.kd_base = 37;
        self.kd_no_queen = -873;
        self.kd_adjacent = 69;
        self.kd_weak_ring = 185;
        self.kd_unsafe_check = 148;
        self.kd_flank = [3, -4];
        self.kd_mobility = 45;
        self.kd_shelter = -34;
        self.flank_attack = s(3, 0);
    }

    /// Stockfish 11's shelter, storm and king–pawn terms for tests, which are zero by default: its
    /// chess tables at our chess scale (the weights of fixtures/variants/normal.toml), rows
    /// cut or padded with zeros to the board's ranks.
    #[cfg(test)]
    pub(crate) fn set_trial_sf_shelter(&mut self, v: &Variant) {
        const SHELTER: [[i32; 7]; 4] = [
            [-2, 29, 33, 20, 14, 6, 9],
            [-15, 21, 12, -17, -10, -4, -22],
            [-4, 26, 8, -1, 11, 1, -16],
            [-14, -5, -10, -18, -17, -24, -58],
        ];
        const STORM: [[i32; 7]; 4] = [
            [30, -102, -58, 34, 18, 16, 18],
            [16, -9, 43, 16, 13, -4, 7],
            [-2, 18, 59, 12, -1, -8, -5],
            [-5, -4, 36, 1, 4, -5, -10],
        ];
        let ranks = usize::from(v.shape.ranks);
        for d in 0..4 {
            for r in 0..ranks.min(7) {
                self.sf_shelter[d * ranks + r] = SHELTER[d][r];
                self.sf_storm[d * ranks + r] = STORM[d][r];
            }
        }
        self.sf_storm_blocked = s(29, 29);
        self.king_pawn_distance = s(0, -6);
        self.pawnless_flank = s(-6, -33);
    }

    /// The weights of a variant (the defaults if its `[eval]` section is unusable, which `check`
    /// reports when the definition is loaded).
    pub fn of(v: &Variant) -> EvalParams {
        EvalParams::of_source(v, DefinitionSource::of(v)).unwrap_or_else(|_| EvalParams::defaults(v))
    }

    /// Checks a variant's `[eval]` section when its definition is loaded.
    ///
    /// # Errors
    /// As `of_source`.
    pub fn check(v: &Variant) -> Result<(), DefinitionError> {
        EvalParams::of_source(v, DefinitionSource::of(v)).map(|_| ())
    }

    /// Lays one file's `[eval]` section over these weights.
    ///
    /// # Errors
    /// As `of_source`; the weights may then be partly changed.
    pub fn apply(&mut self, text: &str, file: &str) -> Result<(), DefinitionError> {
        let view: EvalView = toml::from_str(text).map_err(|e| DefinitionError::from_toml(&e, text, file))?;
        let error = |message: String| DefinitionError {
            file: file.to_string(),
            line: None,
            message: format!("[eval]: {message}"),
        };
        let mut section = view.eval;
        let pieces = match section.remove("piece") {
            None => toml::Table::new(),
            Some(toml::Value::Table(t)) => t,
            Some(_) => return Err(error("`piece` must be a table of piece names".into())),
        };
        let mut groups: Vec<(String, toml::Value)> = section.into_iter().collect();
        for (name, table) in pieces {
            let toml::Value::Table(table) = table else {
                return Err(error(format!("piece {name:?} must be a table")));
            };
            if !self.kind_names.contains(&name) {
                return Err(error(format!(
                    "no piece named {name:?} (pieces: {})",
                    self.kind_names.join(", ")
                )));
            }
            groups.extend(table.into_iter().map(|(g, value)| (format!("piece.{name}.{g}"), value)));
        }
        let mut known = Vec::new();
        let mut failure = None;
        self.for_each_group(|name, values| {
            known.push(name.to_string());
            let Some((_, value)) = groups.iter().find(|(g, _)| g == name) else {
                return;
            };
            match numbers(value, values.len()) {
                Ok(read) => values.copy_from_slice(&read),
                Err(e) => {
                    failure.get_or_insert_with(|| error(format!("{name}: {e}")));
                }
            }
        });
        if let Some(e) = failure {
            return Err(e);
        }
        if let Some((name, _)) = groups.iter().find(|(g, _)| !known.contains(g)) {
            return Err(error(format!("unknown key {name:?}")));
        }
        Ok(())
    }

    /// Visits every group of weights by name, each as a flat list (pairs as `mg, eg`); what the
    /// visitor writes is kept.
    pub fn for_each_group(&mut self, mut f: impl FnMut(&str, &mut [i32])) {
        fn pairs(f: &mut impl FnMut(&str, &mut [i32]), name: &str, v: &mut [S]) {
            let mut flat: Vec<i32> = v.iter().flat_map(|x| [x.mg, x.eg]).collect();
            f(name, &mut flat);
            for (x, c) in v.iter_mut().zip(flat.chunks(2)) {
                *x = s(c[0], c[1]);
            }
        }
        f("tempo", std::slice::from_mut(&mut self.tempo));
        pairs(&mut f, "advance", &mut self.advance);
        pairs(&mut f, "passed", &mut self.passed);
        f("passer_king", &mut self.passer_king);
        pairs(&mut f, "doubled", std::slice::from_mut(&mut self.doubled));
        pairs(&mut f, "isolated", std::slice::from_mut(&mut self.isolated));
        f("unstoppable", std::slice::from_mut(&mut self.unstoppable));
        pairs(&mut f, "passed_blocked", &mut self.passed_blocked);
        pairs(&mut f, "passed_safe", &mut self.passed_safe);
        pairs(&mut f, "passed_path", &mut self.passed_path);
        pairs(&mut f, "connected", &mut self.connected);
        pairs(&mut f, "backward", std::slice::from_mut(&mut self.backward));
        pairs(&mut f, "bound_rammed", std::slice::from_mut(&mut self.bound_rammed));
        pairs(&mut f, "color_pair", std::slice::from_mut(&mut self.color_pair));
        pairs(&mut f, "open_file", std::slice::from_mut(&mut self.open_file));
        pairs(&mut f, "half_open_file", std::slice::from_mut(&mut self.half_open_file));
        f("shelter", &mut self.shelter);
        f("king_rank_mg", &mut self.king_rank_mg);
        f("king_edge_mg", std::slice::from_mut(&mut self.king_edge_mg));
        f("king_center_eg", &mut self.king_center_eg);
        f("pawn_center_mg", std::slice::from_mut(&mut self.pawn_center_mg));
        f("king_danger", &mut self.king_danger);
        f("king_danger_eg", std::slice::from_mut(&mut self.king_danger_eg));
        f("king_attackers", &mut self.king_attackers);
        f("king_danger_base", std::slice::from_mut(&mut self.king_danger_base));
        f("king_weak_square", std::slice::from_mut(&mut self.king_weak_square));
        f("king_no_queen", std::slice::from_mut(&mut self.king_no_queen));
        f("king_storm", &mut self.king_storm);
        pairs(&mut f, "threat_pawn", std::slice::from_mut(&mut self.threat_pawn));
        pairs(&mut f, "threat_lesser", std::slice::from_mut(&mut self.threat_lesser));
        pairs(&mut f, "hanging", std::slice::from_mut(&mut self.hanging));
        pairs(&mut f, "threat_push", std::slice::from_mut(&mut self.threat_push));
        pairs(&mut f, "threat_king", std::slice::from_mut(&mut self.threat_king));
        f("kd_transform", &mut self.kd_transform);
        f("kd_min", std::slice::from_mut(&mut self.kd_min));
        f("kd_base", std::slice::from_mut(&mut self.kd_base));
        f("kd_no_queen", std::slice::from_mut(&mut self.kd_no_queen));
        f("kd_adjacent", std::slice::from_mut(&mut self.kd_adjacent));
        f("kd_weak_ring", std::slice::from_mut(&mut self.kd_weak_ring));
        f("kd_unsafe_check", std::slice::from_mut(&mut self.kd_unsafe_check));
        f("kd_flank", &mut self.kd_flank);
        f("kd_mobility", std::slice::from_mut(&mut self.kd_mobility));
        f("kd_shelter", std::slice::from_mut(&mut self.kd_shelter));
        pairs(&mut f, "flank_attack", std::slice::from_mut(&mut self.flank_attack));
        f("sf_shelter", &mut self.sf_shelter);
        f("sf_storm", &mut self.sf_storm);
        pairs(
            &mut f,
            "sf_storm_blocked",
            std::slice::from_mut(&mut self.sf_storm_blocked),
        );
        pairs(
            &mut f,
            "king_pawn_distance",
            std::slice::from_mut(&mut self.king_pawn_distance),
        );
        pairs(&mut f, "pawnless_flank", std::slice::from_mut(&mut self.pawnless_flank));
        for (kind, name) in self.kinds.iter_mut().zip(&self.kind_names) {
            pairs(
                &mut f,
                &format!("piece.{name}.material"),
                std::slice::from_mut(&mut kind.material),
            );
            pairs(
                &mut f,
                &format!("piece.{name}.hand"),
                std::slice::from_mut(&mut kind.hand),
            );
            pairs(
                &mut f,
                &format!("piece.{name}.mobility"),
                std::slice::from_mut(&mut kind.mobility),
            );
            pairs(
                &mut f,
                &format!("piece.{name}.center"),
                std::slice::from_mut(&mut kind.center),
            );
            f(
                &format!("piece.{name}.king_attack"),
                std::slice::from_mut(&mut kind.king_attack),
            );
            pairs(&mut f, &format!("piece.{name}.rank"), &mut kind.rank);
            pairs(&mut f, &format!("piece.{name}.file"), &mut kind.file);
            pairs(&mut f, &format!("piece.{name}.moves"), &mut kind.moves);
            pairs(&mut f, &format!("piece.{name}.square"), &mut kind.square);
            f(
                &format!("piece.{name}.safe_check"),
                std::slice::from_mut(&mut kind.safe_check),
            );
            f(
                &format!("piece.{name}.drop_check"),
                std::slice::from_mut(&mut kind.drop_check),
            );
            pairs(
                &mut f,
                &format!("piece.{name}.outpost"),
                std::slice::from_mut(&mut kind.outpost),
            );
            f(
                &format!("piece.{name}.kd_attacker"),
                std::slice::from_mut(&mut kind.kd_attacker),
            );
            f(
                &format!("piece.{name}.kd_check"),
                std::slice::from_mut(&mut kind.kd_check),
            );
            f(
                &format!("piece.{name}.kd_defender"),
                std::slice::from_mut(&mut kind.kd_defender),
            );
        }
    }

    /// Is the group `name` a setting (a count, not a weight), which a fit leaves as it is?
    /// `king_attackers` and `kd_min` say when king danger counts at all: no small change of them
    /// is a slope.
    pub fn is_setting(name: &str) -> bool {
        name == "king_attackers" || name == "kd_min"
    }

    /// Every weight in one list, in `for_each_group` order (settings left out).
    pub fn to_vector(&self) -> Vec<i32> {
        let mut out = Vec::new();
        self.clone().for_each_group(|name, v| {
            if !EvalParams::is_setting(name) {
                out.extend_from_slice(v);
            }
        });
        out
    }

    /// Sets every weight from a list in `to_vector` order (as long as `to_vector`'s).
    pub fn set_vector(&mut self, values: &[i32]) {
        let mut at = 0;
        self.for_each_group(|name, v| {
            if EvalParams::is_setting(name) {
                return;
            }
            for x in v.iter_mut() {
                if let Some(&n) = values.get(at) {
                    *x = n;
                }
                at += 1;
            }
        });
    }

    /// The `[eval]` section that sets every weight to its value here.
    pub fn to_toml_section(&self) -> String {
        let mut top = String::from("[eval]\n");
        let mut pieces: Vec<(String, String)> = Vec::new();
        self.clone().for_each_group(|name, v| {
            let table =
                name.ends_with(".square") || name.ends_with(".moves") || name == "sf_shelter" || name == "sf_storm";
            if table && v.iter().all(|&x| x == 0) {
                return;
            }
            let list = number_list(v);
            match name.strip_prefix("piece.").and_then(|rest| rest.rsplit_once('.')) {
                Some((piece, group)) => match pieces.iter_mut().find(|(p, _)| p == piece) {
                    Some((_, text)) => {
                        let _ = writeln!(text, "{group} = [{list}]");
                    }
                    None => pieces.push((piece.to_string(), format!("{group} = [{list}]\n"))),
                },
                None => {
                    let _ = writeln!(top, "{name} = [{list}]");
                }
            }
        });
        for (piece, text) in pieces {
            let key = if piece.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
                piece
            } else {
                format!("\"{}\"", piece.replace('\\', "\\\\").replace('"', "\\\""))
            };
            let _ = write!(top, "\n[eval.piece.{key}]\n{text}");
        }
        top
    }
}

/// Numbers written as a TOML list's items: on one line, or for a long group (a piece-square
/// table) eight pairs a line.
fn number_list(values: &[i32]) -> String {
    const PER_LINE: usize = 16;
    let line = |chunk: &[i32]| chunk.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ");
    if values.len() <= PER_LINE {
        return line(values);
    }
    let lines: Vec<String> = values.chunks(PER_LINE).map(|c| format!("    {}", line(c))).collect();
    format!("\n{},\n", lines.join(",\n"))
}

/// A definition file's text with its `[eval]` tables (and their keys) replaced by `section`,
/// which goes at the end; the rest of the file stays as it was, comments included.
pub fn with_section(definition: &str, section: &str) -> String {
    let mut out = String::new();
    let mut in_eval = false;
    for line in definition.lines() {
        let head = line.trim_start();
        if head.starts_with('[') {
            let name = head.trim_start_matches('[').trim_start();
            in_eval = name.starts_with("eval]") || name.starts_with("eval.") || name.starts_with("eval ");
        }
        if !in_eval {
            out.push_str(line);
            out.push('\n');
        }
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(section);
    out
}

/// The definition file as the evaluation reads it: its own section, nothing else.
#[derive(Deserialize)]
struct EvalView {
    #[serde(default)]
    eval: toml::Table,
}

/// A group's numbers: a list of `len` integers (a lone integer for a group of one).
fn numbers(value: &toml::Value, len: usize) -> Result<Vec<i32>, String> {
    let items: Vec<&toml::Value> = match value {
        toml::Value::Array(a) => a.iter().collect(),
        other => vec![other],
    };
    if items.len() != len {
        return Err(format!("expected {len} numbers, found {}", items.len()));
    }
    items
        .iter()
        .map(|x| match x {
            toml::Value::Integer(n) => Ok((*n).clamp(-100_000, 100_000) as i32),
            _ => Err("expected integers".to_string()),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{Registry, parse_definition};

    #[test]
    fn a_written_section_reads_back_as_the_same_weights() {
        let v = Registry::builtin().get("normal").expect("normal");
        let mut p = EvalParams::defaults(&v);
        let mut vector = p.to_vector();
        for (i, x) in vector.iter_mut().enumerate() {
            *x += i as i32 % 7 - 3;
        }
        p.set_vector(&vector);
        let text = with_section(&DefinitionSource::of(&v).text, &p.to_toml_section());
        let child = parse_definition(&text, "normal-tuned.toml").expect("parses");
        EvalParams::check(&child).expect("the section checks");
        let read = EvalParams::of_source(&child, DefinitionSource::of(&child)).expect("reads");
        assert_eq!(read.to_vector(), vector);
        assert_ne!(read, EvalParams::defaults(&v));
    }

    #[test]
    fn every_built_in_section_checks_and_a_new_one_replaces_the_old() {
        for v in Registry::builtin().all() {
            EvalParams::check(v).unwrap_or_else(|e| panic!("{e}"));
        }
        let old = "name = \"x\"\n[eval]\ntempo = 3\n[eval.piece.Pawn]\nhand = [1, 2]\n[xboard]\nbuiltin = true\n";
        let new = with_section(old, "[eval]\ntempo = [9]\n");
        assert_eq!(new, "name = \"x\"\n[xboard]\nbuiltin = true\n\n[eval]\ntempo = [9]\n");
    }

    #[test]
    fn a_section_sets_the_king_safety_terms_by_name() {
        let v = Registry::builtin().get("normal").expect("normal");
        let section = "[eval]\nking_danger = [20, 400]\nking_danger_eg = [3]\nking_danger_base = [-5]\n\
                       king_weak_square = [7]\nking_no_queen = [-9]\nking_storm = [1, 2, 3, 4]\n\
                       king_attackers = [3, 1]\n[eval.piece.Knight]\nking_attack = [17]\nsafe_check = [11]\ndrop_check = [13]\n";
        let text = with_section(&DefinitionSource::of(&v).text, section);
        let child = parse_definition(&text, "safety.toml").expect("parses");
        let p = EvalParams::of_source(&child, DefinitionSource::of(&child)).expect("reads");
        assert_eq!(p.king_danger, [20, 400]);
        assert_eq!(
            (
                p.king_danger_eg,
                p.king_danger_base,
                p.king_weak_square,
                p.king_no_queen
            ),
            (3, -5, 7, -9)
        );
        assert_eq!(p.king_storm, [1, 2, 3, 4]);
        assert_eq!(p.king_attackers, [3, 1]);
        // Settings, not weights (`king_attackers`, `kd_min`): out of the vector a fit moves.
        assert_eq!(p.to_vector().len() + 3, {
            let mut n = 0;
            p.clone().for_each_group(|_, v| n += v.len());
            n
        });
        let knight = p.kind_names.iter().position(|n| n == "Knight").expect("a knight");
        let k = &p.kinds[knight];
        assert_eq!((k.king_attack, k.safe_check, k.drop_check), (17, 11, 13));
        // And they are written back under the same names.
        let written = p.to_toml_section();
        for line in [
            "king_danger_eg = [3]",
            "king_weak_square = [7]",
            "king_storm = [1, 2, 3, 4]",
            "king_attackers = [3, 1]",
            "safe_check = [11]",
            "drop_check = [13]",
        ] {
            assert!(written.contains(line), "{line} in {written}");
        }
    }

    #[test]
    fn bad_sections_are_refused_with_a_reason() {
        let v = Registry::builtin().get("normal").expect("normal");
        let base = with_section(&DefinitionSource::of(&v).text, "");
        for (section, why) in [
            ("[eval]\ntempo = [1, 2]\n", "expected 1 numbers"),
            ("[eval]\ntempi = [1]\n", "unknown key \"tempi\""),
            ("[eval]\ndoubled = [1.5, 2]\n", "expected integers"),
            ("[eval.piece.Dragon]\nmaterial = [1, 1]\n", "no piece named \"Dragon\""),
        ] {
            let text = with_section(&base, section);
            let child = parse_definition(&text, "bad.toml").expect("the rules do not read [eval]");
            let e = EvalParams::check(&child).expect_err(section);
            assert!(e.to_string().contains(why), "{e}");
        }
    }
}
