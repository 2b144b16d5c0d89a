//! The engine seen from the protocol: owns the transposition table and the
//! threads' histories and evaluators, starts a search on its own threads and
//! hands back control at once, and stops it on request.
//!
//! Lazy SMP: every thread searches the same root with its own histories,
//! sharing only the table; the main thread watches the clock and reports.

use crate::history::History;
use crate::limits::{Limits, SearchOptions};
use crate::report::{PvInfo, Reporter};
use crate::search::{Completed, LmrTable, Searcher, Shared};
use crate::time::TimeManager;
use crate::tt::{AllocError, TranspositionTable};
use eval::nnue::Network;
use eval::Evaluator;
use movegen::{Board, Move};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Search threads recurse deeply; give them room.
const THREAD_STACK_BYTES: usize = 16 << 20;

/// Flags the protocol thread sets while a search runs.
#[derive(Default)]
struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
}

/// What a search thread keeps from one search to the next.
pub(crate) struct ThreadState {
    history: History,
    evaluator: Evaluator,
}

impl ThreadState {
    fn new(network: Option<Arc<Network>>) -> ThreadState {
        ThreadState {
            history: History::default(),
            evaluator: Evaluator::new(network),
        }
    }
}

pub struct Engine {
    tt: Arc<TranspositionTable>,
    threads: Vec<ThreadState>,
    /// The network every thread evaluates with; `None`: the hand-crafted
    /// evaluation.
    network: Option<Arc<Network>>,
    control: Arc<Control>,
    running: Option<JoinHandle<Vec<ThreadState>>>,
}

/// Everything one `go` needs.
pub struct SearchRequest {
    pub root: Board,
    /// Keys of the game's positions before the root, oldest first.
    pub history: Vec<u64>,
    pub limits: Limits,
    pub options: SearchOptions,
    /// When `go` arrived: time limits count from here.
    pub start: Instant,
}

impl Engine {
    pub fn new(hash_mb: usize) -> Result<Engine, AllocError> {
        Ok(Engine {
            tt: Arc::new(TranspositionTable::new(hash_mb)?),
            threads: vec![ThreadState::new(None)],
            network: None,
            control: Arc::new(Control::default()),
            running: None,
        })
    }

