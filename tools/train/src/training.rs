//! `hoeven train train`: a net fitted to binary records, from random
//! weights, a net file or a checkpoint, with checkpoints on the way.

use crate::adamw::AdamW;
use crate::args::TrainArgs;
use crate::checkpoint::Checkpoint;
use crate::commands::load_all;
use crate::error::Error;
use crate::network::Shape;
use crate::quantise;
use crate::trainer::{self, Settings, Start};
use chessio::PackedRecord;
use eval::nnue::Inputs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn settings(args: &TrainArgs) -> Settings {
    Settings {
        shape: Shape {
            hidden: args.hidden,
            buckets: args.output_buckets,
            inputs: if args.king_buckets {
                Inputs::KingBuckets
            } else if args.king_mirror {
                Inputs::MirroredByKing
            } else {
                Inputs::Plain
            },
        },
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        lr_drops: args.lr_drop.0.clone(),
        lr_gamma: args.lr_gamma,
        weight_decay: args.weight_decay,
        lambda: args.lambda,
        mirror: !args.no_mirror,
        seed: args.seed,
        save_every: args.save_every,
    }
}

/// A net file's weights, brought to the inputs and width asked for.
fn start_from_net(path: &Path, settings: &Settings) -> Result<Start, Error> {
    let net = eval::nnue::Network::load(path).map_err(|e| Error::Net(path.into(), e))?;
    let mut net = quantise::dequantise(&net);
    let inputs = settings.shape.inputs;
    if net.shape().inputs != inputs && inputs == Inputs::KingBuckets {
        net = net
            .with_inputs(inputs)
            .ok_or_else(|| Error::NoKingBuckets(path.into()))?;
        println!(
            "{}: given king buckets, its first layer shared by all",
            path.display()
        );
    }
    let hidden = settings.shape.hidden;
    if net.shape().hidden < hidden {
        net = net
            .widened(hidden, settings.seed)
            .ok_or_else(|| Error::NoWidening(path.into(), hidden))?;
        println!(
            "{}: widened to {hidden} neurons a perspective",
            path.display()
        );
    }
    Ok(Start {
        optimiser: AdamW::new(net.params().len()),
        net,
        epoch: 0,
    })
}

/// A checkpoint's net, its inputs read as asked, with its optimiser.
fn start_from_checkpoint(path: &Path, settings: &Settings) -> Result<Start, Error> {
    let c = Checkpoint::load(path).map_err(|e| Error::Checkpoint(path.into(), e))?;
    let inputs = settings.shape.inputs;
    if c.net.shape().inputs != inputs {
        println!(
            "{}: its net's inputs read as {inputs:?} from now on",
            path.display()
        );
    }
    Ok(Start {
        net: c
            .net
            .with_inputs(inputs)
            .ok_or_else(|| Error::NoInputs(path.into(), inputs))?,
        optimiser: c.optimiser,
        epoch: c.epoch,
    })
}

/// Writes the net in the engine's format, checked against the float net.
fn write_net(
    path: &Path,
    checkpoint: &Checkpoint,
    sample: &[PackedRecord],
    lambda: f32,
) -> Result<(), Error> {
    let bytes = quantise::quantise(&checkpoint.net)
        .map_err(Error::Quantise)?
        .to_bytes();
    // The file as the engine will read it.
    let back =
        Arc::new(eval::nnue::Network::from_bytes(&bytes).map_err(|e| Error::Net(path.into(), e))?);
    let a = quantise::agreement(&checkpoint.net, &back, sample, lambda).map_err(Error::Record)?;
    std::fs::write(path, &bytes).map_err(|e| Error::Write(path.into(), e))?;
    println!(
        "wrote {} (hash {:08x}); integer vs float evaluation over {} positions: \
         mean {:.2} cp, max {:.1} cp, loss {:.6} vs {:.6}",
        path.display(),
        back.hash(),
        sample.len(),
        a.mean,
        a.max,
        a.integer_loss,
        a.float_loss
    );
    Ok(())
}

