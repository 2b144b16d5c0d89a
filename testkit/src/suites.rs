//! The perft suite files in `tests/data/perft` (format in its README.md):
//! `<FEN> ;D1 <n> ;D2 <n> ...`, one position per line.

use std::fmt;
use std::path::PathBuf;

/// Every suite file, so that a test that should cover all of them cannot
/// silently miss one.
pub const SUITE_FILES: [&str; 7] = [
    "standard_wiki.epd",
    "standard_suite.epd",
    "tricky.epd",
    "chess960_fischer.epd",
    "chess960_startpos.epd",
    "chess960_startpos_xfen.epd",
    "chess960_hard.epd",
];

/// One line of a suite file.
#[derive(Clone, Debug)]
pub struct PerftCase {
    /// 1-based line number, as the README and PROVENANCE refer to lines.
    pub line: usize,
    pub fen: String,
    /// `(depth, leaf nodes)` in increasing depth order.
    pub counts: Vec<(u32, u64)>,
}

#[derive(Debug)]
pub enum SuiteError {
    Io {
        file: String,
        error: std::io::Error,
    },
    Syntax {
        file: String,
        line: usize,
        text: String,
    },
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SuiteError::Io { file, error } => write!(f, "cannot read {file}: {error}"),
            SuiteError::Syntax { file, line, text } => {
                write!(
                    f,
                    "{file}:{line}: not '<FEN> ;D<depth> <nodes> ...': {text}"
                )
            }
        }
    }
}

impl std::error::Error for SuiteError {}

/// The folder with the suite files. Resolved at compile time so that tests
/// find their data from any working directory.
pub fn data_dir() -> PathBuf {
    crate::workspace_root().join("tests/data/perft")
}

/// Reads a data file from `data_dir()` as text.
pub fn read_data_file(file: &str) -> Result<String, SuiteError> {
    std::fs::read_to_string(data_dir().join(file)).map_err(|error| SuiteError::Io {
        file: file.to_string(),
        error,
    })
}

/// Every line of a suite file.
pub fn read_suite(file: &str) -> Result<Vec<PerftCase>, SuiteError> {
    read_data_file(file)?
        .lines()
        .enumerate()
        .map(|(i, text)| {
            parse_line(text, i + 1).ok_or_else(|| SuiteError::Syntax {
                file: file.to_string(),
                line: i + 1,
                text: text.to_string(),
            })
        })
        .collect()
}

/// Parses `<FEN> ;D1 <n> ;D2 <n> ...`; `None` if it does not have that shape
/// or the depths are not increasing.
pub fn parse_line(text: &str, line: usize) -> Option<PerftCase> {
    let mut pieces = text.split(';');
    let fen = pieces.next()?.trim().to_string();
    if fen.is_empty() {
        return None;
    }
    let mut counts: Vec<(u32, u64)> = Vec::new();
    for piece in pieces {
        let (depth, nodes) = piece.trim().split_once(' ')?;
        let depth: u32 = depth.strip_prefix('D')?.parse().ok()?;
        let nodes: u64 = nodes.trim().parse().ok()?;
        if counts.last().is_some_and(|&(d, _)| d >= depth) {
            return None;
        }
        counts.push((depth, nodes));
    }
    (!counts.is_empty()).then_some(PerftCase { line, fen, counts })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_splits_into_fen_and_counts() {
        let case = parse_line("8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D4 12094237108", 7).unwrap();
        assert_eq!(case.line, 7);
        assert_eq!(case.fen, "8/8/8/8/8/8/8/K6k w - - 0 1");
        assert_eq!(case.counts, vec![(1, 3), (4, 12_094_237_108)]);
    }

    #[test]
    fn malformed_lines_are_refused() {
        for text in [
            "8/8/8/8/8/8/8/K6k w - - 0 1",
            " ;D1 3",
            "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1",
            "8/8/8/8/8/8/8/K6k w - - 0 1 ;1 3",
            "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 x",
            "8/8/8/8/8/8/8/K6k w - - 0 1 ;D2 3 ;D1 3",
        ] {
            assert!(parse_line(text, 1).is_none(), "{text}");
        }
    }
}
