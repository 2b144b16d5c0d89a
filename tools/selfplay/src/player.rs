//! One engine as a self-play player: runs a search to its end on the
//! calling thread and hands back the move with its score and depth.

use engine::{AllocError, Engine, Limits, PvInfo, Reporter, SearchOptions, SearchRequest};
use movegen::{Board, Move};
use std::sync::{Arc, Mutex};
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
}

impl Player {
    pub fn new(hash_mb: usize) -> Result<Player, AllocError> {
        Ok(Player {
            engine: Engine::new(hash_mb)?,
        })
    }

    /// Forgets the last game, so that a game depends only on its opening.
    pub fn new_game(&mut self) {
        self.engine.clear();
    }

    /// Searches `board` (reached through the positions with `history` keys,
    /// oldest first) on one thread; `None` when it has no legal move.
    pub fn search(&mut self, board: &Board, history: &[u64], limits: Limits) -> Option<Searched> {
        let collector = Arc::new(Collector::default());
        let start = Instant::now();
        let request = SearchRequest {
            root: board.clone(),
            history: history.to_vec(),
            limits,
            options: SearchOptions::default(),
            start,
        };
        self.engine.start(request, collector.clone());
        self.engine.wait();
        let elapsed = start.elapsed();
        let found = collector.found.lock().unwrap_or_else(|e| e.into_inner());
        let best = found.best?;
        Some(Searched {
            best,
            score: found.exact.map(|(_, score)| score),
            depth: found.exact.map_or(0, |(depth, _)| depth),
            elapsed,
        })
    }
}

#[derive(Default)]
struct Found {
    /// Depth and score of the last exact principal variation: the final
    /// one, which the engine reports for the line it plays.
    exact: Option<(i32, i32)>,
    best: Option<Move>,
}

#[derive(Default)]
struct Collector {
    found: Mutex<Found>,
}

impl Reporter for Collector {
    fn pv(&self, info: &PvInfo) {
        if info.multipv == 1 && info.bound.is_none() {
            let mut found = self.found.lock().unwrap_or_else(|e| e.into_inner());
            found.exact = Some((info.depth, info.score));
        }
    }

    fn current_move(&self, _: i32, _: Move, _: usize) {}

    fn no_moves(&self, _: bool) {}

    fn best_move(&self, best: Option<Move>, _: Option<Move>) {
        self.found.lock().unwrap_or_else(|e| e.into_inner()).best = best;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        let mut player = Player::new(1).unwrap();
        let s = player.search(&board, &[], nodes(2_000)).unwrap();
        assert_eq!(board.san(s.best), "Ra8#");
        assert_eq!(s.score, Some(mate_in(1)));
        assert!(s.depth >= 1);
    }

    #[test]
    fn no_move_means_none_and_cleared_searches_repeat() {
        let mate = Board::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1").unwrap();
        let mut player = Player::new(1).unwrap();
        assert_eq!(player.search(&mate, &[], nodes(100)), None);
        let board = movegen::chess960::start_position(123).unwrap();
        let mut first = player.search(&board, &[], nodes(3_000)).unwrap();
        player.new_game();
        let mut second = player.search(&board, &[], nodes(3_000)).unwrap();
        first.elapsed = Duration::ZERO;
        second.elapsed = Duration::ZERO;
        assert_eq!(first, second);
    }
}
