//! The `hoeven selfplay` command line.

use super::adjudication::AdjudicationRules;
use super::clock::TimeControl;
use super::limits::{MoveLimit, DEFAULT_NODES};
use super::openings::Variant;
use super::settings::{Settings, SettingsError};
use super::sprt::Sprt;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;
use uci::options::DEFAULT_HASH_MB;

pub const HELP: &str = "\
usage: hoeven selfplay --games N [options]

Plays Hoeven against itself inside this process, several games at once, and
writes the games as PGN and their positions as training data.

Limits per move (they combine, the first reached ends the search;
default --nodes 5000):
  --nodes N             soft node limit: the iteration under way stops at N nodes
  --depth N             depth per move
  --movetime MS         milliseconds per move
  --tc SPEC             a clock per game: 10+0.1 (seconds + increment), 60,
                        40/60 (moves per period / seconds) or 40/60+0.5; the
                        engine plans its time as in a UCI game, and a side
                        whose clock runs out loses

Openings:
  --variant V           chess960 (default): random start positions by Scharnagl
                        number; dfrc: random, separate White and Black back
                        ranks; classical: the standard start position
  --openings FILE       openings from FILE instead, in order, repeated when
                        used up: a .pgn file (its [FEN], [Variant] and main
                        line moves), or any other file as EPD/FEN, one a line
  --random-plies N      N uniformly random plies after each opening (default 0)
  --opening-bound CP    an opening whose score after its random plies is
                        beyond CP centipawns is drawn again (default 200); the
                        check searches as a move does, or 5000 nodes under
                        --movetime and --tc
  --pairs               play each opening twice, colours swapped; needs an
                        even --games

Adjudication (checkmate, stalemate, threefold repetition, the fifty-move
rule and insufficient material always end a game):
  --resign-score CP     a side loses when both sides' scores agree it is CP or
  --resign-moves N      more behind for N moves in a row (600, 3; 0: never)
  --draw-score CP       a draw, from move --draw-after on, when both sides'
  --draw-moves N        scores stay within CP of zero for N moves in a row
  --draw-after N        (10, 8, 40; 0 moves: never)

Running:
  --games N             games to play (required)
  --concurrency N       games at once, one thread each (default: the cores)
  --hash MB             hash table per engine (default 16)
  --seed S              seed of the openings and random plies (default: drawn,
                        and printed). Under --nodes or --depth the same seed
                        gives the same games; with --concurrency 1 also in
                        the same order
  --compare A B         pit two option sets against each other, for example
                        \"EvalFile=new.nnue\" \"EvalFile=old.nnue\" or
                        \"Hash=16\" \"Hash=64\": name=value words of any UCI
                        option (values without spaces), over --hash; implies
                        --pairs; the summary gives A's results and the Elo
                        difference A - B with its 95% margin
  --sprt ELO0 ELO1      with --compare: stop as soon as the pentanomial SPRT
                        of A - B decides between ELO0 (H0) and ELO1 (H1)
                        Elo (alpha = beta = 0.05), at the latest after
                        --games; the summary gives the LLR and its bounds

Output (both appended to, never truncated):
  --pgn FILE            the games as PGN, each move with {score/depth}
  --data FILE           training data, one line per quiet position:
                        <X-FEN> | <score, cp> | <result 1.0/0.5/0.0>, score
                        and result from the side to move (see README)
  -h, --help            this text";

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
    pub players: Vec<Settings>,
    pub sprt: Option<Sprt>,
    pub seed: Option<u64>,
    pub pgn: Option<PathBuf>,
    pub data: Option<PathBuf>,
    pub adjudication: AdjudicationRules,
}

pub type Parsed = uci::cli::Parsed<Box<Config>>;

