//! Sets of squares as 64-bit words.

use crate::{Color, File, Rank, Square};
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
    /// d4, e4, d5 and e5.
    pub const CENTRE: Bitboard = Bitboard(0x0000_0018_1800_0000);

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

    /// The files beside `file`.
    pub const fn adjacent_files(file: File) -> Bitboard {
        let f = Bitboard::file(file).0;
        Bitboard(((f << 1) & !Bitboard::FILE_A.0) | ((f >> 1) & !Bitboard::FILE_H.0))
    }

    /// Every square on a rank strictly ahead of `rank` for `color`.
    pub const fn ranks_ahead(color: Color, rank: Rank) -> Bitboard {
        let r = rank.index();
        match color {
            Color::White if r < 7 => Bitboard(!0 << (8 * (r + 1))),
            Color::Black if r > 0 => Bitboard(!0 >> (8 * (8 - r))),
            _ => Bitboard::EMPTY,
        }
    }

    /// The set moved one rank forward for `color`.
    #[inline(always)]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => self.north(),
            Color::Black => self.south(),
        }
    }

    /// The set and every square in front of it for `color`.
    #[inline(always)]
    pub const fn fill_forward(self, color: Color) -> Bitboard {
        let mut b = self.0;
        match color {
            Color::White => {
                b |= b << 8;
                b |= b << 16;
                b |= b << 32;
            }
            Color::Black => {
                b |= b >> 8;
                b |= b >> 16;
                b |= b >> 32;
            }
        }
        Bitboard(b)
    }

    /// The squares that pawns of `color` on this set attack.
    #[inline(always)]
    pub const fn pawn_attacks(self, color: Color) -> Bitboard {
        let (west, east) = self.pawn_captures(color);
        Bitboard(west | east)
    }

    /// The squares that two pawns of `color` on this set attack.
    #[inline(always)]
    pub const fn pawn_double_attacks(self, color: Color) -> Bitboard {
        let (west, east) = self.pawn_captures(color);
        Bitboard(west & east)
    }

    /// The targets of pawn captures towards the a-file and towards the h-file.
    #[inline(always)]
    const fn pawn_captures(self, color: Color) -> (u64, u64) {
        let (not_a, not_h) = (self.0 & !Bitboard::FILE_A.0, self.0 & !Bitboard::FILE_H.0);
        match color {
            Color::White => (not_a << 7, not_h << 9),
            Color::Black => (not_a >> 9, not_h >> 7),
        }
    }

    /// The rearmost square of a non-empty set, as `color` sees the board.
    #[inline(always)]
    pub const fn backmost(self, color: Color) -> Square {
        match color {
            Color::White => self.lsb(),
            Color::Black => self.msb(),
        }
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
    fn pawn_geometry() {
        let e2 = Bitboard::from_square(Square::parse("e2").unwrap());
        assert_eq!(e2.pawn_attacks(Color::White).count(), 2);
        assert_eq!(Bitboard::FILE_A.pawn_attacks(Color::White).count(), 7);
        assert_eq!(Bitboard::FILE_H.pawn_attacks(Color::Black).count(), 7);
        // Pawns on d2 and f2 both attack e3.
        let df = Bitboard(0x2800);
        assert_eq!(
            df.pawn_double_attacks(Color::White),
            Bitboard::from_square(Square::parse("e3").unwrap())
        );
        assert_eq!(e2.fill_forward(Color::White).count(), 7);
        assert_eq!(e2.fill_forward(Color::Black).count(), 2);
        assert_eq!(e2.forward(Color::Black).lsb(), Square::parse("e1").unwrap());
        assert_eq!(
            Bitboard::ranks_ahead(Color::White, Rank::R8),
            Bitboard::EMPTY
        );
        assert_eq!(
            Bitboard::ranks_ahead(Color::Black, Rank::R1),
            Bitboard::EMPTY
        );
        assert_eq!(
            Bitboard::ranks_ahead(Color::Black, Rank::R2),
            Bitboard::RANK_1
        );
        assert_eq!(
            Bitboard::ranks_ahead(Color::White, Rank::R7),
            Bitboard::RANK_8
        );
        assert_eq!(Bitboard::adjacent_files(File::A), Bitboard::file(File::B));
        assert_eq!(Bitboard::adjacent_files(File::E).count(), 16);
        let two = Bitboard(0x0004_0000_0000_0400);
        assert_eq!(two.backmost(Color::White).index(), 10);
        assert_eq!(two.backmost(Color::Black).index(), 50);
        assert_eq!(Bitboard::CENTRE.count(), 4);
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
