//! The cost of a Syzygy WDL probe, board conversion included, over a
//! thousand positions of four materials (the test tables of
//! `tests/data/syzygy`, read from the page cache after the first pass),
//! next to the static evaluation of the same positions as the reference.
//! Run with `cargo bench --bench tablebase`.

use chess::Board;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use engine::tablebase::Tablebases;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;

const STARTS: [&str; 5] = [
    "8/8/8/8/2kr4/K7/8/Q7 w - - 0 1",
    "8/8/8/3k4/8/8/8/1NB1K3 w - - 0 1",
    "8/4k3/8/3p4/8/8/4P3/4K3 w - - 0 1",
    "8/8/3k4/8/8/3p4/8/R3K3 w - - 0 1",
    "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
];

/// Positions along random games from the starts, while they stay in the tables.
fn positions() -> Vec<Board> {
    let mut rng = StdRng::seed_from_u64(0x5e2);
    let mut out = Vec::new();
    while out.len() < 1000 {
        for fen in STARTS {
            let mut board = Board::from_fen(fen).expect("a legal start");
            for _ in 0..40 {
                let moves = board.legal_moves();
                if moves.as_slice().is_empty() || board.occupied().count() < 3 {
                    break;
                }
                let m = moves.as_slice()[rng.gen_range(0..moves.as_slice().len())];
                board.make_move(m);
                out.push(board.clone());
            }
        }
    }
    out.truncate(1000);
    out
}

fn bench(c: &mut Criterion) {
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
    let tables = Tablebases::load(folder).tables.expect("the test tables");
    let boards = positions();
    let mut group = c.benchmark_group("tablebase");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("wdl probe", |b| {
        b.iter(|| {
            for board in &boards {
                black_box(tables.wdl(black_box(board)).ok());
            }
        })
    });
    group.bench_function("static evaluation (reference)", |b| {
        let mut evaluator = eval::Evaluator::new(None);
        b.iter(|| {
            for board in &boards {
                evaluator.reset(board);
                black_box(evaluator.evaluate(black_box(board)));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
