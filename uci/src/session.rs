//! The UCI session: reads commands, keeps the game position and the
//! options, and drives the engine.
//!
//! Standard input is read on its own thread and the search runs on its own
//! threads, so this loop is never blocked by either: `isready`, `stop`,
//! `ponderhit` and `quit` are answered during a search. Commands that need
//! the engine idle (`go`, `setoption`, `ucinewgame`, ...) wait in a queue
//! until the running search has sent its `bestmove`, and every command
//! after them waits its turn behind them, so that commands take effect in
//! the order they were sent. `stop` and `ponderhit` act at once on the
//! running search and on each search a waiting `go` will start, all of
//! which were asked for before them; `quit` (or the end of input) stops
//! them all the same way and waits for their `bestmove`s.

use crate::event::{Event, Flow};
use crate::genfens;
use crate::go::{self, Go};
use crate::options;
use crate::output::{Output, UciReporter};
use chess::{chess960, Board, CastlingNotation, Position};
use crossbeam_channel::{Receiver, Sender};
use engine::options::{Change, Options, DEFAULT_HASH_MB, EMPTY};
use engine::skill::SkillReporter;
use engine::tablebase::{Syzygy, Tablebases};
use engine::{Engine, EvalFile, Limits, Reporter, SearchOptions, SearchRequest, AUTHOR, NAME};
use eval::Evaluator;
use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Whether a command may run while a search does: it leaves the search
/// alone.
fn runs_during_search(command: &str) -> bool {
    matches!(
        command,
        "quit"
            | "isready"
            | "position"
            | "flip"
            | "d"
            | "eval"
            | "export_net"
            | "compiler"
            | "uci"
            | "debug"
            | "register"
    )
}

/// A command waiting for the engine to be idle, or behind one that is.
struct Waiting {
    line: String,
    /// A `stop` came after it: the search it starts ends at once.
    stop: bool,
    /// A `ponderhit` came after it: the search it starts no longer ponders.
    ponderhit: bool,
}

pub struct Session {
    out: Output,
    engine: Engine,
    options: Options,
    evaluation: EvalFile,
    /// Whether the evaluation in use has been named since it was chosen.
    /// As Stockfish does, the first `isready` or `go` names it, never the
    /// answer to `uci`, which a strict GUI reads as `id` and `option` lines
    /// up to `uciok` and nothing else.
    announced: bool,
    /// The game as `position` set it up, for repetitions.
    position: Position,
    searching: bool,
    pending: VecDeque<Waiting>,
    events: Sender<Event>,
}

impl Session {
    pub fn new(out: Output, events: Sender<Event>) -> Session {
        Session::with_hash(out, events, DEFAULT_HASH_MB)
    }

    /// A session whose table starts at `hash_mb` instead of the default
    /// (the fuzz target starts thousands of sessions).
    pub fn with_hash(out: Output, events: Sender<Event>, hash_mb: usize) -> Session {
        let options = Options {
            hash_mb,
            ..Options::default()
        };
        // 16 MB is always available at start-up; if not, 1 MB is the floor.
        let mut engine = Engine::new(options.hash_mb)
            .or_else(|_| Engine::new(1))
            .unwrap_or_else(|e| panic!("{e}"));
        let evaluation = EvalFile::builtin().unwrap_or_else(|(fallback, why)| {
            out.error(&format!("{why}; using the {}", fallback.describe()));
            fallback
        });
        engine.set_network(evaluation.network());
        Session {
            out,
            engine,
            options,
            evaluation,
            announced: false,
            position: Position::new(Board::startpos()),
            searching: false,
            pending: VecDeque::new(),
            events,
        }
    }

    /// Whether a search is running (its `bestmove` not yet handled).
    pub fn is_searching(&self) -> bool {
        self.searching
    }

    /// Handles one event from the channel.
    pub fn on_event(&mut self, event: Event) -> Flow {
        match event {
            Event::Line(line) => self.on_line(&line),
            Event::SearchDone => {
                self.engine.wait();
                self.searching = false;
                self.drain_pending()
            }
            Event::Eof => self.on_line("quit"),
        }
    }

    fn quit(&mut self) -> Flow {
        self.engine.stop();
        self.engine.wait();
        Flow::Quit
    }

