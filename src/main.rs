//! The `hoeven` binary: a UCI engine when started without arguments, and
//! command-line tools otherwise (`perft`, `bench`, `selfplay`, `spsa`,
//! `analyse`, `train`, `tune`, `book`).
//! The protocol and each tool live in crates of their own; this wires them
//! together. Arguments that are UCI commands with their words (`"genfens 8
//! seed 1 book None" quit`, as OpenBench runs it) are run as UCI input lines.

use chess::Board;
use clap::error::ErrorKind;
use clap::{CommandFactory, Parser, Subcommand};
use std::process::ExitCode;
use uci::{perft, say, session};

/// Hoeven, a Chess960-first UCI chess engine. Without a command it speaks
/// UCI on standard input and output; arguments that hold spaces are UCI
/// commands, run in order before it quits (`hoeven "genfens 8 seed 1 book
/// None" quit`).
#[derive(Parser)]
#[command(name = "hoeven", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Counts the leaf nodes of the move tree to a depth, per root move
    Perft {
        /// Plies to count
        depth: u32,
        /// The position as FEN, X-FEN or Shredder-FEN, in one argument or
        /// several [default: the start position]
        fen: Vec<String>,
        /// Share the root moves among all cores
        #[arg(long)]
        threads: bool,
    },
    /// The search bench: a fixed set of positions searched to a depth, with
    /// the node count and speed (as the UCI command `bench`)
    Bench {
        /// Depth per position
        #[arg(default_value_t = engine::bench::DEFAULT_DEPTH,
              value_parser = clap::value_parser!(i32).range(1..))]
        depth: i32,
    },
    /// Self-play matches and training data
    Selfplay(selfplay::Args),
    /// SPSA tuning of the search's parameters in self-play (tuning builds:
    /// `make spsa-build`)
    Spsa(selfplay::spsa::Args),
    /// Every move of every game of a PGN file searched, judged and annotated
    Analyse(analyse::Args),
    /// The NNUE trainer: training records from games, and nets from records
    Train(train::Args),
    /// The Texel tuner of the hand-crafted evaluation's weights
    Tune(tune::Args),
    /// Balanced Chess960 or DFRC start positions for events, as EPD
    Book(book::Args),
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args
        .first()
        .is_some_and(|a| a.trim().contains(char::is_whitespace))
    {
        session::run_lines(&args);
        return ExitCode::SUCCESS;
    }
    match Cli::parse().command {
        None => {
            session::run();
            ExitCode::SUCCESS
        }
        Some(Command::Perft {
            depth,
            fen,
            threads,
        }) => run_perft(depth, &fen, threads),
        Some(Command::Bench { depth }) => bench(depth),
        Some(Command::Selfplay(args)) => match args.config() {
            Ok(config) => selfplay::run(&config),
            Err(e) => usage_error("selfplay", e),
        },
        Some(Command::Spsa(args)) => spsa(args),
        Some(Command::Analyse(args)) => analyse::run(&args.into()),
        Some(Command::Train(args)) => train::run(&args),
        Some(Command::Tune(args)) => tune::run(&args),
        Some(Command::Book(args)) => match args.config() {
            Ok(config) => book::run(&config),
            Err(e) => usage_error("book", e),
        },
    }
}

/// SPSA sets the search's tunables, which only a tuning build has.
fn spsa(args: selfplay::spsa::Args) -> ExitCode {
    if !cfg!(feature = "tune-search") {
        eprintln!(
            "hoeven spsa needs a tuning build: `make spsa-build` (./hoeven-tune) or \
             `cargo build --release --features tune-search`"
        );
        return ExitCode::from(2);
    }
    match args.config() {
        Ok(config) => selfplay::spsa::run(&config),
        Err(e) => usage_error("spsa", e),
    }
}

/// Reports a command line that clap accepted but the command refuses, as
/// clap reports its own errors (with the usage, exit status 2).
fn usage_error(command: &str, error: impl std::fmt::Display) -> ExitCode {
    let mut cli = Cli::command();
    cli.build();
    let error = match cli.find_subcommand_mut(command) {
        Some(cmd) => cmd.error(ErrorKind::ValueValidation, error),
        None => cli.error(ErrorKind::ValueValidation, error),
    };
    error.exit()
}

fn run_perft(depth: u32, fen: &[String], threads: bool) -> ExitCode {
    let board = if fen.is_empty() {
        Board::startpos()
    } else {
        match Board::from_fen(&fen.join(" ")) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: invalid FEN: {e}");
                return ExitCode::FAILURE;
            }
        }
    };
    say(perft::report(&board, depth, true, threads).trim_end());
    ExitCode::SUCCESS
}

/// The bench with the default evaluation, as OpenBench runs it.
fn bench(depth: i32) -> ExitCode {
    match engine::EvalFile::builtin() {
        Ok(evaluation) => {
            uci::bench::report(depth, evaluation.network(), say);
            ExitCode::SUCCESS
        }
        Err((_, why)) => {
            eprintln!("hoeven: {why}");
            ExitCode::FAILURE
        }
    }
}
