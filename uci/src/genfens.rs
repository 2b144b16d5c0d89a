//! `genfens`: openings for OpenBench's data generation. OpenBench runs
//! `hoeven "genfens N seed S book <file|None> [extra]" quit` and reads the
//! lines starting `info string genfens `: N distinct positions, the same for
//! the same seed, each a few random plies from a start position (or from a
//! position of the book) and kept only when a short search finds it
//! balanced.
//!
//! The extra words choose the starts and the checks: `chess960` (also `frc`)
//! or `dfrc` for random Chess960 or Double Fischer Random arrays instead of
//! the classical start, `plies N` for the number of random plies, and
//! `bound CP` for the largest score, in centipawns either way, kept.

use chess::openings::{random_plies, Variant};
use chess::{Board, CastlingNotation, Position};
use engine::{Engine, Limits, SearchOptions, SearchRequest};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;
use std::fmt;
use std::path::PathBuf;
use std::time::Instant;

/// Random plies after a start position, where the start is not from a book.
const START_PLIES: u32 = 8;
/// Random plies after a Chess960 or DFRC array, already a varied start.
const ARRAY_PLIES: u32 = 4;
/// Random plies after a book position.
const BOOK_PLIES: u32 = 2;
/// Largest score, in centipawns either way, of an opening kept.
const DEFAULT_BOUND: i32 = 200;
/// Nodes of the search that checks an opening's balance.
const CHECK_NODES: u64 = 5_000;
/// Candidates drawn per opening asked for before giving up: the book may
/// hold too few distinct positions, or the bound be too narrow.
const DRAWS_PER_OPENING: usize = 200;

/// A `genfens` command read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub count: usize,
    pub seed: u64,
    pub book: Option<PathBuf>,
    pub variant: Variant,
    pub plies: u32,
    pub bound: i32,
}

impl Request {
    /// Reads the words after `genfens`: `N seed S book <file|None> [extra]`.
    pub fn parse(args: &[&str]) -> Result<Request, String> {
        let usage =
            "expected 'genfens N seed S book <file|None> [chess960|dfrc] [plies N] [bound CP]'";
        let (count, seed, book, extra) = match args {
            [n, "seed", s, "book", book, extra @ ..] => (n, s, book, extra),
            _ => return Err(format!("genfens: {usage}")),
        };
        let count = count
            .parse::<usize>()
            .map_err(|_| format!("genfens: '{count}' is not a number of openings"))?;
        let seed = seed
            .parse::<u64>()
            .map_err(|_| format!("genfens: '{seed}' is not a seed"))?;
        let book = (!book.eq_ignore_ascii_case("none")).then(|| PathBuf::from(book));
        let mut variant = Variant::Classical;
        let mut plies = None;
        let mut bound = DEFAULT_BOUND;
        let mut words = extra.iter();
        while let Some(&word) = words.next() {
            let mut number = |what: &str| {
                words
                    .next()
                    .and_then(|v| v.parse::<u32>().ok())
                    .ok_or_else(|| format!("genfens: '{word}' needs a number of {what}"))
            };
            match word.to_ascii_lowercase().as_str() {
                "chess960" | "frc" => variant = Variant::Chess960,
                "dfrc" => variant = Variant::Dfrc,
                "classical" | "standard" => variant = Variant::Classical,
                "plies" => plies = Some(number("plies")?),
                "bound" => bound = number("centipawns")?.min(i32::MAX as u32) as i32,
                _ => return Err(format!("genfens: unknown word '{word}'; {usage}")),
            }
        }
        let plies = plies.unwrap_or(match (&book, variant) {
            (Some(_), _) => BOOK_PLIES,
            (None, Variant::Classical) => START_PLIES,
            (None, _) => ARRAY_PLIES,
        });
        Ok(Request {
            count,
            seed,
            book,
            variant,
            plies,
            bound,
        })
    }
}

