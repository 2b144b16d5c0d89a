//! `bench`: a fixed search over a fixed list of positions, one thread, a
//! 16 MB table cleared before each position. The node count identifies the
//! search's behaviour (it goes into commit messages); the speed is nodes
//! per second of the whole run.

use crate::engine::{Engine, SearchRequest};
use crate::limits::{Limits, SearchOptions};
use chess::{Board, Position};
use eval::nnue::Network;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub const DEFAULT_DEPTH: i32 = 10;
pub const HASH_MB: usize = 16;

/// Classical, Chess960 and Double Fischer Random positions: openings,
/// middlegames with castling still possible, and endgames.
pub const POSITIONS: &[&str] = &[
    // Classical
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 3 8",
    "2r3k1/pp3ppp/2n5/3p4/3P4/2P2N2/P4PPP/4R1K1 w - - 0 22",
    "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 40",
    "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 50",
    "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 14",
    "8/3k4/8/8/8/8/2QK4/8 w - - 0 1",
    "3r2k1/p4ppp/1p6/8/8/1P4P1/P4P1P/3R2K1 w - - 0 30",
    // Chess960 start positions
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1",
    "qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w HEhe - 0 1",
    "nrkbbrqn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBRQN w FBfb - 0 1",
    // Chess960 middlegames
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
    "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
    "1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9",
    "qnbnr1kr/ppp1b1pp/4p3/3p1p2/8/2NPP3/PPP1BPPP/QNB1R1KR w HEhe - 1 9",
    "q1bnrkr1/ppppp2p/2n2p2/4b1p1/2NP4/8/PPP1PPPP/QNB1RRKB w ge - 1 9",
    "qnr1bkrb/pppp2pp/3np3/5p2/8/P2P2P1/NPP1PP1P/QN1RBKRB w GDg - 3 9",
    "qb1nrkbr/1pppp1p1/1n3p2/p1B4p/8/3P1P1P/PPP1P1P1/QBNNRK1R w HEhe - 0 9",
    "r5kr/pB3qpn/nb1p1p1p/1pp1p3/P1PP2P1/5N1b/1P1QPP1P/B2K1R1R w Fha - 0 15",
    "rb2rk2/1pp1q1p1/pnb2p1p/Pn2p3/NP2PP2/5N2/2P3PP/B2R2KR b KQe - 1 17",
    // Double Fischer Random
    "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1",
    "rbqknnbr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w HEha - 0 1",
    "qbnrbknr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQhd - 0 1",
    "rr3k2/n2pp2p/p4q2/1pBp1pp1/n4PP1/1PP1Q2P/B2Pb1N1/R5KR b KQb - 2 22",
    "rrkB2q1/p2p1p2/4bn2/3p1n1p/1pP1Pp2/P4N2/1P4PP/B1RQK1RB w KQb - 2 19",
];

/// Nodes and speed of a bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    pub nodes: u64,
    pub elapsed: Duration,
}

impl BenchResult {
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

/// Searches every bench position to `depth` with `network` (`None`: the
/// hand-crafted evaluation); `progress` is told each position's index, FEN
/// and node count.
pub fn run(
    depth: i32,
    network: Option<Arc<Network>>,
    mut progress: impl FnMut(usize, &str, u64),
) -> BenchResult {
    let Ok(mut engine) = Engine::new(HASH_MB) else {
        return BenchResult {
            nodes: 0,
            elapsed: Duration::ZERO,
        };
    };
    engine.set_network(network);
    let start = Instant::now();
    let mut total = 0;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let Ok(root) = Board::from_fen(fen) else {
            continue;
        };
        engine.clear();
        let request = SearchRequest {
            position: Position::new(root),
            limits: Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            options: SearchOptions::default(),
            start: Instant::now(),
        };
        let nodes = engine.search(request).nodes;
        progress(i, fen, nodes);
        total += nodes;
    }
    BenchResult {
        nodes: total,
        elapsed: start.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_valid_and_bench_is_deterministic() {
        for fen in POSITIONS {
            assert!(Board::from_fen(fen).is_ok(), "{fen}");
        }
        let a = run(4, None, |_, _, _| {});
        let b = run(4, None, |_, _, _| {});
        assert!(a.nodes > 10_000);
        assert_eq!(a.nodes, b.nodes);
    }

    /// A network with small weights in a fixed pattern.
    fn patterned_network(hidden: usize) -> Arc<Network> {
        let pattern = |n: usize, modulus: usize| -> Vec<i16> {
            (0..n)
                .map(|i| ((i * 7919) % modulus) as i16 - (modulus / 2) as i16)
                .collect()
        };
        let net = Network::new(
            eval::nnue::Inputs::Plain,
            pattern(768 * hidden, 101),
            vec![64; hidden],
            pattern(8 * 2 * hidden, 61),
            vec![0; 8],
        );
        Arc::new(net.unwrap())
    }

    #[test]
    fn bench_with_a_network_searches_with_it_deterministically() {
        // With debug assertions, every evaluation also checks that the
        // search told the evaluator of each move made and unmade.
        let net = patterned_network(32);
        let a = run(4, Some(Arc::clone(&net)), |_, _, _| {});
        let b = run(4, Some(net), |_, _, _| {});
        assert_eq!(a.nodes, b.nodes);
        assert_ne!(a.nodes, run(4, None, |_, _, _| {}).nodes);
    }
}
