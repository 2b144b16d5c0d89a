//! The engine seen from its callers: owns the transposition table, the
//! pool of search threads and the choice of evaluation, starts a search and
//! hands back control at once (the protocol's way), or runs one to its end
//! and returns the result. A search goes to the pool as a `Job`.

use crate::job::{Control, Job};
use crate::limits::{Limits, SearchOptions};
use crate::params::SearchParams;
use crate::pool::Pool;
use crate::report::{PvInfo, Reporter, SearchResult};
use crate::search::LmrTable;
use crate::tablebase::Syzygy;
use crate::time::TimeManager;
use crate::tt::{AllocError, TranspositionTable};
use chess::{Board, Move, Position};
use eval::nnue::Network;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;
use std::time::Instant;

pub struct Engine {
    tt: Arc<TranspositionTable>,
    pool: Pool,
    params: SearchParams,
    /// Rebuilt whenever `params` change.
    lmr: Arc<LmrTable>,
    /// The network every thread evaluates with; `None`: the hand-crafted
    /// evaluation.
    network: Option<Arc<Network>>,
    control: Arc<Control>,
    /// Hears the result of the running search.
    running: Option<Receiver<SearchResult>>,
    syzygy: Syzygy,
    /// The size `Hash` asked for, until `ready` builds the table.
    pending_hash_mb: Option<usize>,
}

/// Everything one `go` needs.
pub struct SearchRequest {
    /// The game up to the root, for repetitions.
    pub position: Position,
    pub limits: Limits,
    pub options: SearchOptions,
    /// When `go` arrived: time limits count from here.
    pub start: Instant,
}

impl Engine {
    /// The search threads start with the first search.
    pub fn new(hash_mb: usize) -> Result<Engine, AllocError> {
        Ok(Engine {
            tt: Arc::new(TranspositionTable::new(hash_mb, 1)?),
            pool: Pool::default(),
            params: SearchParams::default(),
            lmr: Arc::new(LmrTable::new(&SearchParams::default())),
            network: None,
            control: Arc::new(Control::default()),
            running: None,
            syzygy: Syzygy::default(),
            pending_hash_mb: None,
        })
    }

    /// Starts or ends search threads now, as `Threads` is set, rather than
    /// at the next search: the table is then written by all of them.
    pub fn set_threads(&mut self, threads: usize) {
        self.wait();
        self.pool.resize(threads);
    }

