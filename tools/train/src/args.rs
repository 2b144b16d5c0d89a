//! The `hoeven train` command line.

use crate::convert::{Filter, Split, SPLIT_BLOCK};
use crate::network::{MAX_BUCKETS, MAX_HIDDEN};
use crate::trainer::Settings;
use clap::builder::RangedU64ValueParser;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// Hoeven's NNUE trainer: turns scored games into training records and
/// trains (768 -> H) x 2 -> 1 nets on them on the CPU, in the engine's
/// format (docs/nets.md).
#[derive(clap::Args, Clone, Debug)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

const AFTER_HELP: &str = "\
For example:
  xz -dc data.txt.xz | hoeven train convert --validation val.bin train.bin -
  hoeven train train --data train.bin --validation val.bin --out nets/first";

#[derive(clap::Subcommand, Clone, Debug)]
pub enum Command {
    Convert(ConvertArgs),
    Train(TrainArgs),
    Pgn(PgnArgs),
    Eval(EvalArgs),
    Distil(DistilArgs),
    Loss(LossArgs),
}

/// Text records (<X-FEN> | <score> | <result>) to shuffled 32-byte binary
/// records
#[derive(clap::Args, Clone, Debug)]
pub struct ConvertArgs {
    /// The binary records
    #[arg(value_name = "OUT")]
    pub out: PathBuf,
    /// Text record files, `-` for standard input
    #[arg(value_name = "INPUT", required = true)]
    pub inputs: Vec<String>,
    /// Drop positions scored beyond +-N centipawns; mate scores are always
    /// dropped
    #[arg(long, value_name = "N", default_value_t = Filter::default().max_score,
          value_parser = clap::value_parser!(i16).range(0..))]
    pub max_score: i16,
    /// Keep positions whose side to move is in check
    #[arg(long)]
    pub keep_in_check: bool,
    #[arg(long, value_name = "FILE", help = format!(
        "Also write held-out positions to FILE, in blocks of {SPLIT_BLOCK} consecutive lines \
         (whole games)"))]
    pub validation: Option<PathBuf>,
    /// The share of blocks held out
    #[arg(long, value_name = "F", default_value_t = Split::DEFAULT_FRACTION,
          value_parser = fraction)]
    pub validation_share: f64,
    /// Shuffle and split seed
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
}

/// Trains a net on binary records; writes PREFIX.nnue at the end and
/// PREFIX-e<N>.nnue, PREFIX-e<N>.ckpt every --save-every epochs
#[derive(clap::Args, Clone, Debug)]
pub struct TrainArgs {
    /// Binary record files to train on
    #[arg(
        long,
        value_name = "FILE[,FILE...]",
        required = true,
        value_delimiter = ','
    )]
    pub data: Vec<PathBuf>,
    /// Where the nets and checkpoints go: PREFIX.nnue, PREFIX-e<N>.*
    #[arg(long, value_name = "PREFIX")]
    pub out: PathBuf,
    /// Binary records for the validation loss
    #[arg(long, value_name = "FILE[,FILE...]", value_delimiter = ',')]
    pub validation: Vec<PathBuf>,
    /// Hidden neurons per perspective
    #[arg(long, value_name = "H", default_value_t = Settings::default().shape.hidden,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=MAX_HIDDEN as u64))]
    pub hidden: usize,
    /// Output layers, chosen by the number of pieces
    #[arg(long, value_name = "B", default_value_t = Settings::default().shape.buckets,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=MAX_BUCKETS as u64))]
    pub output_buckets: usize,
    /// Inputs mirrored left to right for a perspective whose king stands on
    /// files e to h
    #[arg(long)]
    pub king_mirror: bool,
    /// Mirrored by king file, and a first layer for each of 4 places of the
    /// perspective's king (with rows shared by all of them while training)
    #[arg(long)]
    pub king_buckets: bool,
    /// Passes over the data
    #[arg(long, value_name = "N", default_value_t = Settings::default().epochs)]
    pub epochs: usize,
    /// Positions per step
    #[arg(long, value_name = "N", default_value_t = Settings::default().batch,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    pub batch: usize,
    /// AdamW learning rate
    #[arg(long, value_name = "X", default_value_t = Settings::default().lr)]
    pub lr: f32,
    /// After these epochs multiply the rate by --lr-gamma
    #[arg(long, value_name = "E[,E...]", default_value_t = Epochs(Settings::default().lr_drops))]
    pub lr_drop: Epochs,
    /// The factor of each drop of the learning rate
    #[arg(long, value_name = "X", default_value_t = Settings::default().lr_gamma)]
    pub lr_gamma: f32,
    /// AdamW decay
    #[arg(long, value_name = "X", default_value_t = Settings::default().weight_decay)]
    pub weight_decay: f32,
    /// The game result's share of the target
    #[arg(long, value_name = "X", default_value_t = Settings::default().lambda,
          value_parser = share)]
    pub lambda: f32,
    /// Do not mirror positions left to right (by default each one without
    /// castling rights is, half the time)
    #[arg(long)]
    pub no_mirror: bool,
    /// Initial weights and shuffles
    #[arg(long, value_name = "N", default_value_t = Settings::default().seed)]
    pub seed: u64,
    /// Checkpoint interval in epochs (0: only the end)
    #[arg(long, value_name = "N", default_value_t = Settings::default().save_every)]
    pub save_every: usize,
    /// Continue from a checkpoint (of the same sizes; its inputs read as
    /// --king-mirror and --king-buckets say)
    #[arg(long, value_name = "FILE", conflicts_with = "init")]
    pub resume: Option<PathBuf>,
    /// Start from the weights of a net file (of the same sizes and inputs,
    /// or fewer hidden neurons: the new ones start with zero output weights,
    /// so the net evaluates as the file's; a net mirrored by king file can
    /// start one with --king-buckets), with a fresh optimiser at epoch 0
    #[arg(long, value_name = "NET")]
    pub init: Option<PathBuf>,
    /// Worker threads (0: all cores)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
}

