//! `train convert`: self-play text records to a shuffled binary file,
//! filtered, with whole stretches of games optionally set aside for
//! validation.

use chessio::{PackedRecord, Record, RecordError};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;
use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Consecutive lines (a dozen games' positions) that go to the same side of
/// the validation split, so that the validation set's games are not also
/// trained on.
pub const SPLIT_BLOCK: usize = 1000;

/// Lines parsed in parallel at a time.
const PARSE_BATCH: usize = 64 * SPLIT_BLOCK;

/// Which positions are kept.
#[derive(Clone, Debug)]
pub struct Filter {
    /// Positions whose score is beyond this many centipawns (either sign)
    /// are dropped; mate scores always are.
    pub max_score: i16,
    pub keep_in_check: bool,
}

impl Default for Filter {
    fn default() -> Filter {
        Filter {
            max_score: 3000,
            keep_in_check: false,
        }
    }
}

/// Where the validation positions go, and what share of the blocks.
#[derive(Clone, Debug)]
pub struct Split {
    pub path: PathBuf,
    pub fraction: f64,
}

impl Split {
    pub const DEFAULT_FRACTION: f64 = 0.02;
}

#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Counts {
    pub lines: u64,
    pub mate: u64,
    pub beyond_bound: u64,
    pub in_check: u64,
    pub train: u64,
    pub validation: u64,
}

#[derive(Debug)]
pub enum ConvertError {
    Io(String, std::io::Error),
    /// A line that is not a record, with its file and line number (from 1).
    Line {
        input: String,
        line: usize,
        error: RecordError,
    },
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConvertError::Io(path, e) => write!(f, "{path}: {e}"),
            ConvertError::Line { input, line, error } => write!(f, "{input}:{line}: {error}"),
        }
    }
}

impl std::error::Error for ConvertError {}

enum Kept {
    Train(PackedRecord),
    Validation(PackedRecord),
    Mate,
    BeyondBound,
    InCheck,
}

/// SplitMix64: a fixed hash, so that the split depends on the seed and the
/// line's place alone.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

fn in_validation(seed: u64, input: usize, line: usize, fraction: f64) -> bool {
    let block = (line / SPLIT_BLOCK) as u64;
    let h = mix(seed ^ mix((input as u64) << 40 ^ block));
    ((h >> 11) as f64) < fraction * (1u64 << 53) as f64
}

fn classify(record: Record, filter: &Filter, validation: bool) -> Kept {
    let score = record.score();
    if engine::score::is_mate(i32::from(score)) {
        Kept::Mate
    } else if score.unsigned_abs() > filter.max_score.unsigned_abs() {
        Kept::BeyondBound
    } else if !filter.keep_in_check && record.board().in_check() {
        Kept::InCheck
    } else if validation {
        Kept::Validation(record.pack())
    } else {
        Kept::Train(record.pack())
    }
}

fn open(input: &str) -> Result<Box<dyn BufRead>, ConvertError> {
    if input == "-" {
        return Ok(Box::new(BufReader::new(std::io::stdin())));
    }
    let file = File::open(input).map_err(|e| ConvertError::Io(input.to_string(), e))?;
    Ok(Box::new(BufReader::with_capacity(1 << 20, file)))
}

/// Reads every input (`-` is standard input), keeps what `filter` allows,
/// shuffles with `seed` and writes 32-byte records to `out` (and to the
/// split's file).
pub fn convert(
    inputs: &[String],
    out: &Path,
    split: Option<&Split>,
    filter: &Filter,
    seed: u64,
) -> Result<Counts, ConvertError> {
    let mut counts = Counts::default();
    let mut train = Vec::new();
    let mut validation = Vec::new();
    let fraction = split.map_or(0.0, |s| s.fraction);
    for (input_index, input) in inputs.iter().enumerate() {
        let mut reader = open(input)?;
        let mut first_line = 0;
        loop {
            let mut lines = Vec::with_capacity(PARSE_BATCH);
            for _ in 0..PARSE_BATCH {
                let mut line = String::new();
                let n = reader
                    .read_line(&mut line)
                    .map_err(|e| ConvertError::Io(input.clone(), e))?;
                if n == 0 {
                    break;
                }
                lines.push(line);
            }
            if lines.is_empty() {
                break;
            }
            let kept: Vec<Result<Kept, ConvertError>> = lines
                .par_iter()
                .enumerate()
                .map(|(i, line)| {
                    let number = first_line + i;
                    let record = line.trim_end_matches(['\n', '\r']).parse::<Record>();
                    let record = record.map_err(|error| ConvertError::Line {
                        input: input.clone(),
                        line: number + 1,
                        error,
                    })?;
                    let held_out = in_validation(seed, input_index, number, fraction);
                    Ok(classify(record, filter, held_out))
                })
                .collect();
            first_line += lines.len();
            counts.lines += lines.len() as u64;
            for k in kept {
                match k? {
                    Kept::Train(r) => train.push(r),
                    Kept::Validation(r) => validation.push(r),
                    Kept::Mate => counts.mate += 1,
                    Kept::BeyondBound => counts.beyond_bound += 1,
                    Kept::InCheck => counts.in_check += 1,
                }
            }
        }
    }
    counts.train = train.len() as u64;
    counts.validation = validation.len() as u64;
    let mut rng = StdRng::seed_from_u64(seed);
    train.shuffle(&mut rng);
    write(out, &train)?;
    if let Some(split) = split {
        validation.shuffle(&mut rng);
        write(&split.path, &validation)?;
    }
    Ok(counts)
}

