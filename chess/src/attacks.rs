//! Attack tables: leapers, sliders (through `magic`), and the squares between
//! and along two aligned squares. All tables are built by `const` evaluation.

use crate::magic::{bishop_rays, bishop_slide, rook_rays, rook_slide};
use crate::{Bitboard, Color, PieceKind, Square};

pub use crate::magic::{bishop_attacks, rook_attacks};

const fn leaper_table(steps: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut bits = 0u64;
        let mut i = 0;
        while i < steps.len() {
            let f = (sq % 8) as i8 + steps[i].0;
            let r = (sq / 8) as i8 + steps[i].1;
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                bits |= 1 << (r * 8 + f);
            }
            i += 1;
        }
        table[sq] = Bitboard(bits);
        sq += 1;
    }
    table
}

static KNIGHT: [Bitboard; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [Bitboard; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[Bitboard; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

/// `BETWEEN[a][b]`: the squares strictly between two aligned squares, else empty.
static BETWEEN: [[Bitboard; 64]; 64] = {
    let mut table = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let bb = 1u64 << b;
            if rook_rays(a) & bb != 0 {
                table[a][b] = Bitboard(rook_slide(a, bb) & rook_slide(b, 1 << a));
            } else if bishop_rays(a) & bb != 0 {
                table[a][b] = Bitboard(bishop_slide(a, bb) & bishop_slide(b, 1 << a));
            }
            b += 1;
        }
        a += 1;
    }
    table
};

/// `LINE[a][b]`: the whole line through two aligned squares (both included), else empty.
static LINE: [[Bitboard; 64]; 64] = {
    let mut table = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let (sa, sb) = (1u64 << a, 1u64 << b);
            if a != b && rook_rays(a) & sb != 0 {
                table[a][b] = Bitboard((rook_rays(a) & rook_rays(b)) | sa | sb);
            } else if a != b && bishop_rays(a) & sb != 0 {
                table[a][b] = Bitboard((bishop_rays(a) & bishop_rays(b)) | sa | sb);
            }
            b += 1;
        }
        a += 1;
    }
    table
};

#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}

#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// The squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

#[inline(always)]
pub fn queen_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attacks(sq, occ) | bishop_attacks(sq, occ)
}

/// Attacks of a non-pawn piece of kind `kind` on `sq`.
#[inline(always)]
pub fn piece_attacks(kind: PieceKind, sq: Square, occ: Bitboard) -> Bitboard {
    match kind {
        PieceKind::Pawn => Bitboard::EMPTY,
        PieceKind::Knight => knight_attacks(sq),
        PieceKind::Bishop => bishop_attacks(sq, occ),
        PieceKind::Rook => rook_attacks(sq, occ),
        PieceKind::Queen => queen_attacks(sq, occ),
        PieceKind::King => king_attacks(sq),
    }
}

#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE[a.index()][b.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn leapers() {
        assert_eq!(knight_attacks(sq("a1")).count(), 2);
        assert_eq!(knight_attacks(sq("d4")).count(), 8);
        assert_eq!(king_attacks(sq("h8")).count(), 3);
        assert_eq!(
            pawn_attacks(Color::White, sq("a2")),
            Bitboard::from(sq("b3"))
        );
        assert_eq!(pawn_attacks(Color::Black, sq("e5")).count(), 2);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(
            between(sq("a1"), sq("d4")),
            Bitboard::from(sq("b2")) | sq("c3")
        );
        assert_eq!(
            between(sq("e1"), sq("h1")),
            Bitboard::from(sq("f1")) | sq("g1")
        );
        assert_eq!(between(sq("a1"), sq("b3")), Bitboard::EMPTY);
        assert_eq!(between(sq("a1"), sq("b2")), Bitboard::EMPTY);
        assert_eq!(line(sq("c3"), sq("e5")).count(), 8);
        assert!(line(sq("c3"), sq("e5")).contains(sq("a1")));
        assert_eq!(line(sq("a1"), sq("b3")), Bitboard::EMPTY);
        assert_eq!(line(sq("b1"), sq("b7")), Bitboard::file(crate::File::B));
    }
}
