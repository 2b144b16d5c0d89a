//! Runs the games of one command: `--concurrency` workers on a rayon pool,
//! each with its own engines, take game numbers in turn and hand every
//! finished game to one collector, which writes it out and counts it.

use super::args::Config;
use super::data;
use super::game::{self, Game};
use super::opening_choice::OpeningChoice;
use super::openings::{OpeningError, Source};
use super::output::GameFile;
use super::pgn::{self, Header};
use super::player::Player;
use super::progress::{Progress, Snapshot};
use super::sprt::Decision;
use super::stats::Results;
use chess::Color;
use engine::AllocError;
use std::fmt;
use std::io;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What a finished run counted.
pub struct Totals {
    pub seed: u64,
    pub games: u64,
    pub positions: u64,
    pub records: u64,
    pub data_bytes: u64,
    pub elapsed: Duration,
    pub results: Results,
    /// The SPRT's decision when it stopped the games, or its state after
    /// the last one.
    pub sprt: Option<Decision>,
}

#[derive(Debug)]
pub enum RunError {
    Openings(OpeningError),
    Open(PathBuf, io::Error),
    Write(PathBuf, io::Error),
    Hash(usize, AllocError),
    Threads(rayon::ThreadPoolBuildError),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Openings(e) => write!(f, "openings: {e}"),
            RunError::Open(p, e) => write!(f, "cannot open {}: {e}", p.display()),
            RunError::Write(p, e) => write!(f, "cannot write {}: {e}", p.display()),
            RunError::Hash(mb, e) => write!(f, "hash table of {mb} MB: {e}"),
            RunError::Threads(e) => write!(f, "cannot start the game threads: {e}"),
        }
    }
}

/// What every worker reads.
struct Context<'a> {
    config: &'a Config,
    choice: OpeningChoice<'a>,
    event: String,
    /// Names of the players, by their index in `config.players`.
    names: Vec<String>,
    next: AtomicU64,
    stop: AtomicBool,
    collector: Mutex<Collector>,
}

struct Collector {
    pgn: Option<GameFile>,
    data: Option<GameFile>,
    results: Results,
    games: u64,
    positions: u64,
    records: u64,
    progress: Progress,
    /// Set when the SPRT decided.
    decision: Option<Decision>,
    error: Option<RunError>,
}

pub fn run(config: &Config) -> Result<Totals, RunError> {
    let seed = config.seed.unwrap_or_else(rand::random);
    let source =
        Source::new(config.variant, config.openings.as_deref()).map_err(RunError::Openings)?;
    let open = |path: &Option<PathBuf>| {
        path.as_deref()
            .map(|p| GameFile::append(p).map_err(|e| RunError::Open(p.to_path_buf(), e)))
            .transpose()
    };
    let (pgn, data) = (open(&config.pgn)?, open(&config.data)?);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.concurrency)
        .thread_name(|i| format!("selfplay-{i}"))
        .build()
        .map_err(RunError::Threads)?;
    let comparing = config.players.len() == 2;
    let (event, names) = if comparing {
        let (a, b) = (&config.players[0], &config.players[1]);
        (
            format!("Hoeven {a} vs {b}, seed {seed}"),
            vec![format!("Hoeven A ({a})"), format!("Hoeven B ({b})")],
        )
    } else {
        (
            format!("Hoeven self-play, seed {seed}"),
            vec![engine::NAME.to_string()],
        )
    };
    // Printed first, so that a run stopped early can still be repeated.
    println!(
        "selfplay: {} games, {} at once, seed {seed}",
        config.games, config.concurrency
    );
    let started = Instant::now();
    let context = Context {
        config,
        choice: OpeningChoice {
            source: &source,
            seed,
            random_plies: config.random_plies,
            bound: config.opening_bound,
            limit: &config.limit,
        },
        event,
        names,
        next: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        collector: Mutex::new(Collector {
            pgn,
            data,
            results: Results::default(),
            games: 0,
            positions: 0,
            records: 0,
            progress: Progress::new(config.games, if comparing { "A" } else { "White" }),
            decision: None,
            error: None,
        }),
    };
    let workers = (config.concurrency as u64).min(config.games);
    pool.scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|_| worker(&context));
        }
    });
    let collector = context
        .collector
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    collector.progress.finish();
    if let Some(e) = collector.error {
        return Err(e);
    }
    Ok(Totals {
        seed,
        games: collector.games,
        positions: collector.positions,
        records: collector.records,
        data_bytes: collector.data.as_ref().map_or(0, |d| d.written),
        elapsed: started.elapsed(),
        sprt: config.sprt.map(|sprt| {
            collector
                .decision
                .unwrap_or_else(|| sprt.decide(&collector.results.pentanomial))
        }),
        results: collector.results,
    })
}

