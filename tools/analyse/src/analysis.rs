//! A game move by move: every position is evaluated once, so that the
//! search of the position after a move is also the "before" of the next.

use super::judgement::{centipawn_loss, judge, Judgement};
use super::search::{Analyser, Evaluation};
use chess::{Color, Move};
use chessio::pgn::PgnGame;
use std::fmt;

/// One move of the game, judged.
#[derive(Clone, Debug)]
pub struct MoveAnalysis {
    pub mv: Move,
    pub san: String,
    pub mover: Color,
    /// The move number the move is played at.
    pub fullmove: u16,
    /// The position before the move, as the engine saw it: its score
    /// (mover's side) and best lines.
    pub before: Evaluation,
    /// The position after the move; its score is from the other side.
    pub after: Evaluation,
    pub centipawn_loss: i32,
    pub judgement: Option<Judgement>,
}

impl MoveAnalysis {
    /// The score before the move from White's side.
    pub fn white_before(&self) -> i32 {
        white_side(self.before.score(), self.mover)
    }

    /// The score after the move from White's side.
    pub fn white_after(&self) -> i32 {
        white_side(self.after.score(), !self.mover)
    }
}

/// A score from `side`'s point of view, turned to White's.
pub fn white_side(score: i32, side: Color) -> i32 {
    if side == Color::White {
        score
    } else {
        -score
    }
}

#[derive(Clone, Debug)]
pub struct GameAnalysis {
    /// White's score of the start position.
    pub initial: i32,
    pub moves: Vec<MoveAnalysis>,
}

/// The search ended before it had anything to say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoEvaluation {
    pub game: usize,
    pub ply: usize,
}

impl fmt::Display for NoEvaluation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}: the search of ply {} ended without a score (give it more --movetime)",
            self.game, self.ply
        )
    }
}

impl std::error::Error for NoEvaluation {}

/// Analyses every move of `game`; `searched` is told of each search done.
pub fn analyse(
    game: &PgnGame,
    analyser: &mut Analyser,
    mut searched: impl FnMut(),
) -> Result<GameAnalysis, NoEvaluation> {
    analyser.new_game();
    let mut position = chess::Position::new(game.start.clone());
    let mut evaluate = |position: &chess::Position, ply: usize| {
        let eval = analyser.evaluate(position);
        searched();
        eval.ok_or(NoEvaluation {
            game: game.number,
            ply,
        })
    };
    let mut before = evaluate(&position, 0)?;
    let initial = white_side(before.score(), position.board().side_to_move());
    let mut moves = Vec::with_capacity(game.moves.len());
    for (ply, &mv) in game.moves.iter().enumerate() {
        let board = position.board();
        let mover = board.side_to_move();
        let fullmove = board.fullmove_number();
        let san = board.san(mv);
        position.make_move(mv);
        let after = evaluate(&position, ply + 1)?;
        // Both from the mover's side.
        let (b, a) = (before.score(), -after.score());
        moves.push(MoveAnalysis {
            mv,
            san,
            mover,
            fullmove,
            centipawn_loss: centipawn_loss(b, a),
            judgement: judge(b, a, before.best_move() == Some(mv)),
            before,
            after: after.clone(),
        });
        before = after;
    }
    Ok(GameAnalysis { initial, moves })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chessio::pgn;
    use engine::score::mate_in;
    use engine::{Limits, SearchOptions};

    fn analyser(depth: i32) -> Analyser {
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        Analyser::new(1, limits, SearchOptions::default()).unwrap()
    }

    #[test]
    fn a_hung_queen_is_a_blunder_and_the_mate_is_seen() {
        // The scholar's mate: 3... Nf6?? allows mate in one.
        let text = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0";
        let game = pgn::read(text).remove(0).unwrap();
        let mut count = 0;
        let analysis = analyse(&game, &mut analyser(6), || count += 1).unwrap();
        assert_eq!(count, 8);
        assert_eq!(analysis.moves.len(), 7);
        let nf6 = &analysis.moves[5];
        assert_eq!(
            (nf6.san.as_str(), nf6.mover, nf6.fullmove),
            ("Nf6", Color::Black, 3)
        );
        assert_eq!(nf6.judgement, Some(Judgement::Blunder));
        assert_eq!(nf6.white_after(), mate_in(1));
        assert!(nf6.before.best_move().is_some_and(|m| m != nf6.mv));
        let mate = &analysis.moves[6];
        assert_eq!(mate.san, "Qxf7#");
        assert_eq!(mate.judgement, None);
        assert_eq!(mate.after, Evaluation::Final(engine::score::mated_in(0)));
        assert_eq!(mate.white_after(), engine::score::MATE);
        // White's start is about equal.
        assert!(analysis.initial.abs() < 100, "{}", analysis.initial);
        assert_eq!(
            analysis.moves[1].white_before(),
            analysis.moves[0].white_after()
        );
    }
}
