//! The `hoeven analyse` command line.

use clap::builder::RangedU64ValueParser;
use std::path::PathBuf;
use std::time::Duration;

const DEFAULT_DEPTH: i32 = 14;
const DEFAULT_HASH_MB: usize = 64;
/// The search stack is 128 plies deep; leave room for extensions.
const MAX_DEPTH: i64 = 100;

/// Analyses every game of a PGN file (standard chess or Chess960: [Variant
/// "Chess960"] or "Fischerandom", [FEN] in X-FEN or Shredder-FEN) move by
/// move, judges each move by the expected score it loses, and writes the
/// games back with [%eval] comments, ?! ? ?? glyphs and the engine's better
/// lines.
#[derive(clap::Args, Clone, Debug)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// The games to analyse
    #[arg(value_name = "GAME.pgn")]
    pub input: PathBuf,
    /// Depth per position [default: 14 when --movetime is not given]
    #[arg(long, value_name = "N", help_heading = SEARCH,
          value_parser = clap::value_parser!(i32).range(1..=MAX_DEPTH))]
    pub depth: Option<i32>,
    /// Milliseconds per position
    #[arg(long, value_name = "MS", help_heading = SEARCH,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Better lines shown for a judged move
    #[arg(long, value_name = "K", default_value_t = 1, help_heading = SEARCH,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=256))]
    pub multipv: usize,
    /// Search threads, Lazy SMP
    #[arg(long, value_name = "T", default_value_t = 1, help_heading = SEARCH,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=1024))]
    pub threads: usize,
    /// Hash table size in MB
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_HASH_MB, help_heading = SEARCH,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=1 << 20))]
    pub hash: usize,
    /// A network file to evaluate with, as the UCI option EvalFile; <empty>
    /// is the hand-crafted evaluation [default: the network built in]
    #[arg(long, value_name = "FILE", help_heading = SEARCH)]
    pub eval_file: Option<String>,
    /// The annotated games [default: standard output; the summary then goes
    /// to standard error]
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// A graph of White's expected score over each game, with the judged
    /// moves marked
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

const SEARCH: &str = "Search per position (they combine, the first reached ends the search)";

const AFTER_HELP: &str = "\
A move losing 0.05 of expected score is an inaccuracy (?!), 0.10 a mistake
(?), 0.15 a blunder (??); see README. A game that does not parse is reported
and skipped; the exit status is 1 only if no game could be analysed.";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub input: PathBuf,
    pub depth: Option<i32>,
    pub movetime: Option<Duration>,
    pub multipv: usize,
    pub threads: usize,
    pub hash_mb: usize,
    /// `None`: the binary's default evaluation.
    pub eval_file: Option<String>,
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

impl From<Args> for Config {
    fn from(args: Args) -> Config {
        let depth = match (args.depth, args.movetime) {
            (None, None) => Some(DEFAULT_DEPTH),
            (depth, _) => depth,
        };
        Config {
            input: args.input,
            depth,
            movetime: args.movetime.map(Duration::from_millis),
            multipv: args.multipv,
            threads: args.threads,
            hash_mb: args.hash,
            eval_file: args.eval_file,
            output: args.output,
            svg: args.svg,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::error::ErrorKind;
    use clap::Parser;

    #[derive(Parser)]
    struct Command {
        #[command(flatten)]
        args: Args,
    }

    fn parse(line: &str) -> Result<Config, clap::Error> {
        Command::try_parse_from(std::iter::once("analyse").chain(line.split_whitespace()))
            .map(|c| c.args.into())
    }

    fn config(line: &str) -> Config {
        parse(line).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    #[test]
    fn defaults_and_every_option() {
        let c = config("game.pgn");
        assert_eq!(c.input, PathBuf::from("game.pgn"));
        assert_eq!((c.depth, c.movetime), (Some(DEFAULT_DEPTH), None));
        assert_eq!((c.multipv, c.threads, c.hash_mb), (1, 1, DEFAULT_HASH_MB));
        assert_eq!((&c.output, &c.svg, &c.eval_file), (&None, &None, &None));
        assert_eq!(c.limit_text(), "depth 14");
        assert_eq!(
            config("g --eval-file <empty>").eval_file.as_deref(),
            Some("<empty>")
        );

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
            config("g --output o.pgn").output,
            Some(PathBuf::from("o.pgn"))
        );
        assert_eq!(
            config("g --depth 3 --movetime 9").limit_text(),
            "depth 3 or 9 ms"
        );
        assert_eq!(
            parse("g --help").map_err(|e| e.kind()),
            Err(ErrorKind::DisplayHelp)
        );
    }

    #[test]
    fn bad_command_lines_say_what_is_wrong() {
        let err = |line: &str| parse(line).expect_err(line);
        assert_eq!(err("").kind(), ErrorKind::MissingRequiredArgument);
        let e = err("a.pgn b.pgn");
        assert_eq!(e.kind(), ErrorKind::UnknownArgument);
        assert!(e.to_string().contains("'b.pgn'"), "{e}");
        let e = err("a.pgn --fast");
        assert_eq!(e.kind(), ErrorKind::UnknownArgument);
        assert!(e.to_string().contains("'--fast'"), "{e}");
        assert_eq!(err("a.pgn --depth").kind(), ErrorKind::InvalidValue);
        for (line, message) in [
            (
                "a.pgn --depth 0",
                "invalid value '0' for '--depth <N>': 0 is not in 1..=100",
            ),
            ("a.pgn --multipv x", "invalid value 'x' for '--multipv <K>'"),
            (
                "a.pgn --threads 0",
                "invalid value '0' for '--threads <T>': 0 is not in 1..=1024",
            ),
            ("a.pgn --movetime -5", "unexpected argument '-5'"),
        ] {
            let e = err(line);
            assert!(e.to_string().contains(message), "{line}: {e}");
        }
    }
}