    fn on_line(&mut self, line: &str) -> Flow {
        let line = line.trim();
        self.out.log_input(line);
        let command = line.split_whitespace().next().unwrap_or("");
        match command {
            "" => return Flow::Continue,
            // Every search asked for so far: the running one, and those
            // that waiting commands will start. Were a `stop` to wait its
            // turn instead, a waiting `ucinewgame` would wait forever for
            // the infinite search before it.
            "stop" | "quit" => {
                self.engine.stop();
                self.pending.iter_mut().for_each(|w| w.stop = true);
                if command == "stop" {
                    return Flow::Continue;
                }
            }
            "ponderhit" => {
                self.engine.ponderhit();
                self.pending.iter_mut().for_each(|w| w.ponderhit = true);
                return Flow::Continue;
            }
            _ => {}
        }
        if !self.pending.is_empty() || (self.searching && !runs_during_search(command)) {
            self.pending.push_back(Waiting {
                line: line.to_string(),
                stop: false,
                ponderhit: false,
            });
            return Flow::Continue;
        }
        self.execute(line)
    }

    /// Runs waiting commands in order once the running search has ended,
    /// until one needs the engine idle while a search it started runs.
    fn drain_pending(&mut self) -> Flow {
        while let Some(w) = self.pending.pop_front() {
            let command = w.line.split_whitespace().next().unwrap_or("");
            if self.searching && !runs_during_search(command) {
                self.pending.push_front(w);
                break;
            }
            if self.execute(&w.line) == Flow::Quit {
                return Flow::Quit;
            }
            if w.stop {
                self.engine.stop();
            } else if w.ponderhit {
                self.engine.ponderhit();
            }
        }
        Flow::Continue
    }

    fn execute(&mut self, line: &str) -> Flow {
        let mut words = line.split_whitespace();
        let command = words.next().unwrap_or("");
        let args: Vec<&str> = words.collect();
        match command {
            "uci" => {
                self.out
                    .line(&format!("id name {NAME}\nid author {AUTHOR}"));
                self.out.line(options::declarations().trim_end());
                self.out.line("uciok");
            }
            "isready" => {
                self.build_table();
                self.announce_evaluation();
                self.out.line("readyok");
            }
            "debug" | "register" => {}
            "setoption" => self.set_option(line.split_once("setoption").map_or("", |(_, r)| r)),
            "ucinewgame" => {
                self.build_table();
                self.engine.clear();
            }
            "position" => self.position(&args),
            "go" => self.go(&args),
            "flip" => self.position = Position::new(self.position.board().flipped()),
            "d" => self.display(),
            "eval" => self.eval(),
            "compiler" => self.out.line(&crate::build_info::describe()),
            "export_net" => self.export_net(line.split_once("export_net").map_or("", |(_, r)| r)),
            "bench" => self.bench(&args),
            "genfens" => self.genfens(&args),
            "quit" => return self.quit(),
            other => self.out.error(&format!("unknown command '{other}'")),
        }
        Flow::Continue
    }

