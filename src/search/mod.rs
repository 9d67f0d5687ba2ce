//! Search: iterative-deepening PVS with a transposition table, quiescence, move ordering, pruning,
//! and an evaluation derived from each variant's piece data.