pub fn train(args: &TrainArgs) -> Result<(), Error> {
    let settings = settings(args);
    if args.threads > 0 {
        rayon::ThreadPoolBuilder::new()
            .num_threads(args.threads)
            .build_global()
            .map_err(Error::Threads)?;
    }
    let data = load_all(&args.data)?;
    let validation = load_all(&args.validation)?;
    let (start, from) = match (&args.resume, &args.init) {
        (Some(path), _) => (start_from_checkpoint(path, &settings)?, path),
        (None, Some(path)) => (start_from_net(path, &settings)?, path),
        (None, None) => (Start::fresh(&settings), &PathBuf::new()),
    };
    if start.net.shape() != settings.shape {
        return Err(Error::Shape {
            path: from.clone(),
            found: start.net.shape(),
            wanted: settings.shape,
        });
    }
    println!(
        "{} training positions, {} validation; {:?}; {} threads",
        data.len(),
        validation.len(),
        settings,
        rayon::current_num_threads()
    );
    // The quantisation check runs on positions the net was not trained on
    // where there are some.
    let sample_from = if validation.is_empty() {
        &data
    } else {
        &validation
    };
    let sample = &sample_from[..sample_from.len().min(20_000)];
    let out = &args.out;
    let mut failure = None;
    let end = trainer::train(
        &settings,
        start,
        &data,
        &validation,
        |r| {
            let validation = r
                .validation_loss
                .map_or(String::new(), |v| format!("  validation {v:.6}"));
            println!(
                "epoch {:3}  lr {:.2e}  train {:.6}{validation}  {:.0} pos/s",
                r.epoch, r.lr, r.train_loss, r.positions_per_second
            );
        },
        |epoch, checkpoint| {
            let name = format!("{}-e{epoch}", out.display());
            let ckpt = PathBuf::from(format!("{name}.ckpt"));
            let saved = std::fs::write(&ckpt, checkpoint.to_bytes())
                .map_err(|e| Error::Write(ckpt, e))
                .and_then(|()| {
                    write_net(
                        Path::new(&format!("{name}.nnue")),
                        checkpoint,
                        sample,
                        settings.lambda,
                    )
                });
            // Training goes on to the end, which may still be saved.
            if let Err(e) = saved {
                eprintln!("train: {e}");
                failure.get_or_insert(e);
            }
        },
    );
    if let Some(e) = failure {
        return Err(e);
    }
    write_net(
        Path::new(&format!("{}.nnue", out.display())),
        &end,
        sample,
        settings.lambda,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{Args, Command};
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    fn settings_of(line: &str) -> Settings {
        let words = std::iter::once("train").chain(line.split_whitespace());
        match Cli::try_parse_from(words).map(|c| c.args.command) {
            Ok(Command::Train(args)) => settings(&args),
            other => panic!("{line}: {other:?}"),
        }
    }

    /// The defaults --help shows are the trainer's own.
    #[test]
    fn flags_left_out_are_the_trainer_defaults() {
        let got = settings_of("train --data a.bin --out net");
        assert_eq!(format!("{got:?}"), format!("{:?}", Settings::default()));
    }

    #[test]
    fn every_flag_is_read() {
        let s = settings_of(
            "train --data a.bin,b.bin --out net --hidden 256 --output-buckets 8 --king-buckets \
             --epochs 9 --batch 64 --lr 0.01 --lr-drop 3,6,8 --lr-gamma 0.5 --weight-decay 0.1 \
             --lambda 0.25 --no-mirror --seed 7 --save-every 2",
        );
        assert_eq!(
            s.shape,
            Shape {
                hidden: 256,
                buckets: 8,
                inputs: Inputs::KingBuckets
            }
        );
        assert_eq!((s.epochs, s.batch, s.lr_drops), (9, 64, vec![3, 6, 8]));
        assert_eq!(
            (s.lr, s.lr_gamma, s.weight_decay, s.lambda),
            (0.01, 0.5, 0.1, 0.25)
        );
        assert_eq!((s.mirror, s.seed, s.save_every), (false, 7, 2));
        let s = settings_of("train --data a --out n --king-mirror");
        assert_eq!(s.shape.inputs, Inputs::MirroredByKing);
    }
}
