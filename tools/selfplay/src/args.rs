//! The `hoeven selfplay` command line.

use super::adjudication::AdjudicationRules;
use super::clock::TimeControl;
use super::limits::{MoveLimit, DEFAULT_NODES};
use super::settings::{PlayerSettings, SettingsError};
use super::sprt::Sprt;
use super::stats::Pentanomial;
use chess::openings::Variant;
use clap::builder::RangedU64ValueParser;
use engine::options::{DEFAULT_HASH_MB, MAX_HASH_MB};
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// Most games at once: far more than any machine has cores.
const MAX_CONCURRENCY: usize = 1024;

/// Plays Hoeven against itself inside this process, several games at once,
/// and writes the games as PGN and their positions as training data.
#[derive(clap::Args, Clone, Debug)]
#[command(after_long_help = AFTER_HELP)]
pub struct Args {
    /// Soft node limit per move: the iteration under way stops at N nodes
    /// (the default limit, 5000, when no other is given)
    #[arg(long, value_name = "N", help_heading = "Limits per move (they combine, the first reached ends the search)",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Depth per move
    #[arg(long, value_name = "N", help_heading = "Limits per move (they combine, the first reached ends the search)",
          value_parser = clap::value_parser!(i32).range(1..=127))]
    pub depth: Option<i32>,
    /// Milliseconds per move
    #[arg(long, value_name = "MS", help_heading = "Limits per move (they combine, the first reached ends the search)",
          value_parser = clap::value_parser!(u64).range(1..=86_400_000), conflicts_with = "tc")]
    pub movetime: Option<u64>,
    /// A clock per game: 10+0.1 (seconds + increment), 60, 40/60 (moves per
    /// period / seconds) or 40/60+0.5; the engine plans its time as in a UCI
    /// game, and a side whose clock runs out loses
    #[arg(long, value_name = "SPEC", help_heading = "Limits per move (they combine, the first reached ends the search)",
          value_parser = time_control)]
    pub tc: Option<TimeControl>,

    /// chess960: random start positions by Scharnagl number; dfrc: random,
    /// separate White and Black back ranks; classical: the standard start
    /// position
    #[arg(long, value_name = "V", default_value = "chess960", help_heading = "Openings",
          value_parser = variant)]
    pub variant: Variant,
    /// Openings from FILE instead, in order, repeated when used up: a .pgn
    /// file (its [FEN], [Variant] and main line moves), or any other file as
    /// EPD/FEN, one a line
    #[arg(long, value_name = "FILE", help_heading = "Openings")]
    pub openings: Option<PathBuf>,
    /// N uniformly random plies after each opening
    #[arg(long, value_name = "N", default_value_t = 0, help_heading = "Openings",
          value_parser = clap::value_parser!(u32).range(0..=200))]
    pub random_plies: u32,
    /// An opening whose score after its random plies is beyond CP centipawns
    /// is drawn again; the check searches as a move does, or 5000 nodes
    /// under --movetime and --tc
    #[arg(long, value_name = "CP", default_value_t = 200, help_heading = "Openings",
          value_parser = clap::value_parser!(i32).range(0..=30_000))]
    pub opening_bound: i32,
    /// Play each opening twice, colours swapped; needs an even --games
    #[arg(long, help_heading = "Openings")]
    pub pairs: bool,

    /// A side loses when both sides' scores agree it is CP or more behind
    /// for --resign-moves moves in a row
    #[arg(long, value_name = "CP", default_value_t = 600, help_heading = ADJUDICATION,
          value_parser = clap::value_parser!(i32).range(1..=32_000))]
    pub resign_score: i32,
    /// Moves in a row for a resignation (0: never)
    #[arg(long, value_name = "N", default_value_t = 3, help_heading = ADJUDICATION,
          value_parser = clap::value_parser!(u32).range(0..=1_000))]
    pub resign_moves: u32,
    /// A draw, from move --draw-after on, when both sides' scores stay within
    /// CP of zero for --draw-moves moves in a row
    #[arg(long, value_name = "CP", default_value_t = 10, help_heading = ADJUDICATION,
          value_parser = clap::value_parser!(i32).range(0..=32_000))]
    pub draw_score: i32,
    /// Moves in a row for a draw (0: never)
    #[arg(long, value_name = "N", default_value_t = 8, help_heading = ADJUDICATION,
          value_parser = clap::value_parser!(u32).range(0..=1_000))]
    pub draw_moves: u32,
    /// The move number from which draws are adjudicated
    #[arg(long, value_name = "N", default_value_t = 40, help_heading = ADJUDICATION,
          value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub draw_after: u32,

    /// Games to play
    #[arg(long, value_name = "N", help_heading = "Running",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Games at once, one thread each [default: the cores]
    #[arg(long, value_name = "N", help_heading = "Running",
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=MAX_CONCURRENCY as u64))]
    pub concurrency: Option<usize>,
    /// Hash table per engine, in MB
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_HASH_MB, help_heading = "Running",
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=MAX_HASH_MB as u64))]
    pub hash: usize,
    /// Seed of the openings and random plies [default: drawn, and printed].
    /// Under --nodes or --depth the same seed gives the same games; with
    /// --concurrency 1 also in the same order
    #[arg(long, value_name = "S", help_heading = "Running")]
    pub seed: Option<u64>,
    /// Pit two option sets against each other, for example
    /// "EvalFile=new.nnue" "EvalFile=old.nnue" or "Hash=16" "Hash=64":
    /// name=value words of any UCI option (values without spaces), over
    /// --hash; implies --pairs; the summary gives A's results and the Elo
    /// difference A - B with its 95% margin
    #[arg(long, num_args = 2, value_names = ["A", "B"], allow_hyphen_values = true,
          help_heading = "Running")]
    pub compare: Option<Vec<String>>,
    /// With --compare: stop as soon as the pentanomial SPRT of A - B decides
    /// between ELO0 (H0) and ELO1 (H1) Elo (alpha = beta = 0.05), never
    /// before 10 pairs and at the latest after --games; the summary gives
    /// the LLR and its bounds
    #[arg(long, num_args = 2, value_names = ["ELO0", "ELO1"], allow_hyphen_values = true,
          requires = "compare", help_heading = "Running")]
    pub sprt: Option<Vec<f64>>,
    /// With --sprt: continue a test stopped before it decided, from the
    /// pentanomial counts its summary printed (pairs in which A scored 0,
    /// 0.5, 1, 1.5 and 2 points); the same A, B, limits and bounds are the
    /// caller's to keep
    #[arg(
        long,
        value_name = "N0,N1,N2,N3,N4",
        value_delimiter = ',',
        requires = "sprt",
        help_heading = "Running"
    )]
    pub sprt_prior: Option<Vec<u64>>,

    /// The games as PGN, each move with {score/depth} (appended to)
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub pgn: Option<PathBuf>,
    /// Training data, one line per quiet position: <X-FEN> | <score, cp> |
    /// <result 1.0/0.5/0.0>, score and result from the side to move (see
    /// README; appended to)
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub data: Option<PathBuf>,
}

