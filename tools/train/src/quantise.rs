//! The float net rounded to the engine's integer net. The result is an
//! `eval::nnue::Network`, whose constructor checks every bound the integer
//! inference relies on; the trainer writes it with the engine's writer and
//! measures it with the engine's evaluation, so the file format and the
//! integer arithmetic have one home (`eval/src/nnue/`).

use crate::network::{squared_error, FloatNetwork, Shape, SCALE};
use chessio::{PackedRecord, RecordError};
use eval::nnue::{Inputs, NetError, INPUTS, QA, QB};
use std::fmt;
use std::sync::Arc;

/// Why a float net has no integer form.
#[derive(Debug)]
pub enum QuantiseError {
    /// A weight that rounds beyond its integer type (i16, or i32 for b2).
    Rounding { tensor: &'static str, weight: f32 },
    /// The rounded net breaks a bound of the engine's integer inference.
    Net(NetError),
}

impl fmt::Display for QuantiseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QuantiseError::Rounding { tensor, weight } => {
                write!(f, "{tensor} weight {weight} does not fit its integer type")
            }
            QuantiseError::Net(e) => write!(f, "the quantised net is unusable: {e}"),
        }
    }
}

impl std::error::Error for QuantiseError {}

fn round_i16(weights: &[f32], scale: i32, tensor: &'static str) -> Result<Vec<i16>, QuantiseError> {
    weights
        .iter()
        .map(|&weight| {
            let q = (weight * scale as f32).round();
            if q >= f32::from(i16::MIN) && q <= f32::from(i16::MAX) {
                Ok(q as i16)
            } else {
                Err(QuantiseError::Rounding { tensor, weight })
            }
        })
        .collect()
}

/// W1 and b1 times QA, W2 times QB, b2 times QA * QB, each rounded
/// (docs/nets.md).
pub fn quantise(net: &FloatNetwork) -> Result<eval::nnue::Network, QuantiseError> {
    let b2 = net
        .b2()
        .iter()
        .map(|&weight| {
            let q = (f64::from(weight) * f64::from(QA * QB)).round();
            if q.abs() <= f64::from(i32::MAX) {
                Ok(q as i32)
            } else {
                Err(QuantiseError::Rounding {
                    tensor: "b2",
                    weight,
                })
            }
        })
        .collect::<Result<_, _>>()?;
    eval::nnue::Network::new(
        net.shape().inputs,
        round_i16(&net.engine_w1(), QA, "W1")?,
        round_i16(net.b1(), QA, "b1")?,
        round_i16(net.w2(), QB, "W2")?,
        b2,
    )
    .map_err(QuantiseError::Net)
}

/// The float net whose weights are exactly those of an integer net: the
/// inverse of [`quantise`], so that training can start from a committed net
/// when its checkpoint is gone (with king buckets, the shared rows 0).
pub fn dequantise(net: &eval::nnue::Network) -> FloatNetwork {
    let t = net.tensors();
    let (qa, qb) = (QA as f32, QB as f32);
    let shared = match net.inputs() {
        Inputs::KingBuckets => INPUTS * net.hidden(),
        Inputs::Plain | Inputs::MirroredByKing => 0,
    };
    let params =
        t.w1.iter()
            .map(|&w| f32::from(w) / qa)
            .chain(std::iter::repeat_n(0.0, shared))
            .chain(t.b1.iter().map(|&w| f32::from(w) / qa))
            .chain(t.w2.iter().map(|&w| f32::from(w) / qb))
            .chain(
                t.b2.iter()
                    .map(|&b| (f64::from(b) / f64::from(QA * QB)) as f32),
            )
            .collect();
    let shape = Shape {
        hidden: net.hidden(),
        buckets: net.buckets(),
        inputs: net.inputs(),
    };
    FloatNetwork::from_params(shape, params)
        .expect("an engine net's tensors have the float net's sizes")
}

/// How far the engine's evaluation of the integer net strays from the
/// float net, in centipawns, and what that does to the loss: the integer
/// net's is the one the engine plays with.
#[derive(Clone, Copy, Debug)]
pub struct Agreement {
    pub mean: f64,
    pub max: f64,
    pub float_loss: f64,
    pub integer_loss: f64,
}

