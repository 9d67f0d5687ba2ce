//! The transposition table: 64-byte buckets of four 16-byte entries. A new result always gets
//! stored (always-replace); within a bucket it overwrites the entry of the same position or else the
//! least valuable one, judged by depth and age (depth-preferred). Mate scores are stored relative to
//! the node, not the root. An entry may hold only a static evaluation (stored on a node's first
//! visit, so that a re-search does not evaluate again), and it remembers whether the position was
//! on a principal variation (the TT-PV flag).

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::core::{Blast, Kind, Move, Square};

use super::score::{Bound, MATE_BOUND};
use super::zeroed::{ZeroIsValid, ZeroedSlice};

const ENTRIES: usize = 4;
/// Tables up to this size are written through when made or cleared, so that the search does not
/// pay for the first touch of each page on its clock; larger ones stay fresh zero pages (writing
/// them would take seconds).
const PREFAULT_BYTES: usize = 1 << 30;

/// One entry as two words, each stored and loaded whole: threads sharing the table never see a
/// torn key, score, depth or bound, and whether there is a score at all is in the same word
/// (`NO_SCORE`). After a race the move word may be another position's, as after a key collision;
/// the search checks every table move against the moves it generates, and the PV flag beside it
/// is only a hint.
#[derive(Default)]
struct Entry {
    /// `Fields`, packed by `Fields::pack`.
    data: AtomicU64,
    /// Packed move (bits 0-56, 0 = none) and the flag `PV_FLAG`.
    mv: AtomicU64,
}

/// The data word of an entry.
#[derive(Copy, Clone)]
struct Fields {
    /// Upper 16 bits of the hash.
    key: u16,
    /// `NO_SCORE` when the entry holds a static evaluation but no search result.
    score: i16,
    eval: i16,
    depth: i8,
    /// Generation (6 bits) << 2 | bound (0 = empty).
    gen_bound: u8,
}

impl Fields {
    #[inline]
    fn pack(self) -> u64 {
        self.key as u64
            | (self.score as u16 as u64) << 16
            | (self.eval as u16 as u64) << 32
            | (self.depth as u8 as u64) << 48
            | (self.gen_bound as u64) << 56
    }

    #[inline]
    fn unpack(w: u64) -> Fields {
        Fields {
            key: w as u16,
            score: (w >> 16) as u16 as i16,
            eval: (w >> 32) as u16 as i16,
            depth: (w >> 48) as u8 as i8,
            gen_bound: (w >> 56) as u8,
        }
    }
}

impl Entry {
    #[inline]
    fn fields(&self) -> Fields {
        Fields::unpack(self.data.load(Ordering::Relaxed))
    }

    #[inline]
    fn move_word(&self) -> u64 {
        self.mv.load(Ordering::Relaxed)
    }
}

/// The position was on a principal variation when stored.
const PV_FLAG: u64 = 1 << 57;
/// The score field of an entry without a search result: no score reaches it (they stay within
/// ±`INFINITE` plus a ply count), and it sits in the data word, so that a thread never reads
/// one entry's evaluation as another's result.
const NO_SCORE: i16 = i16::MIN;
const MOVE_BITS: u64 = (1 << 57) - 1;
/// The depth of an entry without a search result: a quiescence result's, the least stored, so
/// that either is replaced as readily.
const EVAL_ONLY_DEPTH: i32 = -1;

#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    entries: [Entry; ENTRIES],
}

/// What a probe found.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TtHit {
    /// The best move found here (pseudo-legal only if the entry is not a collision: check it).
    pub mv: Option<Move>,
    /// Score, adjusted to the probing ply.
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
    /// `score`, `depth` and `bound` are a search result (else only `eval` is known).
    pub scored: bool,
    /// The position was on a principal variation.
    pub pv: bool,
}

