use super::*;
use crate::features::*;
use crate::weights::WEIGHTS;
use chess::{chess960, CastlingNotation};

/// The hand-crafted evaluation from White's point of view, without a cache.
fn evaluate_white(board: &Board) -> i32 {
    evaluate::evaluate(board, None, &mut NoTrace).white
}

/// The hand-crafted evaluation from the side to move's point of view.
fn evaluate(board: &Board) -> i32 {
    evaluate_white(board) * board.side_to_move().sign()
}

/// A small deterministic generator (xorshift64*).
pub(crate) struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Positions from random games out of random DFRC start positions.
pub(crate) fn random_positions(games: usize, seed: u64) -> Vec<Board> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let (w, b) = (rng.below(960) as u32, rng.below(960) as u32);
        let mut board = chess960::double_start_position(w, b).unwrap();
        let plies = 10 + rng.below(150);
        for _ in 0..plies {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer captures now and then, so that endgames come up.
            let m = moves.as_slice()[rng.below(moves.len())];
            board.make_move(m);
            out.push(board.clone());
        }
    }
    out
}

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap()
}

#[test]
fn colour_flipped_positions_evaluate_alike() {
    let positions = random_positions(200, 0x9E37_79B9_7F4A_7C15);
    assert!(positions.len() > 5000);
    for b in &positions {
        let f = b.flipped();
        assert_eq!(
            evaluate_white(b),
            -evaluate_white(&f),
            "{}",
            b.to_fen(CastlingNotation::Shredder)
        );
        assert_eq!(evaluate(b), evaluate(&f));
    }
}

#[test]
fn pawn_cache_matches_a_fresh_computation() {
    let positions = random_positions(60, 12345);
    // A tiny cache, so that entries are replaced and collide often.
    let mut small = Evaluator::with_pawn_cache(None, PawnCache::new(4));
    let mut normal = Evaluator::default();
    for _ in 0..2 {
        for b in &positions {
            let fresh = evaluate(b);
            assert_eq!(small.evaluate(b), fresh);
            assert_eq!(normal.evaluate(b), fresh);
        }
    }
}

#[test]
fn trace_rebuilds_the_evaluation() {
    for b in random_positions(60, 777) {
        let t = trace_position(&b);
        assert_eq!(t.white, evaluate_white(&b));
        if t.special.is_some() {
            continue;
        }
        let model = t.model_eval(&WEIGHTS);
        assert!(
            (model - f64::from(t.white)).abs() <= 2.0,
            "{}: model {model} engine {}",
            b.to_fen(CastlingNotation::Shredder),
            t.white
        );
        // The per-term table adds up to the total before interpolation.
        let mut total = S::default();
        for term in Term::ALL {
            total += t.term_score(term, 0, &WEIGHTS) - t.term_score(term, 1, &WEIGHTS);
        }
        let v = (total.mg * t.phase * SCALE_NORMAL + total.eg * (TOTAL_PHASE - t.phase) * t.scale)
            / (TOTAL_PHASE * SCALE_NORMAL);
        assert_eq!(v.clamp(-EVAL_LIMIT, EVAL_LIMIT), t.white);
    }
}

#[test]
fn known_drawn_material_scores_zero() {
    for fen in [
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
        "8/8/4k3/8/8/3NK3/8/8 w - - 0 1",
        "8/8/4k3/8/8/3BK3/8/8 b - - 0 1",
        "8/8/4k3/8/8/2NNK3/8/8 w - - 0 1",
        "8/8/2n1k3/8/8/3BK3/8/8 w - - 0 1",
        "8/8/2b1k3/8/8/3BK3/8/8 w - - 0 1",
        "8/8/2n1k3/8/8/3NK3/8/8 b - - 0 1",
        "8/8/4k3/8/8/2B1K3/3B4/8 w - - 0 1",
    ] {
        assert_eq!(evaluate(&board(fen)), 0, "{fen}");
        assert!(trace(&board(fen)).contains("Known draw"), "{fen}");
    }
}

#[test]
fn a_lone_king_is_driven_to_the_edge() {
    // KQ v K: the losing king on the edge scores higher than in the centre.
    let edge = evaluate(&board("3k4/8/8/8/8/8/8/2Q1K3 w - - 0 1"));
    let centre = evaluate(&board("8/8/8/3k4/8/8/8/2Q1K3 w - - 0 1"));
    assert!(edge > centre, "edge {edge} centre {centre}");
    assert!(centre > 2000);
    // Close kings help.
    let near = evaluate(&board("3k4/8/3K4/8/8/8/8/2Q5 w - - 0 1"));
    assert!(near > edge);
    // KR v K from Black's side.
    let edge = evaluate(&board("4k3/8/8/8/8/8/7r/K7 b - - 0 1"));
    let centre = evaluate(&board("4k3/8/8/8/3K4/8/7r/8 b - - 0 1"));
    assert!(edge > centre && centre > 2000);
    // KBN v K: the right corner is the bishop's colour (d1 is light: h1, a8).
    let right = evaluate(&board("k7/8/2K5/8/8/8/8/3BN3 w - - 0 1"));
    let wrong = evaluate(&board("7k/8/5K2/8/8/8/8/3BN3 w - - 0 1"));
    assert!(right > wrong, "right {right} wrong {wrong}");
    // And for a dark-squared bishop (e1): a1 and h8.
    let right = evaluate(&board("7k/8/5K2/8/8/8/8/4BN2 w - - 0 1"));
    let wrong = evaluate(&board("k7/8/2K5/8/8/8/8/4BN2 w - - 0 1"));
    assert!(right > wrong, "right {right} wrong {wrong}");
    // The wrong corner still beats the centre, both on the long diagonal
    // that is as far from either right corner (a light bishop, d1: the
    // lone king on a1 or d4, the kings two squares apart in both).
    let wrong_corner = evaluate(&board("8/8/8/8/8/2K5/8/k2BN3 w - - 0 1"));
    let centre = evaluate(&board("8/8/8/3k4/8/3K4/8/3BN3 w - - 0 1"));
    assert!(
        wrong_corner > centre,
        "wrong corner {wrong_corner} centre {centre}"
    );
    // Along the edge, every step from the wrong corner towards a right
    // one scores higher.
    let along: Vec<i32> = (0..8)
        .map(|rank| {
            // Black king on the a-file, White's two squares beside it,
            // bishop on h3 and knight on h1 (neither gives check).
            let mut squares = [['1'; 8]; 8];
            squares[rank][0] = 'k';
            squares[rank][2] = 'K';
            squares[2][7] = 'B';
            squares[0][7] = 'N';
            let rows: Vec<String> = squares.iter().rev().map(|r| r.iter().collect()).collect();
            evaluate(&board(&format!("{} w - - 0 1", rows.join("/"))))
        })
        .collect();
    assert!(along.windows(2).all(|w| w[1] > w[0]), "{along:?}");
}

