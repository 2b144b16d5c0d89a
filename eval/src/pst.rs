//! Piece-square values built from a few shape functions (centralisation,
//! advancement, king shelter) rather than typed-in tables: each piece's
//! table is a handful of weights that the tuner can later replace.

use crate::Tapered;
use movegen::{Color, PieceKind, Square};

/// Phase weights of knight, bishop, rook and queen (pawns and kings count 0).
pub const PHASE_WEIGHTS: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const TOTAL_PHASE: i32 = 24;

/// 0 on the rim .. 3 in the four centre squares, by the Chebyshev ring.
const fn centrality(sq: usize) -> i32 {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    let df = if f < 4 { f } else { 7 - f };
    let dr = if r < 4 { r } else { 7 - r };
    if df < dr {
        df
    } else {
        dr
    }
}

/// Tables from White's side, a1 = 0.
static TABLES: [[Tapered; 64]; 6] = {
    let mut t = [[Tapered::new(0, 0); 64]; 6];
    let mut sq = 0;
    while sq < 64 {
        let c = centrality(sq);
        let rank = (sq / 8) as i32;
        let file = (sq % 8) as i32;
        let central_file = if file >= 2 && file <= 5 { 1 } else { 0 };
        // Pawns: advance, central pawns more so in the middlegame.
        if rank >= 1 && rank <= 6 {
            t[0][sq] = Tapered::new(
                (rank - 1) * 4 + central_file * (rank - 1) * 5,
                (rank - 1) * (rank - 1) * 4,
            );
        }
        t[1][sq] = Tapered::new(c * 12 - 18, c * 8 - 12);
        t[2][sq] = Tapered::new(c * 6 - 6, c * 5 - 8);
        // Rooks: the seventh rank, otherwise close to neutral.
        t[3][sq] = Tapered::new(
            if rank == 6 { 20 } else { 0 },
            if rank == 6 { 12 } else { 0 },
        );
        t[4][sq] = Tapered::new(c * 3 - 4, c * 8 - 10);
        // King: stay home behind the pawns in the middlegame, come to the
        // centre in the endgame.
        let home = if rank == 0 { 10 } else { -12 * rank };
        t[5][sq] = Tapered::new(home - central_file * 8, c * 14 - 20);
        sq += 1;
    }
    t
};

/// The placement value of a `color` piece of `kind` on `sq`.
#[inline(always)]
pub fn piece_square(kind: PieceKind, color: Color, sq: Square) -> Tapered {
    let sq = match color {
        Color::White => sq,
        Color::Black => sq.flip_rank(),
    };
    TABLES[kind.index()][sq.index()]
}