impl TtHit {
    /// Does the stored score decide a search with the window (`alpha`, `beta`) by itself?
    #[inline]
    pub fn cuts(&self, alpha: i32, beta: i32) -> bool {
        if !self.scored {
            return false;
        }
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

/// What a store records beside the static evaluation.
#[derive(Copy, Clone)]
enum Record {
    /// Nothing searched yet: the evaluation alone.
    Evaluation,
    /// A search result; `ply` converts a mate score to the node's distance.
    Result {
        score: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    },
}

/// A hash table of search results, shared by the threads of a search (`&self` to probe and store;
/// only resizing and clearing need it alone).
pub struct TranspositionTable {
    buckets: ZeroedSlice<Bucket>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable {
            buckets: sized_down_buckets(mb),
            generation: AtomicU8::new(0),
        }
    }

    /// Resizes to about `mb` megabytes, clearing the table. When the allocator cannot give that
    /// much, the table halves until it fits: a request never aborts the process. Returns the size
    /// taken, in whole megabytes.
    pub fn resize(&mut self, mb: usize) -> usize {
        // The old table goes first, so that its memory can serve the new one.
        self.buckets = sized_down_buckets(0);
        self.buckets = sized_down_buckets(mb);
        if self.size_bytes() <= PREFAULT_BYTES {
            self.write_through();
        }
        *self.generation.get_mut() = 0;
        self.size_bytes() >> 20
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        if self.size_bytes() <= PREFAULT_BYTES {
            self.write_through();
        } else {
            self.buckets.zero();
        }
        *self.generation.get_mut() = 0;
    }

    /// Empties every entry by writing it (touching every page now, not during a search).
    fn write_through(&mut self) {
        for b in self.buckets.iter_mut() {
            *b = Bucket::default();
        }
    }

    /// Size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Marks the start of a new search: older entries age.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store((g + 1) & 63, Ordering::Relaxed);
    }

