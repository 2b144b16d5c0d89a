//! The loss of an evaluation the engine plays with, on binary records: a
//! net file through the engine's integer inference, or the hand-crafted
//! evaluation. It is the figure to compare before playing games: a net
//! that predicts the search scores worse than the evaluation whose searches
//! made them is unlikely to play better (docs/nets.md).

use crate::network::{squared_error, SCALE};
use chess::Board;
use chessio::{PackedRecord, RecordError};
use eval::nnue::output_bucket;
use rayon::prelude::*;

/// The material phases a measure is broken down by: `output_bucket` of 8,
/// from nearly bare kings (2 to 5 pieces) to the opening (29 to 32).
pub const PHASES: usize = 8;

/// How an evaluation fares against the records' targets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measure {
    pub positions: usize,
    /// The trainer's loss: the mean of `(sigmoid(eval / SCALE) - target)^2`.
    pub loss: f64,
    /// The mean distance from the records' search scores, in centipawns.
    pub mean_error: f64,
    /// The mean size of the evaluations, in centipawns.
    pub mean_size: f64,
}

/// Sums of losses, errors and sizes, with their count.
#[derive(Clone, Copy, Default)]
struct Sums {
    count: usize,
    loss: f64,
    error: f64,
    size: f64,
}

impl Sums {
    fn add(&mut self, other: &Sums) {
        self.count += other.count;
        self.loss += other.loss;
        self.error += other.error;
        self.size += other.size;
    }

    fn mean(&self) -> Measure {
        let n = self.count.max(1) as f64;
        Measure {
            positions: self.count,
            loss: self.loss / n,
            mean_error: self.error / n,
            mean_size: self.size / n,
        }
    }
}

/// Measures an evaluation (centipawns for the side to move) on `records`:
/// on all of them, and on those of each of the [`PHASES`] material phases.
/// `evaluator` makes one evaluation function per chunk of work, so that an
/// evaluator's tables are built once per chunk, not per position.
pub fn measure<F, E>(
    records: &[PackedRecord],
    lambda: f32,
    evaluator: F,
) -> Result<(Measure, [Measure; PHASES]), RecordError>
where
    F: Fn() -> E + Sync,
    E: FnMut(&Board) -> i32,
{
    let chunks = records
        .par_chunks(4096)
        .map(|chunk| {
            let mut evaluate = evaluator();
            let mut sums = [Sums::default(); PHASES];
            for record in chunk {
                let unpacked = record.unpack()?;
                let board = unpacked.board();
                let cp = evaluate(board);
                let s = &mut sums[output_bucket(board.occupied().count(), PHASES)];
                s.count += 1;
                s.loss += f64::from(squared_error(cp as f32 / SCALE, record, lambda));
                s.error += f64::from((cp - i32::from(record.score())).abs());
                s.size += f64::from(cp.abs());
            }
            Ok(sums)
        })
        .collect::<Result<Vec<_>, RecordError>>()?;
    let mut phases = [Sums::default(); PHASES];
    for chunk in &chunks {
        for (p, c) in phases.iter_mut().zip(chunk) {
            p.add(c);
        }
    }
    let mut all = Sums::default();
    for p in &phases {
        all.add(p);
    }
    Ok((all.mean(), phases.map(|p| p.mean())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chessio::Record;

    fn records() -> Vec<PackedRecord> {
        [
            "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1 | 400 | 1.0",
            "4k3/8/8/8/8/8/8/Q3K3 b - - 0 1 | -400 | 0.0",
        ]
        .iter()
        .map(|l| l.parse::<Record>().unwrap().pack())
        .collect()
    }

    #[test]
    fn an_evaluation_equal_to_the_scores_has_no_loss() {
        let records = records();
        let exact = || |b: &Board| 400 * b.side_to_move().sign();
        let (m, phases) = measure(&records, 0.0, exact).unwrap();
        assert_eq!(m.positions, 2);
        // Three pieces: the first phase holds both positions.
        assert_eq!(phases[0], m);
        assert!(phases[1..].iter().all(|p| p.positions == 0));
        assert!(
            m.loss < 1e-12 && m.mean_error == 0.0 && m.mean_size == 400.0,
            "{m:?}"
        );
        // A flat evaluation: sigmoid(0) = 0.5 against sigmoid(+-1).
        let (flat, _) = measure(&records, 0.0, || |_: &Board| 0).unwrap();
        let expected = (0.5 - 1.0 / (1.0 + (-1.0f64).exp())).powi(2);
        assert!((flat.loss - expected).abs() < 1e-6, "{flat:?}");
        assert_eq!(flat.mean_error, 400.0);
        // With lambda 1 only the results count: both are won for the queen.
        let (results, _) = measure(&records, 1.0, exact).unwrap();
        let expected = (1.0 - 1.0 / (1.0 + (-1.0f64).exp())).powi(2);
        assert!((results.loss - expected).abs() < 1e-6, "{results:?}");
    }
}
