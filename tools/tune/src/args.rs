//! The `hoeven tune` command line.

use clap::builder::RangedU64ValueParser;
use std::path::PathBuf;

/// The Texel tuner of the evaluation: fits every weight of
/// eval/src/weights.rs to the results of self-play games (optionally blended
/// with the search scores) and writes them as Rust source (tools/tune/README.md)
#[derive(clap::Args, Clone, Debug)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Self-play data files (<X-FEN> | <score> | <result>)
    #[arg(
        long,
        value_name = "FILE[,FILE...]",
        value_delimiter = ',',
        required_unless_present = "write_init"
    )]
    pub data: Vec<PathBuf>,
    /// Read at most the first N lines of each file
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// The share held out for validation, in blocks of 1000 lines
    #[arg(long, value_name = "F", default_value_t = 0.1, value_parser = fraction)]
    pub validation: f64,
    /// target = L * result + (1 - L) * sigmoid(score), the score's scale
    /// fitted to the results on its own (1: results only)
    #[arg(long, value_name = "L", default_value_t = 1.0, value_parser = fraction)]
    pub lambda: f64,
    /// Full-batch Adam steps
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    pub epochs: usize,
    /// Adam step size in centipawns, decaying to a tenth by the end
    #[arg(long, value_name = "X", default_value_t = 2.0)]
    pub lr: f64,
    /// L2 penalty X * (w - w_start)^2 per weight, against overfitting
    #[arg(long, value_name = "X", default_value_t = 0.0)]
    pub l2: f64,
    /// Keep the weights of the epoch with the lowest validation loss
    #[arg(long)]
    pub keep_best: bool,
    /// Starting weights
    #[arg(long, value_enum, default_value_t = Init::Current)]
    pub init: Init,
    /// Print the losses every N epochs
    #[arg(long, value_name = "N", default_value_t = 50,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    pub report: usize,
    /// Write the tuned weights as Rust source (eval/src/weights.rs)
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Write the starting weights to FILE and exit (no data needed)
    #[arg(long, value_name = "FILE")]
    pub write_init: Option<PathBuf>,
}

const AFTER_HELP: &str = "\
For example:
  hoeven tune --data a.txt,b.txt --init guess --epochs 400 --lambda 0.5 --out eval/src/weights.rs";

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Init {
    /// The old evaluation's material and tables, everything else 0
    Old,
    /// Hand-set values
    Guess,
    /// The committed table, as compiled into this binary
    Current,
}

fn fraction(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(f) if (0.0..=1.0).contains(&f) => Ok(f),
        _ => Err("expected a number from 0 to 1".into()),
    }
}
