//! Hoeven's UCI protocol: the session that reads commands and answers them,
//! the text of the engine's options and the output. The `hoeven` binary (the
//! root package) runs a session when started without arguments; the fuzz
//! target drives one directly. No other crate depends on this one: what
//! the tools share with it (the engine's name, options and `EvalFile`,
//! random openings) lives in `engine` and `chess`.

pub mod bench;
mod build_info;
pub mod event;
pub mod fuzz;
pub mod genfens;
mod go;
mod options;
pub mod output;
pub mod perft;
mod score;
pub mod session;

/// Prints a line; a closed pipe (`hoeven bench | head`) is not an error
/// worth a crash, so write errors are ignored.
pub fn say(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout().lock(), "{text}");
}
