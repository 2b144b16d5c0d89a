//! `hoeven selfplay`: self-play matches and training data from the command
//! line. Games run inside this process, several at once, each engine
//! searching on one thread with its own hash table.

mod adjudication;
mod args;
mod clock;
mod data;
mod game;
mod limits;
mod opening_choice;
mod openings;
mod output;
mod pgn;
mod player;
mod progress;
mod rules;
mod runner;
mod settings;
mod sprt;
pub mod spsa;
mod stats;
mod summary;

use std::process::ExitCode;

pub use args::{ArgError, Args, Config};

/// Plays the games `config` asks for and prints the summary.
pub fn run(config: &Config) -> ExitCode {
    match runner::run(config) {
        Ok(totals) => {
            print!("{}", summary::write(config, &totals));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("selfplay: {e}");
            ExitCode::FAILURE
        }
    }
}
