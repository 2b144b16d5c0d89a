//! The sequential probability ratio test of a comparison (`--sprt ELO0
//! ELO1`): after each pair of games, the log-likelihood ratio of "A is
//! ELO1 stronger than B" against "A is ELO0 stronger" on the pentanomial
//! counts decides, or asks for more games.
//!
//! The ratio is the generalised SPRT's normal approximation (as fishtest,
//! OpenBench and fastchess use): with pair scores `x` (0, 1/4, .., 1), their
//! mean `m` and variance `v` over `N` pairs, and `s0`, `s1` the scores the
//! two logistic Elo differences predict,
//! `LLR = N (s1 - s0) (2m - s0 - s1) / (2v)`. As fishtest does, each count
//! is regularised by a thousandth of a pair, so that pairs all alike (no
//! spread) still decide.
//!
//! A test stopped before it decided (a session's time ran out) goes on in
//! a later run from its pentanomial counts (`--sprt-prior`): the pairs are
//! independent draws, so the sequential test over all of them is the one
//! an uninterrupted run would have made.

use super::stats::Pentanomial;
use std::fmt;

/// The chance of accepting a false H1 (alpha) and a false H0 (beta).
pub const ALPHA: f64 = 0.05;
pub const BETA: f64 = 0.05;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    /// The pairs of earlier runs of the same test, counted with this run's.
    pub prior: Pentanomial,
}

/// What the test decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accepted {
    /// A is not ELO1 stronger: H0 accepted.
    H0,
    /// A is ELO1 stronger: H1 accepted.
    H1,
}

impl fmt::Display for Accepted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Accepted::H0 => write!(f, "H0 accepted"),
            Accepted::H1 => write!(f, "H1 accepted"),
        }
    }
}

/// The test's state when it decided, or at the end of the games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    pub accepted: Option<Accepted>,
    pub llr: f64,
    pub pairs: u64,
}

/// Added to every count, so that the variance is never zero.
const REGULARISATION: f64 = 1e-3;

/// No hypothesis accepted before this many pairs: the LLR uses a normal approximation
/// whose variance, estimated from one or two lopsided pairs, is next to
/// zero, so that a single 2-0 pair would leap past either bound.
pub const MIN_PAIRS: u64 = 10;