pub fn agreement(
    net: &FloatNetwork,
    quantised: &Arc<eval::nnue::Network>,
    records: &[PackedRecord],
    lambda: f32,
) -> Result<Agreement, RecordError> {
    let (mut sum, mut max) = (0.0, 0.0f64);
    let (mut float_loss, mut integer_loss) = (0.0, 0.0);
    for record in records {
        let float = net.forward(record) * SCALE;
        let int = eval::nnue::evaluate(quantised, record.unpack()?.board());
        let diff = (f64::from(float) - f64::from(int)).abs();
        sum += diff;
        max = max.max(diff);
        float_loss += f64::from(squared_error(float / SCALE, record, lambda));
        integer_loss += f64::from(squared_error(int as f32 / SCALE, record, lambda));
    }
    let n = records.len().max(1) as f64;
    Ok(Agreement {
        mean: sum / n,
        max,
        float_loss: float_loss / n,
        integer_loss: integer_loss / n,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::INPUTS;
    use crate::network::CLIP;
    use chess::Board;
    use chessio::Record;
    use eval::nnue::network::fnv1a;
    use eval::nnue::Inputs;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Positions from random games of every variant's kind of start.
    fn positions(count: usize, seed: u64) -> Vec<PackedRecord> {
        let mut rng = StdRng::seed_from_u64(seed);
        let starts = [
            "rkbrnqnb/pppppppp/8/8/8/8/PPPPPPPP/RKBRNQNB w KQkq - 0 1",
            "bbrknnqr/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQNR w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ];
        let mut out = Vec::new();
        while out.len() < count {
            let mut board = Board::from_fen(starts[out.len() % starts.len()]).unwrap();
            for _ in 0..rng.gen_range(0..120) {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                board.make_move(moves.as_slice()[rng.gen_range(0..moves.len())]);
            }
            out.push(
                Record::new(board, 0, chessio::GameResult::Draw)
                    .unwrap()
                    .pack(),
            );
        }
        out
    }

    /// A random net with weights spread over the whole clipped range, so
    /// that accumulators cross SCReLU's clamps.
    fn wide_net(shape: Shape, seed: u64) -> FloatNetwork {
        let mut net = FloatNetwork::random(shape, seed);
        let mut rng = StdRng::seed_from_u64(seed + 1);
        let n = net.params().len();
        let w2 = n - shape.buckets * (2 * shape.hidden + 1);
        for (i, p) in net.params_mut().iter_mut().enumerate() {
            *p = if i + shape.buckets >= n {
                rng.gen_range(-1.0..1.0)
            } else if i < w2 {
                rng.gen_range(-0.3..0.35)
            } else {
                rng.gen_range(-CLIP..CLIP)
            };
        }
        net
    }

    #[test]
    fn the_engine_evaluates_the_written_net_as_the_float_net() {
        for inputs in [Inputs::Plain, Inputs::KingBuckets] {
            evaluates_as_the_float_net(inputs);
        }
    }

    fn evaluates_as_the_float_net(inputs: Inputs) {
        let shape = Shape {
            hidden: 32,
            buckets: 4,
            inputs,
        };
        let mut net = wide_net(shape, 5);
        if inputs == Inputs::KingBuckets {
            // Each bucket's rows and the shared ones a half of a plain
            // net's, so that their sums span the same range.
            for w in &mut net.params_mut()[..5 * INPUTS * 32] {
                *w *= 0.5;
            }
        }
        let bytes = quantise(&net).unwrap().to_bytes();
        let back = Arc::new(eval::nnue::Network::from_bytes(&bytes).unwrap());
        let records = positions(300, 9);
        // The integer inference computes exactly the float net of the
        // rounded weights, but for the two truncating divisions (under
        // 1 cp together).
        let on_grid = dequantise(&back);
        for r in &records {
            let float = f64::from(on_grid.forward(r) * SCALE);
            let int = f64::from(eval::nnue::evaluate(&back, r.unpack().unwrap().board()));
            assert!((float - int).abs() < 1.1, "{float} vs {int}");
        }
        // The gap to the unrounded net: on this net, whose W1 spans a range
        // twenty times a trained net's, rounding W1 to 1/255 makes some
        // 10 cp (a trained net strays about 3 cp).
        let a = agreement(&net, &back, &records, 0.0).unwrap();
        assert!(a.mean < 20.0 && a.max < 80.0, "{a:?}");
        // Every record's score is 0: the losses are those of the evaluations.
        let loss_of = |cp: f64| (1.0 / (1.0 + (-cp / f64::from(SCALE)).exp()) - 0.5).powi(2);
        let float_loss = records
            .iter()
            .map(|r| loss_of(f64::from(net.forward(r) * SCALE)))
            .sum::<f64>()
            / records.len() as f64;
        assert!(
            (a.float_loss - float_loss).abs() < 1e-6 * float_loss.max(1e-3),
            "{a:?}"
        );
        assert!(
            a.integer_loss > 0.0 && a.integer_loss != a.float_loss,
            "{a:?}"
        );
        assert!(a.mean > 0.0, "rounding should cost something: {a:?}");
        let spread = records
            .iter()
            .map(|r| eval::nnue::evaluate(&back, r.unpack().unwrap().board()).abs())
            .max()
            .unwrap();
        assert!(spread > 100, "the net should not be flat: {spread}");
    }

    #[test]
    fn the_layout_is_the_contracts() {
        let shape = Shape {
            hidden: 1,
            buckets: 2,
            inputs: Inputs::Plain,
        };
        let mut net = FloatNetwork::random(shape, 0);
        let p = net.params_mut();
        p[0] = 1.0 / 255.0; // W1[0][0]
        p[767] = -2.0 / 255.0; // W1[767][0]
        p[768] = 3.0 / 255.0; // b1
        p[769] = 4.0 / 2048.0; // W2 bucket 0, us
        p[770] = -5.0 / 2048.0; // W2 bucket 0, them
        p[771] = 7.0 / 2048.0; // W2 bucket 1, us
        p[772] = -8.0 / 2048.0; // W2 bucket 1, them
        p[773] = 6.0 / (255.0 * 2048.0); // b2 bucket 0
        p[774] = -9.0 / (255.0 * 2048.0); // b2 bucket 1
        let bytes = quantise(&net).unwrap().to_bytes();
        let at = |i: usize| i16::from_le_bytes([bytes[24 + 2 * i], bytes[25 + 2 * i]]);
        assert_eq!(
            (at(0), at(767), at(768), at(769), at(770), at(771), at(772)),
            (1, -2, 3, 4, -5, 7, -8)
        );
        assert_eq!(
            &bytes[..20],
            b"HVNNUE04\x01\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00"
        );
        assert_eq!(bytes[bytes.len() - 8..bytes.len() - 4], 6i32.to_le_bytes());
        assert_eq!(bytes[bytes.len() - 4..], (-9i32).to_le_bytes());
        assert_eq!(bytes[20..24], fnv1a(&bytes[24..]).to_le_bytes());
        // The input layout is the header's fourth word.
        let mirrored = quantise(&net.with_inputs(Inputs::MirroredByKing).unwrap()).unwrap();
        assert_eq!(mirrored.to_bytes()[16..20], 1u32.to_le_bytes());
    }

    #[test]
    fn a_net_read_back_quantises_to_itself() {
        let shape = Shape {
            hidden: 16,
            buckets: 3,
            inputs: Inputs::MirroredByKing,
        };
        let net = wide_net(shape, 11);
        let integer = quantise(&net).unwrap();
        let float = dequantise(&integer);
        assert_eq!(float.shape(), shape);
        assert_eq!(quantise(&float).unwrap(), integer);
        // Each weight moved by at most half a step of its grid.
        let steps = (INPUTS * 16 + 16, 3 * 2 * 16);
        for (i, (a, b)) in net.params().iter().zip(float.params()).enumerate() {
            let step = if i < steps.0 {
                1.0 / QA as f32
            } else if i < steps.0 + steps.1 {
                1.0 / QB as f32
            } else {
                1.0 / (QA * QB) as f32
            };
            assert!((a - b).abs() <= 0.5 * step * 1.001, "param {i}: {a} vs {b}");
        }
    }

    #[test]
    fn weights_that_could_overflow_are_refused() {
        let small = Shape {
            hidden: 4,
            buckets: 1,
            inputs: Inputs::Plain,
        };
        let mut net = FloatNetwork::random(small, 1);
        net.params_mut()[0] = 200.0;
        assert!(matches!(
            quantise(&net),
            Err(QuantiseError::Rounding { tensor: "W1", .. })
        ));
        // Within i16 on its own, but 32 such rows overflow the accumulator.
        let mut net = FloatNetwork::random(small, 1);
        net.params_mut()[4] = 10.0;
        assert!(matches!(
            quantise(&net),
            Err(QuantiseError::Net(NetError::AccumulatorOverflow {
                neuron: 0
            }))
        ));
        // W2 a little beyond the clip: 2.0 * 2048 = 4096.
        let mut net = FloatNetwork::random(small, 1);
        let w2 = net.params().len() - 2;
        net.params_mut()[w2] = 2.0;
        assert!(matches!(
            quantise(&net),
            Err(QuantiseError::Net(NetError::OutputWeightOutOfRange {
                value: 4096,
                ..
            }))
        ));
        net.clip();
        assert!(quantise(&net).is_ok());
        // W2 at the clip everywhere on a wide net quantises (the engine's
        // output sum is exact for any weight within the clip).
        let wide = Shape {
            hidden: 256,
            buckets: 1,
            inputs: Inputs::Plain,
        };
        let mut net = FloatNetwork::random(wide, 1);
        let n = net.params().len();
        for w in &mut net.params_mut()[n - 1 - 512..n - 1] {
            *w = CLIP;
        }
        assert!(quantise(&net).is_ok());
        // An output bias beyond i32 once scaled by QA * QB.
        let mut net = FloatNetwork::random(small, 1);
        let n = net.params().len();
        net.params_mut()[n - 1] = 1e6;
        assert!(matches!(
            quantise(&net),
            Err(QuantiseError::Rounding { tensor: "b2", .. })
        ));
    }
}
