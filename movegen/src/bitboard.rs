//! Sets of squares as 64-bit words.

use crate::{File, Rank, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares; bit `n` is square index `n`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(!0);
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    pub const RANK_1: Bitboard = Bitboard(0xFF);
    pub const RANK_8: Bitboard = Bitboard(0xFF << 56);
    pub const LIGHT_SQUARES: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);
    pub const DARK_SQUARES: Bitboard = Bitboard(!0x55AA_55AA_55AA_55AA);

    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    pub const fn file(file: File) -> Bitboard {
        Bitboard(Bitboard::FILE_A.0 << file.index())
    }

    pub const fn rank(rank: Rank) -> Bitboard {
        Bitboard(Bitboard::RANK_1.0 << (8 * rank.index()))
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn is_nonempty(self) -> bool {
        self.0 != 0
    }

    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square of a non-empty set.
    #[inline(always)]
    pub const fn lsb(self) -> Square {
        Square::from_index_masked(self.0.trailing_zeros())
    }

    /// The highest square of a non-empty set.
    #[inline(always)]
    pub const fn msb(self) -> Square {
        Square::from_index_masked(63 ^ self.0.leading_zeros())
    }

    /// The set moved one rank towards the opponent of `White` (north) or `Black` (south).
    #[inline(always)]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    #[inline(always)]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }

    #[inline(always)]
    pub const fn east(self) -> Bitboard {
        Bitboard((self.0 << 1) & !Bitboard::FILE_A.0)
    }

    #[inline(always)]
    pub const fn west(self) -> Bitboard {
        Bitboard((self.0 >> 1) & !Bitboard::FILE_H.0)
    }

    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | (1 << sq.index()))
    }

    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.lsb();
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bit_ops {
    ($($trait:ident, $fn:ident, $assign_trait:ident, $assign_fn:ident, $op:tt;)*) => {$(
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $trait<Square> for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $fn(self, rhs: Square) -> Bitboard {
                Bitboard(self.0 $op Bitboard::from_square(rhs).0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline(always)]
            fn $assign_fn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
        impl $assign_trait<Square> for Bitboard {
            #[inline(always)]
            fn $assign_fn(&mut self, rhs: Square) {
                self.0 = self.0 $op Bitboard::from_square(rhs).0;
            }
        }
    )*};
}

bit_ops! {
    BitAnd, bitand, BitAndAssign, bitand_assign, &;
    BitOr, bitor, BitOrAssign, bitor_assign, |;
    BitXor, bitxor, BitXorAssign, bitxor_assign, ^;
}

impl Not for Bitboard {
    type Output = Bitboard;

    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let bit = self.0 >> (rank * 8 + file) & 1;
                write!(f, "{}", if bit == 1 { 'X' } else { '.' })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_yields_squares_in_order() {
        let bb = Bitboard(0b1010_0001);
        let squares: Vec<usize> = bb.map(|s| s.index()).collect();
        assert_eq!(squares, vec![0, 5, 7]);
    }

    #[test]
    fn shifts_do_not_wrap_around_files() {
        assert_eq!(Bitboard::FILE_H.east(), Bitboard::EMPTY);
        assert_eq!(Bitboard::FILE_A.west(), Bitboard::EMPTY);
        assert_eq!(Bitboard::RANK_8.north(), Bitboard::EMPTY);
    }

    #[test]
    fn lsb_msb_and_counts() {
        let bb = Bitboard(0x8000_0000_0000_0100);
        assert_eq!(bb.lsb().index(), 8);
        assert_eq!(bb.msb().index(), 63);
        assert!(bb.more_than_one());
        assert!(!Bitboard(4).more_than_one());
        assert_eq!(bb.count(), 2);
    }
}
