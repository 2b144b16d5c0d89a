//! The training record: one searched position, the search's score for it and
//! the result of the game it came from. The self-play writer, the tuner, the
//! trainer and the converter all use this one type.
//!
//! **Score and result are both from the side to move's point of view**, in
//! both forms: a positive score means the side to move stands better, and a
//! result of 1.0 means the side to move went on to win.
//!
//! # Text form
//!
//! One line, as `hoeven selfplay --data` writes it:
//!
//! ```text
//! <X-FEN> | <score: integer centipawns> | <result: 1.0, 0.5 or 0.0>
//! ```
//!
//! # Binary form
//!
//! Exactly [`RECORD_BYTES`] = 32 bytes, multi-byte fields little-endian:
//!
//! | offset | bytes | field |
//! | ------ | ----- | ----- |
//! | 0      | 8     | occupancy: bit `n` set when square `n` (a1 = 0, b1 = 1, .., h8 = 63) holds a piece |
//! | 8      | 16    | the pieces in occupancy order (lowest square first), 4 bits each, the first in the low half of byte 8; unused halves are 0 |
//! | 24     | 1     | bit 7: side to move (0 White, 1 Black); bits 0-6: en-passant square, 64 for none |
//! | 25     | 2     | halfmove clock (u16) |
//! | 27     | 2     | fullmove number (u16) |
//! | 29     | 2     | score (i16), centipawns, side to move |
//! | 31     | 1     | result for the side to move: 0 loss, 1 draw, 2 win |
//!
//! A piece's 4-bit code is `colour * 8 + kind`, colour 0 White and 1 Black,
//! kind 0-5 chess's `PieceKind::index()` (pawn .. king), and kind 6 for a
//! rook that still has a castling right: which side it castles on follows
//! from where its king stands, so Chess960 and DFRC rights need no more room.
//! The en-passant square is set only when the side to move has a legal
//! en-passant capture, as in chess's `Board`.

use chess::{
    write_placement, Bitboard, Board, CastlingNotation, Color, FenError, Move, Piece, PieceKind,
    Rank, Square,
};
use std::fmt;
use std::str::FromStr;

/// The size of a record's binary form.
pub const RECORD_BYTES: usize = 32;

/// The 16 bytes of piece codes hold at most this many pieces.
const MAX_PIECES: u32 = 32;

const PIECES_AT: usize = 8;
const SIDE_EP_AT: usize = 24;
const HALFMOVE_AT: usize = 25;
const FULLMOVE_AT: usize = 27;
const SCORE_AT: usize = 29;
const RESULT_AT: usize = 31;

const BLACK_TO_MOVE: u8 = 0x80;
const NO_EN_PASSANT: u8 = 64;
const COLOR_CODE: u8 = 8;
const CASTLING_ROOK: u8 = 6;

/// Whether a searched position makes a training record: not in check, and
/// the best move `best` neither captures nor promotes, since the score of
/// such a position says little about it as it stands. The self-play data
/// and the PGN converter both keep positions by this rule.
pub fn is_training_position(board: &Board, best: Move) -> bool {
    // Castling is encoded as the king taking its own rook: not a capture.
    let captures =
        !best.is_castle() && (best.is_en_passant() || board.piece_on(best.to()).is_some());
    !board.in_check() && !captures && !best.is_promotion()
}

/// A game's result for one side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameResult {
    Loss,
    Draw,
    Win,
}

impl GameResult {
    /// 0, 0.5 or 1.
    pub fn points(self) -> f32 {
        match self {
            GameResult::Loss => 0.0,
            GameResult::Draw => 0.5,
            GameResult::Win => 1.0,
        }
    }

    /// The same game's result for the other side.
    pub fn flipped(self) -> GameResult {
        match self {
            GameResult::Loss => GameResult::Win,
            GameResult::Draw => GameResult::Draw,
            GameResult::Win => GameResult::Loss,
        }
    }

