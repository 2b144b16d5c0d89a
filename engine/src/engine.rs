//! The engine seen from its callers: owns the transposition table, the
//! pool of search threads and the choice of evaluation, starts a search and hands back control at once
//! (the protocol's way), or runs one to its end and returns the result.
//!
//! Lazy SMP: every thread searches the same root with its own histories,
//! sharing only the table; the main thread watches the clock and reports.

use crate::limits::{Limits, SearchOptions};
use crate::pool::{Pool, ThreadState};
use crate::report::{Line, PvInfo, Reporter, SearchResult};
use crate::score::DRAW;
use crate::search::{Completed, LmrTable, Searcher, Shared};
use crate::tablebase::{RankedMove, Syzygy};
use crate::time::TimeManager;
use crate::tt::{AllocError, TranspositionTable};
use eval::nnue::Network;
use movegen::{Board, Move, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Flags the protocol thread sets while a search runs.
#[derive(Default)]
struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
}

pub struct Engine {
    tt: Arc<TranspositionTable>,
    pool: Pool,
    lmr: Arc<LmrTable>,
    /// The network every thread evaluates with; `None`: the hand-crafted
    /// evaluation.
    network: Option<Arc<Network>>,
    control: Arc<Control>,
    /// Hears the result of the running search.
    running: Option<Receiver<SearchResult>>,
    syzygy: Syzygy,
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
            lmr: Arc::new(LmrTable::new()),
            network: None,
            control: Arc::new(Control::default()),
            running: None,
            syzygy: Syzygy::default(),
        })
    }

    /// Starts or ends search threads now, as `Threads` is set, rather than
    /// at the next search: the table is then written by all of them.
    pub fn set_threads(&mut self, threads: usize) {
        self.wait();
        self.pool.resize(threads);
    }

    /// Resizes the table, written by as many threads as search; on failure
    /// the old table stays.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), AllocError> {
        self.wait();
        let tt = TranspositionTable::new(mb, self.pool.len())?;
        self.tt = Arc::new(tt);
        Ok(())
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

        // A root in the tables: the moves are ranked by them, and the search
        // chooses among those that keep the best result the tables promise
        // (by DTZ, the quickest safe progress); further MultiPV lines come
        // from the next ranks down. The search then probes no further unless
        // only WDL tables ranked the moves and the root is won, where the
        // probes help find the way.
        let syzygy = &self.syzygy;
        let mut tb_hits = 0;
        let mut tb_cardinality = syzygy.cardinality();
        let mut root_tb = Vec::new();
        if let Some(tables) = syzygy.tables.as_deref().filter(|_| {
            !root_moves.is_empty()
                && root.occupied().count() <= tb_cardinality
                && root.castling_rights().is_empty()
        }) {
            let drawn_by_rule = |m: Move| {
                let mut after = request.position.clone();
                after.make_move(m);
                after.is_fifty_move_draw() || after.is_repetition(after.ply())
            };
            if let Ok(ranking) =
                tables.rank_root_moves(root, &root_moves, syzygy.rule50, drawn_by_rule)
            {
                tb_hits = root_moves.len() as u64;
                if ranking.by_dtz || ranking.score() <= DRAW {
                    tb_cardinality = 0;
                }
                root_moves = ranking.moves.iter().map(|r| r.mv).collect();
                root_tb = ranking.moves;
            }
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
            lmr: Arc::clone(&self.lmr),
            syzygy: self.syzygy.clone(),
            tb_cardinality,
            tb_hits: AtomicU64::new(tb_hits),
            root_tb,
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

/// One search as the pool's threads share it.
pub(crate) struct Job {
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
    /// Nodes per thread, published every few hundred nodes.
    nodes: Vec<AtomicU64>,
    time: TimeManager,
    root_moves: Vec<Move>,
    position: Position,
    limits: Limits,
    options: SearchOptions,
    reporter: Arc<dyn Reporter>,
    lmr: Arc<LmrTable>,
    syzygy: Syzygy,
    tb_cardinality: u32,
    tb_hits: AtomicU64,
    /// At a root in the tables, `root_moves` ranked by them (same order).
    root_tb: Vec<RankedMove>,
    network: Option<Arc<Network>>,
}

impl Job {
    fn shared(&self) -> Shared<'_> {
        Shared {
            tt: &self.tt,
            stop: &self.control.stop,
            pondering: &self.control.pondering,
            nodes: &self.nodes,
            limits: &self.limits,
            options: &self.options,
            time: self.time,
            position: &self.position,
            root_moves: &self.root_moves,
            reporter: self.reporter.as_ref(),
            lmr: &self.lmr,
            syzygy: &self.syzygy,
            tb_cardinality: self.tb_cardinality,
            tb_hits: &self.tb_hits,
            root_tb: &self.root_tb,
        }
    }

    /// A helper thread's search: its last completed iteration.
    pub(crate) fn helper_thread(&self, state: &mut ThreadState, id: usize) -> Completed {
        if self.root_moves.is_empty() {
            return Completed::default();
        }
        let shared = self.shared();
        state.evaluator.set_network(self.network.clone());
        let mut searcher = Searcher::new(&shared, &mut state.history, &mut state.evaluator, id);
        searcher.iterate();
        searcher.completed
    }

    /// The main thread's search, then the end of the whole search: waits
    /// for the `count` helpers' results, chooses the best thread's lines,
    /// and reports them and the best move.
    pub(crate) fn main_thread(
        &self,
        state: &mut ThreadState,
        helpers: &Receiver<(usize, Completed)>,
        count: usize,
    ) -> SearchResult {
        let shared = self.shared();
        if self.root_moves.is_empty() {
            let in_check = self.position.board().in_check();
            self.reporter.no_moves(in_check);
            self.wait_for_release();
            self.control.stop.store(true, Ordering::SeqCst);
            for _ in 0..count {
                let _ = helpers.recv();
            }
            self.reporter.best_move(None, None);
            return SearchResult {
                elapsed: shared.time.elapsed(),
                ..SearchResult::default()
            };
        }
        state.evaluator.set_network(self.network.clone());
        let mut searcher = Searcher::new(&shared, &mut state.history, &mut state.evaluator, 0);
        searcher.iterate();
        let mut results = vec![searcher.completed];
        self.wait_for_release();
        self.control.stop.store(true, Ordering::SeqCst);
        let mut helper_results: Vec<(usize, Completed)> =
            (0..count).filter_map(|_| helpers.recv().ok()).collect();
        helper_results.sort_by_key(|&(id, _)| id);
        results.extend(helper_results.into_iter().map(|(_, c)| c));

        // The best thread: the deepest completed iteration, then the best
        // score. With MultiPV the main thread's lines are kept together.
        let best = if self.options.multi_pv > 1 {
            0
        } else {
            (0..results.len())
                .filter(|&i| !results[i].lines.is_empty())
                .max_by_key(|&i| {
                    (
                        results[i].depth,
                        results[i].lines[0].score,
                        std::cmp::Reverse(i),
                    )
                })
                .unwrap_or(0)
        };
        let chosen = &results[best];
        let count = chosen.lines.len().min(self.options.multi_pv.max(1));
        let nodes = shared.total_nodes();
        let elapsed = shared.time.elapsed();
        let lines: Vec<Line> = chosen.lines[..count]
            .iter()
            .map(|rm| Line {
                score: rm.score,
                seldepth: rm.seldepth.max(1),
                pv: rm.pv.clone(),
            })
            .collect();
        for (i, (line, rm)) in lines.iter().zip(&chosen.lines).enumerate() {
            self.reporter.pv(&PvInfo {
                depth: chosen.depth,
                seldepth: line.seldepth,
                multipv: i + 1,
                score: rm.shown_score(),
                bound: None,
                nodes,
                time: elapsed,
                hashfull: self.tt.hashfull(),
                tbhits: self.tb_hits.load(Ordering::Relaxed),
                pv: line.pv.clone(),
            });
        }
        if let Some(failure) = self.syzygy.tables.as_ref().and_then(|t| t.take_failure()) {
            self.reporter.error(&failure);
        }
        let root = self.position.board();
        let (best_move, ponder) = match chosen.lines.first() {
            Some(line) => (
                line.mv,
                line.pv
                    .get(1)
                    .copied()
                    .or_else(|| ponder_from_table(&self.tt, root, line.mv)),
            ),
            None => (self.root_moves[0], None),
        };
        self.reporter.best_move(Some(best_move), ponder);
        SearchResult {
            best: Some(best_move),
            ponder,
            depth: chosen.depth,
            lines,
            nodes,
            elapsed,
        }
    }

    /// In infinite and ponder searches the best move waits for `stop` (or
    /// `ponderhit`), even when the search has nothing left to do.
    fn wait_for_release(&self) {
        let limits = &self.limits;
        let control = &self.control;
        while !limits.is_bounded() && !control.stop.load(Ordering::SeqCst) {
            if limits.ponder && !limits.infinite && !control.pondering.load(Ordering::SeqCst) {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

/// A reply to ponder on when the PV ends after the best move: the table's
/// move for the position after it, if legal there.
fn ponder_from_table(tt: &TranspositionTable, root: &Board, best: Move) -> Option<Move> {
    let mut after = root.clone();
    after.make_move(best);
    let hit = tt.probe(after.key(), 1)?;
    (!hit.mv.is_none() && after.is_legal(hit.mv)).then_some(hit.mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt::Bound;

    #[test]
    fn a_failed_resize_keeps_the_table_and_its_entries() {
        let mut engine = Engine::new(2).unwrap();
        let m = Move::new(movegen::Square::E1, movegen::Square::F1);
        engine.tt.store(0x1234_5678, m, 17, 3, 9, Bound::Exact, 0);
        assert!(engine.set_hash(usize::MAX >> 21).is_err());
        assert_eq!(engine.hash_megabytes(), 2);
        assert_eq!(engine.tt.probe(0x1234_5678, 0).map(|h| h.mv), Some(m));
        engine.set_hash(1).unwrap();
        assert_eq!(engine.hash_megabytes(), 1);
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
    fn the_threads_live_on_between_searches() {
        let mut engine = Engine::new(1).unwrap();
        engine.search(request(movegen::STARTPOS, depth(3), 3));
        let threads = engine.pool.thread_ids();
        assert_eq!(threads.len(), 3);
        engine.clear();
        engine.search(request(movegen::STARTPOS, depth(3), 3));
        assert_eq!(engine.pool.thread_ids(), threads);
        // Fewer threads: the first ones stay.
        engine.search(request(movegen::STARTPOS, depth(3), 2));
        assert_eq!(engine.pool.thread_ids(), threads[..2]);
    }
}
