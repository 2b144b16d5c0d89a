//! How a game ends: its outcome and why. The endings the rules of chess
//! decide on their own (mate, stalemate, repetition, the fifty-move rule,
//! insufficient material) are chess's `Position::verdict`; self-play adds
//! adjudication and the clock.

use chess::{Board, Color, PieceKind, Position, Verdict};
use chessio::GameResult;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    WhiteWins,
    BlackWins,
    Draw,
}

impl Outcome {
    pub fn win_for(color: Color) -> Outcome {
        match color {
            Color::White => Outcome::WhiteWins,
            Color::Black => Outcome::BlackWins,
        }
    }

    /// As the PGN result tag and movetext write it.
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    /// The game's result for `color`.
    pub fn result_for(self, color: Color) -> GameResult {
        match (self, color) {
            (Outcome::Draw, _) => GameResult::Draw,
            (Outcome::WhiteWins, Color::White) | (Outcome::BlackWins, Color::Black) => {
                GameResult::Win
            }
            _ => GameResult::Loss,
        }
    }

    /// What the game scored for `color`: 1, 0.5 or 0.
    pub fn points(self, color: Color) -> f64 {
        f64::from(self.result_for(color).points())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ending {
    Checkmate,
    Stalemate,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
    /// Both sides' scores agreed that one side is lost.
    Resignation,
    /// Both sides' scores stayed near zero.
    DrawAdjudication,
    TimeForfeit,
}

impl Ending {
    /// The PGN `Termination` tag's value.
    pub fn termination(self) -> &'static str {
        match self {
            Ending::Resignation | Ending::DrawAdjudication => "adjudication",
            Ending::TimeForfeit => "time forfeit",
            _ => "normal",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Ending::Checkmate => "checkmate",
            Ending::Stalemate => "stalemate",
            Ending::Repetition => "threefold repetition",
            Ending::FiftyMoves => "fifty-move rule",
            Ending::InsufficientMaterial => "insufficient material",
            Ending::Resignation => "resignation adjudicated",
            Ending::DrawAdjudication => "draw adjudicated",
            Ending::TimeForfeit => "time forfeit",
        }
    }
}

/// The ending when the side to move has no legal move.
pub fn without_moves(board: &Board) -> (Outcome, Ending) {
    if board.in_check() {
        (Outcome::win_for(!board.side_to_move()), Ending::Checkmate)
    } else {
        (Outcome::Draw, Ending::Stalemate)
    }
}

/// Whether the rules end the game at `position`, and how.
pub fn verdict(position: &Position) -> Option<(Outcome, Ending)> {
    position.verdict().map(judged)
}

fn judged(verdict: Verdict) -> (Outcome, Ending) {
    let ending = match verdict {
        Verdict::Checkmate { .. } => Ending::Checkmate,
        Verdict::Stalemate => Ending::Stalemate,
        Verdict::Repetition => Ending::Repetition,
        Verdict::FiftyMoves => Ending::FiftyMoves,
        Verdict::InsufficientMaterial => Ending::InsufficientMaterial,
    };
    (
        verdict.winner().map_or(Outcome::Draw, Outcome::win_for),
        ending,
    )
}

/// The outcome when `flagged` runs out of time: a loss, unless the
/// opponent has only a king and so could never have mated.
pub fn time_forfeit(board: &Board, flagged: Color) -> Outcome {
    let opponent = !flagged;
    if board.colored(opponent) == board.pieces_of(opponent, PieceKind::King) {
        Outcome::Draw
    } else {
        Outcome::win_for(opponent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen).unwrap()
    }

    #[test]
    fn the_rules_verdicts_become_outcomes_and_endings() {
        let verdict_of = |fen: &str| verdict(&Position::new(board(fen)));
        assert_eq!(
            verdict_of("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1"),
            Some((Outcome::WhiteWins, Ending::Checkmate))
        );
        assert_eq!(
            verdict_of("6k1/8/8/8/8/8/5PPP/r5K1 w - - 1 1"),
            Some((Outcome::BlackWins, Ending::Checkmate))
        );
        assert_eq!(
            verdict_of("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
            Some((Outcome::Draw, Ending::Stalemate))
        );
        assert_eq!(
            verdict_of("8/8/4k3/8/8/3NK3/8/8 w - - 0 1"),
            Some((Outcome::Draw, Ending::InsufficientMaterial))
        );
        assert_eq!(
            verdict_of("8/8/4k3/8/8/3RK3/8/8 w - - 100 80"),
            Some((Outcome::Draw, Ending::FiftyMoves))
        );
        let mut game = Position::new(Board::startpos());
        for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
            assert_eq!(verdict(&game), None);
            let m = game.board().parse_san(san).unwrap();
            game.make_move(m);
        }
        assert_eq!(verdict(&game), Some((Outcome::Draw, Ending::Repetition)));
    }

    #[test]
    fn outcomes_score_and_time_forfeits_respect_bare_kings() {
        assert_eq!(Outcome::WhiteWins.points(Color::Black), 0.0);
        assert_eq!(Outcome::BlackWins.points(Color::Black), 1.0);
        assert_eq!(Outcome::Draw.points(Color::White), 0.5);
        let b = board("8/8/4k3/8/8/3QK3/8/8 w - - 0 1");
        assert_eq!(time_forfeit(&b, Color::White), Outcome::Draw);
        assert_eq!(time_forfeit(&b, Color::Black), Outcome::WhiteWins);
    }
}
