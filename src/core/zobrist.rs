//! Zobrist keys: one random 64-bit key per (piece, square), per hand count, per castling right,
//! per en-passant square and for the side to move. Fixed seed, so hashes are reproducible.
//!
//! The pawn-structure key hashes only the pieces that promote (the variant's "pawns", the same
//! notion the evaluation uses): the search learns its corrections to the static evaluation per
//! pawn structure.

use super::geometry::{Color, Square};
use super::piece::{Kind, Piece};

/// Largest hand count that gets its own key (more pieces in hand share the last key).
pub const MAX_HAND: usize = 16;

#[derive(Debug, Default)]
pub struct Zobrist {
    squares: usize,
    pieces: Vec<u64>,
    /// The piece key of a pawn (a kind that promotes), 0 for every other kind.
    pawns: Vec<u64>,
    hand: Vec<u64>,
    castling: [u64; 16],
    ep: Vec<u64>,
    pub side: u64,
    /// Keys for "this sub-move continues the turn" (Wild Rose growing roses).
    pub continuation: u64,
}

/// SplitMix64: small, fast, good enough for hash keys and seeded shuffles.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Zobrist {
    /// Keys for a board of `squares` squares and the kinds of `pawn` (true: the kind promotes).
    pub fn new(squares: usize, pawn: &[bool]) -> Zobrist {
        let mut s = 0x5EED_F00D_u64;
        let mut next = || splitmix64(&mut s);
        let kinds = pawn.len();
        let pieces: Vec<u64> = (0..kinds * 2 * squares).map(|_| next()).collect();
        let pawns = pieces
            .iter()
            .enumerate()
            .map(|(i, &key)| if pawn[i / (2 * squares)] { key } else { 0 })
            .collect();
        Zobrist {
            squares,
            pieces,
            pawns,
            hand: (0..kinds * 2 * (MAX_HAND + 1)).map(|_| next()).collect(),
            castling: std::array::from_fn(|_| next()),
            ep: (0..squares).map(|_| next()).collect(),
            side: next(),
            continuation: next(),
        }
    }

    #[inline]
    pub fn piece(&self, piece: Piece, sq: Square) -> u64 {
        self.pieces[piece.0 as usize * self.squares + sq.index()]
    }

    /// The piece's key if it is a pawn, else 0.
    #[inline]
    pub fn pawn(&self, piece: Piece, sq: Square) -> u64 {
        self.pawns[piece.0 as usize * self.squares + sq.index()]
    }

    /// Key for holding `count` pieces of this kind (count 0 has key 0, so empty hands hash to 0).
    #[inline]
    pub fn hand(&self, kind: Kind, color: Color, count: u8) -> u64 {
        if count == 0 {
            return 0;
        }
        let c = (count as usize).min(MAX_HAND);
        self.hand[(kind.index() * 2 + color as usize) * (MAX_HAND + 1) + c]
    }

    #[inline]
    pub fn castling(&self, rights: u8) -> u64 {
        self.castling[(rights & 15) as usize]
    }

    #[inline]
    pub fn ep(&self, sq: Square) -> u64 {
        self.ep[sq.index()]
    }
}