    /// Reads `1.0`, `0.5` or `0.0` (also `1`, `0`, `.5`: any number equal to them).
    fn from_text(text: &str) -> Option<GameResult> {
        match text.parse::<f32>().ok()? {
            0.0 => Some(GameResult::Loss),
            0.5 => Some(GameResult::Draw),
            1.0 => Some(GameResult::Win),
            _ => None,
        }
    }

    fn code(self) -> u8 {
        self as u8
    }

    fn from_code(code: u8) -> Option<GameResult> {
        match code {
            0 => Some(GameResult::Loss),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::Win),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.1}", self.points())
    }
}

/// Why a line or 32 bytes are not a record.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RecordError {
    /// A text line without exactly three `|`-separated fields.
    FieldCount(usize),
    /// The position is not a valid FEN (text), or the bytes do not describe a
    /// valid position (binary).
    Fen(FenError),
    /// The score is not an integer that fits 16 bits.
    Score(String),
    /// The result is not 1.0, 0.5 or 0.0.
    Result(String),
    /// More pieces than the binary form holds.
    TooManyPieces(u32),
    /// A binary record that is not 32 bytes long.
    Length(usize),
    /// A piece code that names no piece, or a castling rook off its back rank.
    PieceCode { square: Square, code: u8 },
    /// Piece codes after the last piece are not zero.
    UnusedPieceBits,
    /// A side does not have exactly one king.
    KingCount { color: Color, count: u32 },
    /// The side-and-en-passant byte holds a square number above 64.
    SideAndEnPassant(u8),
    /// The result byte is not 0, 1 or 2.
    ResultCode(u8),
    /// The castling rooks do not give rights the position can have (no king
    /// on the back rank, or two rooks on one side of it).
    Castling,
    /// An en-passant square with no legal en-passant capture.
    EnPassant(Square),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::FieldCount(n) => write!(
                f,
                "record has {n} fields, expected 3: <FEN> | <score> | <result>"
            ),
            RecordError::Fen(e) => write!(f, "record position: {e}"),
            RecordError::Score(s) => write!(
                f,
                "record score '{s}' is not an integer from -32768 to 32767"
            ),
            RecordError::Result(s) => write!(f, "record result '{s}' is not 1.0, 0.5 or 0.0"),
            RecordError::TooManyPieces(n) => write!(
                f,
                "position has {n} pieces, a record holds at most {MAX_PIECES}"
            ),
            RecordError::Length(n) => {
                write!(f, "binary record is {n} bytes, expected {RECORD_BYTES}")
            }
            RecordError::PieceCode { square, code } => {
                write!(f, "binary record: piece code {code} on {square} is invalid")
            }
            RecordError::UnusedPieceBits => {
                write!(
                    f,
                    "binary record: piece codes after the last piece are not 0"
                )
            }
            RecordError::KingCount { color, count } => write!(
                f,
                "binary record: {color:?} has {count} kings, expected exactly 1"
            ),
            RecordError::SideAndEnPassant(b) => write!(
                f,
                "binary record: side and en-passant byte {b:#04x} names no square"
            ),
            RecordError::ResultCode(c) => {
                write!(f, "binary record: result code {c}, expected 0, 1 or 2")
            }
            RecordError::Castling => write!(
                f,
                "binary record: castling rooks that no king can castle with"
            ),
            RecordError::EnPassant(sq) => write!(
                f,
                "binary record: en-passant square {sq} without a legal capture"
            ),
        }
    }
}

impl std::error::Error for RecordError {}

impl From<FenError> for RecordError {
    fn from(e: FenError) -> RecordError {
        RecordError::Fen(e)
    }
}

/// A position with its search score and game result, both for the side to
/// move (see the module documentation).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Record {
    board: Board,
    score: i16,
    result: GameResult,
}

