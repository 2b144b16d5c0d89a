//! Match statistics: wins, draws and losses, results of game pairs (the
//! pentanomial count), and the Elo difference with its 95% margin.

use super::rules::Ending;
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// Two-sided 95% quantile of the normal distribution.
const Z_95: f64 = 1.959_964;

/// Games from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Tally {
    pub fn add(&mut self, points: f64) {
        if points > 0.5 {
            self.wins += 1;
        } else if points < 0.5 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points per game, 0 to 1.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / n as f64)
    }

    /// From the trinomial distribution of single games.
    pub fn elo(&self) -> Option<Estimate> {
        let n = self.games() as f64;
        let outcomes = [(1.0, self.wins), (0.5, self.draws), (0.0, self.losses)];
        estimate(&outcomes.map(|(x, k)| (x, k as f64 / n.max(1.0))), n)
    }
}

/// Pairs of games on one opening with colours swapped, counted by the
/// pair's points: 0, 0.5, 1, 1.5 or 2. Counting pairs rather than games
/// takes out the spread the openings themselves add.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub counts: [u64; 5],
}

impl std::ops::Add for Pentanomial {
    type Output = Pentanomial;

    fn add(self, other: Pentanomial) -> Pentanomial {
        let mut counts = self.counts;
        for (c, o) in counts.iter_mut().zip(other.counts) {
            *c += o;
        }
        Pentanomial { counts }
    }
}

impl Pentanomial {
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    pub fn elo(&self) -> Option<Estimate> {
        let n = self.pairs() as f64;
        let mut outcomes = [(0.0, 0.0); 5];
        for (i, &k) in self.counts.iter().enumerate() {
            outcomes[i] = (i as f64 / 4.0, k as f64 / n.max(1.0));
        }
        estimate(&outcomes, n)
    }
}

/// An Elo difference and the half-width of its 95% interval (infinite when
/// the interval reaches a score of 0 or 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub elo: f64,
    pub margin: f64,
}

impl fmt::Display for Estimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.margin.is_finite() {
            write!(f, "{:+.1} ± {:.1}", self.elo, self.margin)
        } else {
            write!(f, "{:+.1} ± inf", self.elo)
        }
    }
}

/// The Elo difference for a per-trial score distribution (`(score,
/// frequency)` pairs) over `n` trials; `None` when it is unbounded.
fn estimate(outcomes: &[(f64, f64)], n: f64) -> Option<Estimate> {
    let mean: f64 = outcomes.iter().map(|(x, p)| x * p).sum();
    if n < 1.0 || mean <= 0.0 || mean >= 1.0 {
        return None;
    }
    let variance: f64 = outcomes.iter().map(|(x, p)| p * (x - mean).powi(2)).sum();
    let error = (variance / n).sqrt();
    let (low, high) = (mean - Z_95 * error, mean + Z_95 * error);
    let margin = if low <= 0.0 || high >= 1.0 {
        f64::INFINITY
    } else {
        (elo(high) - elo(low)) / 2.0
    };
    Some(Estimate {
        elo: elo(mean),
        margin,
    })
}

/// The Elo difference that predicts a score of `score` (0 < score < 1).
fn elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Everything counted over a run.
#[derive(Debug, Default)]
pub struct Results {
    /// From White's side in self-play, from the first setting's in a comparison.
    pub tally: Tally,
    pub pentanomial: Pentanomial,
    /// First games of pairs whose second game is still running.
    open_pairs: HashMap<u64, f64>,
    pub endings: BTreeMap<Ending, u64>,
}

impl Results {
    /// One game's points for the side counted, and the pair it belongs to.
    pub fn record(&mut self, points: f64, pair: Option<u64>, ending: Ending) {
        self.tally.add(points);
        *self.endings.entry(ending).or_default() += 1;
        if let Some(pair) = pair {
            match self.open_pairs.remove(&pair) {
                Some(first) => {
                    self.pentanomial.counts[((first + points) * 2.0).round() as usize] += 1
                }
                None => {
                    self.open_pairs.insert(pair, points);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 0.05
    }

    #[test]
    fn trinomial_elo_and_margin() {
        let t = Tally {
            wins: 60,
            draws: 0,
            losses: 40,
        };
        assert_eq!(t.score(), Some(0.6));
        let e = t.elo().unwrap();
        // 400 log10(0.6 / 0.4); the margin from sd 0.49 over 100 games.
        assert!(close(e.elo, 70.4), "{e:?}");
        let se = (0.24f64 / 100.0).sqrt();
        let expected = (elo(0.6 + Z_95 * se) - elo(0.6 - Z_95 * se)) / 2.0;
        assert!(
            close(e.margin, expected) && e.margin > 60.0 && e.margin < 80.0,
            "{e:?}"
        );
        // Draws narrow the margin for the same score.
        let drawn = Tally {
            wins: 20,
            draws: 80,
            losses: 0,
        };
        assert!(close(drawn.elo().unwrap().elo, 70.4));
        assert!(drawn.elo().unwrap().margin < e.margin / 2.0);
    }

    #[test]
    fn one_sided_or_empty_results_have_no_estimate() {
        assert_eq!(Tally::default().elo(), None);
        assert_eq!(
            Tally {
                wins: 3,
                draws: 0,
                losses: 0
            }
            .elo(),
            None
        );
        assert_eq!(Pentanomial::default().elo(), None);
        let e = Tally {
            wins: 2,
            draws: 0,
            losses: 1,
        }
        .elo()
        .unwrap();
        assert!(e.margin.is_infinite());
        assert_eq!(e.to_string(), "+120.4 ± inf");
    }

    #[test]
    fn pairs_are_counted_when_both_games_are_in() {
        let mut r = Results::default();
        r.record(1.0, Some(0), Ending::Checkmate);
        r.record(0.5, Some(1), Ending::Repetition);
        assert_eq!(r.pentanomial.pairs(), 0);
        r.record(0.5, Some(0), Ending::Resignation);
        r.record(0.5, Some(1), Ending::Repetition);
        r.record(0.0, None, Ending::Checkmate);
        assert_eq!(r.pentanomial.counts, [0, 0, 1, 1, 0]);
        assert_eq!(
            r.tally,
            Tally {
                wins: 1,
                draws: 3,
                losses: 1
            }
        );
        assert_eq!(r.endings[&Ending::Checkmate], 2);
        assert_eq!(r.endings[&Ending::Repetition], 2);
    }

    #[test]
    fn pentanomial_margin_uses_the_pair_spread() {
        // Every pair split 1-1 except a few: small spread, small margin.
        let steady = Pentanomial {
            counts: [0, 5, 80, 15, 0],
        };
        let e = steady.elo().unwrap();
        assert!(e.elo > 0.0 && e.margin < 20.0, "{e:?}");
        // The same mean from lopsided pairs is much less certain.
        let wild = Pentanomial {
            counts: [25, 0, 45, 0, 30],
        };
        let w = wild.elo().unwrap();
        assert!(
            close(w.elo, e.elo) && w.margin > 2.0 * e.margin,
            "{w:?} {e:?}"
        );
    }
}
