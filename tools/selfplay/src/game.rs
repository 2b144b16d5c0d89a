//! Plays one game between two players (or one player against itself) from
//! an opening to its end.

use super::adjudication::{AdjudicationRules, Adjudicator};
use super::clock::Clock;
use super::limits::MoveLimit;
use super::openings::Opening;
use super::player::{Player, Searched};
use super::rules::{self, Ending, Outcome};

pub struct Game {
    pub opening: Opening,
    /// The engines' moves, in order, after the opening's.
    pub searched: Vec<Searched>,
    pub outcome: Outcome,
    pub ending: Ending,
}

/// Plays `opening` out. `players[seats[c]]` plays colour `c`; both seats
/// may name the same player.
pub fn play(
    opening: Opening,
    players: &mut [Player],
    seats: [usize; 2],
    limit: &MoveLimit,
    adjudication: AdjudicationRules,
) -> Game {
    let mut position = opening.game();
    let mut clock = limit.clock.map(Clock::new);
    let mut adjudicator = Adjudicator::new(adjudication);
    let mut searched = Vec::new();
    let (outcome, ending) = loop {
        if let Some(end) = rules::verdict(&position) {
            break end;
        }
        let board = position.board();
        let mover = board.side_to_move();
        let limits = limit.for_move(clock.as_ref(), mover);
        let Some(search) = players[seats[mover.index()]].search(&position, limits) else {
            break rules::without_moves(board);
        };
        if let Some(clock) = clock.as_mut() {
            if !clock.charge(mover, search.elapsed) {
                break (rules::time_forfeit(board, mover), Ending::TimeForfeit);
            }
        }
        let fullmove = board.fullmove_number();
        position.make_move(search.best);
        searched.push(search);
        // The rules come first: a mating move ends the game as mate.
        if let Some(end) = rules::verdict(&position) {
            break end;
        }
        if let Some(end) = adjudicator.observe(mover, search.score, fullmove) {
            break end;
        }
    };
    Game {
        opening,
        searched,
        outcome,
        ending,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::PlayerSettings;
    use chess::Board;

    fn opening(fen: &str) -> Opening {
        Opening {
            start: Board::from_fen(fen).unwrap(),
            moves: Vec::new(),
            chess960: false,
        }
    }

    fn nodes(n: u64) -> MoveLimit {
        MoveLimit {
            nodes: Some(n),
            ..MoveLimit::default()
        }
    }

    #[test]
    fn a_won_ending_is_mated() {
        let mut players = [Player::new(&PlayerSettings::new(1).unwrap()).unwrap()];
        // Two rooks against a king: a short ladder mate.
        let game = play(
            opening("8/8/8/4k3/8/8/8/R3K2R w - - 0 1"),
            &mut players,
            [0, 0],
            &nodes(5_000),
            AdjudicationRules {
                resign_moves: 0,
                ..AdjudicationRules::default()
            },
        );
        assert_eq!(
            (game.outcome, game.ending),
            (Outcome::WhiteWins, Ending::Checkmate)
        );
        assert!(game.searched.len() < 40, "{}", game.searched.len());
        let mut board = game.opening.position();
        for s in &game.searched {
            assert!(board.is_legal(s.best));
            board.make_move(s.best);
        }
        assert!(board.in_check() && !board.has_legal_move());
    }

    #[test]
    fn agreeing_scores_resign_and_an_ended_opening_is_not_played() {
        let mut players = [
            Player::new(&PlayerSettings::new(1).unwrap()).unwrap(),
            Player::new(&PlayerSettings::new(1).unwrap()).unwrap(),
        ];
        let game = play(
            opening("8/8/8/4k3/8/8/8/3QK3 w - - 0 1"),
            &mut players,
            [1, 0],
            &nodes(2_000),
            AdjudicationRules::default(),
        );
        assert_eq!(
            (game.outcome, game.ending),
            (Outcome::WhiteWins, Ending::Resignation)
        );
        assert_eq!(game.searched.len(), 6);
        let game = play(
            opening("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1"),
            &mut players,
            [0, 1],
            &nodes(2_000),
            AdjudicationRules::default(),
        );
        assert_eq!(
            (game.outcome, game.ending),
            (Outcome::WhiteWins, Ending::Checkmate)
        );
        assert!(game.searched.is_empty());
    }
}
