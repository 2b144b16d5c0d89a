//! The checks behind the fuzz targets of the board and move notation
//! (`fuzz/`, `make fuzz`; the UCI session's is `uci::fuzz`). They live here
//! so that `tests/fuzz_inputs.rs` runs the same checks on the seed inputs and
//! on every input a fuzzer ever found crashing (`fuzz/regressions/`).
//!
//! Each check takes arbitrary bytes: the code under test may refuse them
//! with an error, and must never panic or accept something wrong.

use chess::{Board, CastlingNotation};

/// A fuzz target's check: arbitrary bytes in, a panic on a bug.
pub type Check = fn(&[u8]);

/// These fuzz targets, by name: the folder names under `fuzz/seeds` and
/// `fuzz/regressions`.
pub const TARGETS: [(&str, Check); 3] = [("fen", fen), ("uci_move", uci_move), ("san", san)];

/// Positions with every kind of move (castling both ways in classical,
/// Chess960 and DFRC setups, en passant, promotions, ambiguous knights) for
/// the move-text targets; the input's first byte picks one.
const POSITIONS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "1r1k2r1/8/8/8/8/8/8/1R1K2R1 w GBgb - 0 1",
    "rk6/8/8/3pP3/8/8/1p6/RK5R w AHa d6 0 2",
    "2rkr3/8/8/8/8/8/8/1R1K2R1 b BGce - 0 1",
    "N3k2N/8/8/3N4/N4N1N/2R5/1R4K1/4q3 w - - 0 1",
];

fn position(data: &[u8]) -> Option<(Board, &str)> {
    let (&which, rest) = data.split_first()?;
    let text = std::str::from_utf8(rest).ok()?;
    let board = Board::from_fen(POSITIONS[which as usize % POSITIONS.len()]).ok()?;
    Some((board, text))
}

/// The FEN reader: a board it accepts writes itself back in both castling
/// notations, reads back to the same position, and generates only legal
/// moves that can be made.
pub fn fen(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(board) = Board::from_fen(text) else {
        return;
    };
    for notation in [CastlingNotation::XFen, CastlingNotation::Shredder] {
        let written = board.to_fen(notation);
        let again =
            Board::from_fen(&written).unwrap_or_else(|e| panic!("{text} -> {written}: {e}"));
        assert_eq!(again.key(), board.key(), "{text} -> {written}");
        assert_eq!(again.to_fen(notation), written, "{text}");
    }
    for &m in board.legal_moves().iter() {
        assert!(board.is_legal(m), "{text}: {m:?}");
        let mut child = board.clone();
        child.make_move(m);
        let _ = child.legal_moves();
    }
}

/// UCI move text, read in both castling conventions: one accepted is legal.
pub fn uci_move(data: &[u8]) {
    let Some((board, text)) = position(data) else {
        return;
    };
    for chess960 in [false, true] {
        if let Ok(m) = board.parse_uci_move(text, chess960) {
            assert!(board.is_legal(m), "'{text}' accepted but illegal");
        }
    }
}

/// SAN: a move read is legal, and its own SAN reads back to it.
pub fn san(data: &[u8]) {
    let Some((board, text)) = position(data) else {
        return;
    };
    if let Ok(m) = board.parse_san(text) {
        assert!(board.is_legal(m), "'{text}' accepted but illegal");
        let written = board.san(m);
        assert_eq!(board.parse_san(&written), Ok(m), "'{text}' -> '{written}'");
    }
}
