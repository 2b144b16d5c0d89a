//! The pieces of PGN export that do not depend on what is written: tag
//! pairs with their escapes, the tags that set up a start position, move
//! numbers, and movetext wrapped into lines as the PGN export format asks.
//! Shared by the self-play games (`tools/selfplay/src/pgn.rs`) and the
//! annotated games of `analyse` (`tools/analyse/src/annotate.rs`).

use chess::{Board, CastlingNotation, Color, STARTPOS};

/// Movetext lines are wrapped before this width.
pub const LINE_WIDTH: usize = 80;

/// `[Name "value"]` and a newline, `\` and `"` in the value escaped.
pub fn tag(name: &str, value: &str) -> String {
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("[{name} \"{value}\"]\n")
}

/// The `Variant` tag of a Chess960 game, then `SetUp` and an X-FEN `FEN`
/// (which every Chess960 reader takes) when `always_fen` or the start is
/// not the standard one.
pub fn start_tags(start: &Board, chess960: bool, always_fen: bool) -> String {
    let mut tags = String::new();
    if chess960 {
        // One spelling that every reader knows.
        tags.push_str(&tag("Variant", "Chess960"));
    }
    let fen = start.to_fen(CastlingNotation::XFen);
    if always_fen || fen != STARTPOS {
        tags.push_str(&tag("SetUp", "1"));
        tags.push_str(&tag("FEN", &fen));
    }
    tags
}

/// `12.` before White's move, `12...` before Black's.
pub fn move_number(board: &Board) -> String {
    let dots = if board.side_to_move() == Color::White {
        "."
    } else {
        "..."
    };
    format!("{}{dots}", board.fullmove_number())
}

/// Tokens joined by single spaces into lines shorter than `LINE_WIDTH`;
/// a token longer than a line stands on a line of its own. Ends with a
/// newline.
pub fn wrap(tokens: &[String]) -> String {
    let mut text = String::new();
    let mut line_len = 0;
    for token in tokens {
        if line_len > 0 && line_len + 1 + token.len() >= LINE_WIDTH {
            text.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            text.push(' ');
            line_len += 1;
        }
        text.push_str(token);
        line_len += token.len();
    }
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_escape_quotes_and_backslashes() {
        assert_eq!(
            tag("White", "a \"b\" \\c"),
            "[White \"a \\\"b\\\" \\\\c\"]\n"
        );
    }

    #[test]
    fn start_tags_name_the_variant_and_an_x_fen() {
        let start = Board::startpos();
        assert_eq!(start_tags(&start, false, false), "");
        assert_eq!(start_tags(&start, true, false), "[Variant \"Chess960\"]\n");
        assert_eq!(
            start_tags(&start, false, true),
            format!("[SetUp \"1\"]\n[FEN \"{STARTPOS}\"]\n")
        );
        let shredder = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let board = Board::from_fen(shredder).unwrap();
        let x_fen = board.to_fen(CastlingNotation::XFen);
        assert_eq!(
            start_tags(&board, true, false),
            format!("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"{x_fen}\"]\n")
        );
    }

    #[test]
    fn move_numbers_have_one_dot_for_white_three_for_black() {
        let mut board = Board::startpos();
        assert_eq!(move_number(&board), "1.");
        board.make_move(board.parse_san("e4").unwrap());
        assert_eq!(move_number(&board), "1...");
    }

    #[test]
    fn lines_stay_short_and_keep_every_token() {
        let tokens: Vec<String> = (0..60).map(|i| format!("{i}. Nf3")).collect();
        let text = wrap(&tokens);
        assert!(text.lines().all(|l| l.len() < LINE_WIDTH), "{text}");
        assert!(text.lines().count() > 5);
        assert_eq!(text.split_whitespace().count(), 120);
        let long = "x".repeat(100);
        assert_eq!(
            wrap(&["a".into(), long.clone(), "b".into()]),
            format!("a\n{long}\nb\n")
        );
    }
}
