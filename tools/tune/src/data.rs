//! Training positions: the self-play data format read and turned into
//! sparse feature counts.

use crate::error::Error;
use chess::{Board, Color};
use chessio::Record;
use eval::features::{KS_START, NUM_SAFETY};
use eval::{trace_position, TOTAL_PHASE};
use rayon::prelude::*;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;

/// One position: its linear feature counts (White minus Black), the
/// king-danger counts against each king, and the interpolation factors.
pub struct TracedPosition {
    /// (feature, count) pairs, White's count minus Black's.
    pub linear: Vec<(u16, i16)>,
    /// King-danger counts against White's and Black's king, when it applied.
    pub safety: [Option<[i16; NUM_SAFETY]>; 2],
    /// Middlegame factor: phase / 24.
    pub mg: f32,
    /// Endgame factor: (24 - phase) / 24 * scale / 128.
    pub eg: f32,
    /// Endgame factor without the scale factor (for the old evaluation).
    pub eg_unscaled: f32,
    /// Game result from White's side: 1, 0.5 or 0.
    pub result: f32,
    /// The search score from White's side, in centipawns.
    pub score: f32,
}

/// A training record's text form (score and result from the side to
/// move's view). Returns the position, and score and result from White's
/// side.
fn parse_line(line: &str) -> Option<(Board, f32, f32)> {
    let record: Record = line.parse().ok()?;
    let score = f32::from(record.score());
    let result = record.result().points();
    let black = record.board().side_to_move() == Color::Black;
    let (score, result) = if black {
        (-score, 1.0 - result)
    } else {
        (score, result)
    };
    Some((record.board().clone(), score, result))
}

/// Reads up to `limit` lines of each file (all when `None`), each with its
/// line number in its file.
pub fn read_lines(files: &[PathBuf], limit: Option<usize>) -> Result<Vec<(usize, String)>, Error> {
    let mut lines = Vec::new();
    for file in files {
        let file = std::fs::File::open(file).map_err(|e| Error::Read(file.clone(), e))?;
        let reader = BufReader::new(file);
        for (n, line) in reader.lines().enumerate() {
            let Ok(line) = line else { break };
            if limit.is_some_and(|l| n >= l) {
                break;
            }
            lines.push((n, line));
        }
    }
    Ok(lines)
}

/// Turns lines into positions, in parallel; lines that do not parse, and
/// positions the evaluation scores by rule (known draws and wins), are dropped.
pub fn build(lines: &[String]) -> Vec<TracedPosition> {
    lines
        .par_iter()
        .filter_map(|line| {
            let (board, score, result) = parse_line(line)?;
            if board.in_check() {
                return None;
            }
            let t = trace_position(&board);
            if t.special.is_some() {
                return None;
            }
            let mut linear = Vec::with_capacity(64);
            for (f, c) in t.coef.iter().enumerate().take(KS_START) {
                let n = c[0] - c[1];
                if n != 0 {
                    linear.push((f as u16, n as i16));
                }
            }
            let safety = t
                .safety
                .map(|s| s.map(|counts| counts.map(|n| n.clamp(-32768, 32767) as i16)));
            let total = TOTAL_PHASE as f32;
            let phase = t.phase as f32;
            Some(TracedPosition {
                linear,
                safety,
                mg: phase / total,
                eg: (total - phase) / total * t.scale as f32 / eval::SCALE_NORMAL as f32,
                eg_unscaled: (total - phase) / total,
                result,
                score,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_from_white_side() {
        let (board, score, result) =
            parse_line("rkbrnqnb/pppppppp/8/8/8/8/PPPPPPPP/RKBRNQNB b KQkq - 0 1 | 10 | 1.0")
                .unwrap();
        assert_eq!(board.side_to_move(), Color::Black);
        assert_eq!(score, -10.0);
        assert_eq!(result, 0.0);
        assert!(parse_line("garbage").is_none());
        assert!(parse_line("8/8/8/8/8/8/8/8 w - - 0 1 | 1 | 2.0").is_none());
    }
}