impl Record {
    /// Fails only when the position has more pieces than the binary form holds.
    pub fn new(board: Board, score: i16, result: GameResult) -> Result<Record, RecordError> {
        let pieces = board.occupied().count();
        if pieces > MAX_PIECES {
            return Err(RecordError::TooManyPieces(pieces));
        }
        Ok(Record {
            board,
            score,
            result,
        })
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Centipawns, from the side to move's point of view.
    pub fn score(&self) -> i16 {
        self.score
    }

    /// The game's result for the side to move.
    pub fn result(&self) -> GameResult {
        self.result
    }

    /// The 32-byte binary form.
    pub fn pack(&self) -> PackedRecord {
        let board = &self.board;
        let occupied = board.occupied();
        let mut bytes = [0u8; RECORD_BYTES];
        bytes[..PIECES_AT].copy_from_slice(&occupied.0.to_le_bytes());
        let pieces = occupied.filter_map(|sq| board.piece_on(sq).map(|p| (sq, p)));
        for (i, (sq, piece)) in pieces.enumerate() {
            let kind = if piece.kind() == PieceKind::Rook && has_castling_right(board, piece, sq) {
                CASTLING_ROOK
            } else {
                piece.kind().index() as u8
            };
            let code = piece.color().index() as u8 * COLOR_CODE + kind;
            bytes[PIECES_AT + i / 2] |= code << (4 * (i % 2));
        }
        let side = match board.side_to_move() {
            Color::White => 0,
            Color::Black => BLACK_TO_MOVE,
        };
        let ep = board
            .en_passant()
            .map_or(NO_EN_PASSANT, |sq| sq.index() as u8);
        bytes[SIDE_EP_AT] = side | ep;
        bytes[HALFMOVE_AT..HALFMOVE_AT + 2].copy_from_slice(&board.halfmove_clock().to_le_bytes());
        bytes[FULLMOVE_AT..FULLMOVE_AT + 2].copy_from_slice(&board.fullmove_number().to_le_bytes());
        bytes[SCORE_AT..SCORE_AT + 2].copy_from_slice(&self.score.to_le_bytes());
        bytes[RESULT_AT] = self.result.code();
        PackedRecord(bytes)
    }
}

fn has_castling_right(board: &Board, piece: Piece, sq: Square) -> bool {
    board
        .castling_rights()
        .iter()
        .any(|(color, _, rook)| color == piece.color() && rook == sq)
}

impl FromStr for Record {
    type Err = RecordError;

    /// Reads the text form; the FEN may use any castling notation.
    fn from_str(line: &str) -> Result<Record, RecordError> {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [fen, score, result] = fields[..] else {
            return Err(RecordError::FieldCount(fields.len()));
        };
        let board = Board::from_fen(fen)?;
        let score = score
            .parse::<i16>()
            .map_err(|_| RecordError::Score(score.to_string()))?;
        let result =
            GameResult::from_text(result).ok_or_else(|| RecordError::Result(result.to_string()))?;
        Record::new(board, score, result)
    }
}

impl fmt::Display for Record {
    /// The text form, with an X-FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} | {} | {}",
            self.board.to_fen(CastlingNotation::XFen),
            self.score,
            self.result
        )
    }
}

/// A record's binary form, checked to be well formed: every piece code valid,
/// one king a side, castling rooks on their back rank. Readers that need only
/// the pieces, the score and the result (the trainer) use it as it is;
/// [`PackedRecord::unpack`] builds the full position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PackedRecord([u8; RECORD_BYTES]);

