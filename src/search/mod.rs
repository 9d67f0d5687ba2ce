//! Search: iterative-deepening PVS with a transposition table, quiescence, move ordering, pruning,
//! and an evaluation derived from each variant's piece data.
//!
//! One idea per file:
//! - `score`: internal values and mate encoding;
//! - `control`: the stop flag and deadlines shared with the protocol thread;
//! - `time`: search limits and time allocation from a neutral clock (ms left, increment, moves to go);
//! - `tt`: the transposition table;
//! - `zeroed`: its memory (zero pages from the allocator, refused without aborting);
//! - `eval`: the evaluation, with tables derived from the variant's pieces;
//! - `eval_params`: the evaluation's weights as one named vector, and a definition's `[eval]` section;
//! - `see`: static exchange evaluation;
//! - `ordering`: move scoring (TT move, MVV-LVA/SEE, killers, countermoves, history);
//! - `alphabeta`: the `Searcher` (iterative deepening, PVS, quiescence, pruning);
//! - `threads`: several threads on one search, sharing the hash table (Lazy SMP);
//!
//! Nothing here asks which variant it plays: all knowledge comes from the piece table, the
//! variant's rules and the core's move generation.

mod alphabeta;
mod control;
mod correction;
mod eval;
mod eval_params;
mod ordering;
mod score;
mod see;
mod threads;
mod time;
mod tt;
mod zeroed;

pub use alphabeta::{SearchInfo, SearchResult, Searcher};
pub use control::{RootProgress, SearchControl};
pub use eval::{EvalTables, S, evaluate};
pub use eval_params::{EvalParams, KindParams, with_section};
pub use score::{Bound, Score};
pub use threads::MAX_THREADS;
pub use time::{
    Clock, DEFAULT_OVERHEAD_MS, Limits, MIN_OVERHEAD_MS, MoveCost, PROBE_MS, TimeBudget, clock_budget, movetime_budget,
};
pub use tt::{TranspositionTable, TtHit};
