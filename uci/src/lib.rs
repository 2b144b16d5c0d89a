//! Hoeven's UCI protocol: the session that reads commands and answers them,
//! its options and its output. The `hoeven` binary (the root package) runs a
//! session when started without arguments; the fuzz targets and tests drive
//! one directly.

pub mod bench;
mod build_info;
pub mod evaluation;
pub mod genfens;
mod go;
pub mod openings;
pub mod options;
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
