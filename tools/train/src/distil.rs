//! Pretraining positions labelled by the hand-crafted evaluation: from each
//! self-play position a few short random walks, each ending in a quiet
//! position that the evaluation scores. A static evaluation costs a
//! microsecond where a 5,000-node search costs milliseconds, so millions of
//! positions around the self-play games are labelled in seconds; a net
//! pretrained on them starts its training on the search scores knowing the
//! evaluation that made them (docs/nets.md, "Distillation").

use chessio::{GameResult, PackedRecord, Record};
use engine::see::see_ge;
use movegen::Board;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

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
        && moves.as_slice().iter().all(|&m| {
            let tactical = m.is_promotion()
                || m.is_en_passant()
                || (!m.is_castle() && board.piece_on(m.to()).is_some());
            !tactical || !see_ge(board, m, 1)
        })
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
/// their score is the hand-crafted evaluation for the side to move and
/// their result a draw (train on them with lambda 0).
pub fn distil(inputs: &[PackedRecord], walks: &Walks) -> Vec<PackedRecord> {
    let mut out: Vec<PackedRecord> = inputs
        .par_chunks(CHUNK)
        .enumerate()
        .flat_map_iter(|(index, chunk)| {
            let mut rng = StdRng::seed_from_u64(
                walks.seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            );
            let mut evaluator = eval::Evaluator::new(None);
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
                    evaluator.reset(&board);
                    let score = evaluator.evaluate(&board);
                    if score.abs() > walks.max_score {
                        continue;
                    }
                    if let Ok(r) = Record::new(board, score as i16, GameResult::Draw) {
                        labelled.push(r.pack());
                    }
                }
            }
            labelled
        })
        .collect();
    out.shuffle(&mut StdRng::seed_from_u64(walks.seed));
    out
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
        }
    }

    #[test]
    fn walks_end_in_quiet_positions_scored_by_the_evaluation() {
        let out = distil(&start(), &walks(5));
        assert!(out.len() > 20 && out.len() <= 60, "{}", out.len());
        let mut evaluator = eval::Evaluator::new(None);
        let mut differ = 0;
        for packed in &out {
            let r = packed.unpack().unwrap();
            let board = r.board();
            assert!(is_quiet(board));
            evaluator.reset(board);
            assert_eq!(i32::from(r.score()), evaluator.evaluate(board));
            assert_eq!(r.result(), GameResult::Draw);
            differ += usize::from(start().iter().all(|s| s.unpack().unwrap().board() != board));
        }
        assert!(
            differ > out.len() / 2,
            "the walks should leave their starts"
        );
        assert_eq!(distil(&start(), &walks(5)), out);
        assert_ne!(distil(&start(), &walks(6)), out);
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
