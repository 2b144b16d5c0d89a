//! Training positions around the self-play games: from each self-play
//! position a few short random walks, each ending in a quiet position that
//! the engine's static evaluation (hand-crafted, or a network) or a short
//! search scores. A static evaluation costs a microsecond, so millions of positions are labelled in
//! seconds and a net pretrained on them starts its training on the search
//! scores knowing the evaluation that made them; a search of a few hundred
//! nodes costs a fraction of a millisecond and labels what the evaluation
//! alone misses, far cheaper than a self-play record, which pays for a whole
//! game (docs/nets.md, "Distillation").

use chess::{Board, Move, Position};
use chessio::{GameResult, PackedRecord, Record};
use engine::see::see_ge;
use engine::{AllocError, Engine, Limits, SearchOptions, SearchRequest};
use eval::nnue::Network;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use std::sync::Arc;
use std::time::Instant;

/// How the walks are made.
#[derive(Clone, Debug)]
pub struct Walks {
    /// Walks from each input position.
    pub per_position: usize,
    /// The most random plies in a walk (each walk takes 1 to this many).
    pub max_plies: usize,
    /// Positions scored beyond this are left out, as `convert` leaves out
    /// the self-play records beyond it.
    pub max_score: i32,
    pub seed: u64,
    pub label: Label,
    /// The evaluation of the labels, searched or not: the network, or with
    /// `None` the hand-crafted evaluation.
    pub network: Option<Arc<Network>>,
}

/// What scores a walk's last position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// The static evaluation.
    Evaluation,
    /// A single-threaded search of this many nodes; positions whose best move is a capture or promotion are
    /// left out, as the self-play filter leaves them out.
    Search { nodes: u64 },
}

/// Transposition table of each labelling search, in megabytes: the searches
/// are a few thousand nodes.
const SEARCH_HASH_MB: usize = 4;

/// Scores positions for one unit of work. A searching labeller keeps its
/// table from one position to the next, as self-play keeps it from one move
/// to the next; the units run in a fixed order of positions, so the labels
/// do not depend on the number of threads.
enum Labeller {
    Evaluation(eval::Evaluator),
    Search { engine: Engine, nodes: u64 },
}

impl Labeller {
    fn new(label: Label, network: Option<Arc<Network>>) -> Result<Labeller, AllocError> {
        Ok(match label {
            Label::Evaluation => Labeller::Evaluation(eval::Evaluator::new(network)),
            Label::Search { nodes } => {
                let mut engine = Engine::new(SEARCH_HASH_MB)?;
                engine.set_network(network);
                Labeller::Search { engine, nodes }
            }
        })
    }

    /// The score of a quiet `board` for the side to move, or `None` when it
    /// is not to be a training position.
    fn score(&mut self, board: &Board) -> Option<i32> {
        match self {
            Labeller::Evaluation(evaluator) => {
                evaluator.reset(board);
                Some(evaluator.evaluate(board))
            }
            Labeller::Search { engine, nodes } => {
                let result = engine.search(SearchRequest {
                    position: Position::new(board.clone()),
                    limits: Limits {
                        nodes: Some(*nodes),
                        ..Limits::default()
                    },
                    options: SearchOptions::default(),
                    start: Instant::now(),
                });
                let line = result.lines.first()?;
                let &best = line.pv.first()?;
                (!is_tactical(board, best)).then_some(line.score)
            }
        }
    }
}

fn is_tactical(board: &Board, m: Move) -> bool {
    m.is_promotion() || m.is_en_passant() || (!m.is_castle() && board.piece_on(m.to()).is_some())
}

/// Positions per unit of parallel work; each unit has its own generator,
/// seeded by the seed and its index, so that the output does not depend on
/// the number of threads.
const CHUNK: usize = 4096;

/// Whether the evaluation of `board` as it stands means something: the side
/// to move is not in check and has no capture or promotion that wins
/// material by exchange.
fn is_quiet(board: &Board) -> bool {
    if board.in_check() {
        return false;
    }
    let moves = board.legal_moves();
    !moves.is_empty()
        && moves
            .as_slice()
            .iter()
            .all(|&m| !is_tactical(board, m) || !see_ge(board, m, 1))
}

/// One walk of 1 to `max_plies` random legal moves from `start`, or `None`
/// when it meets the end of the game.
fn walk(start: &Board, max_plies: usize, rng: &mut StdRng) -> Option<Board> {
    let mut board = start.clone();
    for _ in 0..rng.gen_range(1..=max_plies) {
        let moves = board.legal_moves();
        let &m = moves.as_slice().choose(rng)?;
        board.make_move(m);
    }
    Some(board)
}

