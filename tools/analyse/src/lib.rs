//! `hoeven analyse`: every move of every game of a PGN file searched and
//! judged, the games written back annotated, a summary per player, and on
//! request a graph of the evaluation. The engine runs in this process.

mod analysis;
mod annotate;
mod args;
mod judgement;
mod progress;
mod search;
mod summary;
mod svg;

use analysis::GameAnalysis;
use chessio::pgn::{self, PgnGame};
use engine::{AllocError, EvalFile, EvalFileError, Limits, SearchOptions};
use progress::Progress;
use search::Analyser;
use std::fmt::{self, Write as _};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub use args::{Args, Config};

/// Analyses the games `config` names; the exit status is a failure when no
/// game could be analysed.
pub fn run(config: &Config) -> ExitCode {
    match analyse_file(config) {
        Ok(analysed) if analysed > 0 => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("analyse: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Faults that stop the whole run.
#[derive(Debug)]
enum RunError {
    Read(PathBuf, std::io::Error),
    Write(PathBuf, std::io::Error),
    Hash(AllocError),
    EvalFile(EvalFileError),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Read(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            RunError::Write(path, e) => write!(f, "cannot write {}: {e}", path.display()),
            RunError::Hash(e) => write!(f, "{e}"),
            RunError::EvalFile(e) => write!(f, "{e}"),
        }
    }
}

/// Where the annotated games go.
struct Output {
    /// For messages.
    path: PathBuf,
    writer: Box<dyn Write>,
}

impl Output {
    fn file(path: &Path) -> Result<Output, RunError> {
        Ok(Output {
            path: path.to_path_buf(),
            writer: Box::new(create(path)?),
        })
    }

    fn stdout() -> Output {
        Output {
            path: PathBuf::from("standard output"),
            writer: Box::new(std::io::stdout().lock()),
        }
    }

    fn write(&mut self, text: &str) -> Result<(), RunError> {
        self.writer
            .write_all(text.as_bytes())
            .map_err(|e| RunError::Write(self.path.clone(), e))
    }

    fn flush(&mut self) -> Result<(), RunError> {
        self.writer
            .flush()
            .map_err(|e| RunError::Write(self.path.clone(), e))
    }
}

fn create(path: &Path) -> Result<BufWriter<File>, RunError> {
    File::create(path)
        .map(BufWriter::new)
        .map_err(|e| RunError::Write(path.to_path_buf(), e))
}

/// Analyses the file's games; returns how many were analysed.
fn analyse_file(config: &Config) -> Result<usize, RunError> {
    let (games, found) = read_games(&config.input)?;
    if found == 0 {
        eprintln!("analyse: no games in {}", config.input.display());
        return Ok(0);
    }
    // Files are created before the long analysis, so that a wrong path
    // fails at once.
    let (mut output, summary_to_stdout) = match &config.output {
        Some(path) => (Output::file(path)?, true),
        None => (Output::stdout(), false),
    };
    let mut svg_file = config.svg.as_deref().map(create).transpose()?;
    let limits = Limits {
        depth: config.depth,
        move_time: config.movetime,
        ..Limits::default()
    };
    let options = SearchOptions {
        threads: config.threads,
        multi_pv: config.multipv,
        ..SearchOptions::default()
    };
    let evaluation = match config.eval_file.as_deref() {
        None => EvalFile::builtin().map_err(|(_, why)| why),
        Some(path) => EvalFile::load(path),
    }
    .map_err(RunError::EvalFile)?;
    let mut analyser = Analyser::new(config.hash_mb, limits, options).map_err(RunError::Hash)?;
    analyser.set_network(evaluation.network());
    let annotator = format!("{}, {}", engine::NAME, config.limit_text());

    let done = analyse_games(&games, found, &mut analyser, &mut output, &annotator)?;

    if let (Some(file), Some(path)) = (svg_file.as_mut(), &config.svg) {
        let panels: Vec<svg::Panel> = done
            .iter()
            .map(|(game, analysis)| svg::Panel {
                title: format!(
                    "PgnGame {}: {} - {}, {}",
                    game.number,
                    name(game, "White"),
                    name(game, "Black"),
                    game.result
                ),
                analysis,
            })
            .collect();
        file.write_all(svg::render(&panels).as_bytes())
            .and_then(|()| file.flush())
            .map_err(|e| RunError::Write(path.clone(), e))?;
    }

    let text = summary_text(&done, found);
    // Standard output holds only PGN when the games go there.
    if summary_to_stdout {
        print!("{text}");
    } else {
        eprint!("{text}");
    }
    Ok(done.len())
}

/// The games of the file that can be analysed, and how many it holds; the
/// others are reported and left out.
fn read_games(path: &Path) -> Result<(Vec<PgnGame>, usize), RunError> {
    let bytes = std::fs::read(path).map_err(|e| RunError::Read(path.to_path_buf(), e))?;
    // PGN files from old databases are often Latin-1; their odd letters
    // only ever sit in names and comments, which may be mangled safely.
    let text = String::from_utf8_lossy(&bytes);
    let read = pgn::read(&text);
    let found = read.len();
    let mut games = Vec::new();
    for game in read {
        match game {
            Ok(game) => {
                for dropped in &game.dropped_castling {
                    eprintln!("analyse: game {}: FEN: {dropped}", game.number);
                }
                games.push(game);
            }
            Err(e) => eprintln!("analyse: {e}; game skipped"),
        }
    }
    Ok((games, found))
}

/// Analyses the games in turn, writing each annotated game as soon as it
/// is done; returns the games analysed with their analyses.
fn analyse_games<'a>(
    games: &'a [PgnGame],
    found: usize,
    analyser: &mut Analyser,
    output: &mut Output,
    annotator: &str,
) -> Result<Vec<(&'a PgnGame, GameAnalysis)>, RunError> {
    let positions = |g: &PgnGame| g.moves.len() as u64 + 1;
    let progress = Progress::new(games.iter().map(positions).sum());
    let mut done = Vec::new();
    for game in games {
        progress.game(game.number, found);
        let mut searched = 0;
        let result = analysis::analyse(game, analyser, || {
            searched += 1;
            progress.searched();
        });
        match result {
            Ok(analysis) => {
                output.write(&annotate::write(game, &analysis, annotator))?;
                done.push((game, analysis));
            }
            Err(e) => {
                progress.skip(positions(game) - searched);
                progress.message(&format!("analyse: {e}; game skipped"));
            }
        }
    }
    progress.finish();
    output.flush()?;
    Ok(done)
}

fn name<'a>(game: &'a PgnGame, side: &str) -> &'a str {
    game.tag(side).unwrap_or("?")
}

fn summary_text(done: &[(&PgnGame, GameAnalysis)], found: usize) -> String {
    let summaries: Vec<summary::GameSummary> = done
        .iter()
        .map(|(game, analysis)| {
            let names = ["White", "Black"].map(|side| name(game, side).to_string());
            summary::GameSummary::new(game.number, names, game.result.clone(), analysis)
        })
        .collect();
    let mut text = summary::write(&summaries);
    let skipped = found - done.len();
    let _ = write!(text, "analysed {} of {found} games", done.len());
    if skipped > 0 {
        let _ = write!(text, ", {skipped} skipped");
    }
    text.push('\n');
    text
}