#[derive(Debug)]
pub enum GenfensError {
    Book(PathBuf, std::io::Error),
    BookLine(PathBuf, usize, chess::FenError),
    EmptyBook(PathBuf),
    TooFew { wanted: usize, found: usize },
}

impl fmt::Display for GenfensError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenfensError::Book(path, e) => write!(f, "cannot read book {}: {e}", path.display()),
            GenfensError::BookLine(path, line, e) => {
                write!(f, "book {} line {line}: {e}", path.display())
            }
            GenfensError::EmptyBook(path) => write!(f, "book {} holds no position", path.display()),
            GenfensError::TooFew { wanted, found } => write!(
                f,
                "only {found} of {wanted} distinct balanced openings found; \
                 try more plies or a wider bound"
            ),
        }
    }
}

/// The openings `request` asks for, each checked by a search on `engine`.
pub fn generate(request: &Request, engine: &mut Engine) -> Result<Vec<Board>, GenfensError> {
    let book = match &request.book {
        None => Vec::new(),
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| GenfensError::Book(path.clone(), e))?;
            let positions = chessio::epd::read(&text)
                .map_err(|e| GenfensError::BookLine(path.clone(), e.line, e.error))?;
            if positions.is_empty() {
                return Err(GenfensError::EmptyBook(path.clone()));
            }
            positions
        }
    };
    let mut rng = StdRng::seed_from_u64(request.seed);
    let mut seen = HashSet::new();
    let mut openings = Vec::with_capacity(request.count);
    let draws = request.count.saturating_mul(DRAWS_PER_OPENING);
    for _ in 0..draws {
        if openings.len() == request.count {
            break;
        }
        let start = if book.is_empty() {
            request.variant.random_start(&mut rng)
        } else {
            book[rng.gen_range(0..book.len())].clone()
        };
        let Some(moves) = random_plies(&start, request.plies, &mut rng) else {
            continue;
        };
        let mut position = start;
        for m in moves {
            position.make_move(m);
        }
        if !seen.insert(position.to_fen(CastlingNotation::Shredder)) {
            continue;
        }
        let balanced =
            search_score(engine, &position).is_some_and(|score| score.abs() <= request.bound);
        if balanced {
            openings.push(position);
        }
    }
    if openings.len() < request.count {
        return Err(GenfensError::TooFew {
            wanted: request.count,
            found: openings.len(),
        });
    }
    Ok(openings)
}

