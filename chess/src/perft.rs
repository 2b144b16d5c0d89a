//! Perft: the number of leaf nodes of the legal move tree, for checking the
//! generator against published counts and for measuring its speed.

use crate::{Board, Move};
use rayon::prelude::*;

/// Leaf nodes at `depth`, counting the moves at the last ply without making them.
pub fn perft(board: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => board.legal_move_count() as u64,
        _ => {
            let mut nodes = 0;
            for &m in board.legal_moves().iter() {
                let mut child = board.clone();
                child.make_move(m);
                nodes += perft(&child, depth - 1);
            }
            nodes
        }
    }
}

/// The count under each root move, in generation order.
pub fn perft_divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    board
        .legal_moves()
        .iter()
        .map(|&m| {
            let mut child = board.clone();
            child.make_move(m);
            (m, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}

/// As `perft_divide`, with the root moves shared among rayon's threads.
pub fn perft_divide_parallel(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    let moves: Vec<Move> = board.legal_moves().iter().copied().collect();
    moves
        .par_iter()
        .map(|&m| {
            let mut child = board.clone();
            child.make_move(m);
            (m, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}
