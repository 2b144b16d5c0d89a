//! The evaluation rebuilt from feature counts, its loss, its gradient and
//! the Adam update.

use crate::data::TracedPosition;
use eval::features::{KS_START, NUM_FEATURES, NUM_SAFETY};
use eval::S;
use rayon::prelude::*;

/// What the prediction is compared with.
#[derive(Clone, Copy)]
pub struct Objective {
    /// The logistic scale: prediction = sigmoid(k * eval / 400).
    pub k: f64,
    /// The weight of the game result in the target; the rest is the search score.
    pub lambda: f64,
    /// The logistic scale of the search scores, fitted to the results on its
    /// own: scores from another engine need not share the evaluation's scale.
    pub score_k: f64,
    /// Interpolate without the endgame scale factor (the old evaluation had none).
    pub unscaled: bool,
}

#[inline]
fn sigmoid(x: f64, k: f64) -> f64 {
    1.0 / (1.0 + (-k * x / 400.0).exp())
}

/// The `k` in [0.05, 5] that minimises `loss`, by golden-section search.
fn golden_section(loss: impl Fn(f64) -> f64) -> f64 {
    let (mut a, mut b) = (0.05f64, 5.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (loss(c), loss(d));
    while b - a > 1e-4 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = loss(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = loss(d);
        }
    }
    (a + b) / 2.0
}

/// The logistic scale that turns the positions' search scores into the
/// best prediction of their results.
pub fn fit_score_k(positions: &[TracedPosition]) -> f64 {
    golden_section(|k| {
        let sum: f64 = positions
            .par_iter()
            .map(|p| {
                let e = sigmoid(f64::from(p.score), k) - f64::from(p.result);
                e * e
            })
            .sum();
        sum / positions.len().max(1) as f64
    })
}

impl Objective {
    #[inline]
    fn target(&self, p: &TracedPosition) -> f64 {
        let r = f64::from(p.result);
        if self.lambda >= 1.0 {
            r
        } else {
            self.lambda * r + (1.0 - self.lambda) * sigmoid(f64::from(p.score), self.score_k)
        }
    }
}

/// Weights as floats: `w[2 * f]` middlegame, `w[2 * f + 1]` endgame.
pub struct Model {
    w: Vec<f64>,
    /// The starting weights, which the L2 penalty pulls towards.
    w0: Vec<f64>,
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
}

const CHUNK: usize = 4096;

