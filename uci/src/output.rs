//! Everything the engine writes goes through one locked writer, a line at a
//! time, so that lines from the search thread and the protocol thread never
//! interleave. The same lock guards the `Debug Log File`, which receives
//! the conversation both ways.

use crate::event::Event;
use crate::score;
use chess::Move;
use crossbeam_channel::Sender;
use engine::{Bound, PvInfo, Reporter};
use std::fmt::Write as _;
use std::io::Write;
use std::sync::{Arc, Mutex};

#[derive(Clone)]
pub struct Output {
    sinks: Arc<Mutex<Sinks>>,
}

struct Sinks {
    writer: Box<dyn Write + Send>,
    /// The `Debug Log File`: `<< ` before each line read, `>> ` before each
    /// line written, as in Stockfish's log.
    log: Option<Box<dyn Write + Send>>,
}

impl Output {
    pub fn new(writer: Box<dyn Write + Send>) -> Output {
        Output {
            sinks: Arc::new(Mutex::new(Sinks { writer, log: None })),
        }
    }

    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    fn sinks(&self) -> std::sync::MutexGuard<'_, Sinks> {
        match self.sinks.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Writes `text` (one or more lines) and flushes.
    pub fn line(&self, text: &str) {
        let mut sinks = self.sinks();
        // A closed stdout leaves nobody to tell; the engine exits on EOF anyway.
        let _ = writeln!(sinks.writer, "{text}");
        let _ = sinks.writer.flush();
        sinks.log_lines(">>", text);
    }

    /// Logs a line the engine has read.
    pub fn log_input(&self, line: &str) {
        self.sinks().log_lines("<<", line);
    }

    /// Starts logging to `log`, or stops with `None`.
    pub fn set_log(&self, log: Option<Box<dyn Write + Send>>) {
        self.sinks().log = log;
    }

    pub fn info_string(&self, text: &str) {
        self.line(&format!("info string {text}"));
    }

    pub fn error(&self, text: &str) {
        self.line(&format!("info string error: {text}"));
    }
}

impl Sinks {
    /// A log that cannot be written to is dropped: the engine goes on, and
    /// the conversation goes on without it.
    fn log_lines(&mut self, direction: &str, text: &str) {
        let Some(log) = self.log.as_mut() else {
            return;
        };
        let written = text
            .lines()
            .try_for_each(|l| writeln!(log, "{direction} {l}"))
            .and_then(|()| log.flush());
        if written.is_err() {
            self.log = None;
        }
    }
}

/// Prints a search's output in UCI form, and tells the protocol loop when
/// the search is over.
pub struct UciReporter {
    pub out: Output,
    pub chess960: bool,
    pub show_wdl: bool,
    pub done: Sender<Event>,
}

impl UciReporter {
    fn moves(&self, moves: &[Move]) -> String {
        moves
            .iter()
            .map(|m| m.to_uci(self.chess960))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl Reporter for UciReporter {
    fn pv(&self, info: &PvInfo) {
        let mut s = format!(
            "info depth {} seldepth {} multipv {} score {}",
            info.depth,
            info.seldepth,
            info.multipv,
            score::text(info.score)
        );
        match info.bound {
            Some(Bound::Lower) => s.push_str(" lowerbound"),
            Some(Bound::Upper) => s.push_str(" upperbound"),
            _ => {}
        }
        if self.show_wdl {
            let (w, d, l) = score::wdl(info.score);
            let _ = write!(s, " wdl {w} {d} {l}");
        }
        let _ = write!(
            s,
            " nodes {} nps {} hashfull {} tbhits {} time {} pv {}",
            info.nodes,
            info.nps(),
            info.hashfull,
            info.tbhits,
            info.time.as_millis(),
            self.moves(&info.pv)
        );
        self.out.line(&s);
    }

    fn current_move(&self, depth: i32, mv: Move, number: usize) {
        self.out.line(&format!(
            "info depth {depth} currmove {} currmovenumber {number}",
            mv.to_uci(self.chess960)
        ));
    }

    fn no_moves(&self, in_check: bool) {
        self.out.line(if in_check {
            "info depth 0 score mate 0"
        } else {
            "info depth 0 score cp 0"
        });
    }

    fn error(&self, message: &str) {
        self.out.error(message);
    }

    fn best_move(&self, best: Option<Move>, ponder: Option<Move>) {
        let line = match (best, ponder) {
            (Some(b), Some(p)) => format!(
                "bestmove {} ponder {}",
                b.to_uci(self.chess960),
                p.to_uci(self.chess960)
            ),
            (Some(b), None) => format!("bestmove {}", b.to_uci(self.chess960)),
            (None, _) => "bestmove (none)".to_string(),
        };
        // The loop hears of the end before the GUI can read the bestmove, so
        // that whatever the GUI sends next (a `go ponder`, then a `stop`) is
        // queued behind the end of this search, never ahead of it. The loop
        // may already be gone (quit); then nobody needs to know.
        let _ = self.done.send(Event::SearchDone);
        self.out.line(&line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossbeam_channel::{unbounded, Receiver};
    use std::sync::atomic::{AtomicBool, Ordering};

    /// A writer that notes whether the end of the search was already
    /// queued for the loop when the bestmove line was written.
    struct Witness {
        events: Receiver<Event>,
        end_queued_first: Arc<AtomicBool>,
    }

    impl Write for Witness {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if String::from_utf8_lossy(buf).contains("bestmove") {
                self.end_queued_first
                    .store(!self.events.is_empty(), Ordering::SeqCst);
            }
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_loop_hears_of_the_end_before_the_gui_sees_the_bestmove() {
        let (tx, rx) = unbounded();
        let end_queued_first = Arc::new(AtomicBool::new(false));
        let reporter = UciReporter {
            out: Output::new(Box::new(Witness {
                events: rx.clone(),
                end_queued_first: Arc::clone(&end_queued_first),
            })),
            chess960: false,
            show_wdl: false,
            done: tx,
        };
        reporter.best_move(None, None);
        assert!(end_queued_first.load(Ordering::SeqCst));
        assert!(matches!(rx.try_recv(), Ok(Event::SearchDone)));
    }
}
