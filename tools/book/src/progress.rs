//! The progress bar: positions scored out of all, on standard error.
//! indicatif draws nothing when standard error is no terminal, so logs and
//! tests get only the summary.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

pub struct Progress {
    bar: ProgressBar,
    bound: u32,
    /// Scored positions within the bound.
    kept: usize,
}

impl Progress {
    /// `scored` of `total` are done already, `kept` of them within the bound.
    pub fn new(total: usize, scored: usize, kept: usize, bound: u32) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template(
            "{bar:30} {pos}/{len} positions  {msg}  elapsed {elapsed_precise}  ETA {eta_precise}",
        );
        if let Ok(style) = style {
            bar.set_style(style);
        }
        bar.set_position(scored as u64);
        // The ETA counts from here: resumed positions took no time now.
        bar.reset_eta();
        let progress = Progress { bar, bound, kept };
        progress.show_kept();
        progress
    }

    pub fn scored(&mut self, kept: bool) {
        if kept {
            self.kept += 1;
            self.show_kept();
        }
        self.bar.inc(1);
    }

    fn show_kept(&self) {
        self.bar
            .set_message(format!("{} within ±{} cp", self.kept, self.bound));
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
