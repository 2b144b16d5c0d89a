//! The scoring pool: positions handed out one at a time to worker threads,
//! each with an engine of its own searching on one thread, the results
//! handed back to the caller's thread as they finish.

use crate::starts::StartId;
use crate::{RunError, Scored};
use chess::{Color, Position};
use engine::{Engine, Limits, SearchOptions, SearchRequest};
use eval::nnue::Network;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::Instant;

/// How each position is searched.
pub struct Search {
    pub depth: i32,
    pub hash_mb: usize,
    /// `None`: the hand-crafted evaluation.
    pub network: Option<Arc<Network>>,
}

impl Search {
    fn engine(&self) -> Result<Engine, RunError> {
        let mut engine = Engine::new(self.hash_mb).map_err(RunError::Hash)?;
        engine.set_network(self.network.clone());
        Ok(engine)
    }

    /// The start's score from White's point of view. The engine forgets
    /// its last position first, so that the score depends on this one
    /// alone, whichever worker searched which positions before.
    fn score(&self, engine: &mut Engine, id: StartId) -> Result<Scored, RunError> {
        let board = id.board().map_err(RunError::Start)?;
        let white_to_move = board.side_to_move() == Color::White;
        engine.clear();
        let result = engine.search(SearchRequest {
            position: Position::new(board),
            limits: Limits {
                depth: Some(self.depth),
                ..Limits::default()
            },
            options: SearchOptions::default(),
            start: Instant::now(),
        });
        let score = result.lines.first().ok_or(RunError::NoScore(id))?.score;
        Ok(Scored {
            id,
            score: if white_to_move { score } else { -score },
            depth: result.depth,
        })
    }
}

/// Scores `todo` on `threads` workers, calling `done` on this thread for
/// each position as it finishes; the first error stops the workers after
/// the positions they are searching.
pub fn score(
    todo: &[StartId],
    search: &Search,
    threads: usize,
    mut done: impl FnMut(Scored) -> Result<(), RunError>,
) -> Result<(), RunError> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel();
    thread::scope(|scope| {
        for _ in 0..threads.min(todo.len()) {
            let sender = sender.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                let mut engine = match search.engine() {
                    Ok(engine) => engine,
                    Err(e) => {
                        // Only a receiver that stopped already is gone.
                        let _ = sender.send(Err(e));
                        return;
                    }
                };
                while !stop.load(Ordering::Relaxed) {
                    let Some(&id) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        return;
                    };
                    if sender.send(search.score(&mut engine, id)).is_err() {
                        return;
                    }
                }
            });
        }
        // The loop below ends when the last worker drops its sender.
        drop(sender);
        let mut outcome = Ok(());
        for scored in receiver {
            if outcome.is_ok() {
                outcome = scored.and_then(&mut done);
            }
            if outcome.is_err() {
                stop.store(true, Ordering::Relaxed);
            }
        }
        outcome
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search(depth: i32) -> Search {
        Search {
            depth,
            hash_mb: 1,
            network: None,
        }
    }

    fn all(todo: &[StartId], threads: usize) -> Vec<Scored> {
        let mut got = Vec::new();
        score(todo, &search(3), threads, |s| {
            got.push(s);
            Ok(())
        })
        .unwrap();
        got.sort_by_key(|s| s.id);
        got
    }

    #[test]
    fn scores_do_not_depend_on_the_threads() {
        let todo: Vec<StartId> = [0, 518, 959, 100, 7]
            .map(|n| StartId {
                white: n,
                black: (n + 1) % 960,
            })
            .to_vec();
        let one = all(&todo, 1);
        assert_eq!(one.len(), todo.len());
        assert!(
            one.iter().all(|s| s.depth == 3 && s.score.abs() < 1000),
            "{one:?}"
        );
        assert_eq!(all(&todo, 3), one);
    }

    #[test]
    fn the_first_error_stops_the_run() {
        let todo: Vec<StartId> = (0..40).map(|n| StartId { white: n, black: n }).collect();
        let mut calls = 0;
        let outcome = score(&todo, &search(1), 2, |s| {
            calls += 1;
            Err(RunError::NoScore(s.id))
        });
        assert!(matches!(outcome, Err(RunError::NoScore(_))));
        assert_eq!(calls, 1);
    }
}
