//! Reads the games of a PGN file: their tags, start position, main line
//! and the comment after each main-line move. NAGs and variations are
//! passed over. A game that does not
//! parse, or holds an illegal move, comes back as an error naming its game
//! number, line and move; the games around it are read as usual.

use super::lexer::{Lexer, Token};
use crate::castling::castling_is_classical;
use chess::{Board, Color, DroppedCastlingRight, FenError, Move, SanError};
use std::fmt;

/// One game of a PGN file: what the analysis and the opening books need.
#[derive(Clone, Debug)]
pub struct PgnGame {
    /// 1-based position of the game in its file, broken games counted.
    pub number: usize,
    /// Every tag, in file order.
    pub tags: Vec<(String, String)>,
    pub start: Board,
    /// Whether the game needs Chess960 castling rules: its `Variant` tag
    /// says so, or its start position castles with other than the outer
    /// rooks and an e-file king.
    pub chess960: bool,
    pub moves: Vec<Move>,
    /// The `{...}` comment after each move of `moves` (empty where there is
    /// none; several in a row joined by a space), where match runners write
    /// the mover's score: `{+0.35/12 0.512s}`.
    pub comments: Vec<String>,
    /// The game's termination marker, else its `Result` tag, else `*`.
    pub result: String,
    /// Castling rights of the `FEN` tag that no king and rook support.
    pub dropped_castling: Vec<DroppedCastlingRight>,
}

impl PgnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError {
    pub game: usize,
    pub line: usize,
    pub kind: ErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    BadTag(String),
    Fen {
        fen: String,
        error: FenError,
    },
    Variant(String),
    /// The move as a reader would look for it (`5... Kc9`), and why.
    Move {
        text: String,
        error: SanError,
    },
    /// A `)` that closes no variation.
    StrayClose,
    /// A `{` comment without its `}`.
    UnterminatedComment,
    /// A `(` variation without its `)` when the game ended.
    UnclosedVariation,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}, line {}: ", self.game, self.line)?;
        match &self.kind {
            ErrorKind::BadTag(text) => write!(f, "'{text}' is not a tag [Name \"value\"]"),
            ErrorKind::Fen { fen, error } => write!(f, "FEN \"{fen}\": {error}"),
            ErrorKind::Variant(v) => write!(
                f,
                "variant \"{v}\" is not one Hoeven plays (standard chess or Chess960)"
            ),
            ErrorKind::Move { text, error } => write!(f, "move {text}: {error}"),
            ErrorKind::StrayClose => write!(f, "')' closes no variation"),
            ErrorKind::UnterminatedComment => write!(f, "comment '{{' has no closing '}}'"),
            ErrorKind::UnclosedVariation => write!(f, "variation '(' has no closing ')'"),
        }
    }
}

impl std::error::Error for GameError {}

/// Every game of `text`, in order, read or refused.
pub fn read(text: &str) -> Vec<Result<PgnGame, GameError>> {
    let mut games = Vec::new();
    let mut current: Option<Builder> = None;
    for lexed in Lexer::new(text) {
        let line = lexed.line;
        // A tag after movetext, or movetext after a result, starts a game.
        let starts_game = match &lexed.token {
            Token::Tag { .. } | Token::BadTag(_) => current
                .as_ref()
                .is_some_and(|g| g.started.is_some() || g.finished),
            // A comment after the result still belongs to its game.
            Token::Comment(_) => false,
            _ => current.as_ref().is_some_and(|g| g.finished),
        };
        if starts_game {
            games.extend(current.take().map(Builder::finish));
        }
        let game = current.get_or_insert_with(|| Builder::new(games.len() + 1));
        match lexed.token {
            Token::Tag { name, value } => game.tags.push((name.to_string(), value, line)),
            Token::BadTag(text) => game.fail(line, ErrorKind::BadTag(text.to_string())),
            Token::UnterminatedComment => game.fail(line, ErrorKind::UnterminatedComment),
            Token::Comment(text) => game.comment(text),
            Token::Open => {
                game.begin_movetext();
                game.variations.push(line);
            }
            Token::Close => {
                game.begin_movetext();
                if game.variations.pop().is_none() {
                    game.fail(line, ErrorKind::StrayClose);
                }
            }
            Token::Nag => game.begin_movetext(),
            Token::Symbol(symbol) => {
                game.begin_movetext();
                game.symbol(symbol, line);
            }
        }
    }
    games.extend(current.map(Builder::finish));
    games
}