    fn set_option(&mut self, args: &str) {
        let parsed = match options::parse(args) {
            Ok(p) => p,
            Err(e) => return self.out.error(&e),
        };
        if let Some(clamped) = parsed.clamped {
            self.out.info_string(&clamped.to_string());
        }
        let mut tables = self.engine.syzygy().tables.clone();
        match parsed.change {
            Change::DebugLogFile(path) if path.is_empty() => self.out.set_log(None),
            Change::DebugLogFile(path) => match std::fs::File::create(&path) {
                Ok(file) => self.out.set_log(Some(Box::new(file))),
                Err(e) => self.out.error(&format!("Debug Log File {path}: {e}")),
            },
            Change::Hash(mb) => match self.engine.set_hash(mb) {
                Ok(()) => self.options.hash_mb = mb,
                Err(e) => self
                    .out
                    .error(&format!("{e}; keeping {} MB", self.engine.hash_megabytes())),
            },
            Change::Threads(n) => {
                self.options.threads = n;
                self.engine.set_threads(n);
            }
            Change::MultiPv(n) => self.options.multi_pv = n,
            Change::Ponder(b) => self.options.ponder = b,
            Change::MoveOverhead(ms) => self.options.move_overhead_ms = ms,
            Change::ClearHash => {
                self.build_table();
                self.engine.clear_hash();
            }
            Change::Chess960(b) => self.options.chess960 = b,
            Change::ShowWdl(b) => self.options.show_wdl = b,
            Change::AnalyseMode(b) => self.options.analyse_mode = b,
            Change::SyzygyPath(path) => {
                tables = self.load_tablebases(&path);
                self.options.syzygy_path = path;
            }
            Change::SyzygyProbeDepth(d) => self.options.syzygy_probe_depth = d,
            Change::Syzygy50MoveRule(b) => self.options.syzygy_50_move_rule = b,
            Change::SyzygyProbeLimit(n) => self.options.syzygy_probe_limit = n,
            Change::SkillLevel(level) => self.options.skill_level = level,
            Change::LimitStrength(b) => self.options.limit_strength = b,
            Change::Elo(elo) => self.options.elo = elo,
            Change::EvalFile(path) => match EvalFile::load(&path) {
                Ok(evaluation) => {
                    self.engine.set_network(evaluation.network());
                    self.evaluation = evaluation;
                    self.announced = false;
                }
                Err(e) => self
                    .out
                    .error(&format!("{e}; keeping the {}", self.evaluation.describe())),
            },
            Change::SearchParam { name, value } => {
                let mut params = self.engine.params();
                match params.set(name, value.into()) {
                    Ok(()) => self.engine.set_params(params),
                    Err(e) => self.out.error(&e.to_string()),
                }
            }
        }
        self.engine.set_syzygy(Syzygy {
            tables,
            probe_depth: self.options.syzygy_probe_depth,
            rule50: self.options.syzygy_50_move_rule,
            probe_limit: self.options.syzygy_probe_limit,
        });
    }

    /// Opens the tables of `SyzygyPath` (`<empty>` or nothing: none), says
    /// what was found, and reports every folder or file that could not be
    /// used; the tables that could are used all the same.
    fn load_tablebases(&self, path: &str) -> Option<Arc<Tablebases>> {
        let path = path.trim();
        if path.is_empty() || path == EMPTY {
            return None;
        }
        let loaded = Tablebases::load(path);
        for problem in &loaded.problems {
            self.out.error(&problem.to_string());
        }
        match &loaded.tables {
            Some(t) => self.out.info_string(&t.summary()),
            None => self
                .out
                .info_string(&format!("no tablebase files found in '{path}'")),
        }
        loaded.tables.map(Arc::new)
    }

    /// The static evaluation: the network's, or the hand-crafted one term
    /// by term.
    fn eval(&mut self) {
        let board = self.position.board();
        let Some(net) = self.evaluation.network() else {
            return self.out.line(eval::trace(board).trim_end());
        };
        let mut evaluator = Evaluator::new(Some(net));
        evaluator.reset(board);
        let cp = evaluator.evaluate(board);
        let white = cp * board.side_to_move().sign();
        self.out.line(&format!(
            "{}\nNNUE evaluation: {cp} (side to move)\nFinal evaluation: {white} (white side)",
            self.evaluation.describe()
        ));
    }

    /// `export_net [file]`: writes the network in use to a file.
    fn export_net(&mut self, file: &str) {
        match self.evaluation.export(file.trim()) {
            Ok(path) => self.out.info_string(&format!("network written to {path}")),
            Err(why) => self.out.error(&format!("export_net: {why}")),
        }
    }