    /// Asks for a table of `mb`, refused at once when the machine cannot
    /// give it. The table is built by `ready`, after the other options:
    /// a GUI may set `Hash` before `Threads`, and a table of many gigabytes
    /// is written in a fraction of the time by all the search threads.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), AllocError> {
        self.wait();
        TranspositionTable::check_room(mb)?;
        self.pending_hash_mb = Some(mb);
        Ok(())
    }

    /// Builds the table `set_hash` asked for, if any (`isready`, and before
    /// `ucinewgame` and `go`), written by as many threads as search; on
    /// failure the old table stays. Returns at once when there is nothing
    /// to build, also during a search (`isready` is answered then).
    pub fn ready(&mut self) -> Result<(), AllocError> {
        if let Some(mb) = self.pending_hash_mb.take() {
            self.wait();
            self.tt = Arc::new(TranspositionTable::new(mb, self.pool.len())?);
        }
        Ok(())
    }

    /// The search's tunables the next search uses.
    pub fn params(&self) -> SearchParams {
        self.params
    }

    /// Searches with `params` from the next search on.
    pub fn set_params(&mut self, params: SearchParams) {
        self.wait();
        self.lmr = Arc::new(LmrTable::new(&params));
        self.params = params;
    }

    /// The tablebases and their options for the searches to come.
    pub fn set_syzygy(&mut self, syzygy: Syzygy) {
        self.wait();
        self.syzygy = syzygy;
    }

    pub fn syzygy(&self) -> &Syzygy {
        &self.syzygy
    }

    pub fn hash_megabytes(&self) -> usize {
        self.tt.megabytes()
    }

    /// Evaluates with `network` from the next search on, or with the
    /// hand-crafted evaluation for `None`.
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        self.wait();
        self.network = network;
    }

    /// Forgets everything learnt: the table, every history and every pawn
    /// cache (`ucinewgame`).
    pub fn clear(&mut self) {
        self.wait();
        self.tt.clear(self.pool.len());
        for mut state in self.pool.states() {
            state.history.clear();
            state.evaluator.clear();
        }
    }

    pub fn clear_hash(&mut self) {
        self.wait();
        self.tt.clear(self.pool.len());
    }

    /// Starts a search and returns at once. The reporter's `best_move` is
    /// called exactly once, when the search ends.
    pub fn start(&mut self, request: SearchRequest, reporter: Arc<dyn Reporter>) {
        self.wait();
        self.pool.resize(request.options.threads);
        self.control.stop.store(false, Ordering::SeqCst);
        self.control
            .pondering
            .store(request.limits.ponder, Ordering::SeqCst);
        let root = request.position.board();
        let fallback = root.legal_moves().as_slice().first().copied();
        let mut root_moves = root_moves(root, &request.limits);
        if !root_moves.is_empty() {
            self.tt.new_search();
        }

        let root_probe = self.syzygy.probe_root(&request.position, &root_moves);
        if !root_probe.moves.is_empty() {
            root_moves = root_probe.moves.iter().map(|r| r.mv).collect();
        }
        let job = Job {
            tt: Arc::clone(&self.tt),
            control: Arc::clone(&self.control),
            nodes: (0..self.pool.len()).map(|_| AtomicU64::new(0)).collect(),
            time: TimeManager::new(
                request.start,
                &request.limits,
                root.side_to_move(),
                request.options.move_overhead,
            ),
            root_moves,
            position: request.position,
            limits: request.limits,
            options: request.options,
            reporter: Arc::clone(&reporter),
            params: self.params,
            lmr: Arc::clone(&self.lmr),
            syzygy: self.syzygy.clone(),
            tb_cardinality: root_probe.cardinality,
            tb_hits: AtomicU64::new(root_probe.hits),
            root_tb: root_probe.moves,
            network: self.network.clone(),
        };
        self.running = self.pool.run(Arc::new(job));
        if self.running.is_none() {
            // No search thread could be started: answer at once with any
            // legal move, since the protocol still needs its one bestmove.
            reporter.best_move(fallback, None);
            let (done, finished) = channel();
            let _ = done.send(SearchResult {
                best: fallback,
                ..SearchResult::default()
            });
            self.running = Some(finished);
        }
    }

    /// Runs a search to its end on the pool and returns what it found. The
    /// limits must let it end on its own (not `infinite`, not `ponder`).
    pub fn search(&mut self, request: SearchRequest) -> SearchResult {
        self.start(request, Arc::new(Silent));
        self.wait().unwrap_or_default()
    }

    /// Asks the search to finish now; `best_move` follows shortly.
    pub fn stop(&self) {
        self.control.stop.store(true, Ordering::SeqCst);
        self.control.pondering.store(false, Ordering::SeqCst);
    }

    /// The move pondered on was played: the search goes on under its limits.
    pub fn ponderhit(&self) {
        self.control.pondering.store(false, Ordering::SeqCst);
    }

    /// Waits for a running search to end (after its `best_move`) and
    /// returns its result; `None` when no search was running.
    pub fn wait(&mut self) -> Option<SearchResult> {
        self.running.take()?.recv().ok()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

/// The reporter of a search whose caller waits for the result.
struct Silent;

impl Reporter for Silent {
    fn pv(&self, _: &PvInfo) {}
    fn current_move(&self, _: i32, _: Move, _: usize) {}
    fn no_moves(&self, _: bool) {}
    fn best_move(&self, _: Option<Move>, _: Option<Move>) {}
}

/// The legal moves of the root, or those of them `searchmoves` names.
fn root_moves(root: &Board, limits: &Limits) -> Vec<Move> {
    let moves: Vec<Move> = root.legal_moves().iter().copied().collect();
    let wanted: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| limits.search_moves.contains(m))
        .collect();
    if wanted.is_empty() {
        moves
    } else {
        wanted
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt::Bound;

    #[test]
    fn a_failed_resize_keeps_the_table_and_its_entries() {
        let mut engine = Engine::new(2).unwrap();
        let m = Move::new(chess::Square::E1, chess::Square::F1);
        engine.tt.store(0x1234_5678, m, 17, 3, 9, Bound::Exact, 0);
        assert!(engine.set_hash(usize::MAX >> 21).is_err());
        assert_eq!(engine.hash_megabytes(), 2);
        assert_eq!(engine.tt.probe(0x1234_5678, 0).map(|h| h.mv), Some(m));
        assert!(engine.ready().is_ok());
        assert_eq!(engine.tt.probe(0x1234_5678, 0).map(|h| h.mv), Some(m));
        engine.set_hash(1).unwrap();
        assert_eq!(engine.hash_megabytes(), 2, "built at `ready`");
        engine.ready().unwrap();
        assert_eq!(engine.hash_megabytes(), 1);
        assert!(engine.tt.probe(0x1234_5678, 0).is_none(), "a new table");
    }

    #[test]
    fn the_table_is_built_once_by_the_threads_set_after_hash() {
        let mut engine = Engine::new(1).unwrap();
        engine.set_hash(4).unwrap();
        engine.set_threads(3);
        engine.set_hash(3).unwrap();
        assert_eq!(engine.hash_megabytes(), 1);
        engine.ready().unwrap();
        assert_eq!(engine.hash_megabytes(), 3, "the last size asked for");
        engine.ready().unwrap();
        assert_eq!(engine.hash_megabytes(), 3);
    }

    fn request(fen: &str, limits: Limits, threads: usize) -> SearchRequest {
        SearchRequest {
            position: Position::new(Board::from_fen(fen).unwrap()),
            limits,
            options: SearchOptions {
                threads,
                ..SearchOptions::default()
            },
            start: Instant::now(),
        }
    }

    fn depth(d: i32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    #[test]
    fn a_blocking_search_returns_the_best_line_on_any_number_of_threads() {
        let mut engine = Engine::new(1).unwrap();
        for threads in [1, 3] {
            let result = engine.search(request(
                "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
                depth(4),
                threads,
            ));
            let board = Board::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
            assert_eq!(result.best.map(|m| board.san(m)).as_deref(), Some("Ra8#"));
            assert_eq!(result.lines[0].score, crate::score::mate_in(1));
            assert_eq!(result.lines[0].pv.first().copied(), result.best);
            assert!(result.depth >= 1 && result.nodes > 0);
        }
        let mated = engine.search(request("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1", depth(4), 1));
        assert_eq!(mated.best, None);
        assert!(mated.lines.is_empty());
    }

    #[test]
    fn the_searches_use_the_engines_own_params() {
        let mut engine = Engine::new(1).unwrap();
        let nodes = |engine: &mut Engine| {
            engine.clear();
            engine.search(request(chess::STARTPOS, depth(9), 1)).nodes
        };
        let defaults = nodes(&mut engine);
        let mut params = SearchParams::default();
        params.set("RFP_MARGIN", 30).unwrap();
        params.set("LMR_DIVISOR", 150).unwrap();
        engine.set_params(params);
        assert_eq!(engine.params(), params);
        assert_ne!(nodes(&mut engine), defaults);
        engine.set_params(SearchParams::default());
        assert_eq!(nodes(&mut engine), defaults);
    }

    #[test]
    fn the_threads_live_on_between_searches() {
        let mut engine = Engine::new(1).unwrap();
        engine.search(request(chess::STARTPOS, depth(3), 3));
        let threads = engine.pool.thread_ids();
        assert_eq!(threads.len(), 3);
        engine.clear();
        engine.search(request(chess::STARTPOS, depth(3), 3));
        assert_eq!(engine.pool.thread_ids(), threads);
        // Fewer threads: the first ones stay.
        engine.search(request(chess::STARTPOS, depth(3), 2));
        assert_eq!(engine.pool.thread_ids(), threads[..2]);
    }
}
