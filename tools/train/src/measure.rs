//! The loss of an evaluation the engine plays with, on binary records: a
//! net file through the engine's integer inference, or the hand-crafted
//! evaluation. It is the figure to compare before playing games: a net
//! that predicts the search scores worse than the evaluation whose searches
//! made them is unlikely to play better (docs/nets.md).

use crate::network::{sigmoid, target, SCALE};
use chessio::{PackedRecord, RecordError};
use movegen::Board;
use rayon::prelude::*;

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

/// Measures `evaluate` (centipawns for the side to move) on `records`.
pub fn measure<E>(
    records: &[PackedRecord],
    lambda: f32,
    evaluate: E,
) -> Result<Measure, RecordError>
where
    E: Fn(&Board) -> i32 + Sync,
{
    let sums = records
        .par_chunks(4096)
        .map(|chunk| {
            let mut sums = [0.0f64; 3];
            for record in chunk {
                let cp = evaluate(record.unpack()?.board());
                let e = sigmoid(cp as f32 / SCALE) - target(record, lambda);
                sums[0] += f64::from(e * e);
                sums[1] += f64::from((cp - i32::from(record.score())).abs());
                sums[2] += f64::from(cp.abs());
            }
            Ok(sums)
        })
        .collect::<Result<Vec<_>, RecordError>>()?;
    let n = records.len().max(1) as f64;
    let total = |i: usize| sums.iter().map(|s| s[i]).sum::<f64>() / n;
    Ok(Measure {
        positions: records.len(),
        loss: total(0),
        mean_error: total(1),
        mean_size: total(2),
    })
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
        let exact = |b: &Board| 400 * b.side_to_move().sign();
        let m = measure(&records, 0.0, exact).unwrap();
        assert_eq!(m.positions, 2);
        assert!(
            m.loss < 1e-12 && m.mean_error == 0.0 && m.mean_size == 400.0,
            "{m:?}"
        );
        // A flat evaluation: sigmoid(0) = 0.5 against sigmoid(+-1).
        let flat = measure(&records, 0.0, |_| 0).unwrap();
        let expected = (0.5 - 1.0 / (1.0 + (-1.0f64).exp())).powi(2);
        assert!((flat.loss - expected).abs() < 1e-6, "{flat:?}");
        assert_eq!(flat.mean_error, 400.0);
        // With lambda 1 only the results count: both are won for the queen.
        let results = measure(&records, 1.0, exact).unwrap();
        let expected = (1.0 - 1.0 / (1.0 + (-1.0f64).exp())).powi(2);
        assert!((results.loss - expected).abs() < 1e-6, "{results:?}");
    }
}
