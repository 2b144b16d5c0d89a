//! What the session loop hears (a line of input, the end of a search, the
//! end of input) and what it answers (go on or quit): shared by the loop,
//! the reporter that tells it a search has ended, and whoever drives it.

pub enum Event {
    Line(String),
    /// The running search has printed its `bestmove`.
    SearchDone,
    /// Standard input closed: treated as `quit`.
    Eof,
}

/// Whether the loop goes on after a command.
#[derive(PartialEq, Eq, Debug)]
pub enum Flow {
    Continue,
    Quit,
}
