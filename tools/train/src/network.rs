//! The float network of the contract in docs/nets.md: a perspective net
//! `(768 x K -> H) x 2 -> 1` with SCReLU, K king buckets and `B` output
//! buckets by material, its forward pass and its gradient.
//!
//! All parameters live in one flat vector, `[W1 | b1 | W2 | b2]` (W2 as B
//! rows of 2H, b2 as B biases), so that the
//! optimiser and the checkpoints treat them alike. W1 is feature-major (the
//! row of an input is contiguous), as in the file: a position touches only
//! its ~32 active rows.
//!
//! With king buckets W1 has 768 rows more than the file, shared by every
//! bucket: a piece on a square activates its bucket's row and the shared
//! one, so that what a piece is worth wherever the king stands is learnt
//! from every position, and each bucket's rows learn only the difference.
//! The file gets their sums ([`FloatNetwork::engine_w1`]).

use crate::data::{Features, Sample, INPUTS};
use chessio::PackedRecord;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Centipawns per unit of output (the engine's): `eval = out * SCALE`, and
/// the target's score is read through `sigmoid(score / SCALE)`.
pub const SCALE: f32 = eval::nnue::SCALE as f32;

/// W1, b1 and W2 are kept within +-CLIP during training: quantised by 255,
/// 33 rows of W1 and b1 sum to at most 16,665 (fits i16); quantised by
/// 2048, W2 stays within the engine's +-4064.
pub const CLIP: f32 = 1.98;

pub use eval::nnue::network::{MAX_BUCKETS, MAX_HIDDEN};
use eval::nnue::{output_bucket, Inputs};

/// A net's sizes, hidden neurons per perspective and output buckets, and
/// how its inputs see the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Shape {
    pub hidden: usize,
    pub buckets: usize,
    pub inputs: Inputs,
}

impl Shape {
    pub fn is_valid(self) -> bool {
        (1..=MAX_HIDDEN).contains(&self.hidden) && (1..=MAX_BUCKETS).contains(&self.buckets)
    }
}

#[derive(Clone, PartialEq, Debug)]
pub struct FloatNetwork {
    shape: Shape,
    params: Vec<f32>,
}

/// Where each tensor starts in the flat parameter vector.
struct Layout {
    b1: usize,
    w2: usize,
    b2: usize,
    len: usize,
}

/// The first row of the shared rows, when the inputs have them.
fn shared_rows(inputs: Inputs) -> Option<usize> {
    (inputs == Inputs::KingBuckets).then(|| inputs.features())
}

/// The rows of the trainer's W1: the file's and the shared ones.
fn rows(inputs: Inputs) -> usize {
    inputs.features() + shared_rows(inputs).map_or(0, |_| INPUTS)
}

fn layout(shape: Shape) -> Layout {
    let b1 = rows(shape.inputs) * shape.hidden;
    let w2 = b1 + shape.hidden;
    let b2 = w2 + shape.buckets * 2 * shape.hidden;
    Layout {
        b1,
        w2,
        b2,
        len: b2 + shape.buckets,
    }
}

impl FloatNetwork {
    /// Weights uniform in +-1/sqrt(fan-in), biases 0; with shared rows,
    /// those are drawn and the buckets' own rows start at 0.
    pub fn random(shape: Shape, seed: u64) -> FloatNetwork {
        let mut rng = StdRng::seed_from_u64(seed);
        let l = layout(shape);
        let mut params = vec![0.0; l.len];
        let a1 = 1.0 / (INPUTS as f32).sqrt();
        let a2 = 1.0 / ((2 * shape.hidden) as f32).sqrt();
        let drawn = shared_rows(shape.inputs).map_or(0, |first| first * shape.hidden);
        for w in &mut params[drawn..l.b1] {
            *w = rng.gen_range(-a1..a1);
        }
        for w in &mut params[l.w2..l.b2] {
            *w = rng.gen_range(-a2..a2);
        }
        FloatNetwork { shape, params }
    }