/// A game while its tokens come in.
struct Builder {
    number: usize,
    /// Name, value and line of each tag.
    tags: Vec<(String, String, usize)>,
    /// Set up from the tags at the first movetext token: the start
    /// position, the position now, and what `PgnGame` keeps of the set-up.
    started: Option<Started>,
    moves: Vec<Move>,
    comments: Vec<String>,
    /// Lines of the `(` of the variations open now.
    variations: Vec<usize>,
    result: Option<String>,
    /// The game ended with its termination marker.
    finished: bool,
    /// The first fault; the rest of the game is then only scanned for
    /// its end.
    error: Option<GameError>,
}

struct Started {
    start: Board,
    board: Board,
    chess960: bool,
    dropped: Vec<DroppedCastlingRight>,
}

/// What a movetext symbol is.
enum Symbol<'a> {
    Result(&'a str),
    /// A move number or an annotation glyph (`!?`) standing alone.
    Ignored,
    Move(&'a str),
}

impl Builder {
    fn new(number: usize) -> Builder {
        Builder {
            number,
            tags: Vec::new(),
            started: None,
            moves: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
            result: None,
            finished: false,
            error: None,
        }
    }

    fn fail(&mut self, line: usize, kind: ErrorKind) {
        if self.error.is_none() {
            self.error = Some(GameError {
                game: self.number,
                line,
                kind,
            });
        }
    }

    /// Sets up the start position from the tags, once: at the first
    /// movetext token, since every tag comes before it.
    fn begin_movetext(&mut self) {
        if self.started.is_none() {
            self.started = Some(self.set_up_or_fail());
        }
    }

    /// The start position of the tags; on failure the error is recorded
    /// and the standard start stands in, so that the rest of the game is
    /// still scanned for its end.
    fn set_up_or_fail(&mut self) -> Started {
        match set_up(&self.tags) {
            Ok(started) => started,
            Err((line, kind)) => {
                self.fail(line, kind);
                let board = Board::startpos();
                Started {
                    start: board.clone(),
                    board,
                    chess960: false,
                    dropped: Vec::new(),
                }
            }
        }
    }

    /// A comment of the main line belongs to the move before it; those
    /// before the first move, in variations or after the result go.
    fn comment(&mut self, text: &str) {
        if !self.variations.is_empty() || self.finished {
            return;
        }
        if let Some(last) = self.comments.last_mut() {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(text.trim());
        }
    }

    fn symbol(&mut self, symbol: &str, line: usize) {
        let in_variation = !self.variations.is_empty();
        match classify(symbol) {
            // Results do not belong in variations; one there is skipped
            // with its variation, and an unclosed `(` is reported at the
            // game's end.
            Symbol::Result(result) if !in_variation => {
                self.result = Some(result.to_string());
                self.finished = true;
            }
            Symbol::Move(san) if !in_variation && self.error.is_none() => {
                let Some(started) = self.started.as_mut() else {
                    return;
                };
                let board = &mut started.board;
                match board.parse_san(san) {
                    Ok(m) => {
                        board.make_move(m);
                        self.moves.push(m);
                        self.comments.push(String::new());
                    }
                    Err(error) => {
                        // Numbered as the reader would look for it.
                        let number = board.fullmove_number();
                        let dots = if board.side_to_move() == Color::White {
                            "."
                        } else {
                            "..."
                        };
                        let text = format!("{number}{dots} {san}");
                        self.fail(line, ErrorKind::Move { text, error });
                    }
                }
            }
            _ => {}
        }
    }

    fn finish(mut self) -> Result<PgnGame, GameError> {
        let started = match self.started.take() {
            Some(started) => started,
            None => self.set_up_or_fail(),
        };
        if let Some(&line) = self.variations.first() {
            self.fail(line, ErrorKind::UnclosedVariation);
        }
        if let Some(error) = self.error {
            return Err(error);
        }
        let tag = |name: &str| {
            self.tags
                .iter()
                .find(|(n, _, _)| n == name)
                .map(|(_, v, _)| v.clone())
        };
        let result = self
            .result
            .clone()
            .or_else(|| tag("Result"))
            .unwrap_or_else(|| "*".to_string());
        Ok(PgnGame {
            number: self.number,
            tags: self.tags.into_iter().map(|(n, v, _)| (n, v)).collect(),
            start: started.start,
            chess960: started.chess960,
            moves: self.moves,
            comments: self.comments,
            result,
            dropped_castling: started.dropped,
        })
    }
}

fn classify(symbol: &str) -> Symbol<'_> {
    if matches!(symbol, "1-0" | "0-1" | "1/2-1/2" | "*") {
        return Symbol::Result(symbol);
    }
    // `12`, `12.`, `12...`, `12.Nf3` and a lone `...` carry a move number;
    // `0-0` does not.
    let after_digits = symbol.trim_start_matches(|c: char| c.is_ascii_digit());
    let rest = if after_digits.starts_with('.') {
        after_digits.trim_start_matches('.')
    } else if after_digits.is_empty() {
        ""
    } else {
        symbol
    };
    if rest.is_empty() || rest.chars().all(|c| c == '!' || c == '?') {
        Symbol::Ignored
    } else {
        Symbol::Move(rest)
    }
}

