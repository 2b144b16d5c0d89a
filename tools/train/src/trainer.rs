//! The training loop: minibatches of a freshly shuffled order each epoch,
//! gradients computed in parallel over fixed chunks of the batch and summed
//! in a fixed order (so that a seed gives the same net on any number of
//! threads), AdamW, a step learning-rate schedule, the validation loss per
//! epoch and checkpoints.

use crate::adamw::AdamW;
use crate::checkpoint::Checkpoint;
use crate::data::Sample;
use crate::network::{backprop, loss, FloatNetwork, Shape};
use chessio::PackedRecord;
use eval::nnue::Inputs;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use std::time::Instant;

/// Positions per gradient chunk: the unit of parallel work in a batch.
const CHUNK: usize = 1024;

#[derive(Clone, Debug)]
pub struct Settings {
    pub shape: Shape,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    /// Epochs after which the learning rate is multiplied by `lr_gamma`.
    pub lr_drops: Vec<usize>,
    pub lr_gamma: f32,
    pub weight_decay: f32,
    /// The result's share of the target.
    pub lambda: f32,
    /// Mirror each position without castling rights left to right with
    /// probability one half, afresh every epoch.
    pub mirror: bool,
    pub seed: u64,
    /// Save a checkpoint every this many epochs (0: only at the end).
    pub save_every: usize,
}

impl Default for Settings {
    /// The schedule that trained the best nets on 1.6-2.2 million
    /// positions (docs/nets.md, "The target and the schedule"): the search
    /// score alone as the target (the game result, lambda 0.3, cost some
    /// 80 Elo at that size) and 60 epochs with drops after 40 and 55.
    fn default() -> Settings {
        Settings {
            shape: Shape {
                hidden: 128,
                buckets: 1,
                inputs: Inputs::Plain,
            },
            epochs: 60,
            batch: 16384,
            lr: 0.001,
            lr_drops: vec![40, 55],
            lr_gamma: 0.1,
            weight_decay: 0.3,
            lambda: 0.0,
            mirror: true,
            seed: 1,
            save_every: 10,
        }
    }
}

impl Settings {
    /// The learning rate of an epoch (from 1).
    pub fn lr_at(&self, epoch: usize) -> f32 {
        let drops = self.lr_drops.iter().filter(|&&d| epoch > d).count();
        self.lr * self.lr_gamma.powi(drops as i32)
    }
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    pub epoch: usize,
    pub lr: f32,
    pub train_loss: f64,
    pub validation_loss: Option<f64>,
    pub positions_per_second: f64,
}

/// Where training starts: a fresh net or a checkpoint.
pub struct Start {
    pub net: FloatNetwork,
    pub optimiser: AdamW,
    pub epoch: usize,
}

impl Start {
    pub fn fresh(settings: &Settings) -> Start {
        let net = FloatNetwork::random(settings.shape, settings.seed);
        let optimiser = AdamW::new(net.params().len());
        Start {
            net,
            optimiser,
            epoch: 0,
        }
    }
}

/// The mean squared error over `records`, summed in a fixed order.
pub fn mean_loss(net: &FloatNetwork, records: &[PackedRecord], lambda: f32) -> f64 {
    let sums: Vec<f64> = records
        .par_chunks(CHUNK)
        .map(|c| c.iter().map(|r| f64::from(loss(net, r, lambda))).sum())
        .collect();
    sums.iter().sum::<f64>() / records.len().max(1) as f64
}

