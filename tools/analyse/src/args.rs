//! The `hoeven analyse` command line.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

pub const HELP: &str = "\
usage: hoeven analyse GAME.pgn [options]

Analyses every game of a PGN file (standard chess or Chess960: [Variant
\"Chess960\"] or \"Fischerandom\", [FEN] in X-FEN or Shredder-FEN) move by
move, judges each move by the expected score it loses, and writes the games
back with [%eval] comments, ?! ? ?? glyphs and the engine's better lines.

Search per position (they combine, the first reached ends the search;
default --depth 14):
  --depth N             depth per position
  --movetime MS         milliseconds per position
  --multipv K           better lines shown for a judged move (default 1)
  --threads T           search threads, Lazy SMP (default 1)
  --hash MB             hash table size (default 64)

Output:
  -o, --output FILE     the annotated games (default: standard output; the
                        summary then goes to standard error)
  --svg FILE            a graph of White's expected score over each game,
                        with the judged moves marked
  -h, --help            this text

A move losing 0.05 of expected score is an inaccuracy (?!), 0.10 a mistake
(?), 0.15 a blunder (??); see README. A game that does not parse is reported
and skipped; the exit status is 1 only if no game could be analysed.";

const DEFAULT_DEPTH: i32 = 14;
const DEFAULT_HASH_MB: usize = 64;
/// The search stack is 128 plies deep; leave room for extensions.
const MAX_DEPTH: i32 = 100;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub input: PathBuf,
    pub depth: Option<i32>,
    pub movetime: Option<Duration>,
    pub multipv: usize,
    pub threads: usize,
    pub hash_mb: usize,
    pub output: Option<PathBuf>,
    pub svg: Option<PathBuf>,
}

impl Config {
    /// The search limit in words, for the `Annotator` tag.
    pub fn limit_text(&self) -> String {
        match (self.depth, self.movetime) {
            (Some(d), Some(t)) => format!("depth {d} or {} ms", t.as_millis()),
            (Some(d), None) => format!("depth {d}"),
            (None, Some(t)) => format!("{} ms", t.as_millis()),
            (None, None) => "no limit".to_string(),
        }
    }
}

pub type Parsed = uci::cli::Parsed<Config>;

#[derive(Debug, PartialEq, Eq)]
pub enum ArgError {
    NoInput,
    TwoInputs(String),
    Unknown(String),
    MissingValue(&'static str),
    BadValue {
        option: &'static str,
        value: String,
        expected: &'static str,
    },
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgError::NoInput => write!(f, "no PGN file given"),
            ArgError::TwoInputs(s) => {
                write!(f, "'{s}': only one PGN file can be analysed at a time")
            }
            ArgError::Unknown(s) => write!(f, "unknown option '{s}'"),
            ArgError::MissingValue(o) => write!(f, "{o} needs a value"),
            ArgError::BadValue {
                option,
                value,
                expected,
            } => write!(f, "{option} '{value}': expected {expected}"),
        }
    }
}

impl std::error::Error for ArgError {}

fn number<T: std::str::FromStr + PartialOrd>(
    option: &'static str,
    value: &str,
    min: T,
    max: T,
    expected: &'static str,
) -> Result<T, ArgError> {
    match value.parse::<T>() {
        Ok(n) if n >= min && n <= max => Ok(n),
        _ => Err(ArgError::BadValue {
            option,
            value: value.to_string(),
            expected,
        }),
    }
}