/// The score, from the side to move, of a short one-thread search on a
/// cleared engine and without the moves before: it depends on the position
/// alone, as the games that start from its FEN will, so the same seed gives
/// the same openings whatever was searched before.
fn search_score(engine: &mut Engine, root: &Board) -> Option<i32> {
    engine.clear();
    let result = engine.search(SearchRequest {
        position: Position::new(root.clone()),
        limits: Limits {
            nodes: Some(CHECK_NODES),
            ..Limits::default()
        },
        options: SearchOptions::default(),
        start: Instant::now(),
    });
    result.lines.first().map(|line| line.score)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(line: &str) -> Request {
        let words: Vec<&str> = line.split_whitespace().collect();
        Request::parse(&words).unwrap()
    }

    #[test]
    fn the_command_is_read_with_its_defaults_and_extras() {
        let r = request("10 seed 42 book None");
        assert_eq!(
            (r.count, r.seed, r.book.clone(), r.variant, r.plies, r.bound),
            (10, 42, None, Variant::Classical, START_PLIES, DEFAULT_BOUND)
        );
        let r = request("3 seed 1 book None dfrc bound 50");
        assert_eq!(
            (r.variant, r.plies, r.bound),
            (Variant::Dfrc, ARRAY_PLIES, 50)
        );
        let r = request("3 seed 1 book books/x.epd chess960 plies 0");
        assert_eq!(r.book, Some(PathBuf::from("books/x.epd")));
        assert_eq!((r.variant, r.plies), (Variant::Chess960, 0));
        assert_eq!(request("3 seed 1 book b.epd").plies, BOOK_PLIES);
        for bad in [
            "",
            "x seed 1 book None",
            "3 seed -1 book None",
            "3 book None seed 1",
            "3 seed 1 book None plies",
            "3 seed 1 book None atomic",
        ] {
            let words: Vec<&str> = bad.split_whitespace().collect();
            assert!(Request::parse(&words).is_err(), "{bad}");
        }
    }

    #[test]
    fn openings_are_distinct_balanced_and_repeat_with_the_seed() {
        let mut engine = Engine::new(1).unwrap();
        for variant in ["", "chess960", "dfrc"] {
            let r = request(&format!("12 seed 7 book None {variant} bound 120"));
            let a = generate(&r, &mut engine).unwrap();
            let b = generate(&r, &mut engine).unwrap();
            let fens = |v: &[Board]| -> Vec<String> {
                v.iter().map(|b| b.to_fen(CastlingNotation::XFen)).collect()
            };
            assert_eq!(fens(&a), fens(&b), "{variant}");
            assert_eq!(a.len(), 12);
            let distinct: HashSet<String> = fens(&a).into_iter().collect();
            assert_eq!(distinct.len(), 12, "{variant}");
            for board in &a {
                assert!(board.has_legal_move());
                let score = search_score(&mut engine, board).unwrap();
                assert!(score.abs() <= 120, "{variant}: {score}");
            }
            let other = generate(
                &request(&format!("12 seed 8 book None {variant}")),
                &mut engine,
            );
            assert_ne!(fens(&a), fens(&other.unwrap()), "{variant}");
        }
    }

    #[test]
    fn the_variant_decides_the_starts() {
        let mut engine = Engine::new(1).unwrap();
        let dfrc = generate(&request("6 seed 3 book None dfrc plies 0"), &mut engine).unwrap();
        assert!(dfrc.iter().all(|b| b.double_chess960_numbers().is_some()));
        assert!(dfrc.iter().any(|b| b.chess960_number().is_none()));
        let c960 = generate(&request("6 seed 3 book None chess960 plies 0"), &mut engine).unwrap();
        assert!(c960.iter().all(|b| b.chess960_number().is_some()));
        let classical = generate(&request("6 seed 3 book None plies 2"), &mut engine).unwrap();
        assert!(classical.iter().all(|b| b.fullmove_number() == 2));
    }

    #[test]
    fn book_positions_are_used_and_bad_books_reported() {
        let dir = std::env::temp_dir().join(format!("hoeven-genfens-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let book = dir.join("book.epd");
        std::fs::write(
            &book,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n\
             rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n",
        )
        .unwrap();
        let mut engine = Engine::new(1).unwrap();
        let line = format!("5 seed 1 book {} plies 1", book.display());
        let openings = generate(&request(&line), &mut engine).unwrap();
        // One black reply after 1.e4 or 1.d4: White to move, a pawn on e4 or d4.
        for b in &openings {
            let fen = b.to_fen(CastlingNotation::XFen);
            assert!(
                fen.contains(" w ") && (fen.contains("4P3") || fen.contains("3P4")),
                "{fen}"
            );
        }
        // Two book positions and no plies: only two distinct openings exist.
        let line = format!("3 seed 1 book {} plies 0", book.display());
        assert!(matches!(
            generate(&request(&line), &mut engine),
            Err(GenfensError::TooFew {
                wanted: 3,
                found: 2
            })
        ));
        let missing = format!("3 seed 1 book {}", dir.join("missing.epd").display());
        assert!(matches!(
            generate(&request(&missing), &mut engine),
            Err(GenfensError::Book(..))
        ));
        std::fs::write(&book, "not a fen\n").unwrap();
        let bad = format!("3 seed 1 book {}", book.display());
        assert!(matches!(
            generate(&request(&bad), &mut engine),
            Err(GenfensError::BookLine(_, 1, _))
        ));
        std::fs::write(&book, "# nothing\n").unwrap();
        assert!(matches!(
            generate(&request(&bad), &mut engine),
            Err(GenfensError::EmptyBook(_))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
