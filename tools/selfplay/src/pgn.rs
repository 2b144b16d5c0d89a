//! Games as PGN: the seven tag roster, the tags Chess960 readers need
//! (`Variant`, `SetUp`, an X-FEN `FEN`), `Termination`, and SAN moves each
//! followed by the engine's score and depth.

use super::game::Game;
use super::rules::{Ending, Outcome};
use chess::Color;
use chessio::pgn::{move_number, start_tags, tag, wrap};
use engine::score::HumanScore;

pub struct Header<'a> {
    pub event: &'a str,
    pub round: u64,
    pub white: &'a str,
    pub black: &'a str,
}

pub fn write(game: &Game, header: &Header) -> String {
    let mut pgn = String::new();
    let result = game.outcome.pgn();
    // No date: the same seed must give the same file on any day.
    let round = header.round.to_string();
    let roster = [
        ("Event", header.event),
        ("Site", "?"),
        ("Date", "????.??.??"),
        ("Round", &round),
        ("White", header.white),
        ("Black", header.black),
        ("Result", result),
    ];
    for (name, value) in roster {
        pgn.push_str(&tag(name, value));
    }
    let chess960 = game.opening.chess960;
    pgn.push_str(&start_tags(&game.opening.start, chess960, chess960));
    pgn.push_str(&tag("Termination", game.ending.termination()));
    pgn.push('\n');

    let mut tokens = Vec::new();
    let mut board = game.opening.start.clone();
    let book = game.opening.moves.iter().map(|&m| (m, None));
    let engine = game.searched.iter().map(|s| (s.best, Some(s)));
    for (ply, (m, search)) in book.chain(engine).enumerate() {
        // A move number stays on the line of its move.
        let san = board.san(m);
        tokens.push(if board.side_to_move() == Color::White || ply == 0 {
            format!("{} {san}", move_number(&board))
        } else {
            san
        });
        match search {
            None => tokens.push("{book}".to_string()),
            Some(s) => {
                if let Some(score) = s.score {
                    tokens.push(format!("{{{}/{}}}", score_text(score), s.depth));
                }
            }
        }
        board.make_move(m);
    }
    tokens.push(format!("{{{}}}", reason(game.outcome, game.ending)));
    tokens.push(result.to_string());

    pgn.push_str(&wrap(&tokens));
    pgn.push('\n');
    pgn
}

