//! The `hoeven` binary: a UCI engine when started without arguments, and
//! command-line tools otherwise (`perft`, `bench`, `selfplay`, `analyse`).
//! The protocol and each tool live in crates of their own; this wires them
//! together.

use std::process::ExitCode;
use uci::{perft, say, session};

const USAGE: &str = "usage: hoeven                       UCI engine on standard input/output
       hoeven perft <depth> [fen] [--threads]
       hoeven bench [depth]
       hoeven selfplay --games N [options]   (--help for the options)
       hoeven analyse GAME.pgn [options]     (--help for the options)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => {
            session::run();
            ExitCode::SUCCESS
        }
        Some("perft") => perft::command_line(&args[1..]),
        Some("bench") => bench(&args[1..]),
        Some("selfplay") => selfplay::command_line(&args[1..]),
        Some("analyse") => analyse::command_line(&args[1..]),
        Some("help" | "--help" | "-h") => {
            say(USAGE);
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("unknown command '{other}'\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn bench(args: &[String]) -> ExitCode {
    let depth = match args.first().map(|d| d.parse::<i32>()) {
        None => engine::bench::DEFAULT_DEPTH,
        Some(Ok(d)) if d >= 1 => d,
        Some(_) => {
            eprintln!("bench: depth must be a positive number");
            return ExitCode::from(2);
        }
    };
    let result = engine::bench::run(depth, None, |i, fen, nodes| {
        say(&format!("position {:2}: {nodes:>10} nodes  {fen}", i + 1));
    });
    say(&format!("\n{} nodes {} nps", result.nodes, result.nps()));
    ExitCode::SUCCESS
}