/// A network evaluates pawnless endings of known value by the rules above:
/// drawn material 0, a lone king driven to the corner that mates; other
/// positions by the network.
#[test]
fn a_network_keeps_the_known_endings() {
    let net = crate::nnue::tests::random_net(32, 5);
    let mut with_net = Evaluator::new(Some(std::sync::Arc::clone(&net)));
    let mut by_net = |fen: &str| {
        let b = board(fen);
        with_net.reset(&b);
        with_net.evaluate(&b)
    };
    for fen in [
        "8/8/2n1k3/8/8/3NK3/8/8 b - - 0 1",
        "8/8/4k3/8/8/2NNK3/8/8 w - - 0 1",
    ] {
        assert_eq!(by_net(fen), 0, "{fen}");
    }
    for fen in [
        "k7/8/2K5/8/8/8/8/3BN3 w - - 0 1",
        "7k/8/5K2/8/8/8/8/3BN3 b - - 0 1",
        "4k3/8/8/8/8/8/7r/K7 b - - 0 1",
    ] {
        assert_eq!(by_net(fen), evaluate(&board(fen)), "{fen}");
    }
    let right = by_net("k7/8/2K5/8/8/8/8/3BN3 w - - 0 1");
    let wrong = by_net("7k/8/5K2/8/8/8/8/3BN3 w - - 0 1");
    assert!(right > wrong, "right {right} wrong {wrong}");
    // With pawns, or with material on both sides, the network's own.
    for fen in [
        "k7/p7/2K5/8/8/8/8/3BN3 w - - 0 1",
        "k7/8/2K5/8/8/8/r7/3BN3 w - - 0 1",
    ] {
        let b = board(fen);
        assert_eq!(by_net(fen), crate::nnue::evaluate(&net, &b), "{fen}");
    }
}

#[test]
fn evaluations_stay_far_from_mate_scores() {
    let b = board("7k/8/8/8/8/8/QQQQQQ2/QQQQKQQQ b - - 0 1");
    assert_eq!(evaluate_white(&b), EVAL_LIMIT);
}

#[test]
fn opposite_bishops_scale_down() {
    let ocb = trace_position(&board("8/4kb2/8/3P4/8/5P2/3BK3/8 w - - 0 1"));
    let same = trace_position(&board("8/4k3/5b2/3P4/8/5P2/3BK3/8 w - - 0 1"));
    assert!(ocb.scale < same.scale);
}

#[test]
fn corner_bishop_behind_its_pawn_is_recognised() {
    let t = trace_position(&board(
        "bqnbrkrn/pppppppp/8/8/8/1P6/P1PPPPPP/BQNBRKRN w GEge - 0 1",
    ));
    assert_eq!(t.coef[CORNER_BISHOP], [0, 1]);
    assert_eq!(t.coef[CORNER_BISHOP_BLOCKED], [0, 0]);
    let t = trace_position(&board(
        "bqnbrkrn/pp1ppppp/8/8/8/1p6/PPPPPPPP/BQNBRKRN w GEge - 0 1",
    ));
    assert_eq!(t.coef[CORNER_BISHOP], [1, 1]);
    assert_eq!(t.coef[CORNER_BISHOP_BLOCKED], [1, 0]);
    assert_eq!(t.coef[UNDEVELOPED_MINOR], [4, 4]);
    assert_eq!(t.coef[CASTLING_RIGHTS], [2, 2]);
}

#[test]
fn start_position_is_balanced_but_for_the_tempo() {
    let b = Board::startpos();
    assert_eq!(
        evaluate(&b),
        (WEIGHTS[TEMPO].mg * 24) / 24,
        "only the tempo separates the sides"
    );
}

#[test]
fn trace_ends_with_final_evaluation() {
    let b = board("4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
    let text = trace(&b);
    let last = text.lines().last().unwrap();
    assert_eq!(
        last,
        format!("Final evaluation: {} (white side)", evaluate_white(&b))
    );
    let b = board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let text = trace(&b);
    for term in Term::ALL {
        assert!(text.contains(term.label()), "{text}");
    }
    assert!(text.contains("Phase: 24 / 24"));
    assert_eq!(
        text.lines().last().unwrap(),
        format!("Final evaluation: {} (white side)", evaluate_white(&b))
    );
}
