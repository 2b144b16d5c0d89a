//! The UCI conversations: the built `hoeven` binary driven over pipes as a
//! GUI (or python-chess, or OpenBench) drives it. One test binary, one
//! module per concern.
//!
//! The tests that time the engine (100 ms answers, short clocks, start-up)
//! hold `harness::timing_exclusive()`; every other test of this binary that
//! starts an engine holds `harness::timing_shared()`, so that nothing else
//! of the binary competes for the cores while a timing is measured.

mod bad_input;
mod bench;
mod chess960;
mod embedded_net;
mod evalfile;
mod kbnk_mate;
mod openbench;
mod protocol;
mod python_games;
mod resources;
mod strength;
mod stress;
mod syzygy;
