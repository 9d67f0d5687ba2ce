//! Perft: counting the leaves of the legal-move tree, the standard check of a move generator.
//! Leaves are counted in bulk (legal moves at depth 1 are counted, not played).

use crate::core::{MoveList, Position};
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
        let nodes = if depth == 1 {
            pos.count_legal(&mut list)
        } else {
            pos.generate_legal(&mut list);
            let mut n = 0;
            for i in 0..list.len() {
                pos.make(list.0[i]);
                n += self.count_at(pos, depth - 1, ply + 1);
                pos.unmake();
            }
            n
        };
        self.lists[ply] = list;
        nodes
    }

    /// Counts per root move, as (canonical move text, count), sorted by move text.
    pub fn divide(&mut self, pos: &mut Position, depth: u32) -> Vec<(String, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        let moves = pos.legal_moves();
        let mut out: Vec<(String, u64)> = moves
            .iter()
            .map(|mv| {
                let text = movetext::canonical(pos, mv);
                pos.make(*mv);
                let n = self.count(pos, depth.saturating_sub(1));
                pos.unmake();
                (text, n)
            })
            .collect();
        out.sort();
        out
    }
}
