//! The start positions a book is made from: all Chess960 ones, or Double
//! Fischer Random pairs drawn from a seed.

use chess::chess960::{double_start_position, BadStartNumber};
use chess::Board;
use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

/// Pairs of two different back ranks; a pair of equal ones is a Chess960
/// start, which the chess960 variant covers.
pub const DFRC_PAIRS: usize = 960 * 959;

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Chess960,
    Dfrc,
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Variant::Chess960 => "chess960",
            Variant::Dfrc => "dfrc",
        })
    }
}

/// A start by the Scharnagl numbers of White's and Black's back ranks;
/// equal numbers are a Chess960 start. Ordered by White's number first, as
/// books list them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StartId {
    pub white: u32,
    pub black: u32,
}

impl StartId {
    pub fn board(self) -> Result<Board, BadStartNumber> {
        double_start_position(self.white, self.black)
    }
}

/// `chess960 518` or `dfrc 12 345`: the book's `id` and the partial file's
/// first field.
impl fmt::Display for StartId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.white == self.black {
            write!(f, "chess960 {}", self.white)
        } else {
            write!(f, "dfrc {} {}", self.white, self.black)
        }
    }
}

impl FromStr for StartId {
    type Err = ();

    fn from_str(s: &str) -> Result<StartId, ()> {
        let number = |w: &str| w.parse::<u32>().ok().filter(|&n| n < 960).ok_or(());
        let words: Vec<&str> = s.split(' ').collect();
        match words.as_slice() {
            ["chess960", n] => {
                let n = number(n)?;
                Ok(StartId { white: n, black: n })
            }
            ["dfrc", w, b] => {
                let (white, black) = (number(w)?, number(b)?);
                (white != black)
                    .then_some(StartId { white, black })
                    .ok_or(())
            }
            _ => Err(()),
        }
    }
}

/// The starts to score, in the order they are handed out.
pub fn starts(variant: Variant, count: usize, seed: u64) -> Vec<StartId> {
    match variant {
        Variant::Chess960 => (0..960).map(|n| StartId { white: n, black: n }).collect(),
        Variant::Dfrc => dfrc_pairs(count, seed),
    }
}

/// `count` different DFRC pairs (at most `DFRC_PAIRS`), the same for the
/// same seed; a larger count draws more after the same first ones.
fn dfrc_pairs(count: usize, seed: u64) -> Vec<StartId> {
    let count = count.min(DFRC_PAIRS);
    let mut rng = SplitMix64(seed);
    let mut seen = HashSet::with_capacity(count);
    let mut pairs = Vec::with_capacity(count);
    while pairs.len() < count {
        let white = rng.below(960);
        let black = rng.below(960);
        let id = StartId { white, black };
        if white != black && seen.insert(id) {
            pairs.push(id);
        }
    }
    pairs
}

/// SplitMix64, written out rather than taken from `rand`: a seed must name
/// the same starts in every build, and a resumed run relies on it, while
/// `rand` does not promise its generators' streams across versions.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in 0..n; the bias of the modulo is below 2^-50 for n = 960.
    fn below(&mut self, n: u32) -> u32 {
        (self.next() % u64::from(n)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess960_is_every_start_once() {
        let all = starts(Variant::Chess960, 0, 0);
        assert_eq!(all.len(), 960);
        assert!(all
            .iter()
            .enumerate()
            .all(|(n, id)| id.white == n as u32 && id.black == n as u32));
        assert_eq!(all[518].board().unwrap(), Board::startpos());
    }

    #[test]
    fn dfrc_pairs_are_distinct_unequal_and_fixed_by_the_seed() {
        let a = starts(Variant::Dfrc, 2000, 7);
        assert_eq!(a, starts(Variant::Dfrc, 2000, 7));
        assert_ne!(a, starts(Variant::Dfrc, 2000, 8));
        assert_eq!(a.iter().collect::<HashSet<_>>().len(), 2000);
        assert!(a
            .iter()
            .all(|id| id.white != id.black && id.white < 960 && id.black < 960));
        // A longer book of the same seed begins with the shorter one.
        assert_eq!(&starts(Variant::Dfrc, 4000, 7)[..2000], &a[..]);
        // The stream itself: a change of generator would change every book.
        let first: Vec<(u32, u32)> = starts(Variant::Dfrc, 3, 0)
            .iter()
            .map(|id| (id.white, id.black))
            .collect();
        assert_eq!(first, [(175, 180), (79, 364), (667, 810)]);
    }

    #[test]
    fn every_pair_can_be_drawn() {
        let all = dfrc_pairs(DFRC_PAIRS, 1);
        assert_eq!(all.len(), DFRC_PAIRS);
        assert_eq!(all.iter().collect::<HashSet<_>>().len(), DFRC_PAIRS);
    }

    #[test]
    fn ids_read_back_as_written() {
        for id in [
            StartId {
                white: 518,
                black: 518,
            },
            StartId {
                white: 0,
                black: 959,
            },
        ] {
            assert_eq!(id.to_string().parse(), Ok(id));
        }
        assert_eq!(
            StartId {
                white: 518,
                black: 518
            }
            .to_string(),
            "chess960 518"
        );
        assert_eq!(
            StartId {
                white: 12,
                black: 345
            }
            .to_string(),
            "dfrc 12 345"
        );
        for bad in [
            "chess960 960",
            "dfrc 3 3",
            "dfrc 1",
            "chess960  5",
            "xx 1 2",
            "",
        ] {
            assert_eq!(bad.parse::<StartId>(), Err(()), "{bad:?}");
        }
    }
}
