//! What the search tells its caller: principal variations as they complete,
//! the move being searched, and finally the best move and the result.

use crate::tt::Bound;
use chess::Move;
use std::time::Duration;

/// One principal variation, as a UCI `info` line carries it.
#[derive(Clone, Debug)]
pub struct PvInfo {
    pub depth: i32,
    pub seldepth: usize,
    /// 1-based line number for MultiPV.
    pub multipv: usize,
    pub score: i32,
    /// `None` for an exact score; a fail-high is `Lower`, a fail-low `Upper`.
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    /// Tablebase probes that gave a result.
    pub tbhits: u64,
    pub pv: Vec<Move>,
}

impl PvInfo {
    pub fn nps(&self) -> u64 {
        let ms = self.time.as_millis().max(1) as u64;
        self.nodes.saturating_mul(1000) / ms
    }
}

/// One line of a finished search, from the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub score: i32,
    pub seldepth: usize,
    /// Starts with the line's first move.
    pub pv: Vec<Move>,
}

/// What a finished search found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchResult {
    /// `None` when the root has no legal move.
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    /// The depth of the iteration the lines come from; 0 when none completed.
    pub depth: i32,
    /// Best first, one per MultiPV line; empty when no iteration completed.
    pub lines: Vec<Line>,
    pub nodes: u64,
    /// Since the search's start.
    pub elapsed: Duration,
}

/// Receives the search's output. Called from the main search thread only,
/// and `best_move` exactly once per search, last.
pub trait Reporter: Send + Sync {
    fn pv(&self, info: &PvInfo);
    fn current_move(&self, depth: i32, mv: Move, number: usize);
    /// The root has no legal move: mate (`in_check`) or stalemate.
    fn no_moves(&self, in_check: bool);
    /// `None` when there is no legal move.
    fn best_move(&self, best: Option<Move>, ponder: Option<Move>);
    /// Something the user should hear of (a corrupt tablebase file); the
    /// search went on without it. Reporters that only collect results may
    /// ignore it.
    fn error(&self, _message: &str) {}
}
