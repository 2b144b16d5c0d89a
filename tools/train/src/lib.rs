//! `hoeven train`, Hoeven's NNUE trainer. `pgn` turns scored games
//! (OpenBench's data generation) into text records; `convert` turns text
//! records into shuffled 32-byte binary records; `train` fits a
//! `(768 -> H) x 2 -> 1` SCReLU net to them on the CPU and writes it in the
//! engine's format (docs/nets.md); `distil`, `loss` and `eval` make records
//! around the games and measure nets.

mod adamw;
mod args;
mod checkpoint;
mod commands;
mod convert;
mod data;
mod distil;
mod error;
mod measure;
mod network;
mod quantise;
mod trainer;
mod training;

use std::process::ExitCode;

pub use args::{Args, Command};
pub use error::Error;

/// Runs the command `args` names and prints its report.
pub fn run(args: &Args) -> ExitCode {
    let result = match &args.command {
        Command::Convert(a) => commands::convert(a),
        Command::Train(a) => training::train(a),
        Command::Pgn(a) => commands::pgn(a),
        Command::Eval(a) => commands::eval(a),
        Command::Distil(a) => commands::distil(a),
        Command::Loss(a) => commands::loss(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("train: {e}");
            ExitCode::FAILURE
        }
    }
}
