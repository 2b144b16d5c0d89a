//! NNUE inference: a perspective network `(768 x K -> H) x 2 -> 1` with
//! SCReLU, output buckets by material, inputs mirrored by king file or not
//! and K king buckets, in integers as quantised by the trainer
//! (`docs/nets.md`), with its first layer updated incrementally along the
//! search.

mod accumulator;
mod embedded;
pub mod network;
mod output;

use accumulator::Accumulators;
use chess::{Board, Color, Move};
pub use embedded::{embedded, Embedded};
pub use network::{output_bucket, Inputs, NetError, Network, View, INPUTS};
use std::sync::Arc;

/// First-layer quantisation: W1 and b1 are stored as `round(w * QA)`.
pub const QA: i32 = 255;
/// Output-layer quantisation: W2 is stored as `round(w * QB)`, b2 as
/// `round(b2 * QA * QB)`. Most output weights are a tenth or less; at
/// 1/64 their rounding strayed 9 cp from the float net on average.
pub const QB: i32 = 2048;
/// The network's output times this is centipawns.
pub const SCALE: i32 = 400;

/// A network with the accumulator stack of one search thread.
pub(crate) struct Nnue {
    net: Arc<Network>,
    accumulators: Accumulators,
}

impl Nnue {
    pub fn new(net: Arc<Network>) -> Nnue {
        let accumulators = Accumulators::new(net.hidden());
        Nnue { net, accumulators }
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    pub fn reset(&mut self, board: &Board) {
        self.accumulators.refresh(&self.net, board);
    }

    pub fn push_move(&mut self, board: &Board, m: Move) {
        self.accumulators.push_move(&self.net, board, m);
    }

    pub fn push_null(&mut self) {
        self.accumulators.push_null();
    }

    pub fn pop(&mut self) {
        self.accumulators.pop();
    }

    /// Whether the current entry equals the one computed from scratch for
    /// `board` (by a new stack, whose refresh cache is empty): the check
    /// that the make and unmake hooks, and the refresh cache, are right.
    pub fn matches_refresh(&mut self, board: &Board) -> bool {
        let mut fresh = Accumulators::new(self.net.hidden());
        fresh.refresh(&self.net, board);
        self.accumulators.current(&self.net, board) == fresh.current(&self.net, board)
    }

    /// The evaluation of the current entry, which must be `board`'s, in
    /// centipawns from the side to move's point of view.
    pub fn evaluate(&mut self, board: &Board) -> i32 {
        let bucket = output_bucket(board.occupied().count(), self.net.buckets());
        let (white, black) = self.accumulators.current(&self.net, board);
        let (us, them) = match board.side_to_move() {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        output::evaluate(&self.net, bucket, us, them)
    }
}

/// The network's evaluation of `board` computed from scratch, in
/// centipawns from the side to move's point of view.
pub fn evaluate(net: &Arc<Network>, board: &Board) -> i32 {
    let mut nnue = Nnue::new(Arc::clone(net));
    nnue.reset(board);
    nnue.evaluate(board)
}

#[cfg(test)]
pub(crate) mod tests;
