//! Where games start: random Chess960 or Double Fischer Random start
//! positions, the classical start, or the openings of an EPD or PGN file;
//! then, when asked, a few random plies.

use super::pgn_read::{self, PgnError};
use movegen::{chess960, Board, FenError, Move, Position};
use rand::Rng;
use std::fmt;
use std::path::{Path, PathBuf};
use uci::castling::castling_is_classical;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Chess960,
    Dfrc,
    Classical,
}

impl Variant {
    pub fn parse(name: &str) -> Option<Variant> {
        match name.to_ascii_lowercase().as_str() {
            "chess960" | "960" | "frc" => Some(Variant::Chess960),
            "dfrc" => Some(Variant::Dfrc),
            "classical" | "standard" => Some(Variant::Classical),
            _ => None,
        }
    }
}

/// A game's first position and the moves made before the engines take over.
#[derive(Clone, Debug)]
pub struct Opening {
    pub start: Board,
    pub moves: Vec<Move>,
    /// Whether readers need the Chess960 castling rules for this game.
    pub chess960: bool,
}

impl Opening {
    /// The game the engines take up, with the opening's moves made.
    pub fn game(&self) -> Position {
        let mut game = Position::new(self.start.clone());
        for &m in &self.moves {
            game.make_move(m);
        }
        game
    }

    /// The position the engines start from.
    pub fn position(&self) -> Board {
        self.game().board().clone()
    }
}

#[derive(Debug)]
pub enum OpeningError {
    Read(PathBuf, std::io::Error),
    Empty(PathBuf),
    Fen { line: usize, error: FenError },
    Pgn(PgnError),
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningError::Read(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            OpeningError::Empty(path) => write!(f, "{} holds no opening", path.display()),
            OpeningError::Fen { line, error } => write!(f, "line {line}: {error}"),
            OpeningError::Pgn(e) => write!(f, "{e}"),
        }
    }
}

pub enum Source {
    Random(Variant),
    /// Used in order, starting over after the last.
    Book(Vec<Opening>),
}

impl Source {
    /// A `.pgn` file is read as games; any other file as EPD or FEN lines.
    pub fn new(variant: Variant, file: Option<&Path>) -> Result<Source, OpeningError> {
        let Some(path) = file else {
            return Ok(Source::Random(variant));
        };
        let text =
            std::fs::read_to_string(path).map_err(|e| OpeningError::Read(path.to_path_buf(), e))?;
        let is_pgn = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
        let openings = if is_pgn {
            pgn_read::read(&text, variant).map_err(OpeningError::Pgn)?
        } else {
            read_epd(&text, variant)?
        };
        if openings.is_empty() {
            return Err(OpeningError::Empty(path.to_path_buf()));
        }
        Ok(Source::Book(openings))
    }

    /// Opening number `index`, drawing from `rng` where it is random.
    pub fn opening(&self, index: u64, rng: &mut impl Rng) -> Opening {
        let variant = match self {
            Source::Book(openings) => {
                return openings[(index % openings.len() as u64) as usize].clone()
            }
            Source::Random(variant) => *variant,
        };
        let start = match variant {
            Variant::Chess960 => chess960::start_position(rng.gen_range(0..960)),
            Variant::Dfrc => {
                chess960::double_start_position(rng.gen_range(0..960), rng.gen_range(0..960))
            }
            Variant::Classical => Ok(Board::startpos()),
        };
        Opening {
            // Numbers drawn from 0..960 are always valid start numbers.
            start: start.unwrap_or_else(|_| Board::startpos()),
            moves: Vec::new(),
            chess960: variant != Variant::Classical,
        }
    }
}

