//! Castling rights, kept per side and per rook file so that Chess960 and
//! Double Fischer Random (where the two back ranks differ) need no special case.

use crate::{Bitboard, Color, File, Rank, Square};

/// Which way a castling goes: towards the h-file (`King`, written `O-O`) or
/// the a-file (`Queen`, written `O-O-O`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CastleSide {
    King = 0,
    Queen = 1,
}

impl CastleSide {
    pub const BOTH: [CastleSide; 2] = [CastleSide::King, CastleSide::Queen];

    /// Where the king and the rook stand after castling on this side.
    pub const fn destinations(self, color: Color) -> (Square, Square) {
        let rank = Rank::R1.relative(color);
        match self {
            CastleSide::King => (Square::new(File::G, rank), Square::new(File::F, rank)),
            CastleSide::Queen => (Square::new(File::C, rank), Square::new(File::D, rank)),
        }
    }
}

/// For each colour and side, the file of the rook that may still castle.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct CastlingRights {
    rooks: [[Option<File>; 2]; 2],
    /// The squares of those rooks, so that a move can tell at once whether
    /// it touches one.
    squares: Bitboard,
}

impl CastlingRights {
    pub const NONE: CastlingRights = CastlingRights {
        rooks: [[None; 2]; 2],
        squares: Bitboard::EMPTY,
    };

    #[inline(always)]
    pub fn rook_file(&self, color: Color, side: CastleSide) -> Option<File> {
        self.rooks[color.index()][side as usize]
    }

    /// The square of the castling rook, on `color`'s back rank.
    #[inline(always)]
    pub fn rook_square(&self, color: Color, side: CastleSide) -> Option<Square> {
        self.rook_file(color, side)
            .map(|f| Square::new(f, Rank::R1.relative(color)))
    }

    pub fn set(&mut self, color: Color, side: CastleSide, file: Option<File>) {
        self.rooks[color.index()][side as usize] = file;
        self.squares = self
            .iter()
            .fold(Bitboard::EMPTY, |squares, (_, _, sq)| squares | sq);
    }

    pub fn is_empty(&self) -> bool {
        self.squares.is_empty()
    }

    /// The squares of all castling rooks.
    #[inline(always)]
    pub fn rook_squares(&self) -> Bitboard {
        self.squares
    }

    pub fn has_any(&self, color: Color) -> bool {
        self.rooks[color.index()] != [None, None]
    }

    /// Every right as (colour, side, rook square).
    pub fn iter(&self) -> impl Iterator<Item = (Color, CastleSide, Square)> + '_ {
        Color::BOTH.into_iter().flat_map(move |c| {
            CastleSide::BOTH
                .into_iter()
                .filter_map(move |s| self.rook_square(c, s).map(|sq| (c, s, sq)))
        })
    }

    /// Drops the rights whose rook stands on `sq` (it moved or was captured).
    pub fn remove_rook_square(&mut self, sq: Square) {
        self.remove_rook_squares(sq.into());
    }

    /// Drops the rights whose rooks stand on any of `squares`.
    #[inline]
    pub(crate) fn remove_rook_squares(&mut self, squares: Bitboard) {
        for sq in self.squares & squares {
            self.remove_one(sq);
        }
    }

    fn remove_one(&mut self, sq: Square) {
        for color in Color::BOTH {
            if sq.rank() != Rank::R1.relative(color) {
                continue;
            }
            for side in CastleSide::BOTH {
                if self.rook_file(color, side) == Some(sq.file()) {
                    self.set(color, side, None);
                }
            }
        }
    }

    pub fn clear(&mut self, color: Color) {
        self.rooks[color.index()] = [None, None];
        // Each colour's rooks stand on its own back rank.
        self.squares &= !Bitboard::rank(Rank::R1.relative(color));
    }
}
