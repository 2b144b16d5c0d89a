//! The commands of `hoeven train` other than `train` itself: each reads
//! its files, calls the module that does the work and prints its report.

use crate::args::{ConvertArgs, DistilArgs, EvalArgs, LossArgs, PgnArgs};
use crate::convert::{self, Filter, Split};
use crate::error::Error;
use crate::{data, distil, measure};
use chessio::PackedRecord;
use eval::nnue::Network;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Every record of every file, in order.
pub fn load_all(files: &[PathBuf]) -> Result<Vec<PackedRecord>, Error> {
    let mut all = Vec::new();
    for file in files {
        all.extend(data::load(file).map_err(|e| Error::Data(file.clone(), e))?);
    }
    Ok(all)
}

fn load_net(path: &Path) -> Result<Arc<Network>, Error> {
    Network::load(path)
        .map(Arc::new)
        .map_err(|e| Error::Net(path.into(), e))
}

pub fn convert(args: &ConvertArgs) -> Result<(), Error> {
    let filter = Filter {
        max_score: args.max_score,
        keep_in_check: args.keep_in_check,
    };
    let split = args.validation.as_ref().map(|path| Split {
        path: path.clone(),
        fraction: args.validation_share,
    });
    let counts = convert::convert(&args.inputs, &args.out, split.as_ref(), &filter, args.seed)
        .map_err(Error::Convert)?;
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

pub fn pgn(args: &PgnArgs) -> Result<(), Error> {
    let mut text = String::new();
    let (mut games, mut refused, mut unfinished) = (0u64, 0u64, 0u64);
    let mut counts = chessio::pgn::Counts::default();
    for input in &args.inputs {
        let pgn = std::fs::read_to_string(input).map_err(|e| Error::Read(input.clone(), e))?;
        for game in chessio::pgn::read(&pgn) {
            let game = match game {
                Ok(game) => game,
                Err(e) => {
                    eprintln!("{}: {e}", input.display());
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
    std::fs::write(&args.out, &text).map_err(|e| Error::Write(args.out.clone(), e))?;
    println!(
        "{games} games ({unfinished} unfinished or without moves, {refused} refused): {} records; left out {} unscored or book moves, {} mate or huge scores, {} not quiet",
        counts.records, counts.unscored, counts.mate_or_huge, counts.not_quiet
    );
    Ok(())
}

pub fn distil(args: &DistilArgs) -> Result<(), Error> {
    let walks = distil::Walks {
        per_position: args.per_position,
        max_plies: args.plies,
        max_score: args.max_score,
        seed: args.seed,
        label: match args.nodes {
            0 => distil::Label::Evaluation,
            nodes => distil::Label::Search { nodes },
        },
        network: args.net.as_deref().map(load_net).transpose()?,
    };
    let inputs = load_all(&args.files)?;
    let labelled = distil::distil(&inputs, &walks).map_err(Error::Hash)?;
    let bytes: Vec<u8> = labelled.iter().flat_map(|r| *r.as_bytes()).collect();
    std::fs::write(&args.out, bytes).map_err(|e| Error::Write(args.out.clone(), e))?;
    println!(
        "{} records in, {} walks, {} quiet positions out",
        inputs.len(),
        inputs.len() * walks.per_position,
        labelled.len()
    );
    Ok(())
}

pub fn loss(args: &LossArgs) -> Result<(), Error> {
    let records = load_all(&args.files)?;
    let evaluation = &args.evaluation;
    let net = match evaluation.as_str() {
        "hce" => None,
        path => Some(load_net(Path::new(path))?),
    };
    let lambda = args.lambda;
    // The engine's own evaluator, as the search calls it.
    let (all, phases) = measure::measure(&records, lambda, || {
        let mut evaluator = eval::Evaluator::new(net.clone());
        move |board: &chess::Board| {
            evaluator.reset(board);
            evaluator.evaluate(board)
        }
    })
    .map_err(Error::Record)?;
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

pub fn eval(args: &EvalArgs) -> Result<(), Error> {
    let net = load_net(&args.net)?;
    for fen in &args.fens {
        let board = chess::Board::from_fen(fen).map_err(|e| Error::Fen(fen.clone(), e))?;
        println!("{} | {}", eval::nnue::evaluate(&net, &board), fen);
    }
    Ok(())
}