    /// `position startpos | fen <fen> | frc <n> | dfrc <white> <black>` then
    /// optionally `moves ...`. A bad setup keeps the previous position; an
    /// illegal move keeps the position before it.
    fn position(&mut self, args: &[&str]) {
        let moves_at = args
            .iter()
            .position(|&w| w == "moves")
            .unwrap_or(args.len());
        let (setup, moves) = (&args[..moves_at], args.get(moves_at + 1..).unwrap_or(&[]));
        let board = match setup {
            ["startpos"] => Ok(Board::startpos()),
            ["fen", fen @ ..] if !fen.is_empty() => match Board::from_fen_reporting(&fen.join(" ")) {
                Ok((board, dropped)) => {
                    for d in dropped {
                        self.out.info_string(&format!("warning: {d}"));
                    }
                    Ok(board)
                }
                Err(e) => Err(format!("invalid FEN: {e}")),
            },
            ["frc", n] => parse_number(n)
                .and_then(|n| chess960::start_position(n).map_err(|e| e.to_string())),
            ["dfrc", w, b] => parse_number(w).and_then(|w| {
                parse_number(b).and_then(|b| chess960::double_start_position(w, b).map_err(|e| e.to_string()))
            }),
            _ => Err(format!(
                "position: expected 'startpos', 'fen <fen>', 'frc <n>' or 'dfrc <white> <black>', got '{}'",
                setup.join(" ")
            )),
        };
        let mut position = match board {
            Ok(b) => Position::new(b),
            Err(e) => return self.out.error(&format!("{e}; position unchanged")),
        };
        for (ply, text) in moves.iter().enumerate() {
            match position.board().parse_uci_move(text, self.options.chess960) {
                Ok(m) => position.make_move(m),
                Err(e) => {
                    self.out.error(&format!(
                        "move {} ('{text}') at ply {}: {e}; position set after the last legal move",
                        ply + 1,
                        ply + 1
                    ));
                    break;
                }
            }
        }
        self.position = position;
    }

    /// Builds the table `Hash` asked for, now that the threads that write
    /// it are known; on failure the old table stays and `Hash` says so.
    fn build_table(&mut self) {
        if let Err(e) = self.engine.ready() {
            let kept = self.engine.hash_megabytes();
            self.out.error(&format!("{e}; keeping {kept} MB"));
            self.options.hash_mb = kept;
        }
    }

    /// Names the evaluation in use, once after each change of it.
    fn announce_evaluation(&mut self) {
        if !self.announced {
            self.out.info_string(&self.evaluation.describe());
            self.announced = true;
        }
    }

    fn go(&mut self, args: &[&str]) {
        let start = Instant::now();
        self.build_table();
        self.announce_evaluation();
        let mut warnings = Vec::new();
        let parsed = go::parse(
            args,
            self.position.board(),
            self.options.chess960,
            &mut warnings,
        );
        for w in warnings {
            self.out.error(&w);
        }
        let mut limits: Limits = match parsed {
            Go::Perft(depth) => {
                let report = crate::perft::report(
                    self.position.board(),
                    depth,
                    self.options.chess960,
                    false,
                );
                return self.out.line(report.trim_end());
            }
            Go::Search(limits) => limits,
        };
        let mut options = SearchOptions {
            threads: self.options.threads,
            multi_pv: self.options.multi_pv,
            move_overhead: Duration::from_millis(self.options.move_overhead_ms),
        };
        let mut reporter: Arc<dyn Reporter> = Arc::new(UciReporter {
            out: self.out.clone(),
            chess960: self.options.chess960,
            show_wdl: self.options.show_wdl,
            done: self.events.clone(),
        });
        if let Some(strength) = self.options.strength() {
            strength.restrict(&mut limits, &mut options);
            reporter = Arc::new(SkillReporter::new(
                reporter,
                strength,
                self.options.multi_pv,
                self.position.board().key(),
            ));
        }
        let request = SearchRequest {
            position: self.position.clone(),
            limits,
            options,
            start,
        };
        self.searching = true;
        self.engine.start(request, reporter);
    }

