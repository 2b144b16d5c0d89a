//! The progress bar: positions searched out of all the games' positions,
//! on standard error, where it stays out of the annotated PGN. indicatif
//! draws nothing when standard error is no terminal, so logs and tests get
//! only the messages.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    pub fn new(positions: u64) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(positions), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template(
            "{bar:30} {pos}/{len} positions  {msg}  elapsed {elapsed_precise}  ETA {eta_precise}",
        );
        if let Ok(style) = style {
            bar.set_style(style);
        }
        Progress { bar }
    }

    /// Names the game under analysis.
    pub fn game(&self, number: usize, total: usize) {
        self.bar.set_message(format!("game {number} of {total}"));
    }

    pub fn searched(&self) {
        self.bar.inc(1);
    }

    /// Skips the positions of a game that could not be finished.
    pub fn skip(&self, positions: u64) {
        self.bar.inc(positions);
    }

    /// Prints a line without tearing the bar.
    pub fn message(&self, line: &str) {
        self.bar.suspend(|| eprintln!("{line}"));
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