    /// Resizes the table; on failure the old table stays.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), AllocError> {
        self.wait();
        let tt = TranspositionTable::new(mb)?;
        self.tt = Arc::new(tt);
        Ok(())
    }

    pub fn hash_megabytes(&self) -> usize {
        self.tt.megabytes()
    }

    /// Evaluates with `network` from the next search on, or with the
    /// hand-crafted evaluation for `None`.
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        self.wait();
        for t in &mut self.threads {
            t.evaluator.set_network(network.clone());
        }
        self.network = network;
    }

    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }

    /// Forgets everything learnt: the table, every history and every pawn
    /// cache (`ucinewgame`).
    pub fn clear(&mut self) {
        self.wait();
        self.tt.clear();
        for t in &mut self.threads {
            t.history.clear();
            t.evaluator.clear();
        }
    }

    pub fn clear_hash(&mut self) {
        self.wait();
        self.tt.clear();
    }

    pub fn is_searching(&self) -> bool {
        self.running.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Starts a search and returns at once. The reporter's `best_move` is
    /// called exactly once, when the search ends.
    pub fn start(&mut self, request: SearchRequest, reporter: Arc<dyn Reporter>) {
        self.wait();
        let threads = request.options.threads.max(1);
        let network = &self.network;
        self.threads
            .resize_with(threads, || ThreadState::new(network.clone()));
        let states = std::mem::take(&mut self.threads);
        self.control.stop.store(false, Ordering::SeqCst);
        self.control
            .pondering
            .store(request.limits.ponder, Ordering::SeqCst);
        let tt = Arc::clone(&self.tt);
        let control = Arc::clone(&self.control);
        let fallback = request.root.legal_moves().as_slice().first().copied();
        let search_reporter = Arc::clone(&reporter);
        let handle = std::thread::Builder::new()
            .name("search-main".into())
            .stack_size(THREAD_STACK_BYTES)
            .spawn(move || run_search(&tt, &control, request, states, search_reporter.as_ref()));
        match handle {
            Ok(h) => self.running = Some(h),
            Err(_) => {
                // No thread could be started: answer at once with any legal
                // move, since the protocol still needs its one bestmove.
                self.threads = vec![ThreadState::new(self.network.clone())];
                reporter.best_move(fallback, None);
            }
        }
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

    /// Waits for a running search to end (after its `best_move`).
    pub fn wait(&mut self) {
        if let Some(handle) = self.running.take() {
            match handle.join() {
                Ok(states) => self.threads = states,
                Err(_) => self.threads = vec![ThreadState::new(self.network.clone())],
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

fn run_search(
    tt: &TranspositionTable,
    control: &Control,
    request: SearchRequest,
    mut states: Vec<ThreadState>,
    reporter: &dyn Reporter,
) -> Vec<ThreadState> {
    let SearchRequest {
        root,
        history,
        limits,
        options,
        start,
    } = request;
    let mut root_moves: Vec<Move> = root.legal_moves().iter().copied().collect();
    if !limits.search_moves.is_empty() {
        let wanted: Vec<Move> = root_moves
            .iter()
            .copied()
            .filter(|m| limits.search_moves.contains(m))
            .collect();
        if !wanted.is_empty() {
            root_moves = wanted;
        }
    }
    let wait_for_release = |control: &Control| {
        // In infinite and ponder searches the best move waits for `stop`
        // (or `ponderhit`), even when the search has nothing left to do.
        while !limits.is_bounded() && !control.stop.load(Ordering::SeqCst) {
            if limits.ponder && !limits.infinite && !control.pondering.load(Ordering::SeqCst) {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    };

    if root_moves.is_empty() {
        reporter.no_moves(root.in_check());
        wait_for_release(control);
        reporter.best_move(None, None);
        return states;
    }

    tt.new_search();
    let mut game_keys = history;
    game_keys.push(root.key());
    let threads = states.len();
    let nodes: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(0)).collect();
    let lmr = LmrTable::new();
    let time = TimeManager::new(start, &limits, root.side_to_move(), options.move_overhead);
    let shared = Shared {
        tt,
        stop: &control.stop,
        pondering: &control.pondering,
        nodes: &nodes,
        limits: &limits,
        options: &options,
        time,
        root: &root,
        game_keys: &game_keys,
        root_moves: &root_moves,
        reporter,
        lmr: &lmr,
    };

    let results: Vec<Completed> = std::thread::scope(|scope| {
        let mut iter = states.iter_mut();
        let main_state = iter.next();
        let helpers: Vec<_> = iter
            .enumerate()
            .filter_map(|(i, state)| {
                let shared = &shared;
                std::thread::Builder::new()
                    .name(format!("search-{}", i + 1))
                    .stack_size(THREAD_STACK_BYTES)
                    .spawn_scoped(scope, move || {
                        let mut searcher =
                            Searcher::new(shared, &mut state.history, &mut state.evaluator, i + 1);
                        searcher.iterate();
                        searcher.completed
                    })
                    .ok()
            })
            .collect();
        let mut main_result = Completed::default();
        if let Some(state) = main_state {
            let mut searcher = Searcher::new(&shared, &mut state.history, &mut state.evaluator, 0);
            searcher.iterate();
            main_result = searcher.completed;
        }
        wait_for_release(control);
        control.stop.store(true, Ordering::SeqCst);
        let mut results = vec![main_result];
        results.extend(helpers.into_iter().filter_map(|h| h.join().ok()));
        results
    });

    // The best thread: the deepest completed iteration, then the best score.
    // With MultiPV the main thread's lines are kept together.
    let best = if options.multi_pv > 1 {
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
    let lines = chosen.lines.len().min(options.multi_pv.max(1));
    for (i, line) in chosen.lines.iter().take(lines).enumerate() {
        reporter.pv(&PvInfo {
            depth: chosen.depth,
            seldepth: line.seldepth.max(1),
            multipv: i + 1,
            score: line.score,
            bound: None,
            nodes: shared.total_nodes(),
            time: shared.time.elapsed(),
            hashfull: tt.hashfull(),
            pv: line.pv.clone(),
        });
    }
    let (best_move, ponder) = match chosen.lines.first() {
        Some(line) => (
            line.mv,
            line.pv
                .get(1)
                .copied()
                .or_else(|| ponder_from_table(tt, &root, line.mv)),
        ),
        None => (root_moves[0], None),
    };
    reporter.best_move(Some(best_move), ponder);
    states
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
}
