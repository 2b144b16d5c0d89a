//! Hoeven's NNUE trainer. `train pgn` turns scored games (OpenBench's data
//! generation) into text records; `train convert` turns text records into
//! shuffled 32-byte binary records; `train train` fits a
//! `(768 -> H) x 2 -> 1` SCReLU net to them on the CPU and writes it in the
//! engine's format (docs/nets.md).
//!
//! ```sh
//! xz -dc data.txt.xz | train convert --validation val.bin - train.bin
//! train train --data train.bin --validation val.bin --out nets/first
//! ```

mod adamw;
mod checkpoint;
mod convert;
mod data;
mod distil;
mod measure;
mod network;
mod quantise;
mod trainer;

use checkpoint::Checkpoint;
use convert::{Filter, Split};
use eval::nnue::Inputs;
use network::Shape;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use trainer::{Settings, Start};

fn usage() -> String {
    let t = Settings::default();
    let f = Filter::default();
    let drops: Vec<String> = t.lr_drops.iter().map(usize::to_string).collect();
    format!(
        "usage:
  train convert [options] OUT INPUT...
      Text records (<X-FEN> | <score> | <result>, `-` for standard input) to
      shuffled binary records in OUT.
      --max-score N          drop positions scored beyond +-N centipawns ({max_score});
                             mate scores are always dropped
      --keep-in-check        keep positions whose side to move is in check
      --validation FILE      also write held-out positions to FILE, in blocks
                             of {block} consecutive lines (whole games)
      --validation-share F   the share of blocks held out ({share})
      --seed N               shuffle and split seed (1)

  train train --data FILE[,FILE...] --out PREFIX [options]
      Trains a net on binary records; writes PREFIX.nnue at the end and
      PREFIX-e<N>.nnue, PREFIX-e<N>.ckpt every --save-every epochs.
      --validation FILE      binary records for the validation loss
      --hidden H             hidden neurons per perspective ({hidden})
      --output-buckets B     output layers chosen by the number of pieces ({buckets})
      --king-mirror          inputs mirrored left to right for a perspective
                             whose king stands on files e to h
      --king-buckets         mirrored by king file, and a first layer for each
                             of 4 places of the perspective's king (with rows
                             shared by all of them while training)
      --epochs N             passes over the data ({epochs})
      --batch N              positions per step ({batch})
      --lr X                 AdamW learning rate ({lr})
      --lr-drop E[,E...]     after these epochs multiply the rate by --lr-gamma ({drops})
      --lr-gamma X           ({gamma})
      --weight-decay X       AdamW decay ({decay})
      --lambda X             the game result's share of the target ({lambda})
      --no-mirror            do not mirror positions left to right (by default
                             each one without castling rights is, half the time)
      --seed N               initial weights and shuffles ({seed})
      --save-every N         checkpoint interval in epochs ({save_every}; 0: only the end)
      --resume FILE          continue from a checkpoint (of the same sizes; its
                             inputs read as --king-mirror says)
      --init NET             start from the weights of a net file (of the same
                             sizes and inputs, or fewer hidden neurons: the new
                             ones start with zero output weights, so the net
                             evaluates as the file's; a net mirrored by king
                             file can start one with --king-buckets), with a
                             fresh optimiser at epoch 0
      --threads N            worker threads (all cores)

  train pgn OUT INPUT...
      Scored games (PGN whose move comments start with the mover's score,
      {{+0.35/12 ...}}, as fastchess writes them for OpenBench's data
      generation, or cutechess, or hoeven selfplay --pgn) to text records in
      OUT: every scored quiet position of every finished game, with the
      game's result. Book moves, mate scores, positions in check and those
      whose move captures or promotes are left out.

  train eval NET FEN...
      The net's evaluation of each position (centipawns, side to move), as
      the engine computes it.

  train distil OUT FILE[,FILE...] [options]
      Training records around the games: from each binary record, short
      random walks ending in quiet positions (not in check, no winning
      capture), scored by the static evaluation or a short search,
      shuffled into OUT (result: a draw; train on them with lambda 0).
      --net NET              evaluate with the net (the hand-crafted
                             evaluation without it)
      --nodes N              score by a search of N nodes, leaving out
                             positions whose best move is a capture or
                             promotion (0: the static evaluation; 0)
      --per-position N       walks from each record (4)
      --plies N              the most random plies in a walk (4)
      --max-score N          leave out positions scored beyond +-N cp ({max_score})
      --seed N               walks and shuffle (1)

  train loss NET|hce FILE[,FILE...] [--lambda X]
      The loss of the engine's evaluation with the net (or the hand-crafted
      evaluation) on binary records, with the trainer's target (lambda
      {lambda}), and its mean distance from the records' scores.",
        max_score = f.max_score,
        block = convert::SPLIT_BLOCK,
        share = Split::DEFAULT_FRACTION,
        hidden = t.shape.hidden,
        buckets = t.shape.buckets,
        epochs = t.epochs,
        batch = t.batch,
        lr = t.lr,
        drops = drops.join(","),
        gamma = t.lr_gamma,
        decay = t.weight_decay,
        lambda = t.lambda,
        seed = t.seed,
        save_every = t.save_every,
    )
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let result = match argv.first().map(String::as_str) {
        Some("convert") => run_convert(&argv[1..]),
        Some("train") => run_train(&argv[1..]),
        Some("eval") => run_eval(&argv[1..]),
        Some("pgn") => run_pgn(&argv[1..]),
        Some("loss") => run_loss(&argv[1..]),
        Some("distil") => run_distil(&argv[1..]),
        _ => Err(usage()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// Flags with their values, and the remaining positional arguments.
struct Flags {
    values: Vec<(String, Option<String>)>,
    positional: Vec<String>,
}

impl Flags {
    /// `switches` take no value; every other `--flag` takes one.
    fn parse(argv: &[String], switches: &[&str]) -> Result<Flags, String> {
        let mut flags = Flags {
            values: Vec::new(),
            positional: Vec::new(),
        };
        let mut it = argv.iter();
        while let Some(arg) = it.next() {
            if arg.starts_with("--") {
                let value = if switches.contains(&arg.as_str()) {
                    None
                } else {
                    Some(it.next().cloned().ok_or(format!("{arg} needs a value"))?)
                };
                flags.values.push((arg.clone(), value));
            } else {
                flags.positional.push(arg.clone());
            }
        }
        Ok(flags)
    }

    fn take(&mut self, name: &str) -> Option<Option<String>> {
        let i = self.values.iter().position(|(n, _)| n == name)?;
        Some(self.values.remove(i).1)
    }

    fn string(&mut self, name: &str) -> Option<String> {
        self.take(name).flatten()
    }

    fn number<T: std::str::FromStr>(&mut self, name: &str, default: T) -> Result<T, String> {
        match self.string(name) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| format!("{name}: bad value '{v}'")),
        }
    }

    fn switch(&mut self, name: &str) -> bool {
        self.take(name).is_some()
    }

    /// Fails on any flag not taken.
    fn finish(self) -> Result<Vec<String>, String> {
        match self.values.first() {
            Some((name, _)) => Err(format!("unknown or repeated option {name}\n{}", usage())),
            None => Ok(self.positional),
        }
    }
}

