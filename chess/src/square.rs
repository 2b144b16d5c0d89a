//! Squares, files and ranks.

use crate::Color;
use std::fmt;

/// A file, `a` = 0 .. `h` = 7.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct File(u8);

impl File {
    pub const A: File = File(0);
    pub const B: File = File(1);
    pub const C: File = File(2);
    pub const D: File = File(3);
    pub const E: File = File(4);
    pub const F: File = File(5);
    pub const G: File = File(6);
    pub const H: File = File(7);
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    pub const fn new(index: u8) -> Option<File> {
        if index < 8 {
            Some(File(index))
        } else {
            None
        }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File(c as u8 - b'a')),
            _ => None,
        }
    }

    pub fn to_char(self) -> char {
        (b'a' + self.0) as char
    }
}

/// A rank, `1` = 0 .. `8` = 7.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Rank(u8);

impl Rank {
    pub const R1: Rank = Rank(0);
    pub const R2: Rank = Rank(1);
    pub const R3: Rank = Rank(2);
    pub const R4: Rank = Rank(3);
    pub const R5: Rank = Rank(4);
    pub const R6: Rank = Rank(5);
    pub const R7: Rank = Rank(6);
    pub const R8: Rank = Rank(7);
    pub const ALL: [Rank; 8] = [
        Rank::R1,
        Rank::R2,
        Rank::R3,
        Rank::R4,
        Rank::R5,
        Rank::R6,
        Rank::R7,
        Rank::R8,
    ];

    pub const fn new(index: u8) -> Option<Rank> {
        if index < 8 {
            Some(Rank(index))
        } else {
            None
        }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank(c as u8 - b'1')),
            _ => None,
        }
    }

    pub fn to_char(self) -> char {
        (b'1' + self.0) as char
    }

    /// The rank as seen from `color`'s side: rank 1 for White is rank 8 for Black.
    pub const fn relative(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank(7 - self.0),
        }
    }
}

/// A square, `a1` = 0, `b1` = 1, .. `h8` = 63. Always in range by construction.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    pub const A1: Square = Square(0);
    pub const C1: Square = Square(2);
    pub const D1: Square = Square(3);
    pub const E1: Square = Square(4);
    pub const F1: Square = Square(5);
    pub const G1: Square = Square(6);
    pub const H1: Square = Square(7);
    pub const A8: Square = Square(56);
    pub const E8: Square = Square(60);
    pub const H8: Square = Square(63);

    pub const fn new(file: File, rank: Rank) -> Square {
        Square(rank.0 * 8 + file.0)
    }

    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square for an index already reduced to 0..64 (the top bits are masked off).
    pub(crate) const fn from_index_masked(index: u32) -> Square {
        Square((index & 63) as u8)
    }

    /// The index 0..64; masked so that the compiler can drop bounds checks on `[_; 64]`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        (self.0 & 63) as usize
    }

    pub const fn file(self) -> File {
        File(self.0 & 7)
    }

    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 3)
    }

    /// The square as `color` sees the board: a1 for White is a8 for Black.
    #[inline(always)]
    pub const fn relative(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => Square(self.0 ^ 56),
        }
    }

    /// The square mirrored left to right: a1 is h1, c6 is f6.
    #[inline(always)]
    pub const fn flip_file(self) -> Square {
        Square(self.0 ^ 7)
    }

    /// Chebyshev distance: the king moves from one square to the other.
    #[inline(always)]
    pub const fn distance(self, other: Square) -> i32 {
        let (df, dr) = self.file_rank_steps(other);
        if df > dr {
            df
        } else {
            dr
        }
    }

    /// Files plus ranks from one square to the other.
    #[inline(always)]
    pub const fn manhattan_distance(self, other: Square) -> i32 {
        let (df, dr) = self.file_rank_steps(other);
        df + dr
    }

    const fn file_rank_steps(self, other: Square) -> (i32, i32) {
        let df = (self.file().0 as i32 - other.file().0 as i32).abs();
        let dr = (self.rank().0 as i32 - other.rank().0 as i32).abs();
        (df, dr)
    }

    /// The square `delta` steps away in index order, if it stays on the board.
    pub const fn offset(self, delta: i8) -> Option<Square> {
        let index = self.0 as i16 + delta as i16;
        if index >= 0 && index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    pub fn parse(s: &str) -> Option<Square> {
        let mut chars = s.chars();
        let file = File::from_char(chars.next()?)?;
        let rank = Rank::from_char(chars.next()?)?;
        if chars.next().is_some() {
            return None;
        }
        Some(Square::new(file, rank))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().to_char(), self.rank().to_char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
        assert_eq!(Square::parse("a1x"), None);
        assert_eq!(Square::parse("e4").map(|s| s.index()), Some(28));
    }

    #[test]
    fn relative_rank_flips_for_black() {
        assert_eq!(Rank::R2.relative(Color::Black), Rank::R7);
        assert_eq!(Rank::R2.relative(Color::White), Rank::R2);
        let e2 = Square::parse("e2").unwrap();
        assert_eq!(e2.relative(Color::Black), Square::parse("e7").unwrap());
        assert_eq!(e2.relative(Color::White), e2);
    }

    #[test]
    fn flip_file_mirrors_left_to_right() {
        let sq = |s| Square::parse(s).unwrap();
        assert_eq!(sq("a1").flip_file(), sq("h1"));
        assert_eq!(sq("c6").flip_file(), sq("f6"));
        assert_eq!(sq("e4").flip_file(), sq("d4"));
        assert!(Square::all()
            .all(|s| s.flip_file().flip_file() == s && s.flip_file().rank() == s.rank()));
    }

    #[test]
    fn distances_count_king_steps_and_file_plus_rank_steps() {
        let (a1, h8, c2) = (Square::A1, Square::H8, Square::parse("c2").unwrap());
        assert_eq!(a1.distance(h8), 7);
        assert_eq!(a1.manhattan_distance(h8), 14);
        assert_eq!(c2.distance(a1), 2);
        assert_eq!(c2.manhattan_distance(a1), 3);
        assert_eq!(c2.distance(c2), 0);
        for (i, f) in File::ALL.iter().enumerate() {
            assert_eq!(f.index(), i);
            assert_eq!(Rank::ALL[i].index(), i);
        }
    }
}