/// The score a logistic Elo difference predicts.
fn score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Sprt {
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            prior: Pentanomial::default(),
        }
    }

    /// The LLR bounds (lower, upper): H0 is accepted at or below the lower,
    /// H1 at or above the upper.
    pub fn bounds(&self) -> (f64, f64) {
        ((BETA / (1.0 - ALPHA)).ln(), ((1.0 - BETA) / ALPHA).ln())
    }

    /// The log-likelihood ratio of H1 against H0; 0 before any pair.
    pub fn llr(&self, p: &Pentanomial) -> f64 {
        let n = p.pairs() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let total = n + 5.0 * REGULARISATION;
        let share = |i: usize| (p.counts[i] as f64 + REGULARISATION) / total;
        let x = |i: usize| i as f64 / 4.0;
        let mean: f64 = (0..5).map(|i| share(i) * x(i)).sum();
        let variance: f64 = (0..5).map(|i| share(i) * (x(i) - mean).powi(2)).sum();
        let (s0, s1) = (score(self.elo0), score(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// The test after this run's pairs `run`, the prior's included.
    pub fn decide(&self, run: &Pentanomial) -> Decision {
        let p = &(self.prior + *run);
        let llr = self.llr(p);
        let (lower, upper) = self.bounds();
        let accepted = if p.pairs() < MIN_PAIRS {
            None
        } else if llr >= upper {
            Some(Accepted::H1)
        } else if llr <= lower {
            Some(Accepted::H0)
        } else {
            None
        };
        Decision {
            accepted,
            llr,
            pairs: p.pairs(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(counts: [u64; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    #[test]
    fn bounds_follow_alpha_and_beta() {
        let (lower, upper) = Sprt::new(0.0, 10.0).bounds();
        assert!((lower + 2.944).abs() < 1e-3 && (upper - 2.944).abs() < 1e-3);
    }

    #[test]
    fn known_counts_give_known_ratios() {
        let sprt = Sprt::new(0.0, 10.0);
        // Mean 37/70 and variance 0.04204 per pair over 350 pairs; s0 = 0.5,
        // s1 = 0.514387: 350 * 0.014387 * 0.042857 / 0.084082 = 2.5606.
        let ahead = counts([10, 50, 200, 70, 20]);
        assert!(
            (sprt.llr(&ahead) - 2.5606).abs() < 1e-3,
            "{}",
            sprt.llr(&ahead)
        );
        assert_eq!(sprt.decide(&ahead).accepted, None);
        let behind = counts([20, 70, 200, 50, 10]);
        assert!((sprt.llr(&behind) + 4.2838).abs() < 1e-3);
        assert_eq!(sprt.decide(&behind).accepted, Some(Accepted::H0));
        // Even, with variance 0.05: halfway between 0 and 10 Elo favours 0.
        let even = counts([100, 400, 1000, 400, 100]);
        assert!((sprt.llr(&even) + 4.1398).abs() < 1e-3);
    }

    #[test]
    fn more_of_the_same_results_decide_for_h1() {
        let sprt = Sprt::new(0.0, 10.0);
        let twice = counts([20, 100, 400, 140, 40]);
        assert!((sprt.llr(&twice) - 2.0 * 2.5606).abs() < 2e-3);
        assert_eq!(sprt.decide(&twice).accepted, Some(Accepted::H1));
    }

    #[test]
    fn a_few_lopsided_pairs_decide_nothing() {
        let sprt = Sprt::new(0.0, 10.0);
        let one = counts([0, 0, 0, 0, 1]);
        assert!(sprt.llr(&one) > sprt.bounds().1);
        assert_eq!(sprt.decide(&one).accepted, None);
        let almost = counts([MIN_PAIRS - 1, 0, 0, 0, 0]);
        assert_eq!(sprt.decide(&almost).accepted, None);
        let enough = counts([MIN_PAIRS, 0, 0, 0, 0]);
        assert_eq!(sprt.decide(&enough).accepted, Some(Accepted::H0));
    }

    #[test]
    fn no_pairs_decide_nothing_and_pairs_all_alike_decide() {
        let sprt = Sprt::new(0.0, 10.0);
        assert_eq!(sprt.llr(&Pentanomial::default()), 0.0);
        assert_eq!(
            sprt.decide(&counts([0, 0, 30, 0, 0])).accepted,
            Some(Accepted::H0)
        );
        assert_eq!(
            sprt.decide(&counts([0, 0, 0, 0, 30])).accepted,
            Some(Accepted::H1)
        );
        assert_eq!(
            sprt.decide(&counts([30, 0, 0, 0, 0])).accepted,
            Some(Accepted::H0)
        );
    }

    #[test]
    fn a_continued_test_counts_the_earlier_pairs() {
        let fresh = Sprt::new(0.0, 10.0);
        let first = counts([10, 50, 200, 70, 20]);
        let second = counts([10, 50, 200, 70, 20]);
        // Each half alone is undecided; together they accept H1, as one
        // run of all the pairs does.
        assert_eq!(fresh.decide(&second).accepted, None);
        let continued = Sprt {
            prior: first,
            ..fresh
        };
        let decision = continued.decide(&second);
        assert_eq!(decision, fresh.decide(&counts([20, 100, 400, 140, 40])));
        assert_eq!(decision.accepted, Some(Accepted::H1));
        assert_eq!(decision.pairs, 700);
        // The prior alone, before this run's first pair.
        assert_eq!(continued.decide(&Pentanomial::default()).pairs, 350);
    }
}
