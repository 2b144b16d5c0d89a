//! The evaluator a search thread owns: the hand-crafted evaluation with its
//! pawn cache, or a network with its accumulator stack. The search tells it
//! every move it makes and unmakes, which the network needs to update its
//! accumulators incrementally and the hand-crafted evaluation ignores.
//! Pawnless endings whose value is known (`endgame::known_ending`) are
//! scored by that rule whichever evaluation is in use.

use crate::endgame;
use crate::evaluate::{self, EVAL_LIMIT};
use crate::nnue::{Network, Nnue};
use crate::pawns::PawnCache;
use crate::NoTrace;
use chess::{Board, Move};
use std::sync::Arc;

/// Pawn-cache entries, as a power of two: 16384 entries, 384 KB.
const PAWN_CACHE_BITS: u32 = 14;

pub struct Evaluator {
    pawns: PawnCache,
    nnue: Option<Nnue>,
}

impl Default for Evaluator {
    fn default() -> Self {
        Evaluator::new(None)
    }
}

impl Evaluator {
    /// An evaluator with `net`, or the hand-crafted evaluation for `None`.
    pub fn new(net: Option<Arc<Network>>) -> Evaluator {
        Evaluator::with_pawn_cache(net, PawnCache::new(PAWN_CACHE_BITS))
    }

    pub(crate) fn with_pawn_cache(net: Option<Arc<Network>>, pawns: PawnCache) -> Evaluator {
        Evaluator {
            pawns,
            nnue: net.map(Nnue::new),
        }
    }

    /// Switches to `net`, or to the hand-crafted evaluation for `None`;
    /// keeps its accumulators when `net` is already the one in use.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        let same = match (&net, self.network()) {
            (Some(new), Some(old)) => Arc::ptr_eq(new, old),
            (None, None) => true,
            _ => false,
        };
        if !same {
            self.nnue = net.map(Nnue::new);
        }
    }

    pub fn network(&self) -> Option<&Arc<Network>> {
        self.nnue.as_ref().map(Nnue::network)
    }

    /// The search starts from `board`: every later move is relative to it.
    pub fn reset(&mut self, board: &Board) {
        if let Some(nnue) = &mut self.nnue {
            nnue.reset(board);
        }
    }

    /// `m` is about to be played on `board`.
    #[inline]
    pub fn make_move(&mut self, board: &Board, m: Move) {
        if let Some(nnue) = &mut self.nnue {
            nnue.push_move(board, m);
        }
    }

    /// A null move is about to be played.
    #[inline]
    pub fn make_null_move(&mut self) {
        if let Some(nnue) = &mut self.nnue {
            nnue.push_null();
        }
    }

    /// The last move made (or null move) is taken back.
    #[inline]
    pub fn unmake(&mut self) {
        if let Some(nnue) = &mut self.nnue {
            nnue.pop();
        }
    }

    /// Whether the network's incrementally updated state is the one
    /// computed from scratch for `board` (always so without a network): the
    /// debug check that the search reported every move made and unmade.
    pub fn matches_refresh(&mut self, board: &Board) -> bool {
        self.nnue
            .as_mut()
            .is_none_or(|nnue| nnue.matches_refresh(board))
    }

    /// The evaluation in centipawns from the side to move's point of view.
    /// With a network, `board` must be the position the made moves lead to.
    #[inline]
    pub fn evaluate(&mut self, board: &Board) -> i32 {
        debug_assert!(self.matches_refresh(board), "{board:?}");
        match &mut self.nnue {
            Some(nnue) => match endgame::known_ending(board) {
                Some(white) => white * board.side_to_move().sign(),
                None => nnue.evaluate(board),
            }
            .clamp(-EVAL_LIMIT, EVAL_LIMIT),
            None => {
                let white = evaluate::evaluate(board, Some(&mut self.pawns), &mut NoTrace).white;
                white * board.side_to_move().sign()
            }
        }
    }

    /// Empties the pawn cache (for a new game).
    pub fn clear(&mut self) {
        self.pawns.clear();
    }
}
