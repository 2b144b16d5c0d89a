//! One search as all its threads share it (Lazy SMP: every thread searches
//! the same root with its own histories, sharing the table, the node counts
//! and the stop flag): what each thread reads, and the end of the search,
//! where the main thread gathers the threads' results and reports them.

use crate::limits::{Limits, SearchOptions};
use crate::params::SearchParams;
use crate::pool::ThreadState;
use crate::report::{Line, PvInfo, Reporter, SearchResult};
use crate::search::{Completed, LmrTable, Searcher};
use crate::tablebase::{RankedMove, Syzygy, Wdl};
use crate::time::TimeManager;
use crate::tt::TranspositionTable;
use chess::{Board, Move, Position};
use eval::nnue::Network;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use std::time::Duration;

/// Flags the protocol thread sets while a search runs.
#[derive(Default)]
pub(crate) struct Control {
    pub stop: AtomicBool,
    /// True while the search is a ponder search (cleared by `ponderhit`).
    pub pondering: AtomicBool,
}

/// One search as all its threads share it: built by `Engine::start`,
/// handed to every thread of the pool, read by each thread's `Searcher`.
pub(crate) struct Job {
    pub tt: Arc<TranspositionTable>,
    pub control: Arc<Control>,
    /// Nodes per thread, published every few hundred nodes.
    pub nodes: Vec<AtomicU64>,
    pub time: TimeManager,
    pub root_moves: Vec<Move>,
    /// The game up to and including the root.
    pub position: Position,
    pub limits: Limits,
    pub options: SearchOptions,
    pub reporter: Arc<dyn Reporter>,
    pub params: SearchParams,
    /// Built from `params`' LMR shape.
    pub lmr: Arc<LmrTable>,
    pub syzygy: Syzygy,
    /// Positions with at most this many pieces are probed (0: none).
    pub tb_cardinality: u32,
    pub tb_hits: AtomicU64,
    /// At a root in the tables, `root_moves` ranked by them (same order,
    /// best first); empty elsewhere.
    pub root_tb: Vec<RankedMove>,
    pub network: Option<Arc<Network>>,
}

impl Job {
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// The tables' WDL for a node, where Stockfish would probe: few enough
    /// pieces (as many as the largest tables only from `SyzygyProbeDepth`
    /// on), just after a capture or pawn move, no castling rights.
    pub fn probe_wdl(&self, board: &Board, depth: i32) -> Option<Wdl> {
        let pieces = board.occupied().count();
        if pieces > self.tb_cardinality
            || (pieces == self.tb_cardinality && depth < self.syzygy.probe_depth)
            || board.halfmove_clock() != 0
            || !board.castling_rights().is_empty()
        {
            return None;
        }
        let wdl = self.syzygy.tables.as_ref()?.wdl(board).ok()?;
        self.tb_hits.fetch_add(1, Ordering::Relaxed);
        Some(wdl)
    }

    /// A helper thread's search: its last completed iteration.
    pub fn helper_thread(&self, state: &mut ThreadState, id: usize) -> Completed {
        if self.root_moves.is_empty() {
            return Completed::default();
        }
        state.evaluator.set_network(self.network.clone());
        let mut searcher = Searcher::new(self, &mut state.history, &mut state.evaluator, id);
        searcher.iterate();
        searcher.completed
    }

    /// The main thread's search, then the end of the whole search: waits
    /// for the `count` helpers' results, chooses the best thread's lines,
    /// and reports them and the best move.
    pub fn main_thread(
        &self,
        state: &mut ThreadState,
        helpers: &Receiver<(usize, Completed)>,
        count: usize,
    ) -> SearchResult {
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
                elapsed: self.time.elapsed(),
                ..SearchResult::default()
            };
        }
        state.evaluator.set_network(self.network.clone());
        let mut searcher = Searcher::new(self, &mut state.history, &mut state.evaluator, 0);
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
        let nodes = self.total_nodes();
        let elapsed = self.time.elapsed();
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
        if let Some(tables) = &self.syzygy.tables {
            for failure in tables.take_failures() {
                self.reporter.error(&failure);
            }
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
