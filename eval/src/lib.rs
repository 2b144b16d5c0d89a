//! Hoeven's hand-crafted evaluation: material, piece-square tables,
//! mobility, piece terms, threats, pawn structure (cached by the pawn key),
//! passed pawns, king shelter and king danger, Chess960 terms (corner
//! bishops, undeveloped pieces, castling rights), tapered by game phase and
//! scaled in drawish endgames.
//!
//! Every weight lives in one table, [`weights::WEIGHTS`], of tapered
//! (middlegame, endgame) pairs indexed by [`features`]. The evaluation is a
//! sum of feature counts times weights, except king danger, a function of
//! its own weighted sum; [`trace_position`] records the counts, so that the
//! tuner can rebuild any evaluation from them and fit the weights.
//!
//! [`nnue`] evaluates with a network instead. A search thread reaches
//! either through its own [`Evaluator`], which it tells of every move made
//! and unmade.

mod endgame;
mod evaluate;
mod evaluator;
pub mod features;
mod masks;
pub mod nnue;
mod pawns;
mod trace;
pub mod weights;

use chess::{Board, Color};

pub use endgame::{Special, KNOWN_WIN, SCALE_NORMAL};
pub use evaluate::EVAL_LIMIT;
pub use evaluator::Evaluator;
pub use pawns::PawnCache;
pub use trace::{trace, trace_position, Trace};

/// Phase weights of pawn, knight, bishop, rook, queen and king.
pub const PHASE_WEIGHTS: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase with all pieces on the board.
pub const TOTAL_PHASE: i32 = 24;

/// A middlegame and an endgame value, interpolated by game phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tapered {
    pub mg: i32,
    pub eg: i32,
}

/// The short name used by the weight table.
pub type S = Tapered;

impl Tapered {
    pub const fn new(mg: i32, eg: i32) -> Tapered {
        Tapered { mg, eg }
    }

    /// The value at `phase` (TOTAL_PHASE = opening material, 0 = bare kings).
    pub fn at(self, phase: i32) -> i32 {
        (self.mg * phase + self.eg * (TOTAL_PHASE - phase)) / TOTAL_PHASE
    }
}

impl std::ops::Add for Tapered {
    type Output = Tapered;
    #[inline(always)]
    fn add(self, o: Tapered) -> Tapered {
        Tapered::new(self.mg + o.mg, self.eg + o.eg)
    }
}

impl std::ops::Sub for Tapered {
    type Output = Tapered;
    #[inline(always)]
    fn sub(self, o: Tapered) -> Tapered {
        Tapered::new(self.mg - o.mg, self.eg - o.eg)
    }
}

impl std::ops::AddAssign for Tapered {
    #[inline(always)]
    fn add_assign(&mut self, o: Tapered) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl std::ops::SubAssign for Tapered {
    #[inline(always)]
    fn sub_assign(&mut self, o: Tapered) {
        self.mg -= o.mg;
        self.eg -= o.eg;
    }
}

impl std::ops::Mul<i32> for Tapered {
    type Output = Tapered;
    #[inline(always)]
    fn mul(self, n: i32) -> Tapered {
        Tapered::new(self.mg * n, self.eg * n)
    }
}

impl std::ops::Neg for Tapered {
    type Output = Tapered;
    #[inline(always)]
    fn neg(self) -> Tapered {
        Tapered::new(-self.mg, -self.eg)
    }
}

/// Receives the feature counts of an evaluation. `ON` is false for the
/// plain evaluation, and the compiler then drops every call.
pub trait Tracer {
    const ON: bool;
    /// Feature `f` counts `n` more times for colour `c` (0 = White).
    fn add(&mut self, f: usize, c: usize, n: i32);
    /// The king-danger counts against colour `c`'s king (indexed from
    /// `features::KS_START`) and the score they gave.
    fn safety(&mut self, c: usize, counts: &[i32; features::NUM_SAFETY], value: S);
}

/// The tracer of the plain evaluation: records nothing.
pub struct NoTrace;

impl Tracer for NoTrace {
    const ON: bool = false;
    #[inline(always)]
    fn add(&mut self, _: usize, _: usize, _: i32) {}
    #[inline(always)]
    fn safety(&mut self, _: usize, _: &[i32; features::NUM_SAFETY], _: S) {}
}

/// The game phase: 24 with all pieces on the board, 0 with none.
pub fn phase(board: &Board) -> i32 {
    let m = [
        endgame::Material::of(board, Color::White),
        endgame::Material::of(board, Color::Black),
    ];
    evaluate::phase_of(&m)
}

#[cfg(test)]
mod tests;
