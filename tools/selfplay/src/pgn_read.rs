//! Reads the games of a PGN file as openings: the `[FEN]` tag (or the
//! standard start) and the main line's moves. Comments, variations, move
//! numbers and annotation glyphs are passed over.

use super::openings::{Opening, Variant};
use movegen::{Board, FenError, SanError};
use std::fmt;
use uci::castling::castling_is_classical;

#[derive(Debug)]
pub enum PgnError {
    /// A tag that is not `[Name "value"]`.
    Tag {
        game: usize,
        text: String,
    },
    Fen {
        game: usize,
        error: FenError,
    },
    Move {
        game: usize,
        ply: usize,
        san: String,
        error: SanError,
    },
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnError::Tag { game, text } => {
                write!(f, "game {game}: '[{text}]' is not a tag [Name \"value\"]")
            }
            PgnError::Fen { game, error } => write!(f, "game {game}: FEN tag: {error}"),
            PgnError::Move {
                game,
                ply,
                san,
                error,
            } => write!(f, "game {game}, ply {ply} ('{san}'): {error}"),
        }
    }
}

/// One game's tags and main-line moves as text, before they are played.
#[derive(Default)]
struct RawGame {
    fen: Option<String>,
    variant: Option<String>,
    sans: Vec<String>,
    seen: bool,
}

/// Every game of `text` as an opening.
pub fn read(text: &str, variant: Variant) -> Result<Vec<Opening>, PgnError> {
    let mut openings = Vec::new();
    let mut game = RawGame::default();
    let mut in_moves = false;
    let mut chars = text.chars().peekable();
    let mut line_start = true;
    while let Some(c) = chars.next() {
        let at_line_start = line_start;
        line_start = c == '\n';
        match c {
            c if c.is_whitespace() => {}
            // An escape line: the rest of it is for other programs.
            '%' if at_line_start => skip_past(&mut chars, '\n', &mut line_start),
            '[' => {
                if in_moves {
                    openings.push(finish(
                        std::mem::take(&mut game),
                        openings.len() + 1,
                        variant,
                    )?);
                    in_moves = false;
                }
                let tag: String = chars.by_ref().take_while(|&c| c != ']').collect();
                read_tag(&tag, &mut game).ok_or_else(|| PgnError::Tag {
                    game: openings.len() + 1,
                    text: tag.clone(),
                })?;
            }
            '{' => skip_past(&mut chars, '}', &mut line_start),
            ';' => skip_past(&mut chars, '\n', &mut line_start),
            '(' => skip_variation(&mut chars),
            _ => {
                let mut token = c.to_string();
                while let Some(&next) = chars.peek() {
                    if next.is_whitespace() || "[]{}();".contains(next) {
                        break;
                    }
                    token.push(next);
                    chars.next();
                }
                game.seen = true;
                in_moves = true;
                if matches!(token.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
                    openings.push(finish(
                        std::mem::take(&mut game),
                        openings.len() + 1,
                        variant,
                    )?);
                    in_moves = false;
                } else if let Some(san) = move_text(&token) {
                    game.sans.push(san.to_string());
                }
            }
        }
    }
    if game.seen {
        openings.push(finish(game, openings.len() + 1, variant)?);
    }
    Ok(openings)
}

fn skip_past(chars: &mut impl Iterator<Item = char>, end: char, line_start: &mut bool) {
    for c in chars.by_ref() {
        if c == end {
            *line_start = c == '\n';
            return;
        }
    }
}

/// Skips a `(...)` variation, nested ones and braces comments included.
fn skip_variation(chars: &mut impl Iterator<Item = char>) {
    let mut depth = 1;
    let mut in_comment = false;
    for c in chars {
        match c {
            '}' if in_comment => in_comment = false,
            _ if in_comment => {}
            '{' => in_comment = true,
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return;
                }
            }
            _ => {}
        }
    }
}

/// The move in a movetext token, without a move number stuck in front
/// (`12.Nf3`); `None` for move numbers and `$n` glyphs alone.
fn move_text(token: &str) -> Option<&str> {
    if token.starts_with('$') {
        return None;
    }
    let digits = token.trim_start_matches(|c: char| c.is_ascii_digit());
    let rest = if digits.len() < token.len() && digits.starts_with('.') {
        digits.trim_start_matches('.')
    } else {
        token
    };
    (!rest.is_empty()).then_some(rest)
}

/// Reads `Name "value"`; only FEN and Variant matter for an opening.
fn read_tag(tag: &str, game: &mut RawGame) -> Option<()> {
    let (name, rest) = tag.trim().split_once(char::is_whitespace)?;
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let value = quoted.replace("\\\"", "\"").replace("\\\\", "\\");
    game.seen = true;
    match name {
        "FEN" => game.fen = Some(value),
        "Variant" => game.variant = Some(value),
        _ => {}
    }
    Some(())
}

fn finish(game: RawGame, number: usize, variant: Variant) -> Result<Opening, PgnError> {
    let start = match &game.fen {
        Some(fen) => Board::from_fen(fen).map_err(|error| PgnError::Fen {
            game: number,
            error,
        })?,
        None => Board::startpos(),
    };
    let mut board = start.clone();
    let mut moves = Vec::with_capacity(game.sans.len());
    for (i, san) in game.sans.iter().enumerate() {
        let m = board.parse_san(san).map_err(|error| PgnError::Move {
            game: number,
            ply: i + 1,
            san: san.clone(),
            error,
        })?;
        board.make_move(m);
        moves.push(m);
    }
    let tagged_960 = game.variant.is_some_and(|v| {
        let v = v.to_ascii_lowercase();
        v.contains("960") || v.contains("fischer")
    });
    Ok(Opening {
        chess960: variant != Variant::Classical || tagged_960 || !castling_is_classical(&start),
        start,
        moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_with_comments_variations_and_tags_are_read() {
        let text = r#"[Event "a \"quoted\" name"]
[Variant "Chess960"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]

1. e4 {a comment (with parenthesis} e5 (1... c5 2. Nf3 (2. c3) d6) 2.Nd3 $1 ; to the end
% escape line 3. xx
Nc6! *

[Event "second"]
1. d4 d5 2. c4 1/2-1/2
1. e4"#;
        let games = read(text, Variant::Classical).unwrap();
        assert_eq!(games.len(), 3);
        let sans: Vec<String> = {
            let mut b = games[0].start.clone();
            games[0]
                .moves
                .iter()
                .map(|&m| {
                    let s = b.san(m);
                    b.make_move(m);
                    s
                })
                .collect()
        };
        assert_eq!(sans, ["e4", "e5", "Nd3", "Nc6"]);
        assert!(games[0].chess960);
        assert_eq!(games[1].moves.len(), 3);
        assert!(!games[1].chess960);
        assert_eq!(games[2].moves.len(), 1);
    }

    #[test]
    fn bad_games_are_refused_with_their_number() {
        assert!(matches!(
            read(
                "1. e4 e5 *\n1. e4 e5 2. Nf3 Nc6 3. Bb5 Kc9 *",
                Variant::Classical
            ),
            Err(PgnError::Move {
                game: 2,
                ply: 6,
                ..
            })
        ));
        assert!(matches!(
            read("[FEN \"8/8 w\"]\n*", Variant::Chess960),
            Err(PgnError::Fen { game: 1, .. })
        ));
        assert!(matches!(
            read("[Event unquoted]\n*", Variant::Chess960),
            Err(PgnError::Tag { game: 1, .. })
        ));
        assert!(read("", Variant::Chess960).unwrap().is_empty());
    }
}