/// Variant tag values for standard chess, in lower case.
const STANDARD: &[&str] = &["standard", "chess", "normal", "classical", "from position"];
/// Variant tag values for Chess960, in lower case.
const CHESS960: &[&str] = &[
    "chess960",
    "chess 960",
    "fischerandom",
    "fischerrandom",
    "fischer random",
    "frc",
    "960",
];

/// The start position from the `Variant` and `FEN` tags; on failure the
/// line of the tag at fault and why.
fn set_up(tags: &[(String, String, usize)]) -> Result<Started, (usize, ErrorKind)> {
    let find = |name: &str| tags.iter().find(|(n, _, _)| n == name);
    let tagged_960 = match find("Variant") {
        None => false,
        Some((_, v, line)) => {
            let lower = v.trim().to_ascii_lowercase();
            if CHESS960.contains(&lower.as_str()) {
                true
            } else if STANDARD.contains(&lower.as_str()) {
                false
            } else {
                return Err((*line, ErrorKind::Variant(v.clone())));
            }
        }
    };
    let (start, dropped) = match find("FEN") {
        None => (Board::startpos(), Vec::new()),
        Some((_, fen, line)) => Board::from_fen_reporting(fen).map_err(|error| {
            (
                *line,
                ErrorKind::Fen {
                    fen: fen.clone(),
                    error,
                },
            )
        })?,
    };
    Ok(Started {
        chess960: tagged_960 || !castling_is_classical(&start),
        board: start.clone(),
        start,
        dropped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sans(game: &PgnGame) -> Vec<String> {
        let mut board = game.start.clone();
        game.moves
            .iter()
            .map(|&m| {
                let san = board.san(m);
                board.make_move(m);
                san
            })
            .collect()
    }

    #[test]
    fn chess960_games_with_comments_nags_and_variations() {
        let text = r#"[Event "first"]
[Variant "Fischerandom"]
[FEN "bbqnrknr/pppppppp/8/8/8/8/PPPPPPPP/BBQNRKNR w HEhe - 0 1"]
[Result "1-0"]

1. Nf3 {a comment (with a parenthesis} Nf6 (1... c5 {inside} 2. Nf3 (2. c3) d6) 2.g3 {+0.50/7} $1
{ and more }; to the end of the line
2... g6 !? 3. O-O 0-0 1-0 {after the result}

1. d4 d5 *
"#;
        let games = read(text);
        assert_eq!(games.len(), 2);
        let first = games[0].as_ref().unwrap();
        assert_eq!(first.number, 1);
        assert!(first.chess960);
        assert_eq!(first.tag("Event"), Some("first"));
        assert_eq!(first.result, "1-0");
        assert_eq!(sans(first), ["Nf3", "Nf6", "g3", "g6", "O-O", "O-O"]);
        assert_eq!(
            first.comments,
            [
                "a comment (with a parenthesis",
                "",
                "+0.50/7 and more",
                "",
                "",
                ""
            ]
        );
        let second = games[1].as_ref().unwrap();
        assert_eq!((second.number, second.moves.len()), (2, 2));
        assert_eq!(second.comments, ["", ""]);
        assert!(!second.chess960);
        assert_eq!(second.result, "*");
        assert_eq!(second.start, Board::startpos());
    }

    #[test]
    fn shredder_fen_and_untagged_chess960_starts_are_chess960() {
        let text = "[FEN \"bbqnrknr/pppppppp/8/8/8/8/PPPPPPPP/BBQNRKNR w HEhe - 0 1\"]\n\n1. Nf3 *";
        let game = read(text).remove(0).unwrap();
        assert!(game.chess960);
        assert_eq!(
            game.start.to_fen(chess::CastlingNotation::Shredder),
            "bbqnrknr/pppppppp/8/8/8/8/PPPPPPPP/BBQNRKNR w HEhe - 0 1"
        );
        let classical =
            "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n1... e5 *";
        let game = read(classical).remove(0).unwrap();
        assert!(!game.chess960);
        assert_eq!(sans(&game), ["e5"]);
        assert_eq!(game.result, "*");
        // A tagless game with no result ends at the end of the text.
        let game = read("1. e4 e5 2. Nf3").remove(0).unwrap();
        assert_eq!((game.moves.len(), game.result.as_str()), (3, "*"));
    }

    #[test]
    fn broken_games_name_game_line_and_move_and_the_others_are_read() {
        let text = r#"[Event "good"]
1. e4 e5 1-0

[Event "illegal"]
1. e4 e5 2. Nf3 Nc6
3. Bb5 Ke6 4. O-O 1-0

[Event "unknown variant"]
[Variant "Crazyhouse"]
1. e4 *

[Event "bad fen"]
[FEN "8/8 w"]
1. e4 *

[Event "lost brace"]
1. e4 { never closed
2. d4 *

[Event "bad tag
1. e4 *

[Event "stray"]
1. e4 ) e5 *

[Event "open"]
1. e4 (1. d4 d5 e5 *

[Event "good again"]
1. d4 *
"#;
        let games = read(text);
        let errors: Vec<String> = games
            .iter()
            .filter_map(|g| g.as_ref().err().map(|e| e.to_string()))
            .collect();
        assert_eq!(
            errors,
            [
                "game 2, line 6: move 3... Ke6: 'Ke6' is not a legal move in this position",
                "game 3, line 9: variant \"Crazyhouse\" is not one Hoeven plays (standard chess or Chess960)",
                "game 4, line 13: FEN \"8/8 w\": FEN has 2 fields, expected 4 to 6 (placement, side, castling, en passant, halfmove clock, fullmove number)",
                "game 5, line 17: comment '{' has no closing '}'",
                "game 6, line 20: '[Event \"bad tag' is not a tag [Name \"value\"]",
                "game 7, line 24: ')' closes no variation",
                "game 8, line 27: variation '(' has no closing ')'",
            ]
        );
        let good: Vec<(usize, Option<&str>)> = games
            .iter()
            .filter_map(|g| g.as_ref().ok().map(|g| (g.number, g.tag("Event"))))
            .collect();
        assert_eq!(good, [(1, Some("good")), (9, Some("good again"))]);
    }

    #[test]
    fn symbols_are_numbers_glyphs_results_or_moves() {
        assert!(matches!(classify("12."), Symbol::Ignored));
        assert!(matches!(classify("12..."), Symbol::Ignored));
        assert!(matches!(classify("..."), Symbol::Ignored));
        assert!(matches!(classify("?!"), Symbol::Ignored));
        assert!(matches!(classify("1/2-1/2"), Symbol::Result("1/2-1/2")));
        assert!(matches!(classify("12.Nf3"), Symbol::Move("Nf3")));
        assert!(matches!(classify("3...O-O"), Symbol::Move("O-O")));
        assert!(matches!(classify("e8=Q+"), Symbol::Move("e8=Q+")));
        assert!(matches!(classify("0-0"), Symbol::Move("0-0")));
    }
}