const ADJUDICATION: &str = "Adjudication (checkmate, stalemate, threefold repetition, the fifty-move rule and insufficient material always end a game)";

const AFTER_HELP: &str = "\
Both output files are appended to, never truncated. See README for the
training data format and the summary's figures.";

fn time_control(text: &str) -> Result<TimeControl, String> {
    TimeControl::parse(text)
        .ok_or_else(|| "expected [moves/]seconds[+increment], e.g. 10+0.1".into())
}

fn variant(text: &str) -> Result<Variant, String> {
    Variant::parse(text).ok_or_else(|| "expected chess960, dfrc or classical".into())
}

#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub games: u64,
    pub limit: MoveLimit,
    pub variant: Variant,
    pub openings: Option<PathBuf>,
    pub random_plies: u32,
    pub opening_bound: i32,
    pub pairs: bool,
    pub concurrency: usize,
    /// One set for self-play; two for `--compare`, the first being A.
    pub players: Vec<PlayerSettings>,
    pub sprt: Option<Sprt>,
    pub seed: Option<u64>,
    pub pgn: Option<PathBuf>,
    pub data: Option<PathBuf>,
    pub adjudication: AdjudicationRules,
}

/// What a command line clap accepts may still get wrong: the options that
/// depend on each other.
#[derive(Debug, PartialEq)]
pub enum ArgError {
    PlayerSettings(&'static str, SettingsError),
    /// The binary's embedded network cannot be read.
    DefaultEvaluation(SettingsError),
    OddGames,
    SprtBounds,
    SprtPrior,
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgError::PlayerSettings(which, e) => write!(f, "--compare {which}: {e}"),
            ArgError::DefaultEvaluation(e) => write!(f, "{e}"),
            ArgError::OddGames => write!(f, "with --pairs or --compare, --games must be even"),
            ArgError::SprtBounds => write!(f, "--sprt needs ELO0 below ELO1"),
            ArgError::SprtPrior => write!(f, "--sprt-prior needs five counts, N0,N1,N2,N3,N4"),
        }
    }
}

impl std::error::Error for ArgError {}

