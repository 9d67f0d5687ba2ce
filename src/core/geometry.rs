//! Board geometry: squares, colours, board shapes and square sets for boards up to 16x15.

use std::fmt;

/// Largest number of files a board may have.
pub const MAX_FILES: u8 = 16;
/// Largest number of ranks a board may have.
pub const MAX_RANKS: u8 = 16;
/// Largest number of squares (files * ranks); one index value stays free for `Square::NONE`.
pub const MAX_SQUARES: usize = 240;

/// A square index: `rank * files + file`, counted from White's bottom-left corner.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug, Default)]
pub struct Square(pub u8);

impl Square {
    /// The "no square" marker (drops have no origin).
    pub const NONE: Square = Square(255);

    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub fn is_none(self) -> bool {
        self.0 == 255
    }
}

/// The two sides.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Ord, PartialOrd)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// +1 for White (moves towards higher ranks), -1 for Black.
    #[inline]
    pub fn forward(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

/// Board dimensions.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct BoardShape {
    pub files: u8,
    pub ranks: u8,
}

impl BoardShape {
    /// A shape, if it fits the limits.
    pub fn new(files: u8, ranks: u8) -> Option<BoardShape> {
        let ok = (1..=MAX_FILES).contains(&files)
            && (1..=MAX_RANKS).contains(&ranks)
            && (files as usize) * (ranks as usize) <= MAX_SQUARES;
        ok.then_some(BoardShape { files, ranks })
    }

    #[inline]
    pub fn num_squares(self) -> usize {
        self.files as usize * self.ranks as usize
    }

    #[inline]
    pub fn square(self, file: u8, rank: u8) -> Square {
        Square(rank * self.files + file)
    }

    #[inline]
    pub fn file(self, sq: Square) -> u8 {
        sq.0 % self.files
    }

    #[inline]
    pub fn rank(self, sq: Square) -> u8 {
        sq.0 / self.files
    }

    /// The square `dx` files and `dy` ranks away, if it is on the board.
    #[inline]
    pub fn offset(self, sq: Square, dx: i32, dy: i32) -> Option<Square> {
        let f = self.file(sq) as i32 + dx;
        let r = self.rank(sq) as i32 + dy;
        (f >= 0 && r >= 0 && f < self.files as i32 && r < self.ranks as i32).then(|| self.square(f as u8, r as u8))
    }

    /// Rank counted from the owner's side, 0-based (White's rank 1 and Black's last rank are 0).
    #[inline]
    pub fn relative_rank(self, sq: Square, color: Color) -> u8 {
        match color {
            Color::White => self.rank(sq),
            Color::Black => self.ranks - 1 - self.rank(sq),
        }
    }

    /// Squares are coloured like a chessboard: a1 is dark.
    pub fn is_light(self, sq: Square) -> bool {
        (self.file(sq) + self.rank(sq)) % 2 == 1
    }

    pub fn squares(self) -> impl Iterator<Item = Square> {
        (0..self.num_squares() as u8).map(Square)
    }
}

/// A set of squares, one bit per square index.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Default)]
pub struct SquareSet(pub [u64; 4]);

impl SquareSet {
    pub const EMPTY: SquareSet = SquareSet([0; 4]);

    #[inline]
    pub fn contains(&self, sq: Square) -> bool {
        let i = sq.index();
        i < 256 && (self.0[i >> 6] >> (i & 63)) & 1 != 0
    }

    #[inline]
    pub fn insert(&mut self, sq: Square) {
        let i = sq.index();
        self.0[i >> 6] |= 1 << (i & 63);
    }

    #[inline]
    pub fn remove(&mut self, sq: Square) {
        let i = sq.index();
        self.0[i >> 6] &= !(1 << (i & 63));
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    #[inline]
    pub fn union(&self, other: &SquareSet) -> SquareSet {
        SquareSet([
            self.0[0] | other.0[0],
            self.0[1] | other.0[1],
            self.0[2] | other.0[2],
            self.0[3] | other.0[3],
        ])
    }

    #[inline]
    pub fn intersection(&self, other: &SquareSet) -> SquareSet {
        SquareSet([
            self.0[0] & other.0[0],
            self.0[1] & other.0[1],
            self.0[2] & other.0[2],
            self.0[3] & other.0[3],
        ])
    }

    /// The squares of `self` not in `other`.
    #[inline]
    pub fn difference(&self, other: &SquareSet) -> SquareSet {
        SquareSet([
            self.0[0] & !other.0[0],
            self.0[1] & !other.0[1],
            self.0[2] & !other.0[2],
            self.0[3] & !other.0[3],
        ])
    }

    pub fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        (0..4).flat_map(move |w| {
            let mut bits = self.0[w];
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                Some(Square((w as u32 * 64 + b) as u8))
            })
        })
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut s = SquareSet::EMPTY;
        for sq in iter {
            s.insert(sq);
        }
        s
    }
}

impl fmt::Debug for SquareSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(|s| s.0)).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_stay_on_board() {
        let b = BoardShape::new(10, 10).unwrap();
        let a1 = b.square(0, 0);
        assert_eq!(b.offset(a1, -1, 0), None);
        assert_eq!(b.offset(a1, 1, 2), Some(b.square(1, 2)));
        let j10 = b.square(9, 9);
        assert_eq!(b.offset(j10, 1, 0), None);
        assert_eq!(b.relative_rank(j10, Color::Black), 0);
    }

    #[test]
    fn shape_limits() {
        assert!(BoardShape::new(12, 12).is_some());
        assert!(BoardShape::new(16, 15).is_some());
        assert!(BoardShape::new(16, 16).is_none());
        assert!(BoardShape::new(0, 8).is_none());
    }

    #[test]
    fn square_set_iterates_in_order() {
        let s: SquareSet = [Square(3), Square(200), Square(64)].into_iter().collect();
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![Square(3), Square(64), Square(200)]);
        assert_eq!(s.len(), 3);
    }
}
