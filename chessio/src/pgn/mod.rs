//! PGN: one lexer, one reader and the pieces of the export format, for
//! every tool that reads or writes games.

mod lexer;
mod read;
mod records;
mod write;

pub use read::{read, ErrorKind, GameError, PgnGame};
pub use records::{comment_score, records, CommentScore, Counts};
pub use write::{move_number, start_tags, tag, wrap, LINE_WIDTH};

#[cfg(test)]
mod tests {
    use super::*;
    use chess::{Board, Color};

    /// A game written with these pieces reads back to the same tags,
    /// start and moves.
    fn round_trip(start: Board, chess960: bool, sans: &[&str]) {
        let mut text = tag("Event", "a \"quoted\" \\ name");
        text.push_str(&tag("Result", "*"));
        text.push_str(&start_tags(&start, chess960, false));
        text.push('\n');
        let mut board = start.clone();
        let mut tokens = Vec::new();
        let mut moves = Vec::new();
        for (ply, san) in sans.iter().enumerate() {
            let m = board.parse_san(san).unwrap();
            let number = board.side_to_move() == Color::White || ply == 0;
            tokens.push(if number {
                format!("{} {}", move_number(&board), board.san(m))
            } else {
                board.san(m)
            });
            tokens.push(format!("{{ply {ply}}} $1"));
            board.make_move(m);
            moves.push(m);
        }
        tokens.push("*".to_string());
        text.push_str(&wrap(&tokens));

        let games = read(&text);
        assert_eq!(games.len(), 1, "{text}");
        let game = games[0].as_ref().unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(game.tag("Event"), Some("a \"quoted\" \\ name"));
        assert_eq!(game.result, "*");
        assert_eq!(game.start, start);
        assert_eq!(game.chess960, chess960);
        assert_eq!(game.moves, moves);
    }

    #[test]
    fn written_games_read_back() {
        round_trip(Board::startpos(), false, &["e4", "e5", "Nf3", "Nc6", "Bb5"]);
        let chess960 =
            Board::from_fen("nrbbqnkr/pppppppp/8/8/8/8/PPPPPPPP/NRBBQNKR w KQkq - 0 1").unwrap();
        round_trip(chess960, true, &["Ng3", "Ng6", "Nh5", "Nh4", "O-O", "O-O"]);
    }

    #[test]
    fn malformed_games_are_typed_errors() {
        let games = read("[Event \"ok\"]\n1. e4 *\n\n[Event broken]\n1. e4 *\n1. e4 e5 2. Ke3 *\n");
        assert_eq!(games.len(), 3);
        assert!(games[0].is_ok());
        let kinds: Vec<ErrorKind> = games[1..]
            .iter()
            .map(|g| g.as_ref().unwrap_err().kind.clone())
            .collect();
        assert!(matches!(kinds[0], ErrorKind::BadTag(_)), "{kinds:?}");
        assert!(matches!(kinds[1], ErrorKind::Move { .. }), "{kinds:?}");
    }
}