pub fn parse(args: &[String]) -> Result<Parsed, ArgError> {
    let mut input = None;
    let mut config = Config {
        input: PathBuf::new(),
        depth: None,
        movetime: None,
        multipv: 1,
        threads: 1,
        hash_mb: DEFAULT_HASH_MB,
        output: None,
        svg: None,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = |option: &'static str| args.next().ok_or(ArgError::MissingValue(option));
        match arg.as_str() {
            "-h" | "--help" => return Ok(Parsed::Help),
            "--depth" => {
                let v = value("--depth")?;
                config.depth = Some(number("--depth", v, 1, MAX_DEPTH, "a depth from 1 to 100")?);
            }
            "--movetime" => {
                let v = value("--movetime")?;
                let ms = number("--movetime", v, 1, u64::MAX, "milliseconds, at least 1")?;
                config.movetime = Some(Duration::from_millis(ms));
            }
            "--multipv" => {
                let v = value("--multipv")?;
                config.multipv = number("--multipv", v, 1, 256, "a number from 1 to 256")?;
            }
            "--threads" => {
                let v = value("--threads")?;
                config.threads = number("--threads", v, 1, 1024, "a number from 1 to 1024")?;
            }
            "--hash" => {
                let v = value("--hash")?;
                config.hash_mb = number("--hash", v, 1, 1 << 20, "megabytes from 1 to 1048576")?;
            }
            "-o" | "--output" => config.output = Some(PathBuf::from(value("--output")?)),
            "--svg" => config.svg = Some(PathBuf::from(value("--svg")?)),
            s if s.starts_with('-') && s.len() > 1 => return Err(ArgError::Unknown(s.to_string())),
            s => match input {
                None => input = Some(PathBuf::from(s)),
                Some(_) => return Err(ArgError::TwoInputs(s.to_string())),
            },
        }
    }
    config.input = input.ok_or(ArgError::NoInput)?;
    if config.depth.is_none() && config.movetime.is_none() {
        config.depth = Some(DEFAULT_DEPTH);
    }
    Ok(Parsed::Run(config))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_words(line: &str) -> Result<Parsed, ArgError> {
        parse(&words(line))
    }

    fn config(line: &str) -> Config {
        match parse(&words(line)) {
            Ok(Parsed::Run(c)) => c,
            other => panic!("{line}: {other:?}"),
        }
    }

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn defaults_and_every_option() {
        let c = config("game.pgn");
        assert_eq!(c.input, PathBuf::from("game.pgn"));
        assert_eq!((c.depth, c.movetime), (Some(DEFAULT_DEPTH), None));
        assert_eq!((c.multipv, c.threads, c.hash_mb), (1, 1, DEFAULT_HASH_MB));
        assert_eq!((&c.output, &c.svg), (&None, &None));
        assert_eq!(c.limit_text(), "depth 14");

        let c =
            config("--movetime 250 g.pgn --multipv 3 --threads 2 --hash 8 -o out.pgn --svg g.svg");
        assert_eq!(
            (c.depth, c.movetime),
            (None, Some(Duration::from_millis(250)))
        );
        assert_eq!((c.multipv, c.threads, c.hash_mb), (3, 2, 8));
        assert_eq!(c.output, Some(PathBuf::from("out.pgn")));
        assert_eq!(c.svg, Some(PathBuf::from("g.svg")));
        assert_eq!(c.limit_text(), "250 ms");
        assert_eq!(
            config("g --depth 3 --movetime 9").limit_text(),
            "depth 3 or 9 ms"
        );
        assert_eq!(parse_words("g --help"), Ok(Parsed::Help));
    }

    #[test]
    fn bad_command_lines_say_what_is_wrong() {
        let err = |words: &str| parse_words(words).unwrap_err().to_string();
        assert_eq!(err(""), "no PGN file given");
        assert_eq!(
            err("a.pgn b.pgn"),
            "'b.pgn': only one PGN file can be analysed at a time"
        );
        assert_eq!(err("a.pgn --fast"), "unknown option '--fast'");
        assert_eq!(err("a.pgn --depth"), "--depth needs a value");
        assert_eq!(
            err("a.pgn --depth 0"),
            "--depth '0': expected a depth from 1 to 100"
        );
        assert_eq!(
            err("a.pgn --multipv x"),
            "--multipv 'x': expected a number from 1 to 256"
        );
        assert_eq!(
            err("a.pgn --threads 0"),
            "--threads '0': expected a number from 1 to 1024"
        );
        assert_eq!(
            err("a.pgn --movetime -5"),
            "--movetime '-5': expected milliseconds, at least 1"
        );
    }
}