/// The order of an epoch's positions and which are mirrored: the seed and
/// the epoch decide them, not the epochs before, so that a resumed run
/// shuffles as the first would have.
fn epoch_samples(data: &[PackedRecord], settings: &Settings, epoch: usize, out: &mut Vec<Sample>) {
    let mut order: Vec<u32> = (0..data.len() as u32).collect();
    let mut rng =
        StdRng::seed_from_u64(settings.seed ^ (epoch as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    order.shuffle(&mut rng);
    out.clear();
    out.extend(order.iter().map(|&i| {
        let record = data[i as usize];
        let mirrored = settings.mirror && record.castling_rooks().is_empty() && rng.gen::<bool>();
        Sample { record, mirrored }
    }));
}

/// Runs the epochs after `start.epoch` up to `settings.epochs`, calling
/// `report` after each and `save` at each checkpoint; returns the net.
pub fn train(
    settings: &Settings,
    start: Start,
    data: &[PackedRecord],
    validation: &[PackedRecord],
    mut report: impl FnMut(&EpochReport),
    mut save: impl FnMut(usize, &Checkpoint),
) -> Checkpoint {
    let Start {
        mut net,
        mut optimiser,
        epoch: first,
    } = start;
    let params = net.params().len();
    let chunks_per_batch = settings.batch.div_ceil(CHUNK);
    let mut grads: Vec<Vec<f32>> = vec![vec![0.0; params]; chunks_per_batch];
    let mut shuffled = Vec::with_capacity(data.len());
    for epoch in first + 1..=settings.epochs {
        let started = Instant::now();
        epoch_samples(data, settings, epoch, &mut shuffled);
        let lr = settings.lr_at(epoch);
        let mut total = 0.0f64;
        for batch in shuffled.chunks(settings.batch) {
            let used = batch.len().div_ceil(CHUNK);
            let losses: Vec<f64> = grads[..used]
                .par_iter_mut()
                .zip(batch.par_chunks(CHUNK))
                .map(|(g, chunk)| {
                    g.fill(0.0);
                    backprop(&net, chunk, settings.lambda, g)
                })
                .collect();
            total += losses.iter().sum::<f64>();
            let (sum, rest) = grads[..used].split_at_mut(1);
            let scale = 1.0 / batch.len() as f32;
            sum[0]
                .par_chunks_mut(CHUNK)
                .enumerate()
                .for_each(|(k, dst)| {
                    for g in rest.iter() {
                        for (d, s) in dst.iter_mut().zip(&g[k * CHUNK..]) {
                            *d += s;
                        }
                    }
                    for d in dst.iter_mut() {
                        *d *= scale;
                    }
                });
            optimiser.step(net.params_mut(), &sum[0], lr, settings.weight_decay);
            net.clip();
        }
        let seconds = started.elapsed().as_secs_f64();
        let validation_loss =
            (!validation.is_empty()).then(|| mean_loss(&net, validation, settings.lambda));
        report(&EpochReport {
            epoch,
            lr,
            train_loss: total / data.len().max(1) as f64,
            validation_loss,
            positions_per_second: data.len() as f64 / seconds.max(1e-9),
        });
        let last = epoch == settings.epochs;
        if last || (settings.save_every > 0 && epoch % settings.save_every == 0) {
            let checkpoint = Checkpoint {
                net: net.clone(),
                optimiser: optimiser.clone(),
                epoch,
            };
            save(epoch, &checkpoint);
        }
    }
    Checkpoint {
        net,
        optimiser,
        epoch: settings.epochs.max(first),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::{Board, Color, PieceKind};
    use chessio::{GameResult, Record};
    use rand::Rng;

    /// Positions from random games, scored by material for the side to
    /// move, the result following the score: something a net can learn.
    fn material_positions(count: usize, seed: u64) -> Vec<PackedRecord> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let mut board = Board::startpos();
            for _ in 0..rng.gen_range(10..160) {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                board.make_move(moves.as_slice()[rng.gen_range(0..moves.len())]);
            }
            let values = [100, 300, 300, 500, 900, 0];
            let material = |c: Color| -> i32 {
                PieceKind::ALL
                    .iter()
                    .map(|&k| values[k.index()] * board.pieces_of(c, k).count() as i32)
                    .sum()
            };
            let us = board.side_to_move();
            let score = (material(us) - material(!us)).clamp(-3000, 3000);
            let result = match score {
                s if s > 150 => GameResult::Win,
                s if s < -150 => GameResult::Loss,
                _ => GameResult::Draw,
            };
            out.push(Record::new(board, score as i16, result).unwrap().pack());
        }
        out
    }

    fn settings(epochs: usize) -> Settings {
        Settings {
            shape: Shape {
                hidden: 16,
                buckets: 2,
                inputs: Inputs::Plain,
            },
            epochs,
            batch: 256,
            lr: 0.01,
            lr_drops: vec![epochs * 3 / 4],
            lr_gamma: 0.1,
            weight_decay: 0.01,
            lambda: 0.3,
            mirror: true,
            seed: 11,
            save_every: 2,
        }
    }

    #[test]
    fn training_lowers_the_loss() {
        let data = material_positions(3000, 1);
        let validation = material_positions(500, 2);
        let s = settings(8);
        let start = Start::fresh(&s);
        let before = mean_loss(&start.net, &validation, s.lambda);
        let mut reports = Vec::new();
        let mut saved = Vec::new();
        let end = train(
            &s,
            start,
            &data,
            &validation,
            |r| reports.push(*r),
            |e, _| saved.push(e),
        );
        let after = mean_loss(&end.net, &validation, s.lambda);
        assert!(after < 0.5 * before, "validation loss {before} -> {after}");
        assert_eq!(reports.len(), 8);
        assert!(reports[7].train_loss < reports[0].train_loss);
        assert_eq!(reports[7].validation_loss, Some(after));
        assert_eq!(saved, [2, 4, 6, 8]);
        assert!((reports[6].lr - 0.001).abs() < 1e-9);
        assert_eq!(reports[5].lr, 0.01);
    }

    #[test]
    fn a_seed_gives_the_same_net_and_a_resumed_run_matches() {
        let data = material_positions(1500, 3);
        let s = settings(4);
        let full = train(&s, Start::fresh(&s), &data, &[], |_| {}, |_, _| {});
        let again = train(&s, Start::fresh(&s), &data, &[], |_| {}, |_, _| {});
        assert_eq!(full.net, again.net);
        let mut at_two = None;
        train(
            &Settings {
                epochs: 2,
                ..s.clone()
            },
            Start::fresh(&s),
            &data,
            &[],
            |_| {},
            |_, c| {
                at_two = Some(Checkpoint::from_bytes(&c.to_bytes()).unwrap());
            },
        );
        let c = at_two.unwrap();
        let resumed = train(
            &s,
            Start {
                net: c.net,
                optimiser: c.optimiser,
                epoch: c.epoch,
            },
            &data,
            &[],
            |_| {},
            |_, _| {},
        );
        assert_eq!(resumed.net, full.net);
        let one_thread = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| train(&s, Start::fresh(&s), &data, &[], |_| {}, |_, _| {}));
        assert_eq!(one_thread.net, full.net);
    }
}
