//! The search bench's report, one form for `hoeven bench` and the UCI
//! command `bench`: a line per position, then the node count and speed.

/// Runs the bench at `depth`, handing each line of the report to `line`.
pub fn report(depth: i32, mut line: impl FnMut(&str)) {
    let result = engine::bench::run(depth, |i, fen, nodes| {
        line(&format!("position {:2}: {nodes:>10} nodes  {fen}", i + 1));
    });
    line(&format!("\n{} nodes {} nps", result.nodes, result.nps()));
}
