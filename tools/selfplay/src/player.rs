//! One engine as a self-play player: runs a search to its end and hands
//! back the move with its score and depth.

use super::settings::PlayerSettings;
use chess::{Move, Position};
use engine::{AllocError, Engine, Limits, SearchOptions, SearchRequest};
use std::time::{Duration, Instant};

/// A finished search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searched {
    pub best: Move,
    /// From the mover's point of view; `None` when no iteration completed.
    pub score: Option<i32>,
    pub depth: i32,
    pub elapsed: Duration,
}

pub struct Player {
    engine: Engine,
    options: SearchOptions,
}

impl Player {
    /// A player with the options of `settings`.
    pub fn new(settings: &PlayerSettings) -> Result<Player, AllocError> {
        let mut engine = Engine::new(settings.hash_mb)?;
        engine.set_network(settings.evaluation.network());
        engine.set_params(settings.params);
        Ok(Player {
            engine,
            options: settings.search_options(),
        })
    }

    /// Forgets the last game, so that a game depends only on its opening.
    pub fn new_game(&mut self) {
        self.engine.clear();
    }

    /// Searches the game's current position; `None` when it has no legal
    /// move.
    pub fn search(&mut self, position: &Position, limits: Limits) -> Option<Searched> {
        let request = SearchRequest {
            position: position.clone(),
            limits,
            options: self.options.clone(),
            start: Instant::now(),
        };
        let result = self.engine.search(request);
        let line = result.lines.first();
        Some(Searched {
            best: result.best?,
            score: line.map(|l| l.score),
            depth: line.map_or(0, |_| result.depth),
            elapsed: result.elapsed,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::Board;
    use engine::score::mate_in;

    fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    #[test]
    fn finds_the_mate_and_scores_it() {
        // Back-rank mate in one: Ra8#.
        let board = Board::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        let mut player = Player::new(&PlayerSettings::new(1).unwrap()).unwrap();
        let s = player
            .search(&Position::new(board.clone()), nodes(2_000))
            .unwrap();
        assert_eq!(board.san(s.best), "Ra8#");
        assert_eq!(s.score, Some(mate_in(1)));
        assert!(s.depth >= 1);
    }

    #[test]
    fn no_move_means_none_and_cleared_searches_repeat() {
        let mate = Board::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1").unwrap();
        let mut player = Player::new(&PlayerSettings::new(1).unwrap()).unwrap();
        assert_eq!(player.search(&Position::new(mate), nodes(100)), None);
        let board = chess::chess960::start_position(123).unwrap();
        let mut first = player
            .search(&Position::new(board.clone()), nodes(3_000))
            .unwrap();
        player.new_game();
        let mut second = player
            .search(&Position::new(board.clone()), nodes(3_000))
            .unwrap();
        first.elapsed = Duration::ZERO;
        second.elapsed = Duration::ZERO;
        assert_eq!(first, second);
    }
}