#[derive(Debug, PartialEq)]
pub enum ArgError {
    Unknown(String),
    MissingValue(&'static str),
    BadValue {
        option: &'static str,
        value: String,
        expected: String,
    },
    Settings(&'static str, SettingsError),
    Missing(&'static str),
    Conflict(&'static str),
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgError::Unknown(a) => write!(f, "unknown argument '{a}'"),
            ArgError::MissingValue(o) => write!(f, "{o} needs a value"),
            ArgError::BadValue {
                option,
                value,
                expected,
            } => write!(f, "{option} '{value}': expected {expected}"),
            ArgError::Settings(which, e) => write!(f, "--compare {which}: {e}"),
            ArgError::Missing(o) => write!(f, "{o} is required"),
            ArgError::Conflict(why) => write!(f, "{why}"),
        }
    }
}

/// Most games at once: far more than any machine has cores.
const MAX_CONCURRENCY: usize = 1024;

pub fn parse(args: &[String]) -> Result<Parsed, ArgError> {
    let mut games = None;
    let mut limit = MoveLimit::default();
    let mut variant = Variant::Chess960;
    let mut openings = None;
    let mut random_plies = 0;
    let mut opening_bound = 200;
    let mut pairs = false;
    let mut concurrency = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut hash_mb = DEFAULT_HASH_MB;
    let mut compare = None;
    let mut sprt = None;
    let mut seed = None;
    let mut pgn = None;
    let mut data = None;
    let mut adj = AdjudicationRules::default();

    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut value = |option: &'static str| {
            rest.next()
                .map(String::as_str)
                .ok_or(ArgError::MissingValue(option))
        };
        match arg.as_str() {
            "-h" | "--help" => return Ok(Parsed::Help),
            "--games" => games = Some(number(value("--games")?, "--games", 1..=u64::MAX)?),
            "--nodes" => limit.nodes = Some(number(value("--nodes")?, "--nodes", 1..=u64::MAX)?),
            "--depth" => limit.depth = Some(number(value("--depth")?, "--depth", 1..=127)?),
            "--movetime" => {
                let ms = number(value("--movetime")?, "--movetime", 1..=86_400_000)?;
                limit.move_time = Some(Duration::from_millis(ms));
            }
            "--tc" => {
                let text = value("--tc")?;
                limit.clock = Some(TimeControl::parse(text).ok_or_else(|| ArgError::BadValue {
                    option: "--tc",
                    value: text.to_string(),
                    expected: "[moves/]seconds[+increment], e.g. 10+0.1".into(),
                })?);
            }
            "--variant" => {
                let text = value("--variant")?;
                variant = Variant::parse(text).ok_or_else(|| ArgError::BadValue {
                    option: "--variant",
                    value: text.to_string(),
                    expected: "chess960, dfrc or classical".into(),
                })?;
            }
            "--openings" => openings = Some(PathBuf::from(value("--openings")?)),
            "--random-plies" => {
                random_plies = number(value("--random-plies")?, "--random-plies", 0..=200)?
            }
            "--opening-bound" => {
                opening_bound = number(value("--opening-bound")?, "--opening-bound", 0..=30_000)?
            }
            "--pairs" => pairs = true,
            "--concurrency" => {
                concurrency = number(
                    value("--concurrency")?,
                    "--concurrency",
                    1..=MAX_CONCURRENCY,
                )?;
            }
            "--hash" => {
                hash_mb = number(value("--hash")?, "--hash", 1..=uci::options::MAX_HASH_MB)?
            }
            "--seed" => seed = Some(number(value("--seed")?, "--seed", 0..=u64::MAX)?),
            "--pgn" => pgn = Some(PathBuf::from(value("--pgn")?)),
            "--data" => data = Some(PathBuf::from(value("--data")?)),
            "--compare" => {
                let a = value("--compare")?.to_string();
                let b = rest
                    .next()
                    .ok_or(ArgError::MissingValue("--compare (two option sets)"))?;
                compare = Some((a, b.clone()));
            }
            "--sprt" => {
                let elo = |text: &str| {
                    text.parse::<f64>()
                        .ok()
                        .filter(|e| e.is_finite())
                        .ok_or_else(|| ArgError::BadValue {
                            option: "--sprt",
                            value: text.to_string(),
                            expected: "two Elo differences, ELO0 below ELO1".into(),
                        })
                };
                let elo0 = elo(value("--sprt")?)?;
                let elo1 = elo(rest
                    .next()
                    .ok_or(ArgError::MissingValue("--sprt (ELO0 and ELO1)"))?)?;
                if elo0 >= elo1 {
                    return Err(ArgError::Conflict("--sprt needs ELO0 below ELO1"));
                }
                sprt = Some(Sprt { elo0, elo1 });
            }
            "--resign-score" => {
                adj.resign_score = number(value("--resign-score")?, "--resign-score", 1..=32_000)?
            }
            "--resign-moves" => {
                adj.resign_moves = number(value("--resign-moves")?, "--resign-moves", 0..=1_000)?
            }
            "--draw-score" => {
                adj.draw_score = number(value("--draw-score")?, "--draw-score", 0..=32_000)?
            }
            "--draw-moves" => {
                adj.draw_moves = number(value("--draw-moves")?, "--draw-moves", 0..=1_000)?
            }
            "--draw-after" => {
                adj.draw_after = number(value("--draw-after")?, "--draw-after", 0..=10_000)?
            }
            other => return Err(ArgError::Unknown(other.to_string())),
        }
    }

    let games = games.ok_or(ArgError::Missing("--games"))?;
    if limit.move_time.is_some() && limit.clock.is_some() {
        return Err(ArgError::Conflict(
            "--movetime and --tc cannot be combined: choose one way to spend time",
        ));
    }
    if limit == MoveLimit::default() {
        limit.nodes = Some(DEFAULT_NODES);
    }
    let base = Settings::new(hash_mb);
    let players = match compare.clone() {
        None => vec![base],
        Some((a, b)) => {
            // Each setting must play both colours of every opening.
            pairs = true;
            vec![
                Settings::parse(&a, &base).map_err(|e| ArgError::Settings("A", e))?,
                Settings::parse(&b, &base).map_err(|e| ArgError::Settings("B", e))?,
            ]
        }
    };
    if sprt.is_some() && compare.is_none() {
        return Err(ArgError::Conflict(
            "--sprt tests a comparison: it needs --compare",
        ));
    }
    if pairs && games % 2 == 1 {
        return Err(ArgError::Conflict(
            "with --pairs or --compare, --games must be even",
        ));
    }
    Ok(Parsed::Run(Box::new(Config {
        games,
        limit,
        variant,
        openings,
        random_plies,
        opening_bound,
        pairs,
        concurrency,
        players,
        sprt,
        seed,
        pgn,
        data,
        adjudication: adj,
    })))
}

