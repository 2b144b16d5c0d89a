//! The search bench's report, one form for `hoeven bench` and the UCI
//! command `bench`: a line per position, then the node count and speed.

use eval::nnue::Network;
use std::sync::Arc;

/// Runs the bench at `depth` with `network` (`None`: the hand-crafted
/// evaluation), handing each line of the report to `line`.
pub fn report(depth: i32, network: Option<Arc<Network>>, mut line: impl FnMut(&str)) {
    let result = engine::bench::run(depth, network, |i, fen, nodes| {
        line(&format!("position {:2}: {nodes:>10} nodes  {fen}", i + 1));
    });
    line(&format!("\n{} nodes {} nps", result.nodes, result.nps()));
}
