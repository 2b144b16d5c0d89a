//! Endgame knowledge outside the weighted sum: material that cannot win
//! (scored 0), a lone king against mating material (driven to the edge),
//! and the scale factor that shrinks the endgame score of drawish material.

use chess::{Bitboard, Board, Color, PieceKind, Square};

/// The scale factor's unit: an endgame score is multiplied by `scale / SCALE_NORMAL`.
pub const SCALE_NORMAL: i32 = 128;

/// The base score of a won ending against a lone king, kept far from mate scores.
pub const KNOWN_WIN: i32 = 10_000;

/// Bishop and knight against a lone king: the score of each step of the
/// lone king towards a corner of the bishop's colour, and of each step
/// away from the centre. `tests/python/kbnk_mate.py` at 100,000 nodes a
/// move (20 random positions a seed against the tablebases' defence):
/// with 20 and 0 the engine mated in 54 of 60 (seeds 20261201, 5, 6);
/// with these in 138 of 140 (seeds 20261201 and 5 to 10).
const KBN_CORNER_STEP: i32 = 100;
const KBN_EDGE_STEP: i32 = 30;

/// Material counts of one side.
#[derive(Clone, Copy, Default, Debug)]
pub(crate) struct Material {
    pub pawns: i32,
    pub knights: i32,
    pub bishops: i32,
    pub rooks: i32,
    pub queens: i32,
}

impl Material {
    pub fn of(board: &Board, color: Color) -> Material {
        let n = |k| board.pieces_of(color, k).count() as i32;
        Material {
            pawns: n(PieceKind::Pawn),
            knights: n(PieceKind::Knight),
            bishops: n(PieceKind::Bishop),
            rooks: n(PieceKind::Rook),
            queens: n(PieceKind::Queen),
        }
    }

    /// Non-pawn material in pawn units (minor 3, rook 5, queen 9).
    pub fn npm(&self) -> i32 {
        3 * (self.knights + self.bishops) + 5 * self.rooks + 9 * self.queens
    }

    pub fn minors(&self) -> i32 {
        self.knights + self.bishops
    }

    pub fn pieces(&self) -> i32 {
        self.minors() + self.rooks + self.queens
    }

    pub fn is_bare(&self) -> bool {
        self.pawns == 0 && self.pieces() == 0
    }
}

/// Why an evaluation is not the weighted sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    /// Neither side can win with this material: 0.
    Draw,
    /// A lone king against mating material, driven to the edge.
    Mating,
}

/// A known result from White's side, or `None` when the weighted sum applies.
pub(crate) fn special(board: &Board, m: &[Material; 2]) -> Option<(Special, i32)> {
    if m[0].pawns + m[1].pawns > 0 {
        return None;
    }
    if board.is_insufficient_material() {
        return Some((Special::Draw, 0));
    }
    // At most one minor piece each: no side can force mate.
    if m.iter().all(|s| s.rooks + s.queens == 0 && s.minors() <= 1) {
        return Some((Special::Draw, 0));
    }
    for strong in 0..2 {
        let weak = strong ^ 1;
        if !m[weak].is_bare() {
            continue;
        }
        let s = &m[strong];
        // Two knights cannot force mate.
        if s.rooks + s.queens + s.bishops == 0 && s.knights <= 2 {
            return Some((Special::Draw, 0));
        }
        let wk = board.king_square(Color::BOTH[weak]);
        let sk = board.king_square(Color::BOTH[strong]);
        let mut v = KNOWN_WIN + 100 * s.npm();
        if s.rooks + s.queens == 0 && s.bishops == 1 && s.knights == 1 {
            // Mate with bishop and knight: drive the king to a corner of the
            // bishop's colour.
            let bishops = board.pieces(PieceKind::Bishop);
            let corners = if (bishops & Bitboard::LIGHT_SQUARES).is_nonempty() {
                [Square::H1, Square::A8]
            } else {
                [Square::A1, Square::H8]
            };
            // Manhattan distance, not Chebyshev: along the edge it keeps
            // falling with every step towards the corner, where Chebyshev
            // is flat and the mate wanders past the fifty-move rule.
            let d = wk
                .manhattan_distance(corners[0])
                .min(wk.manhattan_distance(corners[1]));
            // The corner distance alone is the same on the wrong corner as
            // in the centre (the whole long diagonal of the other colour
            // is 7 from both right corners), which leaves the search no
            // reason to drive a king out of the centre. The edge term
            // gives it one; the corner term, the stronger, then pulls the
            // king along the edge.
            v += KBN_CORNER_STEP * (14 - d) + KBN_EDGE_STEP * centre_distance(wk);
        } else {
            v += 20 * centre_distance(wk);
        }
        v += 10 * (7 - wk.distance(sk));
        let sign = if strong == 0 { 1 } else { -1 };
        return Some((Special::Mating, sign * v));
    }
    None
}

/// The known value of a pawnless `board` from White's side, as `special`
/// gives it: drawn material, or a lone king against mating material. A
/// network evaluates these too, but has not learned to drive the king
/// towards the corner that mates (bishop and knight above all), and the
/// rule costs nothing while pawns remain.
pub(crate) fn known_ending(board: &Board) -> Option<i32> {
    if board.pieces(PieceKind::Pawn).is_nonempty() {
        return None;
    }
    let m = [
        Material::of(board, Color::White),
        Material::of(board, Color::Black),
    ];
    special(board, &m).map(|(_, white)| white)
}

/// 0 in the four centre squares .. 6 in the corners.
fn centre_distance(sq: Square) -> i32 {
    let f = sq.file().index() as i32;
    let r = sq.rank().index() as i32;
    (3 - f).max(f - 4) + (3 - r).max(r - 4)
}

/// The endgame scale factor (out of `SCALE_NORMAL`) for the side that the
/// endgame score favours.
pub(crate) fn scale_factor(board: &Board, m: &[Material; 2], eg: i32, passed: Bitboard) -> i32 {
    let strong = if eg > 0 { 0 } else { 1 };
    let weak = strong ^ 1;
    let (s, w) = (&m[strong], &m[weak]);
    if s.pawns == 0 && s.npm() - w.npm() <= 3 {
        return if s.npm() < 5 {
            0
        } else if w.npm() <= 3 {
            8
        } else {
            28
        };
    }
    if s.bishops == 1 && w.bishops == 1 {
        let bishops = board.pieces(PieceKind::Bishop);
        if (bishops & Bitboard::LIGHT_SQUARES).is_nonempty()
            && (bishops & Bitboard::DARK_SQUARES).is_nonempty()
        {
            // Opposite-coloured bishops.
            if s.pieces() == 1 && w.pieces() == 1 {
                let strong_passed = passed & board.pieces_of(Color::BOTH[strong], PieceKind::Pawn);
                return (36 + 8 * strong_passed.count() as i32).min(SCALE_NORMAL);
            }
            return (44 + 6 * s.pieces()).min(SCALE_NORMAL);
        }
    }
    (72 + 14 * s.pawns).min(SCALE_NORMAL)
}