fn number<T>(
    text: &str,
    option: &'static str,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, ArgError>
where
    T: FromStr + PartialOrd + fmt::Display,
{
    text.parse::<T>()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| ArgError::BadValue {
            option,
            value: text.to_string(),
            expected: format!("a whole number from {} to {}", range.start(), range.end()),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(line: &str) -> Result<Parsed, ArgError> {
        parse(&words(line))
    }

    fn config(line: &str) -> Config {
        match parse(&words(line)) {
            Ok(Parsed::Run(c)) => *c,
            other => panic!("{line}: {other:?}"),
        }
    }

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn defaults_are_chess960_at_5000_nodes() {
        let c = config("--games 3");
        assert_eq!(c.games, 3);
        assert_eq!(c.limit.nodes, Some(DEFAULT_NODES));
        assert_eq!(c.variant, Variant::Chess960);
        assert_eq!(c.players, vec![Settings::new(DEFAULT_HASH_MB)]);
        assert!(!c.pairs && c.seed.is_none() && c.pgn.is_none() && c.concurrency >= 1);
        assert_eq!(c.adjudication, AdjudicationRules::default());
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
        assert_eq!(c.players, vec![Settings::new(8)]);
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
        let args: Vec<String> = ["--games", "4", "--hash", "4", "--compare", "", "Hash=64"]
            .map(String::from)
            .to_vec();
        let Ok(Parsed::Run(c)) = parse(&args) else {
            panic!()
        };
        let names: Vec<String> = c.players.iter().map(|s| s.to_string()).collect();
        assert_eq!(names, ["Hash=4", "Hash=64"]);
        assert!(c.pairs);
        assert_eq!(c.sprt, None);
        assert!(matches!(
            parse_str("--games 4 --compare Hash=1 Foo=2"),
            Err(ArgError::Settings("B", SettingsError::Refused(_)))
        ));
        assert_eq!(
            parse_str("--games 4 --compare Hash=1"),
            Err(ArgError::MissingValue("--compare (two option sets)"))
        );
    }

    #[test]
    fn sprt_needs_a_comparison_and_ordered_bounds() {
        let c = config("--games 100 --compare Hash=1 Hash=2 --sprt -1.5 3");
        assert_eq!(
            c.sprt,
            Some(Sprt {
                elo0: -1.5,
                elo1: 3.0
            })
        );
        assert!(matches!(
            parse_str("--games 4 --sprt 0 10"),
            Err(ArgError::Conflict(_))
        ));
        assert!(matches!(
            parse_str("--games 4 --compare Hash=1 Hash=2 --sprt 10 0"),
            Err(ArgError::Conflict(_))
        ));
        assert!(matches!(
            parse_str("--games 4 --compare Hash=1 Hash=2 --sprt 0 x"),
            Err(ArgError::BadValue { .. })
        ));
        assert_eq!(
            parse_str("--games 4 --compare Hash=1 Hash=2 --sprt 0"),
            Err(ArgError::MissingValue("--sprt (ELO0 and ELO1)"))
        );
    }

    #[test]
    fn bad_command_lines_say_what_is_wrong() {
        assert_eq!(parse_str("--help --games x"), Ok(Parsed::Help));
        assert_eq!(parse_str("--nodes 5"), Err(ArgError::Missing("--games")));
        assert_eq!(parse_str("--games"), Err(ArgError::MissingValue("--games")));
        assert_eq!(
            parse_str("--games 2 --frob"),
            Err(ArgError::Unknown("--frob".into()))
        );
        for bad in [
            "--games 0",
            "--games -1",
            "--games 2 --depth 0",
            "--games 2 --tc 1+x",
            "--games 2 --variant atomic",
            "--games 2 --concurrency 0",
            "--games 2 --hash 0",
        ] {
            assert!(
                matches!(parse_str(bad), Err(ArgError::BadValue { .. })),
                "{bad}"
            );
        }
        assert!(matches!(
            parse_str("--games 3 --pairs"),
            Err(ArgError::Conflict(_))
        ));
        assert!(matches!(
            parse_str("--games 2 --movetime 5 --tc 1+0"),
            Err(ArgError::Conflict(_))
        ));
        let e = parse_str("--games 2 --depth 0").unwrap_err();
        assert_eq!(
            e.to_string(),
            "--depth '0': expected a whole number from 1 to 127"
        );
    }
}
