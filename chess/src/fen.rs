//! Reading and writing FEN: standard, X-FEN and Shredder-FEN castling fields.

use crate::{Board, CastleSide, CastlingRights, Color, File, Piece, PieceKind, Rank, Square};
use std::fmt;

pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Appends FEN's first field, the piece placement, for the pieces that
/// `piece_on` gives. Besides `Board::to_fen`, the packed training records
/// write their pieces this way to have them checked as any FEN is.
pub fn write_placement(fen: &mut String, piece_on: impl Fn(Square) -> Option<Piece>) {
    for rank in Rank::ALL.into_iter().rev() {
        let mut empty = 0u8;
        for file in File::ALL {
            match piece_on(Square::new(file, rank)) {
                Some(piece) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(piece.to_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank != Rank::R1 {
            fen.push('/');
        }
    }
}

/// How the castling field is written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CastlingNotation {
    /// `KQkq` for the outermost rooks, a file letter for an inner rook.
    XFen,
    /// Always the rook's file letter: `HAha`.
    Shredder,
}

/// Why a FEN was refused. Each variant names the field at fault.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FenError {
    /// Fewer than 4 or more than 6 space-separated fields.
    FieldCount(usize),
    /// The placement field does not have 8 ranks.
    RankCount(usize),
    /// A rank of the placement field does not describe exactly 8 squares.
    RankLength { rank: Rank, squares: usize },
    /// A character in the placement field that is neither a piece nor a digit 1-8.
    PieceLetter(char),
    /// A side has no king or more than one.
    KingCount { color: Color, count: u32 },
    /// A pawn on the first or eighth rank.
    PawnOnBackRank(Square),
    /// The side-to-move field is not `w` or `b`.
    SideToMove(String),
    /// A character in the castling field that is not `KQkq`, `A-H`, `a-h` or `-`.
    CastlingLetter(char),
    /// The en-passant field is not `-` or a square on the right rank.
    EnPassant(String),
    /// The halfmove clock is not a number up to 65535.
    HalfmoveClock(String),
    /// The fullmove number is not a number from 1 to 65535.
    FullmoveNumber(String),
    /// The side that has just moved is in check.
    OpponentInCheck,
    /// The side to move is in check from more than two pieces.
    TooManyCheckers(u32),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::FieldCount(n) => write!(f, "FEN has {n} fields, expected 4 to 6 (placement, side, castling, en passant, halfmove clock, fullmove number)"),
            FenError::RankCount(n) => write!(f, "placement field has {n} ranks, expected 8"),
            FenError::RankLength { rank, squares } => write!(f, "placement field: rank {} describes {squares} squares, expected 8", rank.to_char()),
            FenError::PieceLetter(c) => write!(f, "placement field: '{c}' is not a piece letter (PNBRQK, pnbrqk) or a digit 1-8"),
            FenError::KingCount { color, count } => write!(f, "placement field: {color:?} has {count} kings, expected exactly 1"),
            FenError::PawnOnBackRank(sq) => write!(f, "placement field: pawn on {sq}, pawns cannot stand on the first or eighth rank"),
            FenError::SideToMove(s) => write!(f, "side to move field is '{s}', expected 'w' or 'b'"),
            FenError::CastlingLetter(c) => write!(f, "castling field: '{c}' is not one of KQkq, A-H, a-h or '-'"),
            FenError::EnPassant(s) => write!(f, "en passant field is '{s}', expected '-' or a square on the sixth rank of the side to move"),
            FenError::HalfmoveClock(s) => write!(f, "halfmove clock field is '{s}', expected a number 0-65535"),
            FenError::FullmoveNumber(s) => write!(f, "fullmove number field is '{s}', expected a number 1-65535"),
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
            FenError::TooManyCheckers(n) => write!(f, "the side to move is in check from {n} pieces"),
        }
    }
}

impl std::error::Error for FenError {}

/// A castling right in the FEN that was dropped because its king and rook are
/// not where it needs them; the rest of the position is read normally.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DroppedCastlingRight {
    pub letter: char,
    pub reason: &'static str,
}

impl fmt::Display for DroppedCastlingRight {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "castling right '{}' dropped: {}",
            self.letter, self.reason
        )
    }
}