    fn display(&self) {
        let b = self.position.board();
        let mut s = String::from("\n +---+---+---+---+---+---+---+---+\n");
        for rank in (0..8u8).rev() {
            for file in 0..8u8 {
                let (Some(f), Some(r)) = (chess::File::new(file), chess::Rank::new(rank)) else {
                    continue;
                };
                let c = b
                    .piece_on(chess::Square::new(f, r))
                    .map_or(' ', |p| p.to_char());
                s.push_str(&format!(" | {c}"));
            }
            s.push_str(&format!(
                " | {}\n +---+---+---+---+---+---+---+---+\n",
                rank + 1
            ));
        }
        s.push_str("   a   b   c   d   e   f   g   h\n\n");
        s.push_str(&format!("Fen: {}\n", b.to_fen(CastlingNotation::XFen)));
        s.push_str(&format!(
            "Shredder-FEN: {}\n",
            b.to_fen(CastlingNotation::Shredder)
        ));
        s.push_str(&format!("Key: {:016X}\n", b.key()));
        let checkers: Vec<String> = b.checkers().map(|sq| sq.to_string()).collect();
        s.push_str(&format!("Checkers: {}", checkers.join(" ")));
        if let Some((w, bl)) = b.double_chess960_numbers() {
            if w == bl {
                s.push_str(&format!("\nChess960 start position: {w}"));
            } else {
                s.push_str(&format!("\nDouble Fischer Random start position: {w} {bl}"));
            }
        }
        // As Stockfish's `d`: the tables' view, for positions they hold.
        if let Some(tables) = &self.engine.syzygy().tables {
            if b.occupied().count() <= tables.max_pieces() {
                let wdl = tables.wdl(b).map(|w| w.value());
                let dtz = tables.dtz(b);
                let show = |r: Result<i32, engine::tablebase::ProbeError>| match r {
                    Ok(v) => v.to_string(),
                    Err(e) => format!("none ({e})"),
                };
                s.push_str(&format!("\nTablebases WDL: {}", show(wdl)));
                s.push_str(&format!("\nTablebases DTZ: {}", show(dtz)));
            }
        }
        self.out.line(&s);
    }

    fn bench(&mut self, args: &[&str]) {
        let depth = match args.first().map(|d| d.parse::<i32>()) {
            None => engine::bench::DEFAULT_DEPTH,
            Some(Ok(d)) if d >= 1 => d,
            Some(_) => return self.out.error("bench: depth must be a positive number"),
        };
        crate::bench::report(depth, self.evaluation.network(), |line| self.out.line(line));
    }

    /// `genfens N seed S book <file|None> [extra]`: one `info string genfens
    /// <FEN>` line per opening, the form OpenBench's client reads.
    fn genfens(&mut self, args: &[&str]) {
        let request = match genfens::Request::parse(args) {
            Ok(r) => r,
            Err(e) => return self.out.error(&e),
        };
        match genfens::generate(&request, &mut self.engine) {
            Ok(openings) => {
                let lines: Vec<String> = openings
                    .iter()
                    .map(|b| format!("info string genfens {}", b.to_fen(CastlingNotation::XFen)))
                    .collect();
                self.out.line(&lines.join("\n"));
            }
            Err(e) => self.out.error(&format!("genfens: {e}")),
        }
    }
}

fn parse_number(s: &str) -> Result<u32, String> {
    s.parse::<u32>()
        .map_err(|_| format!("'{s}' is not a start position number"))
}

/// Reads standard input on its own thread and runs the session until `quit`
/// or the end of input.
pub fn run() {
    let (tx, rx): (Sender<Event>, Receiver<Event>) = crossbeam_channel::unbounded();
    let reader_tx = tx.clone();
    let reader = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            // Bytes, not `lines()`: a line that is not UTF-8 is garbage to
            // report, not the end of input.
            let mut stdin = std::io::stdin().lock();
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match stdin.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        if reader_tx.send(Event::Line(line)).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = reader_tx.send(Event::Eof);
        });
    if reader.is_err() {
        return;
    }
    let mut session = Session::new(Output::stdout(), tx);
    while let Ok(event) = rx.recv() {
        if session.on_event(event) == Flow::Quit {
            break;
        }
    }
}

/// Runs `lines` as UCI commands, each after the search started by the one
/// before has ended, then quits: the form `hoeven "genfens ..." quit` that
/// OpenBench uses.
pub fn run_lines(lines: &[String]) {
    let (tx, rx): (Sender<Event>, Receiver<Event>) = crossbeam_channel::unbounded();
    let mut session = Session::new(Output::stdout(), tx);
    for line in lines {
        if session.on_event(Event::Line(line.clone())) == Flow::Quit {
            return;
        }
        while session.is_searching() {
            let Ok(event) = rx.recv() else { break };
            if session.on_event(event) == Flow::Quit {
                return;
            }
        }
    }
    session.on_event(Event::Eof);
}