fn write(path: &Path, records: &[PackedRecord]) -> Result<(), ConvertError> {
    let error = |e| ConvertError::Io(path.display().to_string(), e);
    let mut w = BufWriter::new(File::create(path).map_err(error)?);
    for r in records {
        w.write_all(r.as_bytes()).map_err(error)?;
    }
    w.flush().map_err(error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data;

    const LINES: &str = "\
1bnrbkqr/pp2pppp/2pp1Q2/3n4/8/5P2/PPPPP1PP/NBNRBRK1 w kq - 2 5 | 87 | 0.0
bnnqrb1r/pp1pp1pp/2p2pk1/8/P2P4/2P5/NP2PPPP/BNQ1RBKR b KQ - 0 5 | -85 | 1.0
8/3p4/R5p1/5p1p/4k2P/2K1P1P1/5P2/5r2 w - - 3 61 | 31990 | 1.0
8/3p4/R5p1/5p1p/4k2P/2K1P1P1/5P2/5r2 w - - 3 61 | 2500 | 1.0
4k3/8/8/8/8/8/4q3/4K3 w - - 0 1 | -900 | 0.0
3r3r/p2p1kp1/6Rp/1p2q3/5p2/2P2P2/1PB1P2P/B2K2Q1 b - - 0 22 | -157 | 0.0
";

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("hoeven-train-{}-{name}", std::process::id()))
    }

    #[test]
    fn filters_shuffles_and_writes_records() {
        let input = temp("in.txt");
        std::fs::write(&input, LINES).unwrap();
        let out = temp("out.bin");
        let filter = Filter {
            max_score: 2000,
            keep_in_check: false,
        };
        let inputs = [input.display().to_string()];
        let counts = convert(&inputs, &out, None, &filter, 1).unwrap();
        assert_eq!(
            counts,
            Counts {
                lines: 6,
                mate: 1,
                beyond_bound: 1,
                in_check: 1,
                train: 3,
                validation: 0
            }
        );
        let records = data::load(&out).unwrap();
        let mut scores: Vec<i16> = records.iter().map(|r| r.score()).collect();
        scores.sort();
        assert_eq!(scores, [-157, -85, 87]);
        let keep = Filter {
            max_score: 3000,
            keep_in_check: true,
        };
        let counts = convert(&inputs, &out, None, &keep, 1).unwrap();
        assert_eq!((counts.train, counts.mate), (5, 1));
        std::fs::remove_file(&input).unwrap();
        std::fs::remove_file(&out).unwrap();
    }

    #[test]
    fn malformed_lines_stop_the_conversion_with_their_place() {
        let input = temp("bad.txt");
        std::fs::write(&input, format!("{LINES}8/8/8 w - - 0 1 | 3 | 1.0\n")).unwrap();
        let out = temp("bad.bin");
        let filter = Filter {
            max_score: 2000,
            keep_in_check: false,
        };
        let err = convert(&[input.display().to_string()], &out, None, &filter, 1).unwrap_err();
        assert!(
            matches!(
                err,
                ConvertError::Line {
                    line: 7,
                    error: RecordError::Fen(_),
                    ..
                }
            ),
            "{err}"
        );
        assert!(err.to_string().contains(":7: "));
        std::fs::remove_file(&input).unwrap();
    }

    #[test]
    fn the_validation_split_takes_whole_blocks() {
        let seed = 42;
        let picked: Vec<bool> = (0..200)
            .map(|b| in_validation(seed, 0, b * SPLIT_BLOCK, 0.25))
            .collect();
        let share = picked.iter().filter(|&&p| p).count();
        assert!((30..=70).contains(&share), "{share}");
        for (b, &p) in picked.iter().enumerate() {
            assert_eq!(in_validation(seed, 0, b * SPLIT_BLOCK + 999, 0.25), p);
        }
        assert!(!(0..1000).any(|l| in_validation(seed, 0, l * SPLIT_BLOCK, 0.0)));
    }
}
