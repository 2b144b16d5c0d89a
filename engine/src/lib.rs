//! Hoeven's search: iterative deepening, principal variation search with
//! quiescence, a lock-free transposition table shared by Lazy SMP threads
//! (a pool that lives from one search to the next), and time management.
//! Callers start a search and stop it (`Engine::start`, the protocol's
//! way) or run one to its end (`Engine::search`). The engine also owns what
//! it offers its callers: its name, its options with their ranges, and the
//! evaluation `EvalFile` chooses.

pub mod bench;
mod engine;
mod eval_file;
mod history;
mod job;
mod limits;
mod memory;
mod movepick;
pub mod options;
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
pub use eval_file::{EvalFile, EvalFileError};
pub use limits::{Limits, SearchOptions};
pub use params::{tunable, ParamError, SearchParams, Tunable, TUNABLES};
pub use report::{Line, PvInfo, Reporter, SearchResult};
pub use tt::{AllocError, Bound};

/// The engine's name and version, as `uci` announces them and games name
/// their players.
pub const NAME: &str = concat!("Hoeven ", env!("CARGO_PKG_VERSION"));
pub const AUTHOR: &str = "the Hoeven developers";