fn run_convert(argv: &[String]) -> Result<(), String> {
    let mut flags = Flags::parse(argv, &["--keep-in-check"])?;
    let filter = Filter {
        max_score: flags.number("--max-score", Filter::default().max_score)?,
        keep_in_check: flags.switch("--keep-in-check"),
    };
    let split = match flags.string("--validation") {
        Some(path) => Some(Split {
            path: PathBuf::from(path),
            fraction: flags.number("--validation-share", Split::DEFAULT_FRACTION)?,
        }),
        None => None,
    };
    let seed = flags.number("--seed", 1)?;
    let positional = flags.finish()?;
    let [out, inputs @ ..] = &positional[..] else {
        return Err(usage());
    };
    if inputs.is_empty() {
        return Err(usage());
    }
    let counts = convert::convert(inputs, Path::new(out), split.as_ref(), &filter, seed)
        .map_err(|e| e.to_string())?;
    println!(
        "{} lines: {} training and {} validation positions kept; dropped {} mate scores, {} beyond +-{} cp, {} in check",
        counts.lines,
        counts.train,
        counts.validation,
        counts.mate,
        counts.beyond_bound,
        filter.max_score,
        counts.in_check
    );
    Ok(())
}

fn load_all(files: &str) -> Result<Vec<chessio::PackedRecord>, String> {
    let mut all = Vec::new();
    for file in files.split(',') {
        let records = data::load(Path::new(file)).map_err(|e| format!("{file}: {e}"))?;
        all.extend(records);
    }
    Ok(all)
}

