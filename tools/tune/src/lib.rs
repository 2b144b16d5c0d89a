//! `hoeven tune`, the Texel tuner of Hoeven's evaluation: fits every weight
//! of `eval::weights::WEIGHTS` to the results of self-play games (optionally
//! blended with the search scores) by minimising the squared error of a
//! logistic prediction, with Adam on full-batch gradients computed in
//! parallel. Writes the weights as Rust source.

mod args;
mod data;
mod error;
mod init;
mod model;
mod output;

use data::TracedPosition;
use model::{Model, Objective};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

pub use args::{Args, Init};
pub use error::Error;

/// Tunes the weights `args` asks for, or writes the starting weights.
pub fn run(args: &Args) -> ExitCode {
    let result = match &args.write_init {
        Some(path) => write_init(args, path),
        None => tune(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tune: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The command line as it was typed, for the header of the weights file.
fn command_line() -> String {
    let words: Vec<String> = std::env::args().skip(1).collect();
    format!("hoeven {}", words.join(" "))
}

fn start_weights(init: Init) -> Vec<eval::S> {
    match init {
        Init::Old => init::old_eval(),
        Init::Guess => init::guess(),
        Init::Current => eval::weights::WEIGHTS.to_vec(),
    }
}

fn write_init(args: &Args, path: &Path) -> Result<(), Error> {
    let header = format!("Starting weights written by `{}`.", command_line());
    std::fs::write(
        path,
        output::rust_source(&start_weights(args.init), &header),
    )
    .map_err(|e| Error::Write(path.into(), e))
}

fn tune(args: &Args) -> Result<(), Error> {
    let clock = Instant::now();
    let lines = data::read_lines(&args.data, args.limit)?;
    // Hold out whole blocks of consecutive lines, so that positions of one
    // game rarely end up on both sides. Blocks are counted in each file, so
    // that a line stays on its side while the files grow.
    let every = if args.validation > 0.0 {
        (1.0 / args.validation).round().max(2.0) as usize
    } else {
        usize::MAX
    };
    let (mut train_lines, mut valid_lines) = (Vec::new(), Vec::new());
    for (i, line) in lines {
        if (i / 1000) % every == every / 2 {
            valid_lines.push(line);
        } else {
            train_lines.push(line);
        }
    }
    let train = data::build(&train_lines);
    let valid = data::build(&valid_lines);
    drop((train_lines, valid_lines));
    println!(
        "positions: {} training, {} validation ({:.1}s)",
        train.len(),
        valid.len(),
        clock.elapsed().as_secs_f64()
    );
    if train.is_empty() {
        return Err(Error::NoTrainingPositions);
    }

    let mut model = Model::new(&start_weights(args.init));
    let old = Model::new(&init::old_eval());
    // The scaling constant: the best fit of the starting weights to the results.
    let k = model.fit_k(&train, false);
    let k_old = old.fit_k(&train, true);
    let score_k = model::fit_score_k(&train);
    println!(
        "K = {k:.4} (starting weights), {k_old:.4} (old evaluation), {score_k:.4} (search scores)"
    );
    let results = Objective {
        k,
        lambda: 1.0,
        score_k,
        unscaled: false,
    };
    let target = Objective {
        k,
        lambda: args.lambda,
        score_k,
        unscaled: false,
    };
    let old_own = Objective {
        k: k_old,
        lambda: 1.0,
        score_k,
        unscaled: true,
    };
    let report = |label: &str, m: &Model, train: &[TracedPosition], valid: &[TracedPosition]| {
        println!(
            "{label}: result loss train {:.6} validation {:.6}; target loss train {:.6} validation {:.6}",
            m.loss(train, &results),
            m.loss(valid, &results),
            m.loss(train, &target),
            m.loss(valid, &target),
        );
    };
    println!(
        "old evaluation (K {k_old:.4}): result loss train {:.6} validation {:.6}",
        old.loss(&train, &old_own),
        old.loss(&valid, &old_own)
    );
    report("start", &model, &train, &valid);
    let before_valid = model.loss(&valid, &results);

    let mut best = (model.loss(&valid, &target), 0, model.weights());
    for epoch in 1..=args.epochs {
        let lr = args.lr * 0.1f64.powf(epoch as f64 / args.epochs as f64);
        let loss = model.step(&train, &target, lr, args.l2);
        if epoch % args.report == 0 || epoch == args.epochs {
            let v = model.loss(&valid, &target);
            println!(
                "epoch {epoch:5}  lr {lr:.3}  train {loss:.6}  validation {v:.6}  ({:.0}s)",
                clock.elapsed().as_secs_f64()
            );
            if v < best.0 {
                best = (v, epoch, model.weights());
            }
        }
    }
    if args.keep_best && best.1 != args.epochs {
        println!("keeping the weights of epoch {}", best.1);
        model.set_weights(&best.2);
    }
    report("final", &model, &train, &valid);
    let after_valid = model.loss(&valid, &results);

    if let Some(path) = &args.out {
        let weights = model.rounded();
        let header = format!(
            "Tuned by `{}`\n\
             on {} training and {} validation positions, K = {k:.4}: validation\n\
             result loss {before_valid:.6} before, {after_valid:.6} after.",
            command_line(),
            train.len(),
            valid.len()
        );
        std::fs::write(path, output::rust_source(&weights, &header))
            .map_err(|e| Error::Write(path.clone(), e))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
