//! Bitboard masks and helpers of the evaluation, on raw `u64` sets.

pub const FILE_A: u64 = 0x0101_0101_0101_0101;
pub const FILE_H: u64 = FILE_A << 7;
pub const RANK_1: u64 = 0xFF;
/// The dark squares (a1 is dark) and the light ones. Bit 0 is a1, so the
/// low byte of DARK is the first rank: a1, c1, e1, g1 = 0x55.
pub const DARK: u64 = 0xAA55_AA55_AA55_AA55;
pub const LIGHT: u64 = !DARK;

#[inline(always)]
pub const fn file_mask(file: usize) -> u64 {
    FILE_A << file
}

#[inline(always)]
pub const fn rank_mask(rank: usize) -> u64 {
    RANK_1 << (8 * rank)
}

/// The files next to `file`.
pub const fn adjacent_files(file: usize) -> u64 {
    let mut m = 0;
    if file > 0 {
        m |= file_mask(file - 1);
    }
    if file < 7 {
        m |= file_mask(file + 1);
    }
    m
}

/// Every square on a rank strictly ahead of `rank` for `color` (0 = White).
pub const fn forward_ranks(color: usize, rank: usize) -> u64 {
    if color == 0 {
        if rank >= 7 {
            0
        } else {
            !0u64 << (8 * (rank + 1))
        }
    } else if rank == 0 {
        0
    } else {
        !0u64 >> (8 * (8 - rank))
    }
}

const fn build(kind: u8) -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            let file = sq % 8;
            let rank = sq / 8;
            let ahead = forward_ranks(c, rank);
            t[c][sq] = match kind {
                0 => ahead & file_mask(file),
                _ => ahead & (adjacent_files(file) | file_mask(file)),
            };
            sq += 1;
        }
        c += 1;
    }
    t
}

/// The squares in front of a pawn on its file.
pub static FORWARD_FILE: [[u64; 64]; 2] = build(0);
/// The passed-pawn span: the file and the adjacent files ahead.
pub static PASSED_SPAN: [[u64; 64]; 2] = build(2);

/// Chebyshev distance between two squares.
#[inline(always)]
pub fn distance(a: usize, b: usize) -> i32 {
    let df = ((a % 8) as i32 - (b % 8) as i32).abs();
    let dr = ((a / 8) as i32 - (b / 8) as i32).abs();
    df.max(dr)
}

/// Squares attacked by the pawns `p` of `color`.
#[inline(always)]
pub const fn pawn_attacks(color: usize, p: u64) -> u64 {
    if color == 0 {
        ((p & !FILE_A) << 7) | ((p & !FILE_H) << 9)
    } else {
        ((p & !FILE_A) >> 9) | ((p & !FILE_H) >> 7)
    }
}

/// Squares attacked twice by the pawns `p` of `color`.
#[inline(always)]
pub const fn pawn_double_attacks(color: usize, p: u64) -> u64 {
    if color == 0 {
        ((p & !FILE_A) << 7) & ((p & !FILE_H) << 9)
    } else {
        ((p & !FILE_A) >> 9) & ((p & !FILE_H) >> 7)
    }
}

/// The files of the king's flank, by the king's file: a-d for the a-c
/// files, c-f for d and e, e-h for f-h.
pub const fn king_flank(file: usize) -> u64 {
    let first = match file {
        0..=2 => 0,
        3 | 4 => 2,
        _ => 4,
    };
    file_mask(first) | file_mask(first + 1) | file_mask(first + 2) | file_mask(first + 3)
}

/// The five ranks nearest to `color`'s back rank.
pub const fn camp(color: usize) -> u64 {
    if color == 0 {
        0x0000_00FF_FFFF_FFFF
    } else {
        0xFFFF_FFFF_FF00_0000
    }
}

/// The four centre squares d4, e4, d5, e5.
pub const CENTRE: u64 = 0x0000_0018_1800_0000;

/// The a1-h8 and h1-a8 diagonals: the only squares from which a bishop can
/// see two centre squares.
pub const LONG_DIAGONALS: u64 = 0x8040_2010_0804_0201 | 0x0102_0408_1020_4080;

/// One step forward for `color`.
#[inline(always)]
pub const fn push(color: usize, b: u64) -> u64 {
    if color == 0 {
        b << 8
    } else {
        b >> 8
    }
}

/// The set and every square in front of it for `color`.
#[inline(always)]
pub const fn fill_forward(color: usize, mut b: u64) -> u64 {
    if color == 0 {
        b |= b << 8;
        b |= b << 16;
        b |= b << 32;
    } else {
        b |= b >> 8;
        b |= b >> 16;
        b |= b >> 32;
    }
    b
}

/// Square index seen from `color`'s side (a1 = 0 for both).
#[inline(always)]
pub const fn relative_square(color: usize, sq: usize) -> usize {
    if color == 0 {
        sq
    } else {
        sq ^ 56
    }
}

/// Rank (0..7) seen from `color`'s side.
#[inline(always)]
pub const fn relative_rank(color: usize, sq: usize) -> usize {
    relative_square(color, sq) / 8
}

/// The most backward square of a non-empty set, from `color`'s side.
#[inline(always)]
pub const fn backmost(color: usize, b: u64) -> usize {
    if color == 0 {
        b.trailing_zeros() as usize
    } else {
        63 - b.leading_zeros() as usize
    }
}

/// Iterates the squares of a set as indices.
#[inline(always)]
pub fn squares(mut b: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let sq = b.trailing_zeros() as usize;
            b &= b - 1;
            Some(sq)
        }
    })
}

#[inline(always)]
pub const fn popcount(b: u64) -> i32 {
    b.count_ones() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans() {
        // e2 (12) for White: e3..e8 ahead on its file.
        assert_eq!(FORWARD_FILE[0][12].count_ones(), 6);
        assert_eq!(FORWARD_FILE[1][12].count_ones(), 1);
        assert_eq!(PASSED_SPAN[0][12].count_ones(), 18);
        assert_eq!(PASSED_SPAN[1][52].count_ones(), 18);
        assert_eq!(forward_ranks(0, 7), 0);
        assert_eq!(forward_ranks(1, 0), 0);
        assert_eq!(forward_ranks(1, 1), RANK_1);
        assert_eq!(distance(0, 63), 7);
        assert_eq!(backmost(1, (1 << 50) | (1 << 42)), 50);
    }
}