    /// Permille of entries used by the current search (a sample of the table).
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(250);
        let generation = self.generation.load(Ordering::Relaxed);
        let used: usize = self.buckets[..sample]
            .iter()
            .flat_map(|b| b.entries.iter())
            .map(Entry::fields)
            .filter(|e| e.gen_bound & 3 != 0 && e.gen_bound >> 2 == generation)
            .count();
        (used * 1000 / (sample * ENTRIES).max(1)) as u32
    }

    #[inline]
    fn index(&self, hash: u64) -> usize {
        (((hash & 0xFFFF_FFFF) * self.buckets.len() as u64) >> 32) as usize
    }

    /// Hints the CPU to fetch the bucket of `hash`.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = &self.buckets[self.index(hash)] as *const Bucket as *const i8;
            // SAFETY: prefetching is a hint that never faults; `p` points into `self.buckets`.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// Looks a position up; `ply` converts mate scores back to root distance.
    pub fn probe(&self, hash: u64, ply: usize) -> Option<TtHit> {
        let key = (hash >> 48) as u16;
        let bucket = &self.buckets[self.index(hash)];
        let (e, word) = bucket.entries.iter().find_map(|entry| {
            let e = entry.fields();
            (e.key == key && e.gen_bound & 3 != 0).then(|| (e, entry.move_word()))
        })?;
        let scored = e.score != NO_SCORE;
        Some(TtHit {
            mv: unpack(word & MOVE_BITS),
            score: if scored { score_from_tt(e.score as i32, ply) } else { 0 },
            eval: e.eval as i32,
            depth: e.depth as i32,
            bound: match e.gen_bound & 3 {
                1 => Bound::Upper,
                2 => Bound::Lower,
                _ => Bound::Exact,
            },
            scored,
            pv: word & PV_FLAG != 0,
        })
    }

    /// Stores the static evaluation of a position not in the table yet (no search result).
    pub fn store_eval(&self, hash: u64, eval: i32, pv: bool) {
        self.write(hash, None, eval, pv, Record::Evaluation);
    }

    /// Stores a result. `mv = None` keeps the move already stored for this position; `pv`: the
    /// position is on a principal variation.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        hash: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
        pv: bool,
    ) {
        let record = Record::Result {
            score,
            depth,
            bound,
            ply,
        };
        self.write(hash, mv, eval, pv, record);
    }

    fn write(&self, hash: u64, mv: Option<Move>, eval: i32, pv: bool, record: Record) {
        let eval_only = matches!(record, Record::Evaluation);
        let (score, depth, bound, ply) = match record {
            Record::Evaluation => (0, EVAL_ONLY_DEPTH, Bound::Upper, 0),
            Record::Result {
                score,
                depth,
                bound,
                ply,
            } => (score, depth, bound, ply),
        };
        let key = (hash >> 48) as u16;
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = &self.buckets[self.index(hash)];
        let fields: [Fields; ENTRIES] = std::array::from_fn(|i| bucket.entries[i].fields());
        let (slot, old_word) = match fields.iter().position(|e| e.key == key && e.gen_bound & 3 != 0) {
            Some(i) => {
                let e = &fields[i];
                let word = bucket.entries[i].move_word();
                // Keep a deeper result of the same search unless the new one is exact; an
                // evaluation alone never replaces a result.
                let keep = eval_only && e.score != NO_SCORE;
                if keep || (bound != Bound::Exact && e.gen_bound >> 2 == generation && (e.depth as i32) > depth + 2) {
                    if let Some(m) = mv
                        && word & MOVE_BITS == 0
                    {
                        bucket.entries[i].mv.store(word | pack(&m), Ordering::Relaxed);
                    }
                    return;
                }
                (i, word)
            }
            None => {
                let worth = |e: &Fields| -> i32 {
                    if e.gen_bound & 3 == 0 {
                        return i32::MIN;
                    }
                    let age = (generation.wrapping_sub(e.gen_bound >> 2) & 63) as i32;
                    e.depth as i32 - 8 * age
                };
                let mut best = 0;
                for i in 1..ENTRIES {
                    if worth(&fields[i]) < worth(&fields[best]) {
                        best = i;
                    }
                }
                (best, 0)
            }
        };
        let mut word = match mv {
            Some(m) => pack(&m),
            None => old_word & MOVE_BITS,
        };
        if pv {
            word |= PV_FLAG;
        }
        let b = match bound {
            Bound::Upper => 1,
            Bound::Lower => 2,
            Bound::Exact => 3,
        };
        let data = Fields {
            key,
            score: if eval_only {
                NO_SCORE
            } else {
                score_to_tt(score, ply).clamp(NO_SCORE as i32 + 1, i16::MAX as i32) as i16
            },
            eval: eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(EVAL_ONLY_DEPTH, i8::MAX as i32) as i8,
            gen_bound: generation << 2 | b,
        };
        let entry = &bucket.entries[slot];
        entry.mv.store(word, Ordering::Relaxed);
        entry.data.store(data.pack(), Ordering::Relaxed);
    }
}

