//! The 16-bit move and a fixed-capacity move list.

use crate::{File, PieceKind, Square};
use arrayvec::ArrayVec;
use std::fmt;

/// What a move does beyond carrying a piece from one square to another.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    Normal,
    /// A pawn reaching the last rank; the promotion piece is in the move.
    Promotion,
    EnPassant,
    /// Castling, encoded king-captures-rook: `from` is the king, `to` the rook.
    Castle,
}

/// A move in 16 bits: from (6), to (6), promotion piece (2), kind (2).
/// `Move::NONE` (a1a1) is never a legal move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

const PROMOTION_PIECES: [PieceKind; 4] = [
    PieceKind::Knight,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::Queen,
];

impl Move {
    pub const NONE: Move = Move(0);

    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6)
    }

    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, piece: PieceKind) -> Move {
        let code = match piece {
            PieceKind::Bishop => 1,
            PieceKind::Rook => 2,
            PieceKind::Queen => 3,
            _ => 0,
        };
        Move(Move::new(from, to).0 | code << 12 | 1 << 14)
    }

    #[inline(always)]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move(Move::new(from, to).0 | 2 << 14)
    }

    /// Castling: the king on `king` captures its own rook on `rook`.
    #[inline(always)]
    pub const fn castle(king: Square, rook: Square) -> Move {
        Move(Move::new(king, rook).0 | 3 << 14)
    }

    /// The raw 16 bits, for storage in the transposition table.
    #[inline(always)]
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    /// A move from raw bits. Any 16-bit value decodes to some move; whether it
    /// is legal in a position is for `Board::is_legal` to say.
    #[inline(always)]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_masked(self.0 as u32)
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_masked((self.0 >> 6) as u32)
    }

    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 14 {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castle,
        }
    }

    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.0 >> 14 == 3
    }

    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 >> 14 == 1
    }

    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.0 >> 14 == 2
    }

    pub const fn promotion_piece(self) -> Option<PieceKind> {
        if self.is_promotion() {
            Some(PROMOTION_PIECES[((self.0 >> 12) & 3) as usize])
        } else {
            None
        }
    }

    /// For a castling move: where the king and the rook end up (g/f or c/d on
    /// the king's rank).
    pub fn castle_destinations(self) -> (Square, Square) {
        let rank = self.from().rank();
        if self.to().file() > self.from().file() {
            (Square::new(File::G, rank), Square::new(File::F, rank))
        } else {
            (Square::new(File::C, rank), Square::new(File::D, rank))
        }
    }

    /// The move in UCI notation. Castling is written king-captures-rook
    /// (`e1h1`) in Chess960 mode and as the king's two-square step (`e1g1`)
    /// otherwise.
    pub fn to_uci(self, chess960: bool) -> String {
        if self.is_none() {
            return "0000".to_string();
        }
        let to = if self.is_castle() && !chess960 {
            self.castle_destinations().0
        } else {
            self.to()
        };
        let mut s = format!("{}{}", self.from(), to);
        if let Some(p) = self.promotion_piece() {
            s.push(p.letter());
        }
        s
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_uci(true))?;
        match self.kind() {
            MoveKind::Castle => write!(f, "(O)"),
            MoveKind::EnPassant => write!(f, "(ep)"),
            _ => Ok(()),
        }
    }
}

/// Room for the most moves of any legal position (218), and of the
/// impossible 270-move test position too.
pub const MAX_MOVES: usize = 320;

/// A stack-allocated list of moves.
#[derive(Clone)]
pub struct MoveList {
    moves: ArrayVec<Move, MAX_MOVES>,
}

impl MoveList {
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: ArrayVec::new(),
        }
    }

    /// Empties the list for reuse, without rewriting its storage.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.moves.clear();
    }

    /// Appends `m`; a full list (more moves than any position has) drops it.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        debug_assert!(!self.moves.is_full());
        let _ = self.moves.try_push(m);
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }

    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn fields_round_trip() {
        let m = Move::promotion(sq("b7"), sq("a8"), PieceKind::Rook);
        assert_eq!(m.from(), sq("b7"));
        assert_eq!(m.to(), sq("a8"));
        assert_eq!(m.promotion_piece(), Some(PieceKind::Rook));
        assert_eq!(m.to_uci(false), "b7a8r");
        assert_eq!(Move::from_bits(m.to_bits()), m);
        assert_eq!(
            Move::en_passant(sq("e5"), sq("d6")).kind(),
            MoveKind::EnPassant
        );
    }

    #[test]
    fn castling_notation_depends_on_mode() {
        let m = Move::castle(sq("e1"), sq("h1"));
        assert_eq!(m.to_uci(true), "e1h1");
        assert_eq!(m.to_uci(false), "e1g1");
        let m = Move::castle(sq("b8"), sq("a8"));
        assert_eq!(m.to_uci(true), "b8a8");
        assert_eq!(m.to_uci(false), "b8c8");
        assert_eq!(m.castle_destinations(), (sq("c8"), sq("d8")));
    }

    #[test]
    fn a_cleared_list_holds_only_what_comes_after() {
        let mut list = MoveList::new();
        list.push(Move::new(sq("e2"), sq("e4")));
        list.push(Move::new(sq("d2"), sq("d4")));
        list.clear();
        assert!(list.is_empty());
        let m = Move::new(sq("g1"), sq("f3"));
        list.push(m);
        assert_eq!(list.as_slice(), &[m]);
    }
}
