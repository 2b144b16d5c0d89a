//! Hoeven's search: iterative deepening, principal variation search with
//! quiescence, a lock-free transposition table shared by Lazy SMP threads,
//! and time management.

pub mod bench;
mod engine;
mod history;
mod limits;
mod memory;
mod movepick;
mod params;
mod pool;
mod report;
pub mod score;
mod search;
mod see;
mod time;
mod tt;

pub use engine::{Engine, SearchRequest};
pub use limits::{Limits, SearchOptions};
pub use report::{Line, PvInfo, Reporter, SearchResult};
pub use tt::{AllocError, Bound};
