//! The progress line: games, positions, speed, results so far, elapsed
//! time and the time still to go. On a terminal it is redrawn in place;
//! otherwise (a log file, a pipe) a plain line is printed now and then.

use super::stats::Tally;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// How often plain lines are printed when standard output is no terminal.
const PLAIN_INTERVAL: Duration = Duration::from_secs(10);

/// What the line shows.
pub struct Snapshot {
    pub games: u64,
    pub positions: u64,
    pub tally: Tally,
}

pub struct Progress {
    bar: Option<ProgressBar>,
    total: u64,
    started: Instant,
    last_line: Instant,
    /// Whose wins the W/D/L are: White's, or the first setting's.
    side: &'static str,
    /// The line of the last update, left on a terminal when the bar goes.
    last: String,
}

impl Progress {
    pub fn new(total: u64, side: &'static str) -> Progress {
        let bar = std::io::stdout().is_terminal().then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stdout());
            let style = ProgressStyle::with_template(
                "{bar:20} {pos}/{len} games  {msg}  elapsed {elapsed_precise}  ETA {eta_precise}",
            );
            if let Ok(style) = style {
                bar.set_style(style);
            }
            bar.enable_steady_tick(Duration::from_secs(1));
            bar
        });
        let now = Instant::now();
        Progress {
            bar,
            total,
            started: now,
            last_line: now,
            side,
            last: String::new(),
        }
    }

    pub fn update(&mut self, s: &Snapshot) {
        let elapsed = self.started.elapsed();
        self.last = plain_line(s, self.total, elapsed, self.side);
        match &self.bar {
            Some(bar) => {
                bar.set_position(s.games);
                bar.set_message(counts(s, elapsed, self.side));
            }
            None => {
                if self.last_line.elapsed() >= PLAIN_INTERVAL || s.games == self.total {
                    self.last_line = Instant::now();
                    println!("{}", self.last);
                }
            }
        }
    }

    /// Replaces the bar by a plain line, for the summary to follow.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
            println!("{}", self.last);
        }
    }
}

fn counts(s: &Snapshot, elapsed: Duration, side: &str) -> String {
    let rate = s.positions as f64 / elapsed.as_secs_f64().max(1e-3);
    let t = &s.tally;
    format!(
        "positions {}  {rate:.0} pos/s  W/D/L ({side}) {}/{}/{}",
        s.positions, t.wins, t.draws, t.losses
    )
}

fn plain_line(s: &Snapshot, total: u64, elapsed: Duration, side: &str) -> String {
    let eta = if s.games == 0 {
        "?".to_string()
    } else {
        let left = elapsed.as_secs_f64() * (total.saturating_sub(s.games)) as f64 / s.games as f64;
        clock(Duration::from_secs_f64(left))
    };
    format!(
        "games {}/{total}  {}  elapsed {}  ETA {eta}",
        s.games,
        counts(s, elapsed, side),
        clock(elapsed)
    )
}

/// `h:mm:ss`.
pub fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_lines_show_counts_speed_and_eta() {
        let s = Snapshot {
            games: 25,
            positions: 5_000,
            tally: Tally {
                wins: 10,
                draws: 12,
                losses: 3,
            },
        };
        let line = plain_line(&s, 100, Duration::from_secs(50), "White");
        assert_eq!(
            line,
            "games 25/100  positions 5000  100 pos/s  W/D/L (White) 10/12/3  elapsed 0:00:50  ETA 0:02:30"
        );
        let none = Snapshot {
            games: 0,
            positions: 0,
            tally: Tally::default(),
        };
        assert!(plain_line(&none, 10, Duration::ZERO, "A").ends_with("ETA ?"));
        assert_eq!(clock(Duration::from_secs(3 * 3600 + 61)), "3:01:01");
    }
}
