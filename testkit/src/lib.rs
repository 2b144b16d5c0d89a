//! Helpers shared by Hoeven's integration tests (`tests/`, and the tests of
//! `chess` and `eval` beside them), benches (`benches/`) and fuzz targets
//! (`fuzz/`): reading the perft suite files shipped in `tests/data/perft`,
//! playing random games from classical,
//! Chess960 and Double Fischer Random starts to get varied positions, the
//! checks of the fuzz targets, a harness that drives the `hoeven` binary
//! over pipes, and random networks for the NNUE tests.

pub mod fuzz;
pub mod games;
pub mod nets;
pub mod suites;
pub mod uci_harness;

use std::path::{Path, PathBuf};

/// The workspace's root directory, where `tests/data` and `target/` are.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("testkit lives one directory below the workspace root")
        .to_path_buf()
}
