//! The `hoeven spsa` command line.

use super::schedule::Schedule;
use clap::builder::RangedU64ValueParser;
use engine::options::{DEFAULT_HASH_MB, MAX_HASH_MB};
use engine::{Tunable, TUNABLES};
use std::fmt;
use std::path::PathBuf;

/// Tunes the search's parameters by SPSA in self-play (a tuning build's
/// command: `make spsa-build`)
#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    /// The run's state, rewritten after every block; an existing file is
    /// resumed (its seed and schedule win over the command line's)
    #[arg(long, value_name = "FILE")]
    pub state: PathBuf,
    /// Pairs per block, played at once [default: twice the cores]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub pairs_per_block: Option<u64>,
    /// Blocks to play in this run [default: until --iterations pairs]
    #[arg(long, value_name = "M", value_parser = clap::value_parser!(u64).range(1..))]
    pub blocks: Option<u64>,
    /// The pairs the gain schedule is planned for
    #[arg(long, value_name = "N", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub iterations: u64,
    /// Soft node limit per move
    #[arg(long, value_name = "N", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Openings: random chess960 or dfrc start positions, or both in turn
    #[arg(long, value_enum, default_value = "chess960")]
    pub variant: SpsaVariant,
    /// Games at once, one thread each [default: the cores]
    #[arg(long, value_name = "C",
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=1024))]
    pub concurrency: Option<usize>,
    /// Hash table per engine, in MB
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_HASH_MB,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=MAX_HASH_MB as u64))]
    pub hash: usize,
    /// Seed of the perturbations and openings [default: drawn, and kept in
    /// the state file]
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// The parameters to tune, by name [default: all]
    #[arg(long, value_name = "NAME,NAME...", value_delimiter = ',')]
    pub params: Vec<String>,
    /// SPSA's stability constant A [default: a tenth of --iterations]
    #[arg(long, value_name = "A")]
    pub a: Option<f64>,
    /// Every parameter's final perturbation c_end is its step times C
    #[arg(long, value_name = "C", default_value_t = 1.0)]
    pub c: f64,
    /// How fast the learning rate decays: a_k = a / (A + k + 1)^ALPHA
    #[arg(long, default_value_t = 0.602)]
    pub alpha: f64,
    /// How fast the perturbation shrinks: c_k = c / (k + 1)^GAMMA
    #[arg(long, default_value_t = 0.101)]
    pub gamma: f64,
    /// The learning rate the schedule ends with
    #[arg(long, default_value_t = 0.002)]
    pub r_end: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SpsaVariant {
    Chess960,
    Dfrc,
    Both,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub state: PathBuf,
    pub pairs_per_block: u64,
    pub blocks: Option<u64>,
    pub nodes: u64,
    pub variant: SpsaVariant,
    pub concurrency: usize,
    pub hash_mb: usize,
    pub seed: u64,
    pub params: Vec<&'static Tunable>,
    pub schedule: Schedule,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpsaArgError {
    UnknownParam(String),
    BadGain(&'static str),
}

impl fmt::Display for SpsaArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpsaArgError::UnknownParam(name) => {
                let names: Vec<&str> = TUNABLES.iter().map(|t| t.name).collect();
                write!(f, "no parameter '{name}'; there are {}", names.join(","))
            }
            SpsaArgError::BadGain(name) => write!(f, "--{name} must be a positive number"),
        }
    }
}

impl std::error::Error for SpsaArgError {}

impl Args {
    pub fn config(self) -> Result<Config, SpsaArgError> {
        let params = if self.params.is_empty() {
            TUNABLES.iter().collect()
        } else {
            self.params
                .iter()
                .map(|n| {
                    engine::tunable(n)
                        .map(|(_, t)| t)
                        .map_err(|_| SpsaArgError::UnknownParam(n.clone()))
                })
                .collect::<Result<_, _>>()?
        };
        let a = self.a.unwrap_or(self.iterations as f64 / 10.0);
        for (name, value) in [
            ("a", a + f64::MIN_POSITIVE),
            ("c", self.c),
            ("alpha", self.alpha),
            ("gamma", self.gamma),
            ("r-end", self.r_end),
        ] {
            if !(value.is_finite() && value > 0.0) {
                return Err(SpsaArgError::BadGain(name));
            }
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Ok(Config {
            state: self.state,
            pairs_per_block: self.pairs_per_block.unwrap_or(2 * cores as u64),
            blocks: self.blocks,
            nodes: self.nodes,
            variant: self.variant,
            concurrency: self.concurrency.unwrap_or(cores),
            hash_mb: self.hash,
            seed: self.seed.unwrap_or_else(rand::random),
            params,
            schedule: Schedule {
                iterations: self.iterations,
                a,
                c: self.c,
                alpha: self.alpha,
                gamma: self.gamma,
                r_end: self.r_end,
            },
        })
    }
}
