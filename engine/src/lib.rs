//! Hoeven's search: iterative deepening, principal variation search with
//! quiescence, a lock-free transposition table shared by Lazy SMP threads,
//! and time management.

pub mod bench;
mod engine;
pub mod history;
pub mod limits;
mod memory;
pub mod movepick;
mod params;
mod pool;
pub mod report;
pub mod score;
mod search;
pub mod see;
pub mod time;
pub mod tt;

pub use engine::{Engine, SearchRequest};
pub use limits::{Limits, SearchOptions};
pub use report::{Line, PvInfo, Reporter, SearchResult};
pub use tt::{AllocError, Bound};
