//! EPD and FEN lines: one position a line, the move counters taken when the
//! fifth and sixth fields are numbers (an EPD line has operations there
//! instead).

use chess::{Board, FenError};
use std::fmt;

/// A line that is not a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdError {
    /// 1-based line number in the text.
    pub line: usize,
    pub error: FenError,
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.error)
    }
}

impl std::error::Error for EpdError {}

/// The position of every line of `text`, in order; blank lines and `#`
/// comments are skipped. The first line that is not a position is the
/// error.
pub fn read(text: &str) -> Result<Vec<Board>, EpdError> {
    let mut boards = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let counters = match fields.get(4..6) {
            Some([h, f]) if h.parse::<u16>().is_ok() && f.parse::<u16>().is_ok() => {
                format!("{h} {f}")
            }
            _ => "0 1".to_string(),
        };
        let position = fields.get(..4).unwrap_or(&fields).join(" ");
        let board = Board::from_fen(&format!("{position} {counters}"))
            .map_err(|error| EpdError { line: i + 1, error })?;
        boards.push(board);
    }
    Ok(boards)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::CastlingNotation;

    #[test]
    fn epd_and_fen_lines_are_read_with_their_counters() {
        let text = "# a comment\n\
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3 7\n\
                    \n\
                    bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - ;D1 21\n";
        let boards = read(text).unwrap();
        assert_eq!(boards.len(), 2);
        assert_eq!(
            boards[0].to_fen(CastlingNotation::XFen),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3 7"
        );
        assert_eq!(boards[1].fullmove_number(), 1);
    }

    #[test]
    fn a_bad_line_is_named() {
        let err = read("8/8/8/8/8/8/8/8 w - -\n").unwrap_err();
        assert_eq!(err.line, 1);
        let err =
            read("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nnot a fen\n").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.to_string().starts_with("line 2: "), "{err}");
    }
}