fn write_net(
    path: &Path,
    checkpoint: &Checkpoint,
    sample: &[chessio::PackedRecord],
    lambda: f32,
) -> Result<(), String> {
    let bytes = quantise::quantise(&checkpoint.net)
        .map_err(|e| e.to_string())?
        .to_bytes();
    // The file as the engine will read it, checked against the float net.
    let back = Arc::new(eval::nnue::Network::from_bytes(&bytes).map_err(|e| e.to_string())?);
    let a =
        quantise::agreement(&checkpoint.net, &back, sample, lambda).map_err(|e| e.to_string())?;
    std::fs::write(path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
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

fn run_train(argv: &[String]) -> Result<(), String> {
    let mut flags = Flags::parse(argv, &["--no-mirror", "--king-mirror", "--king-buckets"])?;
    let data_files = flags.string("--data").ok_or("--data is required")?;
    let out = PathBuf::from(flags.string("--out").ok_or("--out is required")?);
    let validation_file = flags.string("--validation");
    let resume = flags.string("--resume");
    let init = flags.string("--init");
    let threads: usize = flags.number("--threads", 0)?;
    let d = Settings::default();
    let lr_drops = match flags.string("--lr-drop") {
        None => d.lr_drops,
        Some(v) => v
            .split(',')
            .map(|e| e.parse().map_err(|_| format!("--lr-drop: bad epoch '{e}'")))
            .collect::<Result<_, _>>()?,
    };
    let settings = Settings {
        shape: Shape {
            hidden: flags.number("--hidden", d.shape.hidden)?,
            buckets: flags.number("--output-buckets", d.shape.buckets)?,
            inputs: if flags.switch("--king-buckets") {
                Inputs::KingBuckets
            } else if flags.switch("--king-mirror") {
                Inputs::MirroredByKing
            } else {
                Inputs::Plain
            },
        },
        epochs: flags.number("--epochs", d.epochs)?,
        batch: flags.number("--batch", d.batch)?,
        lr: flags.number("--lr", d.lr)?,
        lr_drops,
        lr_gamma: flags.number("--lr-gamma", d.lr_gamma)?,
        weight_decay: flags.number("--weight-decay", d.weight_decay)?,
        lambda: flags.number("--lambda", d.lambda)?,
        mirror: !flags.switch("--no-mirror"),
        seed: flags.number("--seed", d.seed)?,
        save_every: flags.number("--save-every", d.save_every)?,
    };
    flags.finish()?;
    if !settings.shape.is_valid() || settings.batch == 0 {
        return Err(format!(
            "--hidden must be 1 to {}, --output-buckets 1 to {} and --batch at least 1",
            network::MAX_HIDDEN,
            network::MAX_BUCKETS
        ));
    }
    if threads > 0 {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global()
            .map_err(|e| e.to_string())?;
    }
    let data = load_all(&data_files)?;
    let validation = match &validation_file {
        Some(f) => load_all(f)?,
        None => Vec::new(),
    };
    let start = match (&resume, &init) {
        (Some(_), Some(_)) => return Err("--resume and --init exclude each other".to_string()),
        (None, Some(path)) => {
            let net =
                eval::nnue::Network::load(Path::new(path)).map_err(|e| format!("{path}: {e}"))?;
            let mut net = quantise::dequantise(&net);
            let inputs = settings.shape.inputs;
            if net.shape().inputs != inputs && inputs == Inputs::KingBuckets {
                net = net
                    .with_inputs(inputs)
                    .ok_or_else(|| format!("{path}: cannot give its net king buckets"))?;
                println!("{path}: given king buckets, its first layer shared by all");
            }
            let hidden = settings.shape.hidden;
            if net.shape().hidden < hidden {
                net = net
                    .widened(hidden, settings.seed)
                    .ok_or_else(|| format!("{path}: cannot widen its net to {hidden} neurons"))?;
                println!("{path}: widened to {hidden} neurons a perspective");
            }
            Start {
                optimiser: adamw::AdamW::new(net.params().len()),
                net,
                epoch: 0,
            }
        }
        (Some(path), None) => {
            let c = Checkpoint::load(Path::new(path)).map_err(|e| format!("{path}: {e}"))?;
            let inputs = settings.shape.inputs;
            if c.net.shape().inputs != inputs {
                println!("{path}: its net's inputs read as {inputs:?} from now on");
            }
            Start {
                net: c
                    .net
                    .with_inputs(inputs)
                    .ok_or_else(|| format!("{path}: its net cannot be read as {inputs:?}"))?,
                optimiser: c.optimiser,
                epoch: c.epoch,
            }
        }
        (None, None) => Start::fresh(&settings),
    };
    if start.net.shape() != settings.shape {
        let path = resume.or(init).unwrap_or_default();
        return Err(format!(
            "{path} holds a net of {:?}, not {:?}",
            start.net.shape(),
            settings.shape
        ));
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
                .map_err(|e| format!("{}: {e}", ckpt.display()))
                .and_then(|()| {
                    write_net(
                        Path::new(&format!("{name}.nnue")),
                        checkpoint,
                        sample,
                        settings.lambda,
                    )
                });
            if let Err(e) = saved {
                eprintln!("{e}");
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

fn run_pgn(argv: &[String]) -> Result<(), String> {
    let [out, inputs @ ..] = argv else {
        return Err(usage());
    };
    if inputs.is_empty() {
        return Err(usage());
    }
    let mut text = String::new();
    let (mut games, mut refused, mut unfinished) = (0u64, 0u64, 0u64);
    let mut counts = chessio::pgn::Counts::default();
    for input in inputs {
        let pgn = std::fs::read_to_string(input).map_err(|e| format!("{input}: {e}"))?;
        for game in chessio::pgn::read(&pgn) {
            let game = match game {
                Ok(game) => game,
                Err(e) => {
                    eprintln!("{input}: {e}");
                    refused += 1;
                    continue;
                }
            };
            games += 1;
            let (records, c) = chessio::pgn::records(&game);
            if records.is_empty() && c == chessio::pgn::Counts::default() {
                unfinished += 1;
            }
            counts += c;
            for record in records {
                text.push_str(&record.to_string());
                text.push('\n');
            }
        }
    }
    std::fs::write(out, &text).map_err(|e| format!("{out}: {e}"))?;
    println!(
        "{games} games ({unfinished} unfinished or without moves, {refused} refused): {} records; left out {} unscored or book moves, {} mate or huge scores, {} not quiet",
        counts.records, counts.unscored, counts.mate_or_huge, counts.not_quiet
    );
    Ok(())
}

fn run_distil(argv: &[String]) -> Result<(), String> {
    let mut flags = Flags::parse(argv, &[])?;
    let walks = distil::Walks {
        per_position: flags.number("--per-position", 4)?,
        max_plies: flags.number("--plies", 4)?,
        max_score: flags.number("--max-score", i32::from(Filter::default().max_score))?,
        seed: flags.number("--seed", 1)?,
        label: match flags.number("--nodes", 0)? {
            0 => distil::Label::Evaluation,
            nodes => distil::Label::Search { nodes },
        },
        network: match flags.string("--net") {
            Some(path) => Some(Arc::new(
                eval::nnue::Network::load(Path::new(&path)).map_err(|e| format!("{path}: {e}"))?,
            )),
            None => None,
        },
    };
    let positional = flags.finish()?;
    let [out, files] = &positional[..] else {
        return Err(usage());
    };
    if walks.max_plies == 0 {
        return Err("--plies must be at least 1".to_string());
    }
    let inputs = load_all(files)?;
    let labelled = distil::distil(&inputs, &walks).map_err(|e| e.to_string())?;
    let bytes: Vec<u8> = labelled.iter().flat_map(|r| *r.as_bytes()).collect();
    std::fs::write(out, bytes).map_err(|e| format!("{out}: {e}"))?;
    println!(
        "{} records in, {} walks, {} quiet positions out",
        inputs.len(),
        inputs.len() * walks.per_position,
        labelled.len()
    );
    Ok(())
}

fn run_loss(argv: &[String]) -> Result<(), String> {
    let mut flags = Flags::parse(argv, &[])?;
    let lambda = flags.number("--lambda", Settings::default().lambda)?;
    let positional = flags.finish()?;
    let [evaluation, files] = &positional[..] else {
        return Err(usage());
    };
    let records = load_all(files)?;
    let net = if evaluation == "hce" {
        None
    } else {
        let net = eval::nnue::Network::load(Path::new(evaluation))
            .map_err(|e| format!("{evaluation}: {e}"))?;
        Some(Arc::new(net))
    };
    // The engine's own evaluator, as the search calls it.
    let measured = measure::measure(&records, lambda, || {
        let mut evaluator = eval::Evaluator::new(net.clone());
        move |board: &movegen::Board| {
            evaluator.reset(board);
            evaluator.evaluate(board)
        }
    })
    .map_err(|e| e.to_string())?;
    let (all, phases) = measured;
    println!(
        "{evaluation}: {} positions, loss {:.6} (lambda {lambda}), mean |eval - score| {:.1} cp, mean |eval| {:.1} cp",
        all.positions, all.loss, all.mean_error, all.mean_size
    );
    println!("pieces  positions  loss      |eval - score|  |eval|");
    for (phase, m) in phases.iter().enumerate() {
        let pieces = (2..=32).filter(|&p| eval::nnue::output_bucket(p, measure::PHASES) == phase);
        let (low, high) = (pieces.clone().min().unwrap_or(0), pieces.max().unwrap_or(0));
        println!(
            "{low:>2}-{high:<2}   {:>9}  {:.6}  {:>10.1} cp  {:>6.1} cp",
            m.positions, m.loss, m.mean_error, m.mean_size
        );
    }
    Ok(())
}

fn run_eval(argv: &[String]) -> Result<(), String> {
    let [net, fens @ ..] = argv else {
        return Err(usage());
    };
    if fens.is_empty() {
        return Err(usage());
    }
    let net =
        Arc::new(eval::nnue::Network::load(Path::new(net)).map_err(|e| format!("{net}: {e}"))?);
    for fen in fens {
        let board = movegen::Board::from_fen(fen).map_err(|e| format!("{fen}: {e}"))?;
        println!("{} | {}", eval::nnue::evaluate(&net, &board), fen);
    }
    Ok(())
}
