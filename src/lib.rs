//! Helpers shared by Hoeven's integration tests (`tests/`) and benches
//! (`benches/`): reading the perft suite files shipped in `tests/data/perft`,
//! and playing random games from classical, Chess960 and Double Fischer Random
//! starts to get varied positions.

pub mod games;
pub mod suites;
