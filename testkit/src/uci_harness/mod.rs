//! A harness for driving the `hoeven` binary over pipes, shared by the
//! integration tests in `tests/`.
//!
//! Standard output is read on a thread of its own and handed over through a
//! channel, so every read has a timeout and a silent or stuck engine fails
//! the test instead of hanging the suite. The child is killed when the
//! [`EngineProcess`] is dropped, which also happens while a failed test unwinds.
//! Failures print the tail of the conversation and the engine's stderr.
//!
//! By concern: `process` starts the engine and reads and writes its lines,
//! `search` parses and checks what a search says, `timing` holds the
//! timing locks and `python` runs the python-chess clients. Everything
//! public is re-exported here.

mod process;
mod python;
mod search;
mod timing;

pub use process::*;
pub use python::*;
pub use search::*;
pub use timing::*;