/// The score in pawns from the mover's side (`+0.35`), or mate in moves
/// (`+M3`, `-M2`), as GUIs show engine comments.
pub fn score_text(score: i32) -> String {
    match HumanScore::from_score(score) {
        HumanScore::Centipawns(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        HumanScore::Mate(n) if n > 0 => format!("+M{n}"),
        HumanScore::Mate(n) => format!("-M{}", -n),
    }
}

/// The closing comment: who won and how.
fn reason(outcome: Outcome, ending: Ending) -> String {
    let winner = match outcome {
        Outcome::WhiteWins => "White",
        Outcome::BlackWins => "Black",
        Outcome::Draw => return format!("Draw by {}", ending.name()),
    };
    match ending {
        Ending::Checkmate => format!("{winner} mates"),
        Ending::TimeForfeit => format!("{winner} wins on time"),
        _ => format!("{winner} wins by adjudication"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::Opening;
    use crate::player::Searched;
    use chess::Board;
    use chessio::pgn::LINE_WIDTH;
    use engine::score::{mate_in, mated_in};
    use std::time::Duration;

    fn searched(board: &Board, san: &str, score: Option<i32>) -> Searched {
        Searched {
            best: board.parse_san(san).unwrap(),
            score,
            depth: 7,
            elapsed: Duration::ZERO,
        }
    }

    fn header() -> Header<'static> {
        Header {
            event: "Test \"quoted\"",
            round: 3,
            white: "A",
            black: "B",
        }
    }

    #[test]
    fn chess960_games_carry_the_setup_and_castle_as_o_o() {
        // BBQNRKNR: once the g1 knight is out, O-O puts the king on g1 and
        // the rook on f1.
        let start =
            Board::from_fen("bbqnrknr/pppppppp/8/8/8/8/PPPPPPPP/BBQNRKNR w HEhe - 0 1").unwrap();
        let mut b = start.clone();
        let book: Vec<_> = ["Nf3", "Nf6"]
            .iter()
            .map(|s| {
                let m = b.parse_san(s).unwrap();
                b.make_move(m);
                m
            })
            .collect();
        let mut moves = Vec::new();
        for (san, score) in [("g3", Some(35)), ("g6", None), ("O-O", Some(mate_in(5)))] {
            let s = searched(&b, san, score);
            b.make_move(s.best);
            moves.push(s);
        }
        let game = Game {
            opening: Opening {
                start,
                moves: book,
                chess960: true,
            },
            searched: moves,
            outcome: Outcome::WhiteWins,
            ending: Ending::Resignation,
        };
        let pgn = write(&game, &header());
        assert!(
            pgn.starts_with("[Event \"Test \\\"quoted\\\"\"]\n"),
            "{pgn}"
        );
        for tag in [
            "[Round \"3\"]",
            "[Result \"1-0\"]",
            "[Variant \"Chess960\"]",
            "[SetUp \"1\"]",
            "[FEN \"bbqnrknr/pppppppp/8/8/8/8/PPPPPPPP/BBQNRKNR w KQkq - 0 1\"]",
            "[Termination \"adjudication\"]",
        ] {
            assert!(pgn.contains(tag), "{tag} missing from\n{pgn}");
        }
        assert!(
            pgn.ends_with(
                "\n1. Nf3 {book} Nf6 {book} 2. g3 {+0.35/7} g6 3. O-O {+M3/7}\n\
                 {White wins by adjudication} 1-0\n\n"
            ),
            "{pgn}"
        );
    }

    #[test]
    fn classical_games_need_no_setup_and_black_starts_with_dots() {
        let start = Board::startpos();
        let game = Game {
            opening: Opening {
                start: start.clone(),
                moves: Vec::new(),
                chess960: false,
            },
            searched: vec![searched(&start, "e4", Some(-3))],
            outcome: Outcome::Draw,
            ending: Ending::Repetition,
        };
        let pgn = write(&game, &header());
        assert!(!pgn.contains("Variant") && !pgn.contains("FEN") && !pgn.contains("SetUp"));
        assert!(
            pgn.contains("1. e4 {-0.03/7} {Draw by threefold repetition} 1/2-1/2"),
            "{pgn}"
        );
        let after =
            Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        let game = Game {
            opening: Opening {
                start: after.clone(),
                moves: Vec::new(),
                chess960: false,
            },
            searched: vec![searched(&after, "e5", Some(0))],
            outcome: Outcome::BlackWins,
            ending: Ending::TimeForfeit,
        };
        let pgn = write(&game, &header());
        assert!(pgn.contains("[SetUp \"1\"]") && !pgn.contains("Variant"));
        assert!(
            pgn.contains("1... e5 {+0.00/7} {Black wins on time} 0-1"),
            "{pgn}"
        );
    }

    #[test]
    fn scores_read_as_pawns_or_mates() {
        assert_eq!(score_text(0), "+0.00");
        assert_eq!(score_text(-125), "-1.25");
        assert_eq!(score_text(mate_in(1)), "+M1");
        assert_eq!(score_text(mated_in(4)), "-M2");
    }

    #[test]
    fn long_games_wrap_before_eighty_columns() {
        let mut board = Board::startpos();
        let mut moves = Vec::new();
        for _ in 0..10 {
            for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
                let s = searched(&board, san, Some(1234));
                board.make_move(s.best);
                moves.push(s);
            }
        }
        let game = Game {
            opening: Opening {
                start: Board::startpos(),
                moves: Vec::new(),
                chess960: false,
            },
            searched: moves,
            outcome: Outcome::Draw,
            ending: Ending::DrawAdjudication,
        };
        let pgn = write(&game, &header());
        assert!(pgn.lines().all(|l| l.len() < LINE_WIDTH), "{pgn}");
        assert!(pgn.lines().filter(|l| !l.starts_with('[')).count() > 5);
    }
}
