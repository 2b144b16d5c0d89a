//! Move-generator benches: legal move generation over a fixed set of
//! positions from random games, `make_move`, and perft 5 on four positions.
//! Run with `cargo bench --bench movegen`.

use chess::{perft, Board, MoveList};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use testkit::games::random_positions;

/// Perft positions: the start position, Kiwipete, the first line of the
/// Chess960 list and a castling-heavy position from chess960_hard.epd.
const PERFT_POSITIONS: [(&str, &str, u64); 4] = [
    (
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        4_865_609,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        193_690_690,
    ),
    (
        "chess960_bqnb1rkr",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        8_146_062,
    ),
    (
        "chess960_nrk2rbq",
        "nrk2rbq/pp4pp/4p3/b1p1Pp2/2pP4/5N2/PPB2nPP/RRK1N1BQ w Bfb f6 0 10",
        14_500_419,
    ),
];

fn sample_positions() -> Vec<Board> {
    random_positions(0xbe9c, 2_000, 120)
        .into_iter()
        .map(|p| p.board)
        .collect()
}

fn generation(c: &mut Criterion) {
    let boards = sample_positions();
    let mut group = c.benchmark_group("generation");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("legal_moves", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|board| black_box(board.legal_moves()).len())
                .sum::<usize>()
        })
    });
    group.bench_function("noisy_moves", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|board| {
                    let mut list = MoveList::new();
                    board.noisy_moves(&mut list);
                    black_box(list).len()
                })
                .sum::<usize>()
        })
    });
    let moves: Vec<(Board, chess::Move)> = boards
        .iter()
        .filter_map(|board| Some((board.clone(), *board.legal_moves().as_slice().first()?)))
        .collect();
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function("make_move", |b| {
        b.iter(|| {
            for (board, m) in &moves {
                let mut child = board.clone();
                child.make_move(*m);
                black_box(&child);
            }
        })
    });
    group.finish();
}

fn perft5(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft5");
    group.sample_size(10);
    for (name, fen, nodes) in PERFT_POSITIONS {
        let board = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(perft::perft(&board, 5), nodes, "{name}");
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::from_parameter(name), &board, |b, board| {
            b.iter(|| perft::perft(black_box(board), 5))
        });
    }
    group.finish();
}

criterion_group!(benches, generation, perft5);
criterion_main!(benches);
