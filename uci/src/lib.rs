//! The UCI protocol and the command-line tools of the `hoeven` binary, as a
//! library so that the fuzz targets and tests can drive a session directly.

pub mod analyse;
mod castling;
mod cli;
pub mod evaluation;
mod go;
pub mod options;
pub mod output;
pub mod perft;
mod pgn;
pub mod selfplay;
pub mod session;

/// Prints a line; a closed pipe (`hoeven bench | head`) is not an error
/// worth a crash, so write errors are ignored.
pub fn say(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout().lock(), "{text}");
}
