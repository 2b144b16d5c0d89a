//! `hoeven book`: every Chess960 start, or random Double Fischer Random
//! ones, scored by a search to a fixed depth, and those near equality
//! written as an EPD book for FRC and DFRC events, where a lopsided start
//! makes a pair of games a lottery. The work survives an interruption in
//! `FILE.partial`.

mod args;
mod epd;
mod partial;
mod pool;
mod progress;
mod starts;

use chess::chess960::BadStartNumber;
use partial::{Partial, PartialError};
use pool::Search;
use progress::Progress;
use starts::StartId;
use std::collections::HashSet;
use std::fmt;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

pub use args::{ArgError, Args, Config};

/// Makes the book `config` asks for and says what it holds.
pub fn run(config: &Config) -> ExitCode {
    match make_book(config) {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("book: {e}");
            ExitCode::FAILURE
        }
    }
}

/// One start's search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Scored {
    id: StartId,
    /// Centipawns, from White's point of view.
    score: i32,
    /// The depth the search completed.
    depth: i32,
}

impl Scored {
    /// Whether the book keeps it: a start is as unbalanced at +30 as at
    /// -30, since a book is played from both sides.
    fn within(&self, bound: u32) -> bool {
        self.score.unsigned_abs() <= bound
    }
}

/// Faults that stop the run.
#[derive(Debug)]
enum RunError {
    Evaluation(String),
    Hash(engine::AllocError),
    Start(BadStartNumber),
    NoScore(StartId),
    Partial(PartialError),
    OutIsFolder(PathBuf),
    Write(PathBuf, std::io::Error),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Evaluation(why) => write!(f, "{why}"),
            RunError::Hash(e) => write!(f, "{e}"),
            RunError::Start(e) => write!(f, "{e}"),
            RunError::NoScore(id) => write!(f, "the search of {id} gave no score"),
            RunError::Partial(e) => write!(f, "{e}"),
            RunError::OutIsFolder(path) => write!(f, "--out {} is a folder", path.display()),
            RunError::Write(path, e) => write!(f, "cannot write {}: {e}", path.display()),
        }
    }
}

impl From<PartialError> for RunError {
    fn from(e: PartialError) -> RunError {
        RunError::Partial(e)
    }
}

fn make_book(config: &Config) -> Result<String, RunError> {
    // Found out before the long run rather than after it.
    if config.out.is_dir() {
        return Err(RunError::OutIsFolder(config.out.clone()));
    }
    let (network, net_name) = evaluation()?;
    let starts = starts::starts(config.variant, config.count, config.seed);
    let settings = format!(
        "variant={} count={} seed={} depth={} hash={} net={net_name}",
        config.variant, config.count, config.seed, config.depth, config.hash_mb
    );
    let (mut partial, mut done) = Partial::open(
        &partial::path_of(&config.out),
        &partial::header(&settings),
        &starts,
    )?;
    let resumed = done.len();
    let finished: HashSet<StartId> = done.iter().map(|s| s.id).collect();
    let todo: Vec<StartId> = starts
        .iter()
        .copied()
        .filter(|id| !finished.contains(id))
        .collect();
    let mut progress = Progress::new(
        starts.len(),
        resumed,
        done.iter().filter(|s| s.within(config.bound)).count(),
        config.bound,
    );
    let search = Search {
        depth: config.depth,
        hash_mb: config.hash_mb,
        network,
    };
    let started = Instant::now();
    pool::score(&todo, &search, config.threads, |scored| {
        partial.record(&scored)?;
        progress.scored(scored.within(config.bound));
        done.push(scored);
        Ok(())
    })?;
    progress.finish();
    let book = epd::book(&done, config.bound).map_err(RunError::Start)?;
    std::fs::write(&config.out, book).map_err(|e| RunError::Write(config.out.clone(), e))?;
    partial.remove()?;
    Ok(format!(
        "{} of {} {} starts within ±{} cp at depth {} written to {} \
         ({} searched in {:.1} s, {resumed} from the partial file)",
        done.iter().filter(|s| s.within(config.bound)).count(),
        starts.len(),
        config.variant,
        config.bound,
        config.depth,
        config.out.display(),
        todo.len(),
        started.elapsed().as_secs_f64(),
    ))
}

/// The network built into the binary, as the engine's default, and its
/// name for the partial file's settings: another network scores otherwise.
fn evaluation() -> Result<(Option<std::sync::Arc<eval::nnue::Network>>, String), RunError> {
    match eval::nnue::embedded() {
        None => Ok((None, "hand-crafted".to_string())),
        Some(e) => match &e.network {
            Ok(net) => Ok((Some(net.clone()), e.name.to_string())),
            Err(why) => Err(RunError::Evaluation(format!(
                "the embedded network {}: {why}",
                e.name
            ))),
        },
    }
}
