//! Where games start: random Chess960 or Double Fischer Random start
//! positions, the classical start, or the openings of an EPD or PGN file;
//! then, when asked, a few random plies.

use chess::openings::{random_plies, Variant};
use chess::{Board, Move, Position};
use chessio::castling::castling_is_classical;
use chessio::epd::{self, EpdError};
use chessio::pgn::{self, GameError};
use rand::Rng;
use std::fmt;
use std::path::{Path, PathBuf};

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
    Epd(EpdError),
    Pgn(GameError),
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningError::Read(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            OpeningError::Empty(path) => write!(f, "{} holds no opening", path.display()),
            OpeningError::Epd(e) => write!(f, "{e}"),
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
            read_pgn(&text, variant)?
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
        Opening {
            start: variant.random_start(rng),
            moves: Vec::new(),
            chess960: variant != Variant::Classical,
        }
    }
}

/// `opening` followed by `plies` uniformly random legal moves; `None` when
/// the game ends on the way.
pub fn with_random_plies(opening: &Opening, plies: u32, rng: &mut impl Rng) -> Option<Opening> {
    let added = random_plies(&opening.position(), plies, rng)?;
    Some(Opening {
        start: opening.start.clone(),
        moves: opening.moves.iter().copied().chain(added).collect(),
        chess960: opening.chess960,
    })
}

/// The games of a PGN file: their start positions and main lines. The
/// first game that does not read stops the run.
fn read_pgn(text: &str, variant: Variant) -> Result<Vec<Opening>, OpeningError> {
    pgn::read(text)
        .into_iter()
        .map(|game| {
            let game = game.map_err(OpeningError::Pgn)?;
            Ok(Opening {
                chess960: variant != Variant::Classical || game.chess960,
                start: game.start,
                moves: game.moves,
            })
        })
        .collect()
}

/// EPD or FEN lines, one opening each.
fn read_epd(text: &str, variant: Variant) -> Result<Vec<Opening>, OpeningError> {
    let boards = epd::read(text).map_err(OpeningError::Epd)?;
    Ok(boards
        .into_iter()
        .map(|start| Opening {
            chess960: variant != Variant::Classical || !castling_is_classical(&start),
            start,
            moves: Vec::new(),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::chess960;
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
            Err(OpeningError::Epd(EpdError { line: 1, .. })) => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn pgn_games_are_openings_and_a_bad_one_is_named() {
        let text = r#"[Event "a \"quoted\" name"]
[Variant "Chess960"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]

1. e4 {a comment (with parenthesis} e5 (1... c5 2. Nf3 (2. c3) d6) 2.Nd3 $1 ; to the end
Nc6! *

[Event "second"]
1. d4 d5 2. c4 1/2-1/2
"#;
        let o = read_pgn(text, Variant::Classical).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!((o[0].moves.len(), o[1].moves.len()), (4, 3));
        assert!(o[0].chess960 && !o[1].chess960);
        assert!(read_pgn("1. d4 *", Variant::Chess960).unwrap()[0].chess960);
        match read_pgn("1. e4 e5 *\n1. e4 e5 2. Nf3 Kc9 *", Variant::Classical) {
            Err(OpeningError::Pgn(e)) => assert_eq!(e.game, 2, "{e}"),
            other => panic!("{other:?}"),
        }
    }
}