/// The key under which a node searched without `excluded` (a singular-extension test) stores its
/// results, apart from the node's own.
pub fn excluded_key(hash: u64, excluded: &Move) -> u64 {
    hash ^ (pack(excluded) | 1 << 63).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

// SAFETY: a bucket is atomic integers only; all zero is four empty entries (bound 0),
// `Bucket::default()`.
unsafe impl ZeroIsValid for Bucket {}

/// A table of about `mb` MB (at least one bucket), halved until the allocator agrees.
fn sized_down_buckets(mb: usize) -> ZeroedSlice<Bucket> {
    let wanted = (mb.saturating_mul(1 << 20) / std::mem::size_of::<Bucket>()).max(1);
    let mut n = wanted;
    loop {
        if let Some(b) = ZeroedSlice::new(n) {
            if n < wanted {
                log::warn!("a hash table of {mb} MB was refused by the allocator; using {n} buckets");
            }
            return b;
        }
        if n == 1 {
            // Not even 64 bytes: no Rust program goes on from here.
            std::alloc::handle_alloc_error(std::alloc::Layout::new::<Bucket>());
        }
        n /= 2;
    }
}

/// Mate scores are stored as distance from this node.
#[inline]
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

// The packed form: byte 0 from, 1 to, 2 the kind, 3 the promotion or dropped piece type, 4 and 5
// the other squares (e.p. victim, castling rook from/to, hook victim, converted unit), 6 the blast;
// bit 56 marks "a move is stored". Absent squares and piece types are 255 here, and only here.
const NO_KIND: u8 = 255;
const NO_SQUARE: u8 = 255;

fn kind_of(promotion: Option<Kind>) -> u8 {
    promotion.map_or(NO_KIND, |k| k.0)
}

fn square_of(sq: Option<Square>) -> u8 {
    sq.map_or(NO_SQUARE, |s| s.0)
}

/// A move in 57 bits.
fn pack(m: &Move) -> u64 {
    // (kind, from, to, piece type, square, square, blast)
    let (code, from, to, piece, a, b, blast) = match *m {
        Move::Normal { from, to, promotion } => (0, from.0, to.0, kind_of(promotion), NO_SQUARE, NO_SQUARE, 0),
        Move::MultiStep { from, to, promotion } => (1, from.0, to.0, kind_of(promotion), NO_SQUARE, NO_SQUARE, 0),
        Move::EnPassant {
            from,
            to,
            victim,
            promotion,
        } => (2, from.0, to.0, kind_of(promotion), victim.0, NO_SQUARE, 0),
        Move::Castle {
            king_from,
            king_to,
            rook_from,
            rook_to,
        } => (3, king_from.0, king_to.0, NO_KIND, rook_from.0, rook_to.0, 0),
        Move::Drop { kind, to } => (4, NO_SQUARE, to.0, kind.0, NO_SQUARE, NO_SQUARE, 0),
        Move::Special {
            from,
            to,
            victim,
            blast,
            promotion,
        } => (
            5,
            from.0,
            to.0,
            kind_of(promotion),
            square_of(victim),
            NO_SQUARE,
            blast.0,
        ),
        Move::Grow { from, to, converts } => (6, from.0, to.0, NO_KIND, square_of(converts), NO_SQUARE, 0),
    };
    from as u64
        | (to as u64) << 8
        | (code as u64) << 16
        | (piece as u64) << 24
        | (a as u64) << 32
        | (b as u64) << 40
        | (blast as u64) << 48
        | 1 << 56
}

fn unpack(v: u64) -> Option<Move> {
    if v & 1 << 56 == 0 {
        return None;
    }
    let byte = |i: u32| (v >> (8 * i)) as u8;
    let (from, to) = (Square(byte(0)), Square(byte(1)));
    let promotion = (byte(3) != NO_KIND).then_some(Kind(byte(3)));
    let square = |i: u32| (byte(i) != NO_SQUARE).then_some(Square(byte(i)));
    Some(match byte(2) {
        0 => Move::Normal { from, to, promotion },
        1 => Move::MultiStep { from, to, promotion },
        2 => Move::EnPassant {
            from,
            to,
            victim: Square(byte(4)),
            promotion,
        },
        3 => Move::Castle {
            king_from: from,
            king_to: to,
            rook_from: Square(byte(4)),
            rook_to: Square(byte(5)),
        },
        4 => Move::Drop {
            kind: Kind(byte(3)),
            to,
        },
        6 => Move::Grow {
            from,
            to,
            converts: square(4),
        },
        _ => Move::Special {
            from,
            to,
            victim: square(4),
            blast: Blast(byte(6)),
            promotion,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{INFINITE, mate_in, mated_in};

    fn mv(from: u8, to: u8) -> Move {
        Move::normal(Square(from), Square(to))
    }

    #[test]
    fn bucket_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Entry>(), 16);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        let t = TranspositionTable::new(1);
        assert_eq!(t.size_bytes(), 1 << 20);
    }

    /// Reliability issue: `memory 99999999999` aborted in the allocator. A size no allocator
    /// gives is halved until one does; the table works.
    #[test]
    fn an_impossible_size_is_sized_down_not_aborted() {
        let mut t = TranspositionTable::new(1);
        let mb = t.resize(usize::MAX);
        assert!(mb < usize::MAX >> 20, "{mb} MB");
        assert_eq!(t.size_bytes() >> 20, mb);
        let hash = 0xDEAD_BEEF_0123_4567;
        t.store(hash, Some(mv(1, 2)), 33, 10, 4, Bound::Exact, 0, false);
        assert_eq!(t.probe(hash, 0).map(|h| h.score), Some(33));
        t.resize(2);
        assert_eq!(t.size_bytes(), 2 << 20);
        assert_eq!(t.probe(hash, 0), None);
    }

    #[test]
    fn clearing_a_large_table_empties_it() {
        let mut t = TranspositionTable::new(32);
        let hash = 0x1234_5678_9ABC_DEF0;
        t.store(hash, Some(mv(1, 2)), 33, 10, 4, Bound::Exact, 0, false);
        assert!(t.probe(hash, 0).is_some());
        t.clear();
        assert_eq!(t.probe(hash, 0), None);
        assert_eq!(t.size_bytes(), 32 << 20);
    }

    #[test]
    fn moves_round_trip() {
        let (a, b, c, d) = (Square(12), Square(28), Square(20), Square(5));
        let moves = [
            Move::normal(a, b),
            Move::Normal {
                from: a,
                to: b,
                promotion: Some(Kind(0)),
            },
            Move::MultiStep {
                from: a,
                to: b,
                promotion: Some(Kind(7)),
            },
            Move::EnPassant {
                from: a,
                to: b,
                victim: c,
                promotion: None,
            },
            Move::Castle {
                king_from: a,
                king_to: b,
                rook_from: c,
                rook_to: d,
            },
            Move::drop(Kind(3), Square(44)),
            Move::Special {
                from: a,
                to: b,
                victim: Some(c),
                blast: Blast::NONE,
                promotion: Some(Kind(2)),
            },
            Move::Special {
                from: a,
                to: a,
                victim: None,
                blast: Blast(0b1010_0101),
                promotion: None,
            },
            Move::Grow {
                from: a,
                to: b,
                converts: Some(c),
            },
            Move::Grow {
                from: a,
                to: b,
                converts: None,
            },
        ];
        for m in moves {
            assert_eq!(unpack(pack(&m)), Some(m), "{m:?}");
        }
        assert_eq!(unpack(0), None);
    }

    #[test]
    fn store_and_probe_with_mate_scores() {
        let t = TranspositionTable::new(1);
        let h = 0x1234_5678_9ABC_DEF0;
        // Found at ply 3: mate in 5 plies from the root = mate in 2 plies from this node.
        t.store(h, Some(mv(1, 2)), mate_in(5), 17, 6, Bound::Exact, 3, false);
        let hit = t.probe(h, 3).unwrap();
        assert_eq!(hit.score, mate_in(5));
        assert_eq!(hit.mv, Some(mv(1, 2)));
        assert_eq!((hit.depth, hit.eval, hit.bound), (6, 17, Bound::Exact));
        // Reached at ply 7 by another path: still mate in 2 plies from the node.
        assert_eq!(t.probe(h, 7).unwrap().score, mate_in(9));
        t.store(h ^ 1 << 60, None, mated_in(4), 0, 2, Bound::Upper, 2, false);
        assert_eq!(t.probe(h ^ 1 << 60, 4).unwrap().score, mated_in(6));
        assert_eq!(t.probe(h ^ 1 << 60, 4).unwrap().mv, None);
        assert!(t.probe(h ^ 1 << 59, 0).is_none());
    }

    #[test]
    fn replacement_keeps_deep_entries_and_always_stores() {
        let mut t = TranspositionTable::new(1);
        // Same bucket (low 32 bits equal), different keys.
        let base = 0x0000_0000_0000_0777u64;
        for i in 0..4u64 {
            t.store(
                base | (i + 1) << 48,
                Some(mv(i as u8, 9)),
                10,
                0,
                10 + i as i32,
                Bound::Exact,
                0,
                false,
            );
        }
        // A fifth position replaces the shallowest (depth 10).
        t.store(base | 9 << 48, Some(mv(7, 7)), 5, 0, 1, Bound::Lower, 0, false);
        assert!(t.probe(base | 9 << 48, 0).is_some());
        assert!(t.probe(base | 1 << 48, 0).is_none());
        assert!(t.probe(base | 4 << 48, 0).is_some());
        // A shallow bound does not overwrite a deep one of the same position; the move is kept.
        t.store(base | 4 << 48, None, 99, 0, 2, Bound::Upper, 0, false);
        let hit = t.probe(base | 4 << 48, 0).unwrap();
        assert_eq!((hit.depth, hit.score), (13, 10));
        assert_eq!(hit.mv, Some(mv(3, 9)));
        // An old generation is replaced first.
        t.new_search();
        t.store(base | 10 << 48, None, 0, 0, 0, Bound::Upper, 0, false);
        assert!(t.probe(base | 10 << 48, 0).is_some());
        t.clear();
        assert!(t.probe(base | 10 << 48, 0).is_none());
    }

    #[test]
    fn an_evaluation_alone_never_cuts_and_never_replaces_a_result() {
        let t = TranspositionTable::new(1);
        let h = 0x0BAD_CAFE_0000_1234;
        t.store_eval(h, 42, true);
        let hit = t.probe(h, 0).unwrap();
        assert_eq!((hit.eval, hit.scored, hit.pv, hit.mv), (42, false, true, None));
        assert!(!hit.cuts(-INFINITE, INFINITE));
        // A result replaces it, keeping nothing of it but what it is given.
        t.store(h, Some(mv(3, 4)), 17, 40, 5, Bound::Lower, 0, false);
        let hit = t.probe(h, 0).unwrap();
        assert_eq!((hit.score, hit.depth, hit.scored, hit.pv), (17, 5, true, false));
        assert!(hit.cuts(0, 17) && !hit.cuts(0, 18));
        // A later evaluation does not overwrite the result, nor its move.
        t.store_eval(h, -5, false);
        let hit = t.probe(h, 0).unwrap();
        assert_eq!((hit.score, hit.eval, hit.mv), (17, 40, Some(mv(3, 4))));
        // The flag comes with the store that sets it.
        t.store(h, None, 20, 40, 6, Bound::Exact, 0, true);
        let hit = t.probe(h, 0).unwrap();
        assert_eq!((hit.pv, hit.mv), (true, Some(mv(3, 4))));
    }

    /// Threads write an entry's two words one after the other, so a probe may pair one position's
    /// data word with another's move word: what is known of the score must come from the data word.
    #[test]
    fn a_move_word_of_another_store_never_makes_an_evaluation_a_result() {
        let t = TranspositionTable::new(1);
        let evaluated = 0x0BAD_CAFE_0000_1234;
        // Same bucket (the low 32 bits), another key.
        let searched = evaluated ^ 0x0777 << 48;
        t.store_eval(evaluated, 42, false);
        t.store(searched, Some(mv(3, 4)), 0, 40, 5, Bound::Upper, 0, false);
        let bucket = &t.buckets[t.index(evaluated)];
        let word_of = |hash: u64| {
            let e = bucket.entries.iter().find(|e| e.fields().key == (hash >> 48) as u16);
            e.expect("stored").move_word()
        };
        let torn = word_of(searched);
        let entry = bucket
            .entries
            .iter()
            .find(|e| e.fields().key == (evaluated >> 48) as u16);
        entry.expect("stored").mv.store(torn, Ordering::Relaxed);
        let hit = t.probe(evaluated, 0).expect("still there");
        assert_eq!((hit.eval, hit.scored), (42, false));
        assert!(!hit.cuts(0, 1), "an evaluation is no bound");
        // A result keeps its score whatever move word it is read with.
        let hit = t.probe(searched, 0).expect("still there");
        assert_eq!((hit.score, hit.depth, hit.scored), (0, 5, true));
    }
}
