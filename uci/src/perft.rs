//! The perft report of UCI `go perft <depth>` and `hoeven perft`.

use chess::{perft, Board};
use std::time::Instant;

/// Runs perft on `board` and returns the report: one line per root move,
/// then `Nodes searched: N`, then time and speed, as Stockfish prints it.
pub fn report(board: &Board, depth: u32, chess960: bool, threads: bool) -> String {
    let start = Instant::now();
    let divide = if depth == 0 {
        Vec::new()
    } else if threads {
        perft::perft_divide_parallel(board, depth)
    } else {
        perft::perft_divide(board, depth)
    };
    let nodes: u64 = if depth == 0 {
        1
    } else {
        divide.iter().map(|(_, n)| n).sum()
    };
    let elapsed = start.elapsed();
    let mut out = String::new();
    for (m, n) in &divide {
        out.push_str(&format!("{}: {n}\n", m.to_uci(chess960)));
    }
    let ms = elapsed.as_millis();
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    out.push_str(&format!("\nNodes searched: {nodes}\n"));
    out.push_str(&format!("Time: {ms} ms\nNodes/second: {nps}\n"));
    out
}
