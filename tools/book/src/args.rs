//! The `hoeven book` command line, and the settings it stands for.

use crate::starts::{Variant, DFRC_PAIRS};
use clap::builder::RangedU64ValueParser;
use std::fmt;
use std::path::PathBuf;

const DEFAULT_HASH_MB: usize = 16;
/// The search stack is 128 plies deep; leave room for extensions.
const MAX_DEPTH: i64 = 100;

/// Scores every Chess960 start position, or random Double Fischer Random
/// ones, with a search to a fixed depth, and writes those near equality as
/// an EPD book for FRC and DFRC events.
#[derive(clap::Args, Clone, Debug)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// All 960 Chess960 starts, or --count random DFRC ones (two different
    /// back ranks)
    #[arg(long, value_enum)]
    pub variant: Variant,
    /// DFRC starts to score (at most 920640)
    #[arg(long, value_name = "N",
          value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    pub count: Option<usize>,
    /// Which DFRC starts: the same seed draws the same ones [default: 0]
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Search depth per position
    #[arg(long, value_name = "D",
          value_parser = clap::value_parser!(i32).range(1..=MAX_DEPTH))]
    pub depth: i32,
    /// Keep the starts whose |score| is at most this many centipawns
    #[arg(long, value_name = "CP")]
    pub bound: u32,
    /// Positions searched at once, each on one thread [default: all cores]
    #[arg(long, value_name = "T",
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=1024))]
    pub threads: Option<usize>,
    /// Hash table size in MB of each search
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_HASH_MB,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=1 << 20))]
    pub hash: usize,
    /// The EPD book
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

const AFTER_HELP: &str = "\
Scores are centipawns from White's point of view, by the built-in network:
a book is played from both sides, so +30 is as far from balance as -30.
Each book line is a start in Shredder-FEN with its score and depth:
  <FEN> ce <cp>; acd <depth>; id \"chess960 518\";
sorted by |score|, then by start number. The result does not depend on
--threads: each position is searched alone, on a cleared hash table.
Scored positions go to FILE.partial as they finish; an interrupted run
started again with the same settings goes on where it stopped.";

/// What the command line asks for, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub variant: Variant,
    /// DFRC only; Chess960 has its 960.
    pub count: usize,
    pub seed: u64,
    pub depth: i32,
    pub bound: u32,
    pub threads: usize,
    pub hash_mb: usize,
    pub out: PathBuf,
}

/// A command line clap accepts but the command cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgError {
    /// `--count` or `--seed` for Chess960, whose starts are all scored.
    OnlyForDfrc(&'static str),
    CountMissing,
    TooManyPairs(usize),
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgError::OnlyForDfrc(flag) => write!(
                f,
                "{flag} is for --variant dfrc; chess960 scores all 960 starts"
            ),
            ArgError::CountMissing => write!(f, "--variant dfrc needs --count N"),
            ArgError::TooManyPairs(n) => {
                write!(f, "--count {n}: there are only {DFRC_PAIRS} DFRC starts")
            }
        }
    }
}

impl std::error::Error for ArgError {}

impl Args {
    pub fn config(self) -> Result<Config, ArgError> {
        let (count, seed) = match self.variant {
            Variant::Chess960 => {
                if self.count.is_some() {
                    return Err(ArgError::OnlyForDfrc("--count"));
                }
                if self.seed.is_some() {
                    return Err(ArgError::OnlyForDfrc("--seed"));
                }
                (960, 0)
            }
            Variant::Dfrc => {
                let count = self.count.ok_or(ArgError::CountMissing)?;
                if count > DFRC_PAIRS {
                    return Err(ArgError::TooManyPairs(count));
                }
                (count, self.seed.unwrap_or(0))
            }
        };
        Ok(Config {
            variant: self.variant,
            count,
            seed,
            depth: self.depth,
            bound: self.bound,
            threads: self
                .threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            hash_mb: self.hash,
            out: self.out,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    fn config(line: &str) -> Result<Config, ArgError> {
        let words = std::iter::once("book").chain(line.split_whitespace());
        Cli::try_parse_from(words).unwrap().args.config()
    }

    #[test]
    fn dfrc_takes_a_count_and_a_seed() {
        let c = config(
            "--variant dfrc --count 6 --seed 9 --depth 2 --bound 50 --threads 3 --out b.epd",
        )
        .unwrap();
        assert_eq!(
            c,
            Config {
                variant: Variant::Dfrc,
                count: 6,
                seed: 9,
                depth: 2,
                bound: 50,
                threads: 3,
                hash_mb: DEFAULT_HASH_MB,
                out: PathBuf::from("b.epd"),
            }
        );
        assert_eq!(
            config("--variant dfrc --depth 2 --bound 50 --out b"),
            Err(ArgError::CountMissing)
        );
        let too_many = format!(
            "--variant dfrc --count {} --depth 2 --bound 5 --out b",
            DFRC_PAIRS + 1
        );
        assert_eq!(
            config(&too_many),
            Err(ArgError::TooManyPairs(DFRC_PAIRS + 1))
        );
    }

    #[test]
    fn chess960_scores_all_its_starts() {
        let c = config("--variant chess960 --depth 6 --bound 100 --out b").unwrap();
        assert_eq!((c.count, c.seed), (960, 0));
        assert!(c.threads >= 1);
        assert_eq!(
            config("--variant chess960 --count 5 --depth 6 --bound 100 --out b"),
            Err(ArgError::OnlyForDfrc("--count"))
        );
        assert_eq!(
            config("--variant chess960 --seed 5 --depth 6 --bound 100 --out b"),
            Err(ArgError::OnlyForDfrc("--seed"))
        );
    }

    #[test]
    fn clap_refuses_an_unknown_variant_and_a_zero_depth() {
        for line in [
            "book --variant shogi --depth 2 --bound 5 --out b",
            "book --variant dfrc --count 2 --depth 0 --bound 5 --out b",
        ] {
            assert!(
                Cli::try_parse_from(line.split_whitespace()).is_err(),
                "{line}"
            );
        }
    }
}