impl Board {
    /// Reads a FEN (standard, X-FEN or Shredder-FEN). Castling rights that do
    /// not match a king and rook are dropped silently; see `from_fen_reporting`.
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        Board::from_fen_reporting(fen).map(|(board, _)| board)
    }

    /// Reads a FEN and also returns the castling rights that had to be dropped.
    pub fn from_fen_reporting(fen: &str) -> Result<(Board, Vec<DroppedCastlingRight>), FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut board = Board::empty();
        parse_placement(&mut board, fields[0])?;

        let side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::SideToMove(other.to_string())),
        };
        board.set_side(side);

        let (rights, dropped) = parse_castling(&board, fields[2])?;
        board.set_castling(rights);

        let ep = match fields[3] {
            "-" => None,
            s => match Square::parse(s) {
                Some(sq) if sq.rank() == Rank::R6.relative(side) => Some(sq),
                _ => return Err(FenError::EnPassant(s.to_string())),
            },
        };

        let halfmove = match fields.get(4) {
            None => 0,
            Some(s) => s
                .parse::<u16>()
                .map_err(|_| FenError::HalfmoveClock(s.to_string()))?,
        };
        let fullmove = match fields.get(5) {
            None => 1,
            Some(s) => match s.parse::<u16>() {
                Ok(n) if n >= 1 => n,
                _ => return Err(FenError::FullmoveNumber(s.to_string())),
            },
        };
        board.set_counters(halfmove, fullmove);

        if board.is_attacked_by(board.king_square(!side), side, board.occupied()) {
            return Err(FenError::OpponentInCheck);
        }
        board.finish(ep);
        let checkers = board.checkers().count();
        if checkers > 2 {
            return Err(FenError::TooManyCheckers(checkers));
        }
        Ok((board, dropped))
    }

    /// Writes the position as FEN with the chosen castling notation.
    pub fn to_fen(&self, notation: CastlingNotation) -> String {
        let mut fen = String::with_capacity(90);
        write_placement(&mut fen, |sq| self.piece_on(sq));
        fen.push(' ');
        fen.push(if self.side_to_move() == Color::White {
            'w'
        } else {
            'b'
        });
        fen.push(' ');
        fen.push_str(&self.castling_field(notation));
        fen.push(' ');
        match self.en_passant() {
            Some(sq) => fen.push_str(&sq.to_string()),
            None => fen.push('-'),
        }
        fen.push_str(&format!(
            " {} {}",
            self.halfmove_clock(),
            self.fullmove_number()
        ));
        fen
    }

    fn castling_field(&self, notation: CastlingNotation) -> String {
        let mut field = String::new();
        for color in Color::BOTH {
            for side in CastleSide::BOTH {
                let Some(rook) = self.castling_rights().rook_square(color, side) else {
                    continue;
                };
                let letter = match notation {
                    CastlingNotation::XFen if self.is_outermost_rook(color, side, rook) => {
                        if side == CastleSide::King {
                            'k'
                        } else {
                            'q'
                        }
                    }
                    _ => rook.file().to_char(),
                };
                field.push(if color == Color::White {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                });
            }
        }
        if field.is_empty() {
            field.push('-');
        }
        field
    }

    /// Whether no other rook of `color` stands on the back rank further out
    /// than `rook` on `side` of the king (then X-FEN may write `K` or `Q`).
    fn is_outermost_rook(&self, color: Color, side: CastleSide, rook: Square) -> bool {
        outermost_rook(self, color, side) == Some(rook)
    }
}

fn parse_placement(board: &mut Board, field: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = Rank::new(7 - i as u8).unwrap_or(Rank::R1);
        let mut file = 0usize;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return Err(FenError::PieceLetter(c));
                }
                file += d as usize;
            } else {
                let piece = Piece::from_char(c).ok_or(FenError::PieceLetter(c))?;
                if file < 8 {
                    let sq = Square::new(File::new(file as u8).unwrap_or(File::A), rank);
                    if piece.kind() == PieceKind::Pawn && (rank == Rank::R1 || rank == Rank::R8) {
                        return Err(FenError::PawnOnBackRank(sq));
                    }
                    board.place(piece, sq);
                }
                file += 1;
            }
        }
        if file != 8 {
            return Err(FenError::RankLength {
                rank,
                squares: file,
            });
        }
    }
    for color in Color::BOTH {
        let count = board.pieces_of(color, PieceKind::King).count();
        if count != 1 {
            return Err(FenError::KingCount { color, count });
        }
    }
    Ok(())
}

/// The rook of `color` furthest out on `side` of its king on the back rank.
fn outermost_rook(board: &Board, color: Color, side: CastleSide) -> Option<Square> {
    let king = board.king_square(color);
    let back = Rank::R1.relative(color);
    if king.rank() != back {
        return None;
    }
    let rooks = board.pieces_of(color, PieceKind::Rook) & crate::Bitboard::rank(back);
    let mut candidates = rooks.filter(|r| match side {
        CastleSide::King => r.file() > king.file(),
        CastleSide::Queen => r.file() < king.file(),
    });
    match side {
        CastleSide::King => candidates.last(),
        CastleSide::Queen => candidates.next(),
    }
}

fn parse_castling(
    board: &Board,
    field: &str,
) -> Result<(CastlingRights, Vec<DroppedCastlingRight>), FenError> {
    let mut rights = CastlingRights::NONE;
    let mut dropped = Vec::new();
    if field == "-" {
        return Ok((rights, dropped));
    }
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let back = Rank::R1.relative(color);
        let king = board.king_square(color);
        let mut drop = |reason| dropped.push(DroppedCastlingRight { letter: c, reason });
        let (side, rook) = match c.to_ascii_lowercase() {
            'k' | 'q' => {
                let side = if c.eq_ignore_ascii_case(&'k') {
                    CastleSide::King
                } else {
                    CastleSide::Queen
                };
                match outermost_rook(board, color, side) {
                    Some(rook) => (side, rook),
                    None => {
                        drop("no king on the back rank with a rook on that side");
                        continue;
                    }
                }
            }
            'a'..='h' => {
                let file = File::from_char(c.to_ascii_lowercase()).unwrap_or(File::A);
                let rook = Square::new(file, back);
                if king.rank() != back {
                    drop("the king is not on its back rank");
                    continue;
                }
                if board.piece_on(rook) != Some(Piece::new(color, PieceKind::Rook)) {
                    drop("no rook of that colour on that file of the back rank");
                    continue;
                }
                let side = if file > king.file() {
                    CastleSide::King
                } else {
                    CastleSide::Queen
                };
                (side, rook)
            }
            _ => return Err(FenError::CastlingLetter(c)),
        };
        match rights.rook_file(color, side) {
            Some(f) if f == rook.file() => {}
            Some(_) => drop("that side already has a castling rook"),
            None => rights.set(color, side, Some(rook.file())),
        }
    }
    Ok((rights, dropped))
}
