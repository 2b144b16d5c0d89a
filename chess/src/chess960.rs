//! Chess960 start positions by their Scharnagl number (0..959, 518 being the
//! classical array), and Double Fischer Random pairs of them.

use crate::{Board, CastleSide, Color, File, PieceKind, Rank, Square};
use std::fmt;

/// A number outside 0..959.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BadStartNumber(pub u32);

impl fmt::Display for BadStartNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Chess960 start number {} is out of range 0..959", self.0)
    }
}

impl std::error::Error for BadStartNumber {}

/// Where the two knights go among the five squares left after the bishops
/// and the queen, in Scharnagl's order.
const KNIGHT_PAIRS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// The back rank (a-file first) of Chess960 position `n`.
pub fn back_rank(n: u32) -> Result<[PieceKind; 8], BadStartNumber> {
    if n >= 960 {
        return Err(BadStartNumber(n));
    }
    let mut rank: [Option<PieceKind>; 8] = [None; 8];
    let mut rest = n;
    // Light-squared bishop on b, d, f or h; dark-squared on a, c, e or g.
    rank[(rest % 4 * 2 + 1) as usize] = Some(PieceKind::Bishop);
    rest /= 4;
    rank[(rest % 4 * 2) as usize] = Some(PieceKind::Bishop);
    rest /= 4;
    let free = |rank: &[Option<PieceKind>; 8]| -> Vec<usize> {
        (0..8).filter(|&i| rank[i].is_none()).collect()
    };
    let queen = free(&rank)[(rest % 6) as usize];
    rank[queen] = Some(PieceKind::Queen);
    rest /= 6;
    let (a, b) = KNIGHT_PAIRS[rest as usize];
    let empty = free(&rank);
    rank[empty[a]] = Some(PieceKind::Knight);
    rank[empty[b]] = Some(PieceKind::Knight);
    // Rook, king, rook on what is left, in that order.
    for (i, kind) in
        free(&rank)
            .into_iter()
            .zip([PieceKind::Rook, PieceKind::King, PieceKind::Rook])
    {
        rank[i] = Some(kind);
    }
    Ok(rank.map(|p| p.unwrap_or(PieceKind::Pawn)))
}

/// The Scharnagl number of a back rank, if it is a Chess960 arrangement.
pub fn number_of(rank: &[PieceKind; 8]) -> Option<u32> {
    (0..960).find(|&n| back_rank(n).as_ref() == Ok(rank))
}

/// Chess960 start position `n`.
pub fn start_position(n: u32) -> Result<Board, BadStartNumber> {
    double_start_position(n, n)
}

/// Double Fischer Random: White's back rank from `white`, Black's from `black`.
pub fn double_start_position(white: u32, black: u32) -> Result<Board, BadStartNumber> {
    let w = back_rank(white)?;
    let b = back_rank(black)?;
    let row = |rank: &[PieceKind; 8], color: Color| -> String {
        rank.iter()
            .map(|k| {
                let c = k.letter();
                if color == Color::White {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            })
            .collect()
    };
    let rook_letters = |rank: &[PieceKind; 8]| -> String {
        let mut files: Vec<char> = (0..8u8)
            .filter(|&i| rank[i as usize] == PieceKind::Rook)
            .map(|i| (b'a' + i) as char)
            .collect();
        files.reverse();
        files.into_iter().collect()
    };
    let castling = format!(
        "{}{}",
        rook_letters(&w).to_ascii_uppercase(),
        rook_letters(&b)
    );
    let fen = format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{} w {castling} - 0 1",
        row(&b, Color::Black),
        row(&w, Color::White)
    );
    Ok(Board::from_fen(&fen).expect("a Chess960 start FEN is valid"))
}

impl Board {
    /// The Scharnagl number of this position if it is a Chess960 start
    /// position (both back ranks the same arrangement, all pawns at home, all
    /// castling rights, White to move).
    pub fn chess960_number(&self) -> Option<u32> {
        let (white, black) = self.double_chess960_numbers()?;
        (white == black).then_some(white)
    }

    /// The pair of numbers of a Double Fischer Random start position.
    pub fn double_chess960_numbers(&self) -> Option<(u32, u32)> {
        let white = double_start_position_rank(self, Color::White)?;
        let black = double_start_position_rank(self, Color::Black)?;
        let n = (number_of(&white)?, number_of(&black)?);
        let start = double_start_position(n.0, n.1).ok()?;
        (start.key() == self.key() && start.side_to_move() == self.side_to_move()).then_some(n)
    }
}

fn double_start_position_rank(board: &Board, color: Color) -> Option<[PieceKind; 8]> {
    let back = Rank::R1.relative(color);
    let mut rank = [PieceKind::Pawn; 8];
    for (i, slot) in rank.iter_mut().enumerate() {
        let sq = Square::new(File::new(i as u8)?, back);
        let piece = board.piece_on(sq)?;
        if piece.color() != color {
            return None;
        }
        *slot = piece.kind();
    }
    let rights = board.castling_rights();
    CastleSide::BOTH
        .into_iter()
        .all(|s| rights.rook_file(color, s).is_some())
        .then_some(rank)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CastlingNotation;

    #[test]
    fn number_518_is_the_classical_array() {
        let board = start_position(518).unwrap();
        assert_eq!(board.to_fen(CastlingNotation::XFen), crate::fen::STARTPOS);
        assert_eq!(board.chess960_number(), Some(518));
    }

    #[test]
    fn every_number_round_trips() {
        for n in 0..960 {
            let board = start_position(n).unwrap();
            assert_eq!(board.chess960_number(), Some(n));
        }
        assert_eq!(start_position(960), Err(BadStartNumber(960)));
    }

    #[test]
    fn dfrc_pair_round_trips() {
        let board = double_start_position(0, 959).unwrap();
        assert_eq!(board.double_chess960_numbers(), Some((0, 959)));
        assert_eq!(board.chess960_number(), None);
    }
}
