//! Perft: counting the leaves of the legal-move tree, the standard check of a move generator.
//! Leaves are counted in bulk (legal moves at depth 1 are counted, not played).

use crate::core::{Move, MoveList, Position};
use crate::notation::movetext;

/// Reusable move lists, one per ply, so counting allocates nothing per node.
pub struct Perft {
    lists: Vec<MoveList>,
}

impl Default for Perft {
    fn default() -> Self {
        Perft::new()
    }
}

impl Perft {
    pub fn new() -> Perft {
        Perft { lists: Vec::new() }
    }

    fn list(&mut self, ply: usize) -> MoveList {
        while self.lists.len() <= ply {
            self.lists.push(MoveList::new());
        }
        std::mem::take(&mut self.lists[ply])
    }

    /// Number of legal move sequences of length `depth`.
    pub fn count(&mut self, pos: &mut Position, depth: u32) -> u64 {
        self.count_at(pos, depth, 0)
    }

    fn count_at(&mut self, pos: &mut Position, depth: u32, ply: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut list = self.list(ply);
        let nodes = if depth == 1 && !pos.variant().tables.multi_move_turns {
            pos.count_legal(&mut list)
        } else {
            pos.generate_legal(&mut list);
            let mut n = 0;
            for i in 0..list.len() {
                let mv = list.0[i];
                if depth == 1 && !matches!(mv, Move::Grow { .. }) {
                    n += 1;
                    continue;
                }
                pos.make(mv);
                // A sub-move that leaves the same side to move does not complete the turn.
                let rest = if pos.in_continuation() { depth } else { depth - 1 };
                n += self.count_at(pos, rest, ply + 1);
                pos.unmake();
            }
            n
        };
        self.lists[ply] = list;
        nodes
    }

    /// Counts per root turn, as (canonical turn text, count), sorted by text.
    pub fn divide(&mut self, pos: &mut Position, depth: u32) -> Vec<(String, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        let mut out: Vec<(String, u64)> = pos
            .legal_turns()
            .iter()
            .map(|turn| {
                let text = movetext::turn_canonical(pos, turn);
                for mv in turn {
                    pos.make(*mv);
                }
                let n = self.count(pos, depth - 1);
                for _ in turn {
                    pos.unmake();
                }
                (text, n)
            })
            .collect();
        out.sort();
        out
    }
}
