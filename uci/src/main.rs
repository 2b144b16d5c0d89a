//! The `hoeven` binary: a UCI engine when started without arguments, and a
//! few command-line tools (`perft`, `bench`) otherwise.

mod perft;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("perft") => perft::command_line(&args[1..]),
        _ => ExitCode::SUCCESS,
    }
}
