//! Hoeven's search: iterative deepening, principal variation search with
//! quiescence, a lock-free transposition table shared by Lazy SMP threads
//! (a pool that lives from one search to the next), and time management.
//! Callers start a search and stop it (`Engine::start`, the protocol's
//! way) or run one to its end (`Engine::search`).

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
pub mod see;
pub mod skill;
pub mod tablebase;
mod time;
mod tt;

pub use engine::{Engine, SearchRequest};
pub use limits::{Limits, SearchOptions};
pub use report::{Line, PvInfo, Reporter, SearchResult};
pub use tt::{AllocError, Bound};