    /// A network from its flat parameters; `None` when the shape is out of
    /// range or the count does not match it.
    pub fn from_params(shape: Shape, params: Vec<f32>) -> Option<FloatNetwork> {
        (shape.is_valid() && params.len() == FloatNetwork::param_count(shape))
            .then_some(FloatNetwork { shape, params })
    }

    pub fn param_count(shape: Shape) -> usize {
        layout(shape).len
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The same parameters read with `inputs`: a net trained with plain
    /// inputs and mirrored positions is nearly symmetric left to right, a
    /// fair start for one mirrored by king file. A net without king buckets
    /// becomes one with them (its W1 the shared rows, the buckets' own 0),
    /// which evaluates as it did where its inputs were mirrored by king
    /// file. `None` where the sizes do not allow it (from king buckets to
    /// another layout).
    pub fn with_inputs(self, inputs: Inputs) -> Option<FloatNetwork> {
        let shape = Shape {
            inputs,
            ..self.shape
        };
        if rows(inputs) == rows(self.shape.inputs) {
            return Some(FloatNetwork { shape, ..self });
        }
        let first = shared_rows(inputs)?;
        if shared_rows(self.shape.inputs).is_some() {
            return None;
        }
        // The buckets' own rows, then the old W1 as the shared rows, then
        // the rest as it was.
        let mut params = vec![0.0; first * self.shape.hidden];
        params.extend_from_slice(&self.params);
        FloatNetwork::from_params(shape, params)
    }

    /// The first layer as the file holds it: with shared rows, each
    /// bucket's row plus the shared row of its piece and square, within
    /// +-CLIP.
    pub fn engine_w1(&self) -> Vec<f32> {
        let w1 = self.w1();
        let Some(first) = shared_rows(self.shape.inputs) else {
            return w1.to_vec();
        };
        let h = self.shape.hidden;
        let shared = &w1[first * h..];
        w1[..first * h]
            .chunks_exact(h)
            .enumerate()
            .flat_map(|(row, own)| {
                let base = &shared[(row % INPUTS) * h..][..h];
                own.iter()
                    .zip(base)
                    .map(|(a, b)| (a + b).clamp(-CLIP, CLIP))
            })
            .collect()
    }

    /// The same function with `hidden` neurons a perspective: the new
    /// neurons get random input weights (as [`FloatNetwork::random`] draws them)
    /// and zero output weights, so the net evaluates every position as
    /// before and training gives the new neurons their share. `None` when
    /// `hidden` is not above the net's own or out of range.
    pub fn widened(&self, hidden: usize, seed: u64) -> Option<FloatNetwork> {
        let old = self.shape.hidden;
        let shape = Shape {
            hidden,
            ..self.shape
        };
        if hidden <= old || !shape.is_valid() {
            return None;
        }
        let fresh = FloatNetwork::random(shape, seed);
        let mut params = fresh.params;
        let l = layout(shape);
        for (new_row, old_row) in params[..l.b1]
            .chunks_exact_mut(hidden)
            .zip(self.w1().chunks_exact(old))
        {
            new_row[..old].copy_from_slice(old_row);
        }
        params[l.b1..l.b1 + old].copy_from_slice(self.b1());
        for (new_row, old_row) in params[l.w2..l.b2]
            .chunks_exact_mut(hidden)
            .zip(self.w2().chunks_exact(old))
        {
            new_row[..old].copy_from_slice(old_row);
            new_row[old..].fill(0.0);
        }
        params[l.b2..].copy_from_slice(self.b2());
        Some(FloatNetwork { shape, params })
    }

    pub fn params(&self) -> &[f32] {
        &self.params
    }

    pub fn params_mut(&mut self) -> &mut [f32] {
        &mut self.params
    }

    pub fn w1(&self) -> &[f32] {
        &self.params[..layout(self.shape).b1]
    }

    pub fn b1(&self) -> &[f32] {
        let l = layout(self.shape);
        &self.params[l.b1..l.w2]
    }

    /// Bucket-major rows of 2H: the side to move's half, then the other side's.
    pub fn w2(&self) -> &[f32] {
        let l = layout(self.shape);
        &self.params[l.w2..l.b2]
    }

    /// One bias per bucket.
    pub fn b2(&self) -> &[f32] {
        &self.params[layout(self.shape).b2..]
    }

    /// Keeps W1, b1 and W2 within +-CLIP (b2 is an i32 in the file).
    pub fn clip(&mut self) {
        let b2 = layout(self.shape).b2;
        for w in &mut self.params[..b2] {
            *w = w.clamp(-CLIP, CLIP);
        }
    }

    /// The rows of W1 that input `i` activates: its own, and its shared
    /// row where there are some.
    fn rows_of(&self, i: u16) -> impl Iterator<Item = usize> {
        let i = usize::from(i);
        std::iter::once(i).chain(shared_rows(self.shape.inputs).map(|first| first + i % INPUTS))
    }

    /// Both accumulators: b1 plus the active rows of W1.
    fn accumulate(&self, features: &Features, us: &mut [f32], them: &mut [f32]) {
        let h = self.shape.hidden;
        let w1 = self.w1();
        us.copy_from_slice(self.b1());
        them.copy_from_slice(self.b1());
        for (acc, inputs) in [(us, features.us()), (them, features.them())] {
            for r in inputs.iter().flat_map(|&i| self.rows_of(i)) {
                let row = &w1[r * h..][..h];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += w;
                }
            }
        }
    }