impl Args {
    /// The run these arguments ask for.
    pub fn config(self) -> Result<Config, ArgError> {
        let mut limit = MoveLimit {
            nodes: self.nodes,
            depth: self.depth,
            move_time: self.movetime.map(Duration::from_millis),
            clock: self.tc,
        };
        if limit == MoveLimit::default() {
            limit.nodes = Some(DEFAULT_NODES);
        }
        let base = PlayerSettings::new(self.hash).map_err(ArgError::DefaultEvaluation)?;
        let mut pairs = self.pairs;
        let players = match self.compare.as_deref() {
            Some([a, b]) => {
                // Each setting must play both colours of every opening.
                pairs = true;
                vec![
                    PlayerSettings::parse(a, &base)
                        .map_err(|e| ArgError::PlayerSettings("A", e))?,
                    PlayerSettings::parse(b, &base)
                        .map_err(|e| ArgError::PlayerSettings("B", e))?,
                ]
            }
            _ => vec![base],
        };
        if pairs && self.games % 2 == 1 {
            return Err(ArgError::OddGames);
        }
        let prior = match self.sprt_prior.as_deref() {
            Some(counts) => Pentanomial {
                counts: counts.try_into().map_err(|_| ArgError::SprtPrior)?,
            },
            None => Pentanomial::default(),
        };
        let sprt = match self.sprt.as_deref() {
            Some(&[elo0, elo1]) if elo0 < elo1 => Some(Sprt {
                prior,
                ..Sprt::new(elo0, elo1)
            }),
            Some(_) => return Err(ArgError::SprtBounds),
            None => None,
        };
        Ok(Config {
            games: self.games,
            limit,
            variant: self.variant,
            openings: self.openings,
            random_plies: self.random_plies,
            opening_bound: self.opening_bound,
            pairs,
            concurrency: self
                .concurrency
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            players,
            sprt,
            seed: self.seed,
            pgn: self.pgn,
            data: self.data,
            adjudication: AdjudicationRules {
                resign_score: self.resign_score,
                resign_moves: self.resign_moves,
                draw_score: self.draw_score,
                draw_moves: self.draw_moves,
                draw_after: self.draw_after,
            },
        })
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

    fn parse(words: &[&str]) -> Result<Args, clap::Error> {
        Command::try_parse_from(std::iter::once("selfplay").chain(words.iter().copied()))
            .map(|c| c.args)
    }

    fn parse_str(line: &str) -> Result<Args, clap::Error> {
        parse(&line.split_whitespace().collect::<Vec<_>>())
    }

    fn config(line: &str) -> Config {
        match parse_str(line).map(Args::config) {
            Ok(Ok(c)) => c,
            Ok(Err(e)) => panic!("{line}: {e}"),
            Err(e) => panic!("{line}: {e}"),
        }
    }

    fn error_kind(line: &str) -> Option<ErrorKind> {
        parse_str(line).err().map(|e| e.kind())
    }

    #[test]
    fn defaults_are_chess960_at_5000_nodes() {
        let c = config("--games 3");
        assert_eq!(c.games, 3);
        assert_eq!(c.limit.nodes, Some(DEFAULT_NODES));
        assert_eq!(c.variant, Variant::Chess960);
        assert_eq!(
            c.players,
            vec![PlayerSettings::new(DEFAULT_HASH_MB).unwrap()]
        );
        assert!(!c.pairs && c.seed.is_none() && c.pgn.is_none() && c.concurrency >= 1);
        assert_eq!(c.adjudication, AdjudicationRules::default());
        assert_eq!((c.random_plies, c.opening_bound), (0, 200));
    }

    #[test]
    fn every_option_is_read() {
        let c = config(
            "--games 10 --depth 6 --tc 40/60+0.5 --variant dfrc --openings o.epd --random-plies 8 \
             --opening-bound 150 --pairs --concurrency 3 --hash 8 --seed 42 --pgn g.pgn --data d.txt \
             --resign-score 700 --resign-moves 4 --draw-score 5 --draw-moves 6 --draw-after 30",
        );
        assert_eq!((c.limit.depth, c.limit.nodes), (Some(6), None));
        assert_eq!(c.limit.clock, TimeControl::parse("40/60+0.5"));
        assert_eq!(c.variant, Variant::Dfrc);
        assert_eq!(c.openings, Some(PathBuf::from("o.epd")));
        assert_eq!((c.random_plies, c.opening_bound, c.pairs), (8, 150, true));
        assert_eq!((c.concurrency, c.seed), (3, Some(42)));
        assert_eq!(c.players, vec![PlayerSettings::new(8).unwrap()]);
        assert_eq!(c.pgn, Some(PathBuf::from("g.pgn")));
        assert_eq!(c.data, Some(PathBuf::from("d.txt")));
        assert_eq!(
            c.adjudication,
            AdjudicationRules {
                resign_score: 700,
                resign_moves: 4,
                draw_score: 5,
                draw_moves: 6,
                draw_after: 30
            }
        );
        let c = config("--movetime 50 --games 1 --nodes 9");
        assert_eq!(
            (c.limit.move_time, c.limit.nodes),
            (Some(Duration::from_millis(50)), Some(9))
        );
    }

    #[test]
    fn compare_takes_two_sets_and_plays_pairs() {
        let args = parse(&["--games", "4", "--hash", "4", "--compare", "", "Hash=64"]).unwrap();
        let c = args.config().unwrap();
        let shown: Vec<String> = c.players.iter().map(|p| p.to_string()).collect();
        let expected: Vec<String> = [
            PlayerSettings::new(4).unwrap(),
            PlayerSettings::parse("Hash=64", &PlayerSettings::new(4).unwrap()).unwrap(),
        ]
        .iter()
        .map(|p| p.to_string())
        .collect();
        assert_eq!(shown, expected);
        assert!(c.pairs);
        assert_eq!(c.sprt, None);
        assert!(matches!(
            parse_str("--games 4 --compare Hash=1 Foo=2").map(Args::config),
            Ok(Err(ArgError::PlayerSettings(
                "B",
                SettingsError::Refused(_)
            )))
        ));
        assert_eq!(
            error_kind("--games 4 --compare Hash=1"),
            Some(ErrorKind::WrongNumberOfValues)
        );
    }

    #[test]
    fn sprt_needs_a_comparison_and_ordered_bounds() {
        let c = config("--games 100 --compare Hash=1 Hash=2 --sprt -1.5 3");
        assert_eq!(c.sprt, Some(Sprt::new(-1.5, 3.0)));
        assert_eq!(
            error_kind("--games 4 --sprt 0 10"),
            Some(ErrorKind::MissingRequiredArgument)
        );
        assert_eq!(
            parse_str("--games 4 --compare Hash=1 Hash=2 --sprt 10 0")
                .map(Args::config)
                .unwrap(),
            Err(ArgError::SprtBounds)
        );
        assert_eq!(
            error_kind("--games 4 --compare Hash=1 Hash=2 --sprt 0 x"),
            Some(ErrorKind::ValueValidation)
        );
        assert_eq!(
            error_kind("--games 4 --compare Hash=1 Hash=2 --sprt 0"),
            Some(ErrorKind::WrongNumberOfValues)
        );
    }

    #[test]
    fn a_test_continues_from_its_printed_counts() {
        let c =
            config("--games 100 --compare Hash=1 Hash=2 --sprt 0 10 --sprt-prior 11,55,89,78,36");
        let sprt = c.sprt.unwrap();
        assert_eq!(sprt.prior.counts, [11, 55, 89, 78, 36]);
        assert_eq!((sprt.elo0, sprt.elo1), (0.0, 10.0));
        assert_eq!(
            error_kind("--games 4 --compare Hash=1 Hash=2 --sprt-prior 1,2,3,4,5"),
            Some(ErrorKind::MissingRequiredArgument)
        );
        for wrong in ["1,2,3,4", "1,2,3,4,5,6"] {
            assert_eq!(
                parse_str(&format!(
                    "--games 4 --compare Hash=1 Hash=2 --sprt 0 10 --sprt-prior {wrong}"
                ))
                .map(Args::config)
                .unwrap(),
                Err(ArgError::SprtPrior),
                "{wrong}"
            );
        }
        assert_eq!(
            error_kind("--games 4 --compare Hash=1 Hash=2 --sprt 0 10 --sprt-prior 1,2,x,4,5"),
            Some(ErrorKind::ValueValidation)
        );
    }

    #[test]
    fn bad_command_lines_say_what_is_wrong() {
        assert_eq!(error_kind("--help --games x"), Some(ErrorKind::DisplayHelp));
        assert_eq!(
            error_kind("--nodes 5"),
            Some(ErrorKind::MissingRequiredArgument)
        );
        assert_eq!(error_kind("--games"), Some(ErrorKind::InvalidValue));
        assert_eq!(
            error_kind("--games 2 --frob"),
            Some(ErrorKind::UnknownArgument)
        );
        assert_eq!(error_kind("--games -1"), Some(ErrorKind::UnknownArgument));
        for bad in [
            "--games 0",
            "--games 2 --depth 0",
            "--games 2 --tc 1+x",
            "--games 2 --variant atomic",
            "--games 2 --concurrency 0",
            "--games 2 --hash 0",
        ] {
            assert_eq!(error_kind(bad), Some(ErrorKind::ValueValidation), "{bad}");
        }
        assert_eq!(
            parse_str("--games 3 --pairs").map(Args::config).unwrap(),
            Err(ArgError::OddGames)
        );
        assert_eq!(
            error_kind("--games 2 --movetime 5 --tc 1+0"),
            Some(ErrorKind::ArgumentConflict)
        );
        let e = parse_str("--games 2 --tc 1+x").unwrap_err().to_string();
        assert!(
            e.contains("'1+x'") && e.contains("expected [moves/]seconds[+increment]"),
            "{e}"
        );
    }
}