impl PackedRecord {
    /// Checks the structure of 32 bytes (the position's legality is checked
    /// by [`PackedRecord::unpack`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<PackedRecord, RecordError> {
        let bytes: [u8; RECORD_BYTES] = bytes
            .try_into()
            .map_err(|_| RecordError::Length(bytes.len()))?;
        let packed = PackedRecord(bytes);
        let count = packed.occupancy().count();
        if count > MAX_PIECES {
            return Err(RecordError::TooManyPieces(count));
        }
        let mut kings = [0; 2];
        for (i, sq) in packed.occupancy().enumerate() {
            let code = packed.code(i);
            let color = if code & COLOR_CODE == 0 {
                Color::White
            } else {
                Color::Black
            };
            let kind = code & !COLOR_CODE;
            let on_back_rank = sq.rank() == Rank::R1.relative(color);
            if kind > CASTLING_ROOK || (kind == CASTLING_ROOK && !on_back_rank) {
                return Err(RecordError::PieceCode { square: sq, code });
            }
            if kind == PieceKind::King.index() as u8 {
                kings[color.index()] += 1;
            }
        }
        if (count as usize..MAX_PIECES as usize).any(|i| packed.code(i) != 0) {
            return Err(RecordError::UnusedPieceBits);
        }
        for color in Color::BOTH {
            let count = kings[color.index()];
            if count != 1 {
                return Err(RecordError::KingCount { color, count });
            }
        }
        let side_ep = bytes[SIDE_EP_AT];
        if side_ep & !BLACK_TO_MOVE > NO_EN_PASSANT {
            return Err(RecordError::SideAndEnPassant(side_ep));
        }
        if GameResult::from_code(bytes[RESULT_AT]).is_none() {
            return Err(RecordError::ResultCode(bytes[RESULT_AT]));
        }
        Ok(packed)
    }

    pub fn as_bytes(&self) -> &[u8; RECORD_BYTES] {
        &self.0
    }

    pub fn occupancy(&self) -> Bitboard {
        let mut word = [0u8; 8];
        word.copy_from_slice(&self.0[..PIECES_AT]);
        Bitboard(u64::from_le_bytes(word))
    }

    /// The `i`-th 4-bit piece code.
    fn code(&self, i: usize) -> u8 {
        (self.0[PIECES_AT + i / 2] >> (4 * (i % 2))) & 0xF
    }

    /// Every piece with its square, lowest square first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupancy().enumerate().map(|(i, sq)| {
            let code = self.code(i);
            let color = if code & COLOR_CODE == 0 {
                Color::White
            } else {
                Color::Black
            };
            let kind = PieceKind::ALL
                .get(usize::from(code & !COLOR_CODE))
                .copied()
                .unwrap_or(PieceKind::Rook);
            (sq, Piece::new(color, kind))
        })
    }

    /// The rooks that still have a castling right.
    pub fn castling_rooks(&self) -> Bitboard {
        self.occupancy()
            .enumerate()
            .filter(|&(i, _)| self.code(i) & !COLOR_CODE == CASTLING_ROOK)
            .fold(Bitboard::EMPTY, |rooks, (_, sq)| rooks | sq)
    }

    pub fn side_to_move(&self) -> Color {
        if self.0[SIDE_EP_AT] & BLACK_TO_MOVE == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    fn en_passant(&self) -> Option<Square> {
        Square::from_index(self.0[SIDE_EP_AT] & !BLACK_TO_MOVE)
    }

    fn u16_at(&self, at: usize) -> u16 {
        u16::from_le_bytes([self.0[at], self.0[at + 1]])
    }

    /// Centipawns, from the side to move's point of view.
    pub fn score(&self) -> i16 {
        i16::from_le_bytes([self.0[SCORE_AT], self.0[SCORE_AT + 1]])
    }

    /// The game's result for the side to move.
    pub fn result(&self) -> GameResult {
        GameResult::from_code(self.0[RESULT_AT]).unwrap_or(GameResult::Draw)
    }

    /// The full record, its position checked for legality like a FEN.
    pub fn unpack(&self) -> Result<Record, RecordError> {
        let mut squares = [None; 64];
        let mut castling_rooks = Bitboard::EMPTY;
        for (i, (sq, piece)) in self.pieces().enumerate() {
            squares[sq.index()] = Some(piece);
            if self.code(i) & !COLOR_CODE == CASTLING_ROOK {
                castling_rooks |= sq;
            }
        }
        let mut fen = String::with_capacity(90);
        write_placement(&mut fen, |sq| squares[sq.index()]);
        let side = self.side_to_move();
        fen.push_str(if side == Color::White { " w " } else { " b " });
        for color in Color::BOTH {
            for sq in castling_rooks & Bitboard::rank(Rank::R1.relative(color)) {
                let letter = sq.file().to_char();
                fen.push(match color {
                    Color::White => letter.to_ascii_uppercase(),
                    Color::Black => letter,
                });
            }
        }
        if castling_rooks.is_empty() {
            fen.push('-');
        }
        let ep = self.en_passant();
        match ep {
            Some(sq) => fen.push_str(&format!(" {sq}")),
            None => fen.push_str(" -"),
        }
        fen.push_str(&format!(
            " {} {}",
            self.u16_at(HALFMOVE_AT),
            self.u16_at(FULLMOVE_AT)
        ));
        let (board, dropped) = Board::from_fen_reporting(&fen)?;
        if !dropped.is_empty() || board.castling_rights().rook_squares() != castling_rooks {
            return Err(RecordError::Castling);
        }
        if let Some(sq) = ep.filter(|&sq| board.en_passant() != Some(sq)) {
            return Err(RecordError::EnPassant(sq));
        }
        Record::new(board, self.score(), self.result())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions with every kind of castling right and en passant, then
    /// lines of `hoeven selfplay --data` output from the Chess960 and DFRC sets.
    const LINES: [&str; 16] = [
        "rkbrnqnb/pppppppp/8/8/8/8/PPPPPPPP/RKBRNQNB w KQkq - 0 1 | 12 | 0.5",
        "bbrknnqr/ppp1pp1p/3p2p1/8/4P3/1N1P4/PPP2PPP/BBRK1NQR b KQkq - 0 4 | -35 | 0.0",
        "1rk2nbr/p1pqpppp/1p1b4/3p4/3P1P2/1P4P1/P1P1P2P/NRKQBN1R w HBhb - 1 8 | 48 | 1.0",
        "qrbnkbrn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKRNB b FAgb - 0 1 | -7 | 0.5",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 | 0 | 0.5",
        "r1bqkbnr/ppp1pppp/2n5/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3 | 41 | 1.0",
        "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 40 | -120 | 0.0",
        "8/5k2/8/8/8/8/2K5/8 w - - 99 300 | 0 | 0.5",
        "1r1k2r1/8/8/8/8/8/8/R1RK4 b Ckq - 12 55 | 3 | 1.0",
        "rrkbbqnn/pppppppp/8/8/8/8/PPPPPPPP/RRKBBQNN w Bb - 0 1 | -32768 | 0.0",
        "1bnrbkqr/pp2pppp/2pp1Q2/3n4/8/5P2/PPPPP1PP/NBNRBRK1 w kq - 2 5 | 87 | 0.0",
        "bnnqrb1r/pp1pp1pp/2p2pk1/8/P2P4/2P5/NP2PPPP/BNQ1RBKR b KQ - 0 5 | -85 | 1.0",
        "rkbq1r1b/1pp1p1p1/p4n2/3p1p1p/PPnP4/3N1PPN/2P1P2P/RKBQ1R1B w KQkq - 0 8 | 44 | 0.0",
        "2n1rkbr/p2Qbp2/6p1/4p2p/8/3P2P1/1qPBPPNP/1B3RKR b KQkq - 0 11 | -88 | 0.0",
        "8/3p4/R5p1/5p1p/4k2P/2K1P1P1/5P2/5r2 w - - 3 61 | -86 | 0.5",
        "rqk1rbbn/pppppppp/3n4/4N3/1P6/8/P1PPPPPP/R1QKRBBN w KQ - 3 5 | -51 | 1.0",
    ];

    #[test]
    fn text_binary_text_round_trips() {
        for line in LINES {
            let record: Record = line.parse().unwrap();
            let text = record.to_string();
            let packed = record.pack();
            let again = PackedRecord::from_bytes(packed.as_bytes()).unwrap();
            assert_eq!(again, packed);
            let unpacked = again.unpack().unwrap();
            assert_eq!(unpacked, record, "{line}");
            assert_eq!(unpacked.to_string(), text);
            assert_eq!(again.score(), record.score());
            assert_eq!(again.result(), record.result());
            assert_eq!(again.side_to_move(), record.board().side_to_move());
            let pieces: Vec<_> = again.pieces().collect();
            let expected: Vec<_> = record
                .board()
                .occupied()
                .map(|sq| (sq, record.board().piece_on(sq).unwrap()))
                .collect();
            assert_eq!(pieces, expected);
        }
    }

    #[test]
    fn text_written_by_the_writer_comes_back_unchanged() {
        for line in LINES {
            let canonical = Board::from_fen(line.split('|').next().unwrap().trim())
                .unwrap()
                .to_fen(CastlingNotation::XFen);
            let record: Record = line.parse().unwrap();
            assert!(record.to_string().starts_with(&canonical));
            let again: Record = record.to_string().parse().unwrap();
            assert_eq!(again.to_string(), record.to_string());
        }
        let record: Record = LINES[5].parse().unwrap();
        assert_eq!(record.to_string(), LINES[5]);
        let inner: Record = LINES[8].parse().unwrap();
        assert_eq!(inner.to_string(), LINES[8]);
        for line in &LINES[10..] {
            assert_eq!(line.parse::<Record>().unwrap().to_string(), *line);
        }
    }

    #[test]
    fn score_and_result_belong_to_the_side_to_move() {
        let record: Record = LINES[1].parse().unwrap();
        assert_eq!(record.board().side_to_move(), Color::Black);
        assert_eq!(record.score(), -35);
        assert_eq!(record.result(), GameResult::Loss);
        assert_eq!(record.result().flipped(), GameResult::Win);
        let packed = record.pack();
        assert_eq!(packed.side_to_move(), Color::Black);
        assert_eq!(packed.score(), -35);
        assert_eq!(packed.result().points(), 0.0);
    }

    #[test]
    fn layout_is_as_documented() {
        let record: Record = "4k3/8/8/8/3pP3/8/8/4K3 b - e3 7 40 | -300 | 1.0"
            .parse()
            .unwrap();
        let bytes = *record.pack().as_bytes();
        let occupancy = (1u64 << 4) | (1 << 27) | (1 << 28) | (1 << 60);
        assert_eq!(bytes[..8], occupancy.to_le_bytes());
        // e1 White king (5), d4 Black pawn (8), e4 White pawn (0), e8 Black king (13).
        assert_eq!(bytes[8..12], [0x85, 0xD0, 0, 0]);
        assert_eq!(bytes[24], 0x80 | 20);
        assert_eq!(bytes[25..27], 7u16.to_le_bytes());
        assert_eq!(bytes[27..29], 40u16.to_le_bytes());
        assert_eq!(bytes[29..31], (-300i16).to_le_bytes());
        assert_eq!(bytes[31], 2);
        let castling: Record = LINES[4].parse().unwrap();
        let packed = castling.pack();
        assert_eq!(
            packed.castling_rooks(),
            castling.board().castling_rights().rook_squares()
        );
        assert!(record.pack().castling_rooks().is_empty());
        // a1 and h1 hold rooks with castling rights: code 6; a8, h8: 14.
        assert_eq!(packed.as_bytes()[8], 0x56);
        assert_eq!(packed.as_bytes()[9], 0xE6);
        assert_eq!(packed.as_bytes()[10], 0xED);
    }

    #[test]
    fn malformed_lines_are_refused_with_their_reason() {
        let cases = [
            ("garbage", RecordError::FieldCount(1)),
            (
                "8/8/8/8/8/8/8/8 w - - 0 1 | 1 | 1.0 | x",
                RecordError::FieldCount(4),
            ),
            (
                "rkbrnqnb/pppppppp/8/8/8/8/PPPPPPPP/RKBRNQNB w KQkq - 0 1 | 12.5 | 1.0",
                RecordError::Score("12.5".into()),
            ),
            (
                "rkbrnqnb/pppppppp/8/8/8/8/PPPPPPPP/RKBRNQNB w KQkq - 0 1 | 40000 | 1.0",
                RecordError::Score("40000".into()),
            ),
            (
                "rkbrnqnb/pppppppp/8/8/8/8/PPPPPPPP/RKBRNQNB w KQkq - 0 1 | 1 | 2.0",
                RecordError::Result("2.0".into()),
            ),
            (
                "rkbrnqnb/pppppppp/8/8/8/8/PPPPPPPP/RKBRNQNB w KQkq - 0 1 | 1 | ",
                RecordError::Result("".into()),
            ),
            (
                "rkbrnqnb/pppppppp/8/8/8/8/PPPPPPPP/RKBRNQNB x KQkq - 0 1 | 1 | 1.0",
                RecordError::Fen(FenError::SideToMove("x".into())),
            ),
            (
                "qqqqkqqq/qqqqqqqq/qqqqqqqq/8/8/QQQQQQQQ/QQQQQQQQ/QQQQKQQQ w - - 0 1 | 0 | 0.5",
                RecordError::TooManyPieces(48),
            ),
        ];
        for (line, error) in cases {
            assert_eq!(line.parse::<Record>(), Err(error.clone()), "{line}");
            assert!(!error.to_string().is_empty());
        }
    }

    fn corrupted(line: &str, edit: impl FnOnce(&mut [u8; RECORD_BYTES])) -> [u8; RECORD_BYTES] {
        let mut bytes = *line.parse::<Record>().unwrap().pack().as_bytes();
        edit(&mut bytes);
        bytes
    }

    #[test]
    fn malformed_bytes_are_refused_with_their_reason() {
        let good = *LINES[0].parse::<Record>().unwrap().pack().as_bytes();
        assert_eq!(
            PackedRecord::from_bytes(&good[..31]),
            Err(RecordError::Length(31))
        );
        assert_eq!(
            PackedRecord::from_bytes(&[0; 33]),
            Err(RecordError::Length(33))
        );
        let structural = [
            (
                // A White piece code 7 on a1.
                corrupted(LINES[0], |b| b[8] = (b[8] & 0xF0) | 7),
                RecordError::PieceCode {
                    square: Square::A1,
                    code: 7,
                },
            ),
            (
                // Every square occupied: 64 pieces.
                corrupted(LINES[0], |b| b[..8].copy_from_slice(&[0xFF; 8])),
                RecordError::TooManyPieces(64),
            ),
            (
                // A code after the last of the 10 pieces.
                corrupted(LINES[6], |b| b[20] = 1),
                RecordError::UnusedPieceBits,
            ),
            (
                corrupted(LINES[0], |b| b[31] = 3),
                RecordError::ResultCode(3),
            ),
            (
                corrupted(LINES[0], |b| b[24] = 65),
                RecordError::SideAndEnPassant(65),
            ),
            (
                // The White king on b1 becomes a knight.
                corrupted(LINES[0], |b| b[8] = (b[8] & 0x0F) | 0x10),
                RecordError::KingCount {
                    color: Color::White,
                    count: 0,
                },
            ),
            (
                // The castling rook a1 as a Black castling rook: off its back rank.
                corrupted(LINES[0], |b| b[8] = (b[8] & 0xF0) | 14),
                RecordError::PieceCode {
                    square: Square::A1,
                    code: 14,
                },
            ),
        ];
        for (bytes, error) in structural {
            assert_eq!(PackedRecord::from_bytes(&bytes), Err(error.clone()));
            assert!(!error.to_string().is_empty());
        }
        let illegal = [
            (
                // Fullmove number 0.
                corrupted(LINES[0], |b| b[27..29].copy_from_slice(&[0, 0])),
                RecordError::Fen(FenError::FullmoveNumber("0".into())),
            ),
            (
                // En passant on e3 with White to move.
                corrupted(LINES[0], |b| b[24] = 20),
                RecordError::Fen(FenError::EnPassant("e3".into())),
            ),
            (
                // En passant on e6 with no pawn that could take.
                corrupted(LINES[0], |b| b[24] = 44),
                RecordError::EnPassant(Square::from_index(44).unwrap()),
            ),
            (
                // The knight on e1 (fifth piece) as a castling rook: two
                // castling rooks on the king's h-side.
                corrupted(LINES[0], |b| b[10] = (b[10] & 0xF0) | 6),
                RecordError::Castling,
            ),
        ];
        for (bytes, error) in illegal {
            let packed = PackedRecord::from_bytes(&bytes).unwrap();
            assert_eq!(packed.unpack(), Err(error.clone()));
            assert!(!error.to_string().is_empty());
        }
    }
}