    /// The output for the side to move (`out * SCALE` is the evaluation in
    /// centipawns).
    pub fn forward(&self, record: &PackedRecord) -> f32 {
        let h = self.shape.hidden;
        let mut us = vec![0.0; h];
        let mut them = vec![0.0; h];
        let features = Features::of(record, self.shape.inputs);
        self.accumulate(&features, &mut us, &mut them);
        self.output(self.bucket(&features), &us, &them)
    }

    /// The output bucket of a position, the engine's choice.
    fn bucket(&self, features: &Features) -> usize {
        output_bucket(features.us().len() as u32, self.shape.buckets)
    }

    /// The output layer of `bucket`: the side to move's weights and the
    /// other side's.
    fn output_weights(&self, bucket: usize) -> (&[f32], &[f32]) {
        let h = self.shape.hidden;
        self.w2()[bucket * 2 * h..(bucket + 1) * 2 * h].split_at(h)
    }

    fn output(&self, bucket: usize, us: &[f32], them: &[f32]) -> f32 {
        let (w_us, w_them) = self.output_weights(bucket);
        let half = |acc: &[f32], w: &[f32]| -> f32 {
            acc.iter().zip(w).map(|(&a, &w)| screlu(a) * w).sum::<f32>()
        };
        self.b2()[bucket] + half(us, w_us) + half(them, w_them)
    }
}

pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What `sigmoid(out)` is fitted to: the search score's win probability
/// blended with the game's result, both for the side to move.
pub fn target(record: &PackedRecord, lambda: f32) -> f32 {
    let score = sigmoid(f32::from(record.score()) / SCALE);
    (1.0 - lambda) * score + lambda * record.result().points()
}

/// The squared error of one position.
pub fn loss(net: &FloatNetwork, record: &PackedRecord, lambda: f32) -> f32 {
    squared_error(net.forward(record), record, lambda)
}

/// The squared error of an evaluation `out` (in the net's output units,
/// centipawns / SCALE) against the record's target: the loss every
/// evaluation is measured by, the float net's and the engine's alike.
pub fn squared_error(out: f32, record: &PackedRecord, lambda: f32) -> f32 {
    let e = sigmoid(out) - target(record, lambda);
    e * e
}