fn worker(cx: &Context) {
    let config = cx.config;
    let players: Result<Vec<Player>, RunError> = config
        .players
        .iter()
        .map(|s| Player::new(s).map_err(|e| RunError::Hash(s.hash_mb, e)))
        .collect();
    let mut players = match players {
        Ok(p) => p,
        Err(e) => return cx.fail(e),
    };
    while !cx.stop.load(Ordering::Relaxed) {
        let index = cx.next.fetch_add(1, Ordering::Relaxed);
        if index >= config.games {
            break;
        }
        let (opening_index, swapped) = if config.pairs {
            (index / 2, index % 2 == 1)
        } else {
            (index, false)
        };
        let opening = cx.choice.opening(opening_index, &mut players[0]);
        for p in &mut players {
            p.new_game();
        }
        // seats[colour] is the player of that colour.
        let seats = match (players.len(), swapped) {
            (1, _) => [0, 0],
            (_, false) => [0, 1],
            (_, true) => [1, 0],
        };
        let game = game::play(
            opening,
            &mut players,
            seats,
            &config.limit,
            config.adjudication,
        );
        let header = Header {
            event: &cx.event,
            round: index + 1,
            white: &cx.names[seats[0]],
            black: &cx.names[seats[1]],
        };
        let counted = if seats[0] == 0 {
            Color::White
        } else {
            Color::Black
        };
        let pair = (players.len() == 2).then_some(opening_index);
        if let Err(e) = cx.collect(&game, &header, counted, pair) {
            cx.fail(e);
        }
    }
}

impl Context<'_> {
    fn fail(&self, error: RunError) {
        self.stop.store(true, Ordering::Relaxed);
        let mut c = self.collector.lock().unwrap_or_else(|e| e.into_inner());
        c.error.get_or_insert(error);
    }

    /// Writes and counts a finished game; `counted` is the colour whose
    /// results the tally keeps.
    fn collect(
        &self,
        game: &Game,
        header: &Header,
        counted: Color,
        pair: Option<u64>,
    ) -> Result<(), RunError> {
        let pgn_text = self.config.pgn.is_some().then(|| pgn::write(game, header));
        let mut data_text = String::new();
        let records = data::append_records(game, &mut data_text);
        let mut c = self.collector.lock().unwrap_or_else(|e| e.into_inner());
        if let (Some(file), Some(text)) = (c.pgn.as_mut(), pgn_text) {
            file.write(&text)
                .map_err(|e| RunError::Write(file.path().to_path_buf(), e))?;
        }
        if let Some(file) = c.data.as_mut() {
            file.write(&data_text)
                .map_err(|e| RunError::Write(file.path().to_path_buf(), e))?;
        }
        c.games += 1;
        c.positions += game.searched.len() as u64;
        c.records += records;
        let pairs_before = c.results.pentanomial.pairs();
        c.results
            .record(game.outcome.points(counted), pair, game.ending);
        // The test is taken when a pair completes, never half-way through one.
        let pair_completed = c.results.pentanomial.pairs() > pairs_before;
        if let (Some(sprt), None, true) = (self.config.sprt, c.decision, pair_completed) {
            let decision = sprt.decide(&c.results.pentanomial);
            if decision.accepted.is_some() {
                // Games already under way finish, but no new one starts.
                c.decision = Some(decision);
                self.stop.store(true, Ordering::Relaxed);
            }
        }
        let snapshot = Snapshot {
            games: c.games,
            positions: c.positions,
            tally: c.results.tally,
        };
        c.progress.update(&snapshot);
        Ok(())
    }
}