impl Model {
    pub fn new(start: &[S]) -> Model {
        let w = start
            .iter()
            .flat_map(|s| [f64::from(s.mg), f64::from(s.eg)])
            .collect::<Vec<_>>();
        let n = w.len();
        Model {
            w0: w.clone(),
            w,
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    /// King-danger sums (middlegame, endgame) against one king.
    #[inline]
    fn safety_sum(&self, counts: &[i16; NUM_SAFETY]) -> (f64, f64) {
        let (mut mg, mut eg) = (0.0, 0.0);
        for (j, &n) in counts.iter().enumerate() {
            let n = f64::from(n);
            mg += n * self.w[2 * (KS_START + j)];
            eg += n * self.w[2 * (KS_START + j) + 1];
        }
        (mg, eg)
    }

    /// The evaluation from White's side.
    #[inline]
    pub fn eval(&self, p: &TracedPosition, unscaled: bool) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(f, n) in &p.linear {
            let n = f64::from(n);
            mg += n * self.w[2 * f as usize];
            eg += n * self.w[2 * f as usize + 1];
        }
        for (c, counts) in p.safety.iter().enumerate() {
            if let Some(counts) = counts {
                let sign = if c == 0 { 1.0 } else { -1.0 };
                let (smg, seg) = self.safety_sum(counts);
                mg -= sign * smg * smg.max(0.0) / 720.0;
                eg -= sign * seg.max(0.0) / 20.0;
            }
        }
        let egf = if unscaled { p.eg_unscaled } else { p.eg };
        mg * f64::from(p.mg) + eg * f64::from(egf)
    }

    /// Mean squared error of the prediction against the objective's target.
    pub fn loss(&self, positions: &[TracedPosition], obj: &Objective) -> f64 {
        if positions.is_empty() {
            return 0.0;
        }
        let sum: f64 = positions
            .par_iter()
            .map(|p| {
                let e = sigmoid(self.eval(p, obj.unscaled), obj.k) - obj.target(p);
                e * e
            })
            .sum();
        sum / positions.len() as f64
    }

    /// The `k` that fits the results best.
    pub fn fit_k(&self, positions: &[TracedPosition], unscaled: bool) -> f64 {
        golden_section(|k| {
            self.loss(
                positions,
                &Objective {
                    k,
                    lambda: 1.0,
                    score_k: k,
                    unscaled,
                },
            )
        })
    }

    /// The gradient of the mean loss, and the loss.
    fn gradient(&self, positions: &[TracedPosition], obj: &Objective) -> (Vec<f64>, f64) {
        let n = positions.len() as f64;
        let (grad, loss) = positions
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut grad = vec![0.0; 2 * NUM_FEATURES];
                let mut loss = 0.0;
                for p in chunk {
                    let e = self.eval(p, obj.unscaled);
                    let s = sigmoid(e, obj.k);
                    let err = s - obj.target(p);
                    loss += err * err;
                    let g = 2.0 * err * s * (1.0 - s) * obj.k / 400.0;
                    let gm = g * f64::from(p.mg);
                    let ge = g * f64::from(if obj.unscaled { p.eg_unscaled } else { p.eg });
                    for &(f, c) in &p.linear {
                        let c = f64::from(c);
                        grad[2 * f as usize] += gm * c;
                        grad[2 * f as usize + 1] += ge * c;
                    }
                    for (side, counts) in p.safety.iter().enumerate() {
                        if let Some(counts) = counts {
                            let sign = if side == 0 { 1.0 } else { -1.0 };
                            let (smg, seg) = self.safety_sum(counts);
                            let dmg = -sign * 2.0 * smg.max(0.0) / 720.0;
                            let deg = if seg > 0.0 { -sign / 20.0 } else { 0.0 };
                            for (j, &c) in counts.iter().enumerate() {
                                let c = f64::from(c);
                                grad[2 * (KS_START + j)] += gm * dmg * c;
                                grad[2 * (KS_START + j) + 1] += ge * deg * c;
                            }
                        }
                    }
                }
                (grad, loss)
            })
            .reduce(
                || (vec![0.0; 2 * NUM_FEATURES], 0.0),
                |(mut a, la), (b, lb)| {
                    for (x, y) in a.iter_mut().zip(&b) {
                        *x += y;
                    }
                    (a, la + lb)
                },
            );
        (grad.into_iter().map(|g| g / n).collect(), loss / n)
    }

    /// One Adam step on the full batch, with an L2 penalty `l2 * (w - w0)^2`
    /// per weight; returns the loss before the step (without the penalty).
    pub fn step(&mut self, positions: &[TracedPosition], obj: &Objective, lr: f64, l2: f64) -> f64 {
        const B1: f64 = 0.9;
        const B2: f64 = 0.999;
        const EPS: f64 = 1e-8;
        let (mut grad, loss) = self.gradient(positions, obj);
        if l2 > 0.0 {
            for ((g, w), w0) in grad.iter_mut().zip(&self.w).zip(&self.w0) {
                *g += 2.0 * l2 * (w - w0);
            }
        }
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        for (((w, m), v), g) in self
            .w
            .iter_mut()
            .zip(&mut self.m)
            .zip(&mut self.v)
            .zip(&grad)
        {
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            let mh = *m / c1;
            let vh = *v / c2;
            *w -= lr * mh / (vh.sqrt() + EPS);
        }
        loss
    }

    /// A copy of the weights.
    pub fn weights(&self) -> Vec<f64> {
        self.w.clone()
    }

    /// Sets the weights (to a copy taken earlier).
    pub fn set_weights(&mut self, w: &[f64]) {
        self.w.copy_from_slice(w);
    }

    /// The weights rounded to integers.
    pub fn rounded(&self) -> Vec<S> {
        self.w
            .chunks(2)
            .map(|p| S::new(p[0].round() as i32, p[1].round() as i32))
            .collect()
    }
}
