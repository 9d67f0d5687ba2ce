//! Piece placement: the board, piece lists, counts per type and the incremental hash, updated
//! together by every change, and the pawn-structure hash.

use super::*;

/// Piece placement with piece lists, counts per type and the incremental hash.
#[derive(Clone)]
pub(crate) struct Placement {
    pub board: [u8; MAX_SQUARES],
    pub list: [[Square; MAX_SQUARES]; 2],
    pub len: [u8; 2],
    pub idx: [u8; MAX_SQUARES],
    pub counts: [[u8; MAX_KINDS]; 2],
    pub hash: u64,
    /// The hash of the pawns (kinds that promote) on the board alone.
    pub pawn_hash: u64,
}

impl Placement {
    pub(super) fn empty() -> Placement {
        Placement {
            board: [EMPTY; MAX_SQUARES],
            list: [[Square::NONE; MAX_SQUARES]; 2],
            len: [0; 2],
            idx: [0; MAX_SQUARES],
            counts: [[0; MAX_KINDS]; 2],
            hash: 0,
            pawn_hash: 0,
        }
    }

    #[inline]
    pub fn put(&mut self, z: &Zobrist, p: Piece, sq: Square) {
        let c = p.color() as usize;
        self.board[sq.index()] = p.0;
        self.idx[sq.index()] = self.len[c];
        self.list[c][self.len[c] as usize] = sq;
        self.len[c] += 1;
        self.counts[c][p.kind().index()] += 1;
        self.hash ^= z.piece(p, sq);
        self.pawn_hash ^= z.pawn(p, sq);
    }

    /// Takes the piece off `sq`; the last piece of its list takes its place there. Returns the
    /// piece and its list index, which `restore` needs to undo this exactly.
    #[inline]
    pub fn remove(&mut self, z: &Zobrist, sq: Square) -> (Piece, u8) {
        let p = Piece(self.board[sq.index()]);
        let c = p.color() as usize;
        self.board[sq.index()] = EMPTY;
        let i = self.idx[sq.index()] as usize;
        self.len[c] -= 1;
        let last = self.list[c][self.len[c] as usize];
        self.list[c][i] = last;
        self.idx[last.index()] = i as u8;
        self.counts[c][p.kind().index()] -= 1;
        self.hash ^= z.piece(p, sq);
        self.pawn_hash ^= z.pawn(p, sq);
        (p, i as u8)
    }

    /// Undoes `remove` (called in reverse order), so that the piece lists come back in the same
    /// order — searches of the same position then visit moves in the same order.
    #[inline]
    pub fn restore(&mut self, z: &Zobrist, p: Piece, sq: Square, index: u8) {
        let c = p.color() as usize;
        let len = self.len[c];
        if index < len {
            let moved = self.list[c][index as usize];
            self.list[c][len as usize] = moved;
            self.idx[moved.index()] = len;
        }
        self.list[c][index as usize] = sq;
        self.idx[sq.index()] = index;
        self.len[c] += 1;
        self.board[sq.index()] = p.0;
        self.counts[c][p.kind().index()] += 1;
        self.hash ^= z.piece(p, sq);
        self.pawn_hash ^= z.pawn(p, sq);
    }

    /// Takes off the piece that was put last (the inverse of `put`).
    #[inline]
    pub fn take_back(&mut self, z: &Zobrist, sq: Square) -> Piece {
        let (p, _) = self.remove(z, sq);
        p
    }

    #[inline]
    pub fn relocate(&mut self, z: &Zobrist, from: Square, to: Square) {
        let p = Piece(self.board[from.index()]);
        let c = p.color() as usize;
        self.board[from.index()] = EMPTY;
        self.board[to.index()] = p.0;
        let i = self.idx[from.index()];
        self.idx[to.index()] = i;
        self.list[c][i as usize] = to;
        self.hash ^= z.piece(p, from) ^ z.piece(p, to);
        self.pawn_hash ^= z.pawn(p, from) ^ z.pawn(p, to);
    }
}
