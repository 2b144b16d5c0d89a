//! Training data: one record (`chessio::Record`, in its text form) per
//! quiet position an engine searched,
//!
//! `<X-FEN> | <score> | <result>`
//!
//! with the score in centipawns and the result (1.0 win, 0.5 draw, 0.0
//! loss) both from the side to move's point of view. Positions in check,
//! those whose best move captures or promotes, and those scored as mate are
//! left out: their score says little about the static position.

use super::game::Game;
use chessio::{is_training_position, Record};
use engine::score::is_mate;
use std::fmt::Write;

/// Appends `game`'s records to `out`; returns how many there are.
pub fn append_records(game: &Game, out: &mut String) -> u64 {
    let mut board = game.opening.position();
    let mut count = 0;
    for s in &game.searched {
        let record = s
            .score
            .filter(|&score| !is_mate(score) && is_training_position(&board, s.best))
            .and_then(|score| i16::try_from(score).ok())
            .and_then(|score| {
                let result = game.outcome.result_for(board.side_to_move());
                Record::new(board.clone(), score, result).ok()
            });
        if let Some(record) = record {
            let _ = writeln!(out, "{record}");
            count += 1;
        }
        board.make_move(s.best);
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::Opening;
    use crate::player::Searched;
    use crate::rules::{Ending, Outcome};
    use chess::Board;
    use engine::score::mate_in;
    use std::time::Duration;

    #[test]
    fn quiet_positions_are_written_from_the_movers_side() {
        // White: O-O (quiet, castling onto its rook); Black: ...Bxf2+ (a
        // capture); White: Kxf2 (from check); Black: ...Ng4+ (quiet, checking);
        // White: Kg1 (from check); Black: ...Qf6 scored as mate.
        let start =
            Board::from_fen("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
                .unwrap();
        let mut board = start.clone();
        let mut searched = Vec::new();
        for (san, score) in [
            ("O-O", 20),
            ("Bxf2+", -30),
            ("Kxf2", 300),
            ("Ng4+", -250),
            ("Kg1", 40),
            ("Qf6", mate_in(9)),
        ] {
            let best = board.parse_san(san).unwrap();
            searched.push(Searched {
                best,
                score: Some(score),
                depth: 5,
                elapsed: Duration::ZERO,
            });
            board.make_move(best);
        }
        let game = Game {
            opening: Opening {
                start,
                moves: Vec::new(),
                chess960: false,
            },
            searched,
            outcome: Outcome::BlackWins,
            ending: Ending::Resignation,
        };
        let mut out = String::new();
        assert_eq!(append_records(&game, &mut out), 2);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines,
            [
                "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4 | 20 | 0.0",
                "r1bqk2r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1KPP/RNBQ1R2 b kq - 0 5 | -250 | 1.0",
            ]
        );
    }
}
