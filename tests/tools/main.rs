//! The command-line tools from outside: `hoeven selfplay`, `analyse`,
//! `train`, `book`, `spsa` and `--help` run as processes, and the Python helpers
//! under `scripts/` with Hoeven as their engine. One test binary, one
//! module per tool.

mod analyse;
mod book;
mod help;
mod loss_review;
mod pgn_score;
mod selfplay;
mod spsa;
mod train;
