//! Helpers shared by Hoeven's integration tests (`tests/`) and benches
//! (`benches/`): reading the perft suite files shipped in `tests/data/perft`,
//! playing random games from classical, Chess960 and Double Fischer Random
//! starts to get varied positions, the checks of the fuzz targets, and
//! random networks for the NNUE tests.

pub mod fuzz;
pub mod games;
pub mod nets;
pub mod suites;
