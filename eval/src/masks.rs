//! The evaluation's own square sets, on chess's types: the spans ahead of
//! a pawn, the king's flank and camp, and the long diagonals.

use chess::{Bitboard, Color, File, Rank, Square};

/// The a1-h8 and h1-a8 diagonals: the only squares from which a bishop can
/// see two centre squares.
pub const LONG_DIAGONALS: Bitboard = Bitboard(0x8040_2010_0804_0201 | 0x0102_0408_1020_4080);

/// The squares in front of a pawn of `color` on `sq`, on its file.
#[inline(always)]
pub fn forward_file(color: Color, sq: Square) -> Bitboard {
    FORWARD_FILE[color.index()][sq.index()]
}

/// The passed-pawn span: the file and the adjacent files ahead.
#[inline(always)]
pub fn passed_span(color: Color, sq: Square) -> Bitboard {
    PASSED_SPAN[color.index()][sq.index()]
}

static FORWARD_FILE: [[Bitboard; 64]; 2] = spans(false);
static PASSED_SPAN: [[Bitboard; 64]; 2] = spans(true);

const fn spans(adjacent: bool) -> [[Bitboard; 64]; 2] {
    let mut t = [[Bitboard::EMPTY; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let color = Color::BOTH[c];
        let mut i = 0;
        while i < 64 {
            let (file, rank) = (File::ALL[i % 8], Rank::ALL[i / 8]);
            let mut files = Bitboard::file(file).0;
            if adjacent {
                files |= Bitboard::adjacent_files(file).0;
            }
            t[c][i] = Bitboard(Bitboard::ranks_ahead(color, rank).0 & files);
            i += 1;
        }
        c += 1;
    }
    t
}

/// The files of the king's flank, by the king's file: a-d for the a-c
/// files, c-f for d and e, e-h for f-h.
pub const fn king_flank(file: File) -> Bitboard {
    let first = match file.index() {
        0..=2 => 0,
        3 | 4 => 2,
        _ => 4,
    };
    Bitboard((Bitboard::FILE_A.0 * 0x0F) << first)
}

/// The five ranks nearest to `color`'s back rank.
pub const fn camp(color: Color) -> Bitboard {
    match color {
        Color::White => Bitboard(0x0000_00FF_FFFF_FFFF),
        Color::Black => Bitboard(0xFFFF_FFFF_FF00_0000),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans() {
        let e2 = Square::parse("e2").unwrap();
        let e7 = Square::parse("e7").unwrap();
        assert_eq!(forward_file(Color::White, e2).count(), 6);
        assert_eq!(forward_file(Color::Black, e2).count(), 1);
        assert_eq!(passed_span(Color::White, e2).count(), 18);
        assert_eq!(passed_span(Color::Black, e7).count(), 18);
        assert_eq!(passed_span(Color::White, Square::A1).count(), 14);
    }

    #[test]
    fn flanks_and_camps() {
        let files = |b: Bitboard| -> Vec<char> {
            File::ALL
                .iter()
                .filter(|&&f| (b & Bitboard::file(f)).is_nonempty())
                .map(|f| f.to_char())
                .collect()
        };
        assert_eq!(files(king_flank(File::B)), ['a', 'b', 'c', 'd']);
        assert_eq!(files(king_flank(File::E)), ['c', 'd', 'e', 'f']);
        assert_eq!(files(king_flank(File::G)), ['e', 'f', 'g', 'h']);
        assert_eq!(camp(Color::White).count(), 40);
        assert!(camp(Color::Black).contains(Square::H8));
        assert_eq!(LONG_DIAGONALS.count(), 16);
    }
}