/// `opening` followed by `plies` uniformly random legal moves; `None` when
/// the game ends on the way.
pub fn with_random_plies(opening: &Opening, plies: u32, rng: &mut impl Rng) -> Option<Opening> {
    let mut board = opening.position();
    let mut moves = opening.moves.clone();
    for _ in 0..plies {
        let legal = board.legal_moves();
        if legal.is_empty() {
            return None;
        }
        let m = legal.as_slice()[rng.gen_range(0..legal.len())];
        board.make_move(m);
        moves.push(m);
    }
    board.has_legal_move().then(|| Opening {
        start: opening.start.clone(),
        moves,
        chess960: opening.chess960,
    })
}

/// EPD or FEN lines: the first four fields, and the move counters when the
/// fifth and sixth are numbers. Blank lines and `#` comments are skipped.
fn read_epd(text: &str, variant: Variant) -> Result<Vec<Opening>, OpeningError> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let counters = match fields.get(4..6) {
            Some([h, f]) if h.parse::<u16>().is_ok() && f.parse::<u16>().is_ok() => {
                format!("{h} {f}")
            }
            _ => "0 1".to_string(),
        };
        let position = fields.get(..4).unwrap_or(&fields).join(" ");
        let start = Board::from_fen(&format!("{position} {counters}"))
            .map_err(|error| OpeningError::Fen { line: i + 1, error })?;
        openings.push(Opening {
            chess960: variant != Variant::Classical || !castling_is_classical(&start),
            start,
            moves: Vec::new(),
        });
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn random_sources_give_start_positions_of_their_variant() {
        let mut rng = StdRng::seed_from_u64(1);
        let mut numbers = std::collections::HashSet::new();
        for i in 0..50 {
            let o = Source::Random(Variant::Chess960).opening(i, &mut rng);
            numbers.insert(o.start.chess960_number().unwrap());
            assert!(o.chess960 && o.moves.is_empty());
            let d = Source::Random(Variant::Dfrc).opening(i, &mut rng);
            assert!(d.start.double_chess960_numbers().is_some() && d.chess960);
        }
        assert!(numbers.len() > 40, "{numbers:?}");
        let c = Source::Random(Variant::Classical).opening(0, &mut rng);
        assert_eq!(c.start.key(), Board::startpos().key());
        assert!(!c.chess960);
    }

    #[test]
    fn random_plies_are_legal_and_repeat_with_the_seed() {
        let base = Source::Random(Variant::Classical).opening(0, &mut StdRng::seed_from_u64(0));
        let a = with_random_plies(&base, 8, &mut StdRng::seed_from_u64(7)).unwrap();
        let b = with_random_plies(&base, 8, &mut StdRng::seed_from_u64(7)).unwrap();
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.moves.len(), 8);
        assert_eq!(a.position().fullmove_number(), 5);
        // Fool's mate position: White is mated, no ply can follow.
        let mated = Opening {
            start: Board::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
                .unwrap(),
            moves: Vec::new(),
            chess960: false,
        };
        assert!(with_random_plies(&mated, 0, &mut StdRng::seed_from_u64(0)).is_none());
    }

    #[test]
    fn classical_castling_is_told_apart() {
        assert!(castling_is_classical(&Board::startpos()));
        assert!(castling_is_classical(
            &chess960::start_position(518).unwrap()
        ));
        assert!(!castling_is_classical(
            &chess960::start_position(0).unwrap()
        ));
        let no_rights = Board::from_fen("4k3/8/8/8/8/8/8/R5KR w - - 0 1").unwrap();
        assert!(castling_is_classical(&no_rights));
    }

    #[test]
    fn epd_lines_are_read_and_bad_ones_named() {
        let text = "# openings\n\
                    bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - id \"960\";\n\
                    \n\
                    rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n";
        let o = read_epd(text, Variant::Classical).unwrap();
        assert_eq!(o.len(), 2);
        assert!(o[0].chess960 && !o[1].chess960);
        assert_eq!(o[0].start.fullmove_number(), 1);
        match read_epd("8/8/8/8/8/8/8/8 w - -\n", Variant::Chess960) {
            Err(OpeningError::Fen { line: 1, .. }) => {}
            other => panic!("{other:?}"),
        }
    }
}
