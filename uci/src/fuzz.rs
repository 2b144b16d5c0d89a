//! The check behind the `uci_session` fuzz target (`fuzz/`, `make fuzz`),
//! here so that `tests/fuzz_inputs.rs` runs it on the seed inputs and on every
//! input a fuzzer ever found crashing (`fuzz/regressions/uci_session`). It
//! takes arbitrary bytes, and panics only on a bug.

use crate::event::{Event, Flow};
use crate::output::Output;
use crate::session::Session;

/// A UCI session fed the input's lines. Every search it starts is stopped
/// at once so that no input can hang the fuzzer; lines naming `bench`,
/// `perft`, `Threads` or `Hash` are left out, because their cost grows with
/// the numbers in them rather than with any bug, and so are those that
/// write files (`export_net`, `Debug Log File`), so that the fuzzer leaves
/// nothing on disk.
pub fn session(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (tx, rx) = crossbeam_channel::unbounded();
    let mut session = Session::with_hash(Output::new(Box::new(std::io::sink())), tx, 1);
    for line in text.lines().take(32) {
        let lower = line
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_ascii_lowercase();
        if ["bench", "perft", "threads", "hash", "export", "log file"]
            .iter()
            .any(|w| lower.contains(w))
        {
            continue;
        }
        if session.on_event(Event::Line(line.to_string())) == Flow::Quit {
            return;
        }
        while session.is_searching() {
            session.on_event(Event::Line("stop".to_string()));
            let Ok(event) = rx.recv() else {
                return;
            };
            if session.on_event(event) == Flow::Quit {
                return;
            }
        }
    }
}
