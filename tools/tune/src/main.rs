//! Texel tuner of Hoeven's evaluation: fits every weight of
//! `eval::weights::WEIGHTS` to the results of self-play games (optionally
//! blended with the search scores) by minimising the squared error of a
//! logistic prediction, with Adam on full-batch gradients computed in
//! parallel. Writes the weights as Rust source.
//!
//! ```sh
//! cargo run --release -p tune -- --data a.txt,b.txt --epochs 2000 --out eval/src/weights.rs
//! ```

mod data;
mod init;
mod model;
mod output;

use data::TracedPosition;
use model::{Model, Objective};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage: tune --data FILE[,FILE...] [options]
  --data FILES        self-play data files (<fen> | <score> | <result>), comma-separated
  --limit N           read at most the first N lines of each file
  --validation F      fraction held out for validation, in blocks of 1000 lines (0.1)
  --lambda L          target = L * result + (1 - L) * sigmoid(score), the score's
                      scale fitted to the results on its own (1.0: results only)
  --epochs N          full-batch Adam steps (1000)
  --lr X              Adam step size in centipawns, decaying to a tenth by the end (2.0)
  --l2 X              L2 penalty X * (w - w_start)^2 per weight, against overfitting (0)
  --keep-best         keep the weights of the epoch with the lowest validation loss
  --init old|guess|current   starting weights (current: the committed table)
  --report N          print the losses every N epochs (50)
  --out FILE          write the tuned weights as Rust source (eval/src/weights.rs)
  --write-init FILE   write the starting weights to FILE and exit (no data needed)";

struct Args {
    data: Vec<String>,
    limit: Option<usize>,
    validation: f64,
    lambda: f64,
    epochs: usize,
    lr: f64,
    l2: f64,
    keep_best: bool,
    init: String,
    report: usize,
    out: Option<String>,
    write_init: Option<String>,
}

fn parse_args(argv: &[String]) -> Result<Args, String> {
    let mut a = Args {
        data: Vec::new(),
        limit: None,
        validation: 0.1,
        lambda: 1.0,
        epochs: 1000,
        lr: 2.0,
        l2: 0.0,
        keep_best: false,
        init: "current".into(),
        report: 50,
        out: None,
        write_init: None,
    };
    let mut it = argv.iter();
    while let Some(flag) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        let num = |v: String| {
            v.parse::<f64>()
                .map_err(|_| format!("{flag}: bad number '{v}'"))
        };
        match flag.as_str() {
            "--data" => a.data = value()?.split(',').map(String::from).collect(),
            "--limit" => a.limit = Some(num(value()?)? as usize),
            "--validation" => a.validation = num(value()?)?,
            "--lambda" => a.lambda = num(value()?)?,
            "--epochs" => a.epochs = num(value()?)? as usize,
            "--lr" => a.lr = num(value()?)?,
            "--l2" => a.l2 = num(value()?)?,
            "--keep-best" => a.keep_best = true,
            "--init" => a.init = value()?,
            "--report" => a.report = (num(value()?)? as usize).max(1),
            "--out" => a.out = Some(value()?),
            "--write-init" => a.write_init = Some(value()?),
            "--help" | "-h" => return Err(String::new()),
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    Ok(a)
}

fn start_weights(init: &str) -> Result<Vec<eval::S>, String> {
    match init {
        "old" => Ok(init::old_eval()),
        "guess" => Ok(init::guess()),
        "current" => Ok(eval::weights::WEIGHTS.to_vec()),
        other => Err(format!("--init: unknown '{other}'")),
    }
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let command = format!("tune {}", argv.join(" "));
    let args = match parse_args(&argv) {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("{e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let start = match start_weights(&args.init) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    if let Some(path) = &args.write_init {
        let header = format!("Starting weights written by `{command}`.");
        return match std::fs::write(path, output::rust_source(&start, &header)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{path}: {e}");
                ExitCode::FAILURE
            }
        };
    }
    if args.data.is_empty() {
        eprintln!("--data is required\n{USAGE}");
        return ExitCode::from(2);
    }
    match run(&args, start, &command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args, start: Vec<eval::S>, command: &str) -> Result<(), String> {
    let clock = Instant::now();
    let lines = data::read_lines(&args.data, args.limit).map_err(|e| e.to_string())?;
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
        return Err("no training positions".into());
    }

    let mut model = Model::new(&start);
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
            "Tuned by `{command}`\n\
             on {} training and {} validation positions, K = {k:.4}: validation\n\
             result loss {before_valid:.6} before, {after_valid:.6} after.",
            train.len(),
            valid.len()
        );
        std::fs::write(path, output::rust_source(&weights, &header))
            .map_err(|e| format!("{path}: {e}"))?;
        println!("wrote {path}");
    }
    Ok(())
}
