//! What a `go` command asks for.

use chess::Move;
use std::time::Duration;

#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Restrict the root to these moves (empty: all moves).
    pub search_moves: Vec<Move>,
    /// Search as if infinite until `ponderhit`, then under these limits.
    pub ponder: bool,
    /// Clocks and increments by colour (White, Black).
    pub time: [Option<Duration>; 2],
    pub increment: [Option<Duration>; 2],
    pub moves_to_go: Option<u32>,
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// Find a mate in at most this many moves.
    pub mate: Option<u32>,
    pub move_time: Option<Duration>,
    pub infinite: bool,
}

impl Limits {
    /// Whether the search may end on its own before `stop`.
    pub fn is_bounded(&self) -> bool {
        !self.infinite && !self.ponder
    }
}

/// Options that shape a search but are not part of `go`.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    pub threads: usize,
    pub multi_pv: usize,
    pub move_overhead: Duration,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            threads: 1,
            multi_pv: 1,
            move_overhead: Duration::from_millis(10),
        }
    }
}