/// Adds the gradient of the summed squared error over `samples` to `grad`
/// (laid out like the parameters) and returns that summed error. Only the
/// rows of W1 that a position's inputs name are touched.
pub fn backprop(net: &FloatNetwork, samples: &[Sample], lambda: f32, grad: &mut [f32]) -> f64 {
    let h = net.shape.hidden;
    let l = layout(net.shape);
    let (g_w1, rest) = grad.split_at_mut(l.b1);
    let (g_b1, rest) = rest.split_at_mut(h);
    let (g_w2, g_b2) = rest.split_at_mut(l.b2 - l.w2);
    let mut acc_us = vec![0.0; h];
    let mut acc_them = vec![0.0; h];
    let mut d_us = vec![0.0; h];
    let mut d_them = vec![0.0; h];
    let mut total = 0.0f64;
    for sample in samples {
        let features = sample.features(net.shape.inputs);
        net.accumulate(&features, &mut acc_us, &mut acc_them);
        let bucket = net.bucket(&features);
        let p = sigmoid(net.output(bucket, &acc_us, &acc_them));
        let error = p - target(&sample.record, lambda);
        total += f64::from(error * error);
        let d_out = 2.0 * error * p * (1.0 - p);
        g_b2[bucket] += d_out;
        let (w2_us, w2_them) = net.output_weights(bucket);
        let (g_w2_us, g_w2_them) = g_w2[bucket * 2 * h..(bucket + 1) * 2 * h].split_at_mut(h);
        for (acc, w2, g_w2, d) in [
            (&acc_us, w2_us, g_w2_us, &mut d_us),
            (&acc_them, w2_them, g_w2_them, &mut d_them),
        ] {
            for j in 0..h {
                let a = acc[j];
                let c = a.clamp(0.0, 1.0);
                g_w2[j] += d_out * c * c;
                // SCReLU's slope is 2x inside (0, 1) and 0 outside.
                d[j] = if a > 0.0 && a < 1.0 {
                    d_out * w2[j] * 2.0 * a
                } else {
                    0.0
                };
            }
        }
        for ((g, du), dt) in g_b1.iter_mut().zip(&d_us).zip(&d_them) {
            *g += du + dt;
        }
        for (inputs, d) in [(features.us(), &d_us), (features.them(), &d_them)] {
            for r in inputs.iter().flat_map(|&i| net.rows_of(i)) {
                let row = &mut g_w1[r * h..][..h];
                for (g, d) in row.iter_mut().zip(d) {
                    *g += d;
                }
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use chessio::Record;

    fn records() -> Vec<PackedRecord> {
        [
            "1bnrbkqr/pp2pppp/2pp1Q2/3n4/8/5P2/PPPPP1PP/NBNRBRK1 w kq - 2 5 | 87 | 0.0",
            "bnnqrb1r/pp1pp1pp/2p2pk1/8/P2P4/2P5/NP2PPPP/BNQ1RBKR b KQ - 0 5 | -85 | 1.0",
            "8/3p4/R5p1/5p1p/4k2P/2K1P1P1/5P2/5r2 w - - 3 61 | -86 | 0.5",
            "3r3r/p2p1kp1/6Rp/1p2q3/5p2/2P2P2/1PB1P2P/B2K2Q1 b - - 0 22 | -157 | 0.0",
        ]
        .iter()
        .map(|l| l.parse::<Record>().unwrap().pack())
        .collect()
    }

    #[test]
    fn a_widened_net_evaluates_as_before_and_keeps_its_old_weights() {
        let shape = Shape {
            hidden: 8,
            buckets: 8,
            inputs: Inputs::Plain,
        };
        let mut net = FloatNetwork::random(shape, 3);
        let l = layout(shape);
        for (j, b) in net.params_mut()[l.b1..l.w2].iter_mut().enumerate() {
            *b = 0.05 * j as f32;
        }
        for (j, b) in net.params_mut()[l.b2..].iter_mut().enumerate() {
            *b = 0.01 * j as f32;
        }
        let wide = net.widened(12, 5).unwrap();
        assert_eq!(wide.shape().hidden, 12);
        for record in records() {
            let (a, b) = (net.forward(&record), wide.forward(&record));
            assert!((a - b).abs() < 1e-6, "{a} vs {b}");
        }
        assert_eq!(&wide.w1()[..8], &net.w1()[..8]);
        assert_eq!(&wide.w1()[12..20], &net.w1()[8..16]);
        assert!(wide.w1()[8..12].iter().any(|&w| w != 0.0));
        assert_eq!(wide.b2(), net.b2());
        assert!(net.widened(8, 5).is_none());
        assert!(net.widened(MAX_HIDDEN + 1, 5).is_none());
    }

    /// The gradient of the summed loss over `records`, its entries at
    /// `indices` checked against finite differences.
    fn gradient_checked(
        net: &FloatNetwork,
        records: &[PackedRecord],
        lambda: f32,
        indices: &[usize],
    ) -> Vec<f32> {
        let samples: Vec<Sample> = records
            .iter()
            .map(|&record| Sample {
                record,
                mirrored: false,
            })
            .collect();
        let mut grad = vec![0.0; FloatNetwork::param_count(net.shape())];
        backprop(net, &samples, lambda, &mut grad);
        let total = |net: &FloatNetwork| -> f64 {
            records
                .iter()
                .map(|r| f64::from(loss(net, r, lambda)))
                .sum()
        };
        for &index in indices {
            let eps = 1e-3;
            let mut plus = net.clone();
            plus.params_mut()[index] += eps;
            let mut minus = net.clone();
            minus.params_mut()[index] -= eps;
            let numeric = (total(&plus) - total(&minus)) / (2.0 * f64::from(eps));
            let analytic = f64::from(grad[index]);
            assert!(
                // f32 rounding in the finite difference: a wrong gradient is
                // off by far more.
                (numeric - analytic).abs() <= 0.01 * numeric.abs() + 1e-5,
                "param {index}: numeric {numeric}, analytic {analytic}"
            );
        }
        grad
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let records = records();
        let lambda = 0.3;
        let shape = Shape {
            hidden: 8,
            buckets: 8,
            inputs: Inputs::Plain,
        };
        let mut net = FloatNetwork::random(shape, 7);
        // Biases that put some neurons inside SCReLU's slope.
        let l = layout(shape);
        for (j, b) in net.params_mut()[l.b1..l.w2].iter_mut().enumerate() {
            *b = 0.1 + 0.1 * j as f32;
        }
        let f = Features::of(&records[0], Inputs::Plain);
        let w1_active = usize::from(f.us()[3]) * 8 + 2;
        let buckets: Vec<usize> = records
            .iter()
            .map(|r| net.bucket(&Features::of(r, Inputs::Plain)))
            .collect();
        assert_eq!(buckets, [7, 7, 2, 4]);
        let (w2_7, w2_2) = (l.w2 + 7 * 16, l.w2 + 2 * 16);
        let checked = [
            w1_active,
            l.b1 + 3,
            w2_7 + 1,
            w2_7 + 8 + 5,
            w2_2 + 4,
            l.b2 + 7,
            l.b2 + 4,
        ];
        let grad = gradient_checked(&net, &records, lambda, &checked);
        // A bucket no position falls in gets no gradient.
        assert!(grad[l.w2..l.w2 + 16].iter().all(|&g| g == 0.0));
        assert_eq!(grad[l.b2], 0.0);
        assert!(grad[l.b2 + 7] != 0.0);
        // A row no position uses gets no gradient.
        let used: Vec<u16> = records
            .iter()
            .flat_map(|r| {
                let f = Features::of(r, Inputs::Plain);
                [f.us().to_vec(), f.them().to_vec()].concat()
            })
            .collect();
        let unused = (0..INPUTS as u16).find(|i| !used.contains(i)).unwrap();
        let row = usize::from(unused) * 8;
        assert!(grad[row..row + 8].iter().all(|&g| g == 0.0));
        assert!(grad[w1_active] != 0.0);
    }

    #[test]
    fn king_buckets_learn_through_shared_rows_folded_into_the_file() {
        let records = records();
        let shape = Shape {
            hidden: 8,
            buckets: 2,
            inputs: Inputs::KingBuckets,
        };
        let mut net = FloatNetwork::random(shape, 3);
        let l = layout(shape);
        assert_eq!(l.b1, (4 + 1) * INPUTS * 8);
        // The buckets' own rows start at 0, the shared ones drawn.
        assert!(net.params()[..4 * INPUTS * 8].iter().all(|&w| w == 0.0));
        assert!(net.params()[4 * INPUTS * 8..l.b1].iter().any(|&w| w != 0.0));
        let mut rng = StdRng::seed_from_u64(4);
        for w in &mut net.params_mut()[..4 * INPUTS * 8] {
            *w = rng.gen_range(-0.1..0.1);
        }
        for (j, b) in net.params_mut()[l.b1..l.w2].iter_mut().enumerate() {
            *b = 0.1 + 0.1 * j as f32;
        }
        // The file's rows are the sums.
        let folded = net.engine_w1();
        assert_eq!(folded.len(), 4 * INPUTS * 8);
        let row = 2 * INPUTS + 100;
        for j in 0..8 {
            let shared = net.params()[(4 * INPUTS + 100) * 8 + j];
            assert_eq!(folded[row * 8 + j], net.params()[row * 8 + j] + shared);
        }
        // The gradient reaches both rows of an active input.
        let input = usize::from(Features::of(&records[0], Inputs::KingBuckets).us()[3]);
        let rows = [input * 8 + 2, (4 * INPUTS + input % INPUTS) * 8 + 2];
        let grad = gradient_checked(&net, &records, 0.0, &rows);
        assert!(rows.iter().all(|&i| grad[i] != 0.0));
    }

    #[test]
    fn a_net_given_king_buckets_evaluates_as_before() {
        let mirrored = Shape {
            hidden: 8,
            buckets: 4,
            inputs: Inputs::MirroredByKing,
        };
        let net = FloatNetwork::random(mirrored, 9);
        let bucketed = net.clone().with_inputs(Inputs::KingBuckets).unwrap();
        assert_eq!(bucketed.shape().inputs, Inputs::KingBuckets);
        for r in &records() {
            assert_eq!(bucketed.forward(r), net.forward(r));
        }
        assert!(bucketed.with_inputs(Inputs::MirroredByKing).is_none());
    }

    #[test]
    fn clipping_keeps_weights_in_range_but_not_the_output_bias() {
        let mut net = FloatNetwork::random(
            Shape {
                hidden: 4,
                buckets: 2,
                inputs: Inputs::Plain,
            },
            1,
        );
        for p in net.params_mut() {
            *p = 5.0;
        }
        net.clip();
        assert!(net
            .w1()
            .iter()
            .chain(net.b1())
            .chain(net.w2())
            .all(|&w| w == CLIP));
        assert_eq!(net.b2(), [5.0, 5.0]);
    }

    #[test]
    fn the_output_is_from_the_side_to_move() {
        // Mirrored colours with the other side to move: the same evaluation.
        let a: Record = "4k3/8/8/8/8/3p4/8/4K3 w - - 0 1 | 0 | 0.5".parse().unwrap();
        let b: Record = "4k3/8/3P4/8/8/8/8/4K3 b - - 0 1 | 0 | 0.5".parse().unwrap();
        let shape = Shape {
            hidden: 16,
            buckets: 4,
            inputs: Inputs::Plain,
        };
        let net = FloatNetwork::random(shape, 3);
        let (x, y) = (net.forward(&a.pack()), net.forward(&b.pack()));
        assert!((x - y).abs() < 1e-6, "{x} {y}");
        assert!(FloatNetwork::from_params(shape, net.params().to_vec()).is_some());
        assert!(FloatNetwork::from_params(shape, vec![0.0; 3]).is_none());
        let too_many = Shape {
            hidden: 16,
            buckets: MAX_BUCKETS + 1,
            inputs: Inputs::Plain,
        };
        let params = vec![0.0; FloatNetwork::param_count(too_many)];
        assert!(FloatNetwork::from_params(too_many, params).is_none());
    }
}
