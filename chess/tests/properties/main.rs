//! Property tests of the move generator through its public API: Zobrist keys
//! and castling rights along random games, FEN reading and writing, the
//! Scharnagl numbering, legal moves against a slow reference generator
//! written here, `is_legal` on every 16-bit move, and the Chess960 castling
//! corner cases.

mod castling;
mod fen;
mod flip;
mod is_legal;
mod reference;
mod zobrist;

use chess::{Board, FenError, Square};
use testkit::suites::{read_suite, SUITE_FILES};

pub fn sq(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("{name} is not a square"))
}

pub fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// A position from a suite file.
pub struct SuitePosition {
    pub file: &'static str,
    pub line: usize,
    pub fen: String,
    pub board: Board,
}

/// Every line of every suite file, but for the documented impossible
/// positions that the reader refuses (perft_suites checks which).
pub fn suite_positions() -> Vec<SuitePosition> {
    let mut positions = Vec::new();
    for file in SUITE_FILES {
        for case in read_suite(file).unwrap_or_else(|e| panic!("{e}")) {
            match Board::from_fen(&case.fen) {
                Ok(board) => positions.push(SuitePosition {
                    file,
                    line: case.line,
                    fen: case.fen,
                    board,
                }),
                Err(FenError::OpponentInCheck | FenError::TooManyCheckers(_)) => {}
                Err(e) => panic!("{file}:{}: {e}", case.line),
            }
        }
    }
    assert!(positions.len() > 3000);
    positions
}
