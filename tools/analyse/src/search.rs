//! One engine searching the positions of the games, on the calling thread's
//! behalf, handing back the final principal variations (one per MultiPV
//! line, best first).

use chess::{Board, Move, Position};
use engine::score::{mated_in, DRAW};
use engine::{AllocError, Engine, Limits, SearchOptions, SearchRequest};
use eval::nnue::Network;
use std::sync::Arc;
use std::time::Instant;

/// One line of the engine's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variation {
    /// From the side to move.
    pub score: i32,
    pub moves: Vec<Move>,
}

/// What a position is worth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// Checkmate or stalemate: the score is exact and there is no line.
    Final(i32),
    /// The best line's score, and the lines (best first) as far as they
    /// can be written.
    Searched { score: i32, lines: Vec<Variation> },
}

impl Evaluation {
    /// From the side to move.
    pub fn score(&self) -> i32 {
        match self {
            Evaluation::Final(score) | Evaluation::Searched { score, .. } => *score,
        }
    }

    pub fn lines(&self) -> &[Variation] {
        match self {
            Evaluation::Final(_) => &[],
            Evaluation::Searched { lines, .. } => lines,
        }
    }

    pub fn best_move(&self) -> Option<Move> {
        self.lines().first().and_then(|l| l.moves.first().copied())
    }
}

pub struct Analyser {
    engine: Engine,
    limits: Limits,
    options: SearchOptions,
}

impl Analyser {
    pub fn new(hash_mb: usize, limits: Limits, options: SearchOptions) -> Result<Self, AllocError> {
        Ok(Analyser {
            engine: Engine::new(hash_mb)?,
            limits,
            options,
        })
    }

    /// Evaluates with `network` (`None`: the hand-crafted evaluation).
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        self.engine.set_network(network);
    }

    /// Forgets the last game: a game's analysis depends on it alone.
    pub fn new_game(&mut self) {
        self.engine.clear();
    }

    /// Evaluates the game's current position; the game's earlier positions
    /// let the search see repetitions. `None` when the search ended without
    /// a completed line, which only a tiny `--movetime` can cause.
    pub fn evaluate(&mut self, position: &Position) -> Option<Evaluation> {
        let board = position.board();
        if !board.has_legal_move() {
            let score = if board.in_check() { mated_in(0) } else { DRAW };
            return Some(Evaluation::Final(score));
        }
        let request = SearchRequest {
            position: position.clone(),
            limits: self.limits.clone(),
            options: self.options.clone(),
            start: Instant::now(),
        };
        let lines: Vec<Variation> = self
            .engine
            .search(request)
            .lines
            .into_iter()
            .map(|line| Variation {
                score: line.score,
                moves: line.pv,
            })
            .collect();
        Some(Evaluation::Searched {
            score: lines.first()?.score,
            lines: legal_prefixes(board, lines),
        })
    }
}

/// Each line cut at its first move that is not legal where it is played,
/// and left out if that is its first: the lines are printed as SAN, which
/// needs legal moves. The search's own lines are legal; this guards the
/// output against a corrupt one.
fn legal_prefixes(board: &Board, lines: Vec<Variation>) -> Vec<Variation> {
    lines
        .into_iter()
        .filter_map(|mut line| {
            let mut b = board.clone();
            let legal = line
                .moves
                .iter()
                .take_while(|&&m| {
                    let ok = b.is_legal(m);
                    if ok {
                        b.make_move(m);
                    }
                    ok
                })
                .count();
            line.moves.truncate(legal);
            (!line.moves.is_empty()).then_some(line)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::score::mate_in;

    fn analyser(depth: i32, multi_pv: usize) -> Analyser {
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let options = SearchOptions {
            multi_pv,
            ..SearchOptions::default()
        };
        Analyser::new(1, limits, options).unwrap()
    }

    #[test]
    fn finds_the_mate_with_its_line() {
        let board = Board::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        let eval = analyser(4, 1)
            .evaluate(&Position::new(board.clone()))
            .unwrap();
        assert_eq!(eval.score(), mate_in(1));
        assert_eq!(
            eval.best_move().map(|m| board.san(m)).as_deref(),
            Some("Ra8#")
        );
        assert!(matches!(eval, Evaluation::Searched { score, .. } if score == mate_in(1)));
    }

    #[test]
    fn mate_and_stalemate_need_no_search() {
        let mated = Board::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1").unwrap();
        let stalemate = Board::from_fen("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1").unwrap();
        let mut s = analyser(4, 1);
        assert_eq!(
            s.evaluate(&Position::new(mated)),
            Some(Evaluation::Final(mated_in(0)))
        );
        assert_eq!(
            s.evaluate(&Position::new(stalemate)),
            Some(Evaluation::Final(0))
        );
        assert_eq!(Evaluation::Final(0).best_move(), None);
    }

    #[test]
    fn multipv_gives_distinct_lines_best_first() {
        let board = chess::chess960::start_position(123).unwrap();
        let eval = analyser(5, 3)
            .evaluate(&Position::new(board.clone()))
            .unwrap();
        let lines = eval.lines();
        assert_eq!(lines.len(), 3);
        assert!(lines.windows(2).all(|w| w[0].score >= w[1].score));
        let firsts: Vec<Move> = lines.iter().map(|l| l.moves[0]).collect();
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
        assert_eq!(eval.score(), lines[0].score);
    }

    #[test]
    fn illegal_tails_are_cut_from_lines() {
        let board = Board::startpos();
        let e4 = board.parse_san("e4").unwrap();
        let lines = vec![
            Variation {
                score: 10,
                // e2e4 twice: the second is not legal.
                moves: vec![e4, e4],
            },
            Variation {
                score: 5,
                moves: vec![Move::NONE],
            },
        ];
        assert_eq!(
            legal_prefixes(&board, lines),
            vec![Variation {
                score: 10,
                moves: vec![e4]
            }]
        );
    }
}