/// Scored games to text records: every scored quiet position of every
/// finished game, with the game's result
#[derive(clap::Args, Clone, Debug)]
#[command(long_about = PGN_ABOUT)]
pub struct PgnArgs {
    /// The text records
    #[arg(value_name = "OUT")]
    pub out: PathBuf,
    /// PGN files
    #[arg(value_name = "INPUT", required = true)]
    pub inputs: Vec<PathBuf>,
}

const PGN_ABOUT: &str = "\
Scored games to text records. The games are PGN whose move comments start
with the mover's score, {+0.35/12 ...}, as fastchess writes them for
OpenBench's data generation, or cutechess, or hoeven selfplay --pgn. Every
scored quiet position of every finished game becomes a record, with the
game's result; book moves, mate scores, positions in check and those whose
move captures or promotes are left out.";

/// The net's evaluation of each position (centipawns, side to move), as the
/// engine computes it
#[derive(clap::Args, Clone, Debug)]
pub struct EvalArgs {
    /// The net file
    #[arg(value_name = "NET")]
    pub net: PathBuf,
    /// Positions, one FEN an argument
    #[arg(value_name = "FEN", required = true)]
    pub fens: Vec<String>,
}

/// Training records around the games: short random walks from each binary
/// record, ending in quiet positions, scored by the static evaluation or a
/// short search
#[derive(clap::Args, Clone, Debug)]
#[command(long_about = DISTIL_ABOUT)]
pub struct DistilArgs {
    /// The binary records made
    #[arg(value_name = "OUT")]
    pub out: PathBuf,
    /// Binary record files to walk from, several or comma-separated
    #[arg(value_name = "FILE", required = true, value_delimiter = ',')]
    pub files: Vec<PathBuf>,
    /// Evaluate with the net [default: the hand-crafted evaluation]
    #[arg(long, value_name = "NET")]
    pub net: Option<PathBuf>,
    /// Score by a search of N nodes, leaving out positions whose best move
    /// is a capture or promotion (0: the static evaluation)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub nodes: u64,
    /// Walks from each record
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub per_position: usize,
    /// The most random plies in a walk
    #[arg(long, value_name = "N", default_value_t = 4,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
    pub plies: usize,
    /// Leave out positions scored beyond +-N centipawns
    #[arg(long, value_name = "N", default_value_t = i32::from(Filter::default().max_score),
          value_parser = clap::value_parser!(i32).range(0..))]
    pub max_score: i32,
    /// Walks and shuffle
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
}

const DISTIL_ABOUT: &str = "\
Training records around the games: from each binary record, short random
walks ending in quiet positions (not in check, no winning capture), scored
by the static evaluation or a short search, shuffled into OUT (result: a
draw; train on them with --lambda 0).";

/// The loss of the engine's evaluation on binary records, with the
/// trainer's target, and its mean distance from the records' scores
#[derive(clap::Args, Clone, Debug)]
pub struct LossArgs {
    /// A net file, or `hce` for the hand-crafted evaluation
    #[arg(value_name = "NET|hce")]
    pub evaluation: String,
    /// Binary record files, several or comma-separated
    #[arg(value_name = "FILE", required = true, value_delimiter = ',')]
    pub files: Vec<PathBuf>,
    /// The game result's share of the target
    #[arg(long, value_name = "X", default_value_t = Settings::default().lambda,
          value_parser = share)]
    pub lambda: f32,
}

/// Epochs, written comma-separated (as the help shows the default).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Epochs(pub Vec<usize>);

impl FromStr for Epochs {
    type Err = String;

    fn from_str(text: &str) -> Result<Epochs, String> {
        text.split(',')
            .map(|e| e.parse().map_err(|_| format!("bad epoch '{e}'")))
            .collect::<Result<_, _>>()
            .map(Epochs)
    }
}

impl fmt::Display for Epochs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<String> = self.0.iter().map(usize::to_string).collect();
        write!(f, "{}", words.join(","))
    }
}

fn fraction(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(f) if (0.0..=1.0).contains(&f) => Ok(f),
        _ => Err("expected a number from 0 to 1".into()),
    }
}

fn share(text: &str) -> Result<f32, String> {
    fraction(text).map(|f| f as f32)
}
