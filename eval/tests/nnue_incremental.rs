//! The network's accumulators, updated move by move through the evaluator's
//! make and unmake hooks, equal those computed from scratch, along random
//! games from Chess960 and DFRC starts that castle in every way, capture en
//! passant and promote, with plain inputs, with inputs mirrored by king
//! file (whose kings cross the middle of the board, by castling too) and
//! with king buckets (whose kings also change buckets).

use chess::{Board, Color, Move};
use eval::nnue::Inputs;
use eval::Evaluator;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::Arc;
use testkit::games::{random_game, Start};
use testkit::nets::random_network_with;

/// How often each rare kind of move was checked.
#[derive(Default, Debug)]
struct Seen {
    castles: [usize; 2],
    /// King and rook side by side before castling.
    adjacent_castles: usize,
    /// The king already on its castled square (only the rook moves).
    king_stays: usize,
    /// The rook already on its castled square (only the king moves).
    rook_stays: usize,
    en_passant: usize,
    promotions: usize,
    capture_promotions: usize,
    null_moves: usize,
    unmakes: usize,
    /// King moves and castles that change the king's view of the board
    /// (its half, its bucket).
    view_changes: usize,
    view_changing_castles: usize,
}

impl Seen {
    fn record(&mut self, inputs: Inputs, board: &Board, m: Move) {
        let king_to = if m.is_castle() {
            m.castle_destinations().0
        } else {
            m.to()
        };
        let us = board.side_to_move();
        let moves_king = board.king_square(us) == m.from();
        if moves_king && inputs.view(us, m.from()) != inputs.view(us, king_to) {
            self.view_changes += 1;
            self.view_changing_castles += usize::from(m.is_castle());
        }
        if m.is_castle() {
            self.castles[board.side_to_move().index()] += 1;
            let (king_to, rook_to) = m.castle_destinations();
            self.adjacent_castles += usize::from(m.from().index().abs_diff(m.to().index()) == 1);
            self.king_stays += usize::from(king_to == m.from());
            self.rook_stays += usize::from(rook_to == m.to());
        }
        self.en_passant += usize::from(m.is_en_passant());
        if m.is_promotion() {
            self.promotions += 1;
            self.capture_promotions += usize::from(board.piece_on(m.to()).is_some());
        }
    }
}

#[test]
fn incremental_accumulators_equal_a_refresh_along_random_games() {
    incremental_accumulators_equal_a_refresh(Inputs::Plain);
}

#[test]
fn incremental_accumulators_mirrored_by_king_file_equal_a_refresh() {
    incremental_accumulators_equal_a_refresh(Inputs::MirroredByKing);
}

#[test]
fn incremental_accumulators_with_king_buckets_equal_a_refresh() {
    incremental_accumulators_equal_a_refresh(Inputs::KingBuckets);
}

fn incremental_accumulators_equal_a_refresh(inputs: Inputs) {
    let net = Arc::new(random_network_with(inputs, 64, 8, 21).unwrap());
    let mut evaluator = Evaluator::new(Some(net));
    let mut rng = StdRng::seed_from_u64(0x5EED);
    let mut seen = Seen::default();
    let mut games = 0;
    while games < 400 {
        let start = Start::random(&mut rng);
        let Ok(board) = start.board() else { continue };
        games += 1;
        let game = random_game(&mut rng, board, 160);
        // The search's view: a line of made moves from the root, with
        // detours of null moves and of moves taken back.
        evaluator.reset(&game[0].board);
        for pair in game.windows(2) {
            let (before, after) = (&pair[0].board, &pair[1].board);
            let Some(m) = pair[1].last_move else { break };
            if rng.gen_ratio(1, 6) {
                let other = before.legal_moves();
                let detour = other.as_slice()[rng.gen_range(0..other.len())];
                let mut child = before.clone();
                evaluator.make_move(before, detour);
                child.make_move(detour);
                seen.record(inputs, before, detour);
                assert!(
                    evaluator.matches_refresh(&child),
                    "{child:?} after {detour:?}"
                );
                if !child.in_check() {
                    let mut passed = child.clone();
                    evaluator.make_null_move();
                    passed.make_null_move();
                    seen.null_moves += 1;
                    assert!(evaluator.matches_refresh(&passed), "{passed:?}");
                    evaluator.unmake();
                }
                evaluator.unmake();
                seen.unmakes += 1;
                assert!(evaluator.matches_refresh(before), "{before:?}");
            }
            evaluator.make_move(before, m);
            seen.record(inputs, before, m);
            // Unchecked plies leave entries to be caught up several at once.
            if rng.gen_ratio(2, 3) {
                assert!(evaluator.matches_refresh(after), "{after:?} after {m:?}");
            }
        }
        let last = &game[game.len() - 1].board;
        assert!(evaluator.matches_refresh(last), "{last:?}");
    }
    assert!(seen.castles[Color::White.index()] > 20, "{seen:?}");
    assert!(seen.castles[Color::Black.index()] > 20, "{seen:?}");
    assert!(seen.adjacent_castles > 0, "{seen:?}");
    assert!(seen.king_stays > 0, "{seen:?}");
    assert!(seen.rook_stays > 0, "{seen:?}");
    assert!(seen.en_passant > 10, "{seen:?}");
    assert!(seen.promotions > 10, "{seen:?}");
    assert!(seen.capture_promotions > 0, "{seen:?}");
    assert!(seen.null_moves > 100, "{seen:?}");
    assert!(seen.unmakes > 100, "{seen:?}");
    if inputs != Inputs::Plain {
        assert!(seen.view_changes > 100, "{seen:?}");
        assert!(seen.view_changing_castles > 10, "{seen:?}");
    }
}