/// The labelled positions of `walks` from every input record, shuffled;
/// their score is for the side to move and their result a draw (train on
/// them with lambda 0).
pub fn distil(inputs: &[PackedRecord], walks: &Walks) -> Result<Vec<PackedRecord>, AllocError> {
    let chunks: Vec<Vec<PackedRecord>> = inputs
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(index, chunk)| {
            let mut rng = StdRng::seed_from_u64(
                walks.seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            );
            let mut labeller = Labeller::new(walks.label, walks.network.clone())?;
            let mut labelled = Vec::new();
            for record in chunk {
                let Ok(start) = record.unpack() else { continue };
                for _ in 0..walks.per_position {
                    let Some(board) = walk(start.board(), walks.max_plies, &mut rng) else {
                        continue;
                    };
                    if !is_quiet(&board) {
                        continue;
                    }
                    let Some(score) = labeller.score(&board) else {
                        continue;
                    };
                    if score.abs() > walks.max_score {
                        continue;
                    }
                    if let Ok(r) = Record::new(board, score as i16, GameResult::Draw) {
                        labelled.push(r.pack());
                    }
                }
            }
            Ok(labelled)
        })
        .collect::<Result<_, AllocError>>()?;
    let mut out: Vec<PackedRecord> = chunks.into_iter().flatten().collect();
    out.shuffle(&mut StdRng::seed_from_u64(walks.seed));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start() -> Vec<PackedRecord> {
        [
            "bqnrkbnr/pppppppp/8/8/8/8/PPPPPPPP/BQNRKBNR w KQkq - 0 1 | 20 | 0.5",
            "r3k2r/ppp2ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPP2PPP/R3K2R w KQkq - 0 8 | 10 | 1.0",
            "8/5k2/8/3K4/8/8/4P3/8 w - - 0 50 | 300 | 1.0",
        ]
        .iter()
        .map(|l| l.parse::<Record>().unwrap().pack())
        .collect()
    }

    fn walks(seed: u64) -> Walks {
        Walks {
            per_position: 20,
            max_plies: 4,
            max_score: 3000,
            seed,
            label: Label::Evaluation,
            network: None,
        }
    }

    /// Each record's board, score and static evaluation, checking that the
    /// board is quiet and the result a draw.
    fn quiet_draws(out: &[PackedRecord]) -> impl Iterator<Item = (Board, i32, i32)> + '_ {
        let mut evaluator = eval::Evaluator::new(None);
        out.iter().map(move |packed| {
            let r = packed.unpack().unwrap();
            let board = r.board().clone();
            assert!(is_quiet(&board));
            assert_eq!(r.result(), GameResult::Draw);
            evaluator.reset(&board);
            let evaluation = evaluator.evaluate(&board);
            (board, i32::from(r.score()), evaluation)
        })
    }

    #[test]
    fn walks_end_in_quiet_positions_scored_by_the_evaluation() {
        let out = distil(&start(), &walks(5)).unwrap();
        assert!(out.len() > 20 && out.len() <= 60, "{}", out.len());
        let mut differ = 0;
        for (board, score, evaluation) in quiet_draws(&out) {
            assert_eq!(score, evaluation);
            differ += usize::from(
                start()
                    .iter()
                    .all(|s| s.unpack().unwrap().board() != &board),
            );
        }
        assert!(
            differ > out.len() / 2,
            "the walks should leave their starts"
        );
        assert_eq!(distil(&start(), &walks(5)).unwrap(), out);
        assert_ne!(distil(&start(), &walks(6)).unwrap(), out);
    }

    #[test]
    fn searched_labels_are_the_search_scores_of_positions_with_a_quiet_best_move() {
        let searched = Walks {
            label: Label::Search { nodes: 300 },
            ..walks(5)
        };
        let out = distil(&start(), &searched).unwrap();
        assert!(!out.is_empty());
        let differ = quiet_draws(&out)
            .filter(|(_, score, evaluation)| score != evaluation)
            .count();
        assert!(
            differ > out.len() / 2,
            "a search should score most positions otherwise than the evaluation"
        );
        assert_eq!(distil(&start(), &searched).unwrap(), out);
    }

    #[test]
    fn a_search_sees_what_the_evaluation_misses_and_leaves_out_captures() {
        let mut labeller = Labeller::new(Label::Search { nodes: 2000 }, None).unwrap();
        let mut evaluator = eval::Evaluator::new(None);
        // Quiet by exchange, but the knight forks king and queen from c7.
        let fork = Board::from_fen("q3k3/8/8/1N6/8/8/7P/4K3 w - - 0 1").unwrap();
        assert!(is_quiet(&fork));
        evaluator.reset(&fork);
        let searched = labeller.score(&fork).unwrap();
        assert!(searched > evaluator.evaluate(&fork) + 500, "{searched}");
        // The rook takes the queen: not a training position.
        let hanging = Board::from_fen("4k3/8/8/8/q7/8/8/R3K3 w - - 0 1").unwrap();
        assert_eq!(labeller.score(&hanging), None);
    }

    #[test]
    fn a_network_labels_in_place_of_the_hand_crafted_evaluation() {
        let net = Arc::new(testkit::nets::random_network(16, 2, 3).unwrap());
        let mut evaluator = eval::Evaluator::new(Some(Arc::clone(&net)));
        let by_net = Walks {
            network: Some(Arc::clone(&net)),
            ..walks(5)
        };
        let out = distil(&start(), &by_net).unwrap();
        assert!(!out.is_empty());
        let mut differ = 0;
        for (board, score, hand_crafted) in quiet_draws(&out) {
            evaluator.reset(&board);
            assert_eq!(score, evaluator.evaluate(&board));
            differ += usize::from(score != hand_crafted);
        }
        assert!(differ > out.len() / 2, "{differ} of {}", out.len());
        let searched = Walks {
            label: Label::Search { nodes: 300 },
            ..by_net.clone()
        };
        assert_ne!(
            distil(&start(), &searched).unwrap(),
            distil(
                &start(),
                &Walks {
                    network: None,
                    ..searched
                }
            )
            .unwrap(),
            "the searches evaluate with the network"
        );
    }

    #[test]
    fn a_winning_capture_or_a_check_is_not_quiet() {
        let quiet = Board::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        assert!(is_quiet(&quiet));
        // The rook takes an undefended knight.
        let hanging = Board::from_fen("4k3/8/8/8/n7/8/8/R3K3 w - - 0 1").unwrap();
        assert!(!is_quiet(&hanging));
        // A defended pawn: taking it with the queen loses the exchange.
        let defended = Board::from_fen("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1").unwrap();
        assert!(is_quiet(&defended));
        let check = Board::from_fen("4k3/8/8/8/8/8/8/4RK2 b - - 0 1").unwrap();
        assert!(!is_quiet(&check));
    }
}
