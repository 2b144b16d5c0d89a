use super::network::{
    file_len, output_bucket, Inputs, NetError, Network, INPUTS, MAX_HIDDEN, MAX_OUTPUT_WEIGHT,
};
use super::{evaluate, Nnue, QA, QB, SCALE};
use crate::tests::{random_positions, Rng};
use chess::{Board, CastlingNotation, Color, File, Piece, PieceKind, Square};
use std::sync::Arc;

/// A network in floating point, as the trainer holds it.
struct FloatNet {
    inputs: Inputs,
    hidden: usize,
    w1: Vec<f64>,
    b1: Vec<f64>,
    /// Bucket-major rows of 2H.
    w2: Vec<f64>,
    b2: Vec<f64>,
}

impl Rng {
    /// Uniform in `lo..hi`.
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

impl FloatNet {
    fn random(inputs: Inputs, hidden: usize, buckets: usize, seed: u64) -> FloatNet {
        let mut rng = Rng(seed);
        FloatNet {
            inputs,
            hidden,
            w1: (0..inputs.features() * hidden)
                .map(|_| rng.uniform(-0.15, 0.15))
                .collect(),
            b1: (0..hidden).map(|_| rng.uniform(0.0, 0.6)).collect(),
            w2: (0..buckets * 2 * hidden)
                .map(|_| rng.uniform(-1.0, 1.0))
                .collect(),
            b2: (0..buckets).map(|_| rng.uniform(-0.2, 0.2)).collect(),
        }
    }

    /// Quantised as the contract says.
    fn quantise(&self) -> Network {
        let q = |v: &[f64], scale: i32| -> Vec<i16> {
            v.iter()
                .map(|w| (w * f64::from(scale)).round() as i16)
                .collect()
        };
        Network::new(
            self.inputs,
            q(&self.w1, QA),
            q(&self.b1, QA),
            q(&self.w2, QB),
            self.b2
                .iter()
                .map(|b| (b * f64::from(QA * QB)).round() as i32)
                .collect(),
        )
        .unwrap()
    }

    /// The same network with the quantised weights, back in floating point.
    fn dequantised(net: &Network) -> FloatNet {
        let bytes = net.to_bytes();
        let (h, buckets, rows) = (net.hidden(), net.buckets(), net.inputs().features());
        let word = |i: usize| f64::from(i16::from_le_bytes([bytes[24 + 2 * i], bytes[25 + 2 * i]]));
        let end = 24 + 2 * (rows * h + h + buckets * 2 * h);
        let b2 = |k: usize| {
            let at = end + 4 * k;
            i32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        FloatNet {
            inputs: net.inputs(),
            hidden: h,
            w1: (0..rows * h).map(|i| word(i) / f64::from(QA)).collect(),
            b1: (0..h).map(|i| word(rows * h + i) / f64::from(QA)).collect(),
            w2: (0..buckets * 2 * h)
                .map(|i| word(rows * h + h + i) / f64::from(QB))
                .collect(),
            b2: (0..buckets)
                .map(|k| f64::from(b2(k)) / f64::from(QA * QB))
                .collect(),
        }
    }

    /// The forward pass of the contract, in centipawns for the side to move.
    fn evaluate(&self, board: &Board) -> f64 {
        let h = self.hidden;
        let accumulate = |perspective: Color| -> Vec<f64> {
            let mut acc = self.b1.clone();
            // Mirrored by king file: files reversed when the perspective's
            // king stands on e to h.
            let king = board.king_square(perspective).index();
            let mirror = self.inputs != Inputs::Plain && king % 8 >= 4;
            // King buckets, by the king's square from its side, mirrored:
            // a1-b1, c1-d1, the second rank, the rest.
            let king = if perspective == Color::White {
                king
            } else {
                king ^ 56
            };
            let king = if mirror { king ^ 7 } else { king };
            let block = match (self.inputs, king / 8, king % 8) {
                (Inputs::KingBuckets, 0, 0 | 1) => 0,
                (Inputs::KingBuckets, 0, _) => 1,
                (Inputs::KingBuckets, 1, _) => 2,
                (Inputs::KingBuckets, _, _) => 3,
                _ => 0,
            };
            for sq in board.occupied() {
                let piece = board.piece_on(sq).unwrap();
                let side = usize::from(piece.color() != perspective);
                let s = if perspective == Color::White {
                    sq.index()
                } else {
                    sq.index() ^ 56
                };
                let s = if mirror { s ^ 7 } else { s };
                let f = block * INPUTS + (side * 6 + piece.kind().index()) * 64 + s;
                for (a, w) in acc.iter_mut().zip(&self.w1[f * h..(f + 1) * h]) {
                    *a += w;
                }
            }
            acc
        };
        let us = accumulate(board.side_to_move());
        let them = accumulate(!board.side_to_move());
        let screlu = |x: f64| x.clamp(0.0, 1.0).powi(2);
        // The contract's bucket: (pieces - 2) * B / 31.
        let bucket = (board.occupied().count() as usize - 2) * self.b2.len() / 31;
        let out = self.b2[bucket]
            + us.iter()
                .chain(&them)
                .zip(&self.w2[bucket * 2 * h..])
                .map(|(&x, w)| screlu(x) * w)
                .sum::<f64>();
        out * f64::from(SCALE)
    }
}

pub(crate) fn random_net(hidden: usize, seed: u64) -> Arc<Network> {
    random_net_with(Inputs::Plain, hidden, seed)
}

/// A random network with the input layout `inputs`; layouts of the same
/// size get the same weights.
fn random_net_with(inputs: Inputs, hidden: usize, seed: u64) -> Arc<Network> {
    Arc::new(FloatNet::random(inputs, hidden, 8, seed).quantise())
}

const LAYOUTS: [Inputs; 3] = [Inputs::Plain, Inputs::MirroredByKing, Inputs::KingBuckets];

#[test]
fn integer_inference_matches_the_float_network() {
    // 40 is not a multiple of the output layer's 16 lanes.
    for (hidden, buckets) in [(128, 1), (40, 1), (64, 8), (32, 3)] {
        matches_the_float_network(hidden, buckets, Inputs::Plain);
    }
    matches_the_float_network(64, 8, Inputs::MirroredByKing);
    matches_the_float_network(64, 8, Inputs::KingBuckets);
}

fn matches_the_float_network(hidden: usize, buckets: usize, inputs: Inputs) {
    let float = FloatNet::random(inputs, hidden, buckets, 1);
    let net = Arc::new(float.quantise());
    let dequantised = FloatNet::dequantised(&net);
    let positions = random_positions(40, 99);
    let mut spread = Vec::new();
    let mut quantisation_error = 0.0;
    let mut size = 0.0;
    for b in &positions {
        let cp = evaluate(&net, b);
        // Against the quantised weights only the integer divisions round.
        let exact = dequantised.evaluate(b);
        assert!(
            (f64::from(cp) - exact).abs() <= 1.5,
            "{cp} against {exact:.2}"
        );
        quantisation_error += (f64::from(cp) - float.evaluate(b)).abs();
        size += float.evaluate(b).abs();
        spread.push(cp);
    }
    // Against the trainer's weights, rounding them costs a few percent.
    let relative = quantisation_error / size;
    assert!(
        relative < 0.1,
        "error {relative:.3} of the evaluations' size"
    );
    spread.sort_unstable();
    assert!(spread[spread.len() - 1] - spread[0] > 300, "{spread:?}");
}

#[test]
fn colour_flipped_positions_evaluate_alike() {
    let net = random_net(40, 5);
    for b in random_positions(30, 17) {
        assert_eq!(evaluate(&net, &b), evaluate(&net, &b.flipped()));
    }
}

#[test]
fn the_side_to_move_sees_its_own_accumulator_first() {
    // White is a queen up; the same placement with either side to move.
    let net = random_net(32, 8);
    let white = Board::from_fen("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1").unwrap();
    let black = Board::from_fen("4k3/8/8/8/8/8/8/Q3K3 b - - 0 1").unwrap();
    let float = FloatNet::dequantised(&net);
    for b in [&white, &black] {
        assert!((f64::from(evaluate(&net, b)) - float.evaluate(b)).abs() <= 1.5);
    }
    assert_ne!(evaluate(&net, &white), evaluate(&net, &black));
}

#[test]
fn incremental_updates_match_a_refresh_over_moves_and_null_moves() {
    for inputs in LAYOUTS {
        incremental_updates_match_a_refresh(random_net_with(inputs, 48, 3));
    }
}

/// One stack refreshed on position after unrelated position: each refresh
/// goes through the cache slot its view left last, whatever pieces it held.
#[test]
fn a_refresh_from_the_cache_matches_one_from_scratch() {
    for inputs in LAYOUTS {
        let net = random_net_with(inputs, 48, 3);
        let mut nnue = Nnue::new(Arc::clone(&net));
        for board in random_positions(12, 9) {
            nnue.reset(&board);
            assert_eq!(nnue.evaluate(&board), evaluate(&net, &board), "{inputs:?}");
        }
    }
}

fn incremental_updates_match_a_refresh(net: Arc<Network>) {
    let mut rng = Rng(0xABCD);
    let mut nnue = Nnue::new(Arc::clone(&net));
    for start in random_positions(20, 4).into_iter().step_by(25) {
        nnue.reset(&start);
        let mut line = vec![start];
        for _ in 0..40 {
            let board = line.last().unwrap().clone();
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mut child = board.clone();
            if !board.in_check() && rng.below(8) == 0 {
                nnue.push_null();
                child.make_null_move();
            } else {
                let m = moves.as_slice()[rng.below(moves.len())];
                nnue.push_move(&board, m);
                child.make_move(m);
            }
            // Evaluate only now and then, so that updates span several plies.
            if rng.below(3) == 0 {
                assert_eq!(nnue.evaluate(&child), evaluate(&net, &child));
            }
            line.push(child);
            if rng.below(4) == 0 && line.len() > 1 {
                nnue.pop();
                line.pop();
                let back = line.last().unwrap();
                assert_eq!(nnue.evaluate(back), evaluate(&net, back));
            }
        }
    }
}

#[test]
fn a_written_network_reads_back() {
    let net = random_net(16, 2);
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), file_len(Inputs::Plain, 16, 8));
    assert_eq!(&bytes[..20], b"HVNNUE04\x10\0\0\0\x08\0\0\0\0\0\0\0");
    assert_eq!(Network::from_bytes(&bytes).unwrap(), *net);
    assert_eq!(net.hash(), super::network::fnv1a(&bytes[24..]));
    for (inputs, code) in [(Inputs::MirroredByKing, 1u32), (Inputs::KingBuckets, 2)] {
        let net = random_net_with(inputs, 16, 2);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), file_len(inputs, 16, 8));
        assert_eq!(bytes[16..20], code.to_le_bytes());
        assert_eq!(Network::from_bytes(&bytes).unwrap(), *net);
    }
    assert_eq!(
        file_len(Inputs::KingBuckets, 16, 8) - file_len(Inputs::MirroredByKing, 16, 8),
        2 * 3 * INPUTS * 16
    );
}

#[test]
fn output_buckets_split_the_material_evenly() {
    for buckets in [1, 2, 8, 16] {
        assert_eq!(output_bucket(2, buckets), 0);
        assert_eq!(output_bucket(32, buckets), buckets - 1);
        let counts = (2..=32).fold(vec![0; buckets], |mut c, pieces| {
            c[output_bucket(pieces, buckets)] += 1;
            c
        });
        let (least, most) = (counts.iter().min(), counts.iter().max());
        assert!(most.unwrap() - least.unwrap() <= 1, "{counts:?}");
    }
    assert_eq!(output_bucket(5, 8), 0);
    assert_eq!(output_bucket(6, 8), 1);
}

#[test]
fn bad_files_are_refused_with_the_reason() {
    let net = random_net(16, 2);
    let good = net.to_bytes();

    let mut magic = good.clone();
    magic[0] = b'X';
    assert!(matches!(
        Network::from_bytes(&magic),
        Err(NetError::BadMagic)
    ));
    assert!(matches!(
        Network::from_bytes(&good[..10]),
        Err(NetError::BadMagic)
    ));
    let mut older = good.clone();
    older[..8].copy_from_slice(b"HVNNUE02");
    let error = Network::from_bytes(&older).unwrap_err();
    assert!(matches!(&error, NetError::OtherVersion(m) if m == "HVNNUE02"));
    assert_eq!(
        error.to_string(),
        "a Hoeven network in format HVNNUE02, where this engine reads HVNNUE04"
    );

    // The hash covers the weights, not the header.
    let mut layout = good.clone();
    layout[16..20].copy_from_slice(&3u32.to_le_bytes());
    let error = Network::from_bytes(&layout).unwrap_err();
    assert!(matches!(error, NetError::BadInputs(3)));
    assert_eq!(error.to_string(), "unknown input layout 3");
    // A plain net's weights are too few for king buckets.
    layout[16..20].copy_from_slice(&2u32.to_le_bytes());
    assert!(matches!(
        Network::from_bytes(&layout),
        Err(NetError::BadLength { .. })
    ));

    assert!(matches!(
        Network::from_bytes(&good[..good.len() - 1]),
        Err(NetError::BadLength { .. })
    ));

    let mut flipped = good.clone();
    flipped[100] ^= 1;
    assert!(matches!(
        Network::from_bytes(&flipped),
        Err(NetError::BadHash { .. })
    ));

    for h in [0u32, 4097] {
        let mut hidden = good.clone();
        hidden[8..12].copy_from_slice(&h.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&hidden),
            Err(NetError::BadHiddenSize(x)) if x == h
        ));
    }
    let mut larger = good.clone();
    larger[8..12].copy_from_slice(&32u32.to_le_bytes());
    assert!(matches!(
        Network::from_bytes(&larger),
        Err(NetError::BadLength { .. })
    ));
    for b in [0u32, 17] {
        let mut buckets = good.clone();
        buckets[12..16].copy_from_slice(&b.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&buckets),
            Err(NetError::BadBucketCount(x)) if x == b
        ));
    }
    let mut fewer = good.clone();
    fewer[12..16].copy_from_slice(&4u32.to_le_bytes());
    assert!(matches!(
        Network::from_bytes(&fewer),
        Err(NetError::BadLength { .. })
    ));

    let missing = std::path::Path::new("/nonexistent/hoeven.nnue");
    assert!(matches!(Network::load(missing), Err(NetError::Io(_))));
}

#[test]
fn weights_that_could_overflow_are_refused() {
    let plain = |w1, b1, w2, b2| Network::new(Inputs::Plain, w1, b1, w2, b2);
    let h = 4;
    let mut w1 = vec![0i16; INPUTS * h];
    w1[h * 100 + 2] = 1100;
    let result = plain(w1, vec![0; h], vec![1; 2 * h], vec![0]);
    assert!(matches!(
        result,
        Err(NetError::AccumulatorOverflow { neuron: 2 })
    ));

    let mut w2 = vec![1i16; 2 * h];
    w2[5] = -MAX_OUTPUT_WEIGHT - 1;
    let result = plain(vec![0; INPUTS * h], vec![0; h], w2.clone(), vec![0]);
    assert!(matches!(
        result,
        Err(NetError::OutputWeightOutOfRange { index: 5, value }) if value == -MAX_OUTPUT_WEIGHT - 1
    ));
    w2[5] = -MAX_OUTPUT_WEIGHT;
    assert!(plain(vec![0; INPUTS * h], vec![0; h], w2, vec![0]).is_ok());

    // The largest weights everywhere on the widest layer load: the output
    // sum cannot overflow, and a bias at the limit is taken as it is.
    let h = MAX_HIDDEN;
    let w2 = vec![-MAX_OUTPUT_WEIGHT; 2 * h];
    let result = plain(vec![0; INPUTS * h], vec![0; h], w2, vec![i32::MAX]);
    assert!(result.is_ok());
    let result = plain(vec![0; INPUTS * 4], vec![0; 4], vec![0; 16], vec![0]);
    assert!(matches!(result, Err(NetError::BadLength { .. })));
    let result = plain(vec![0; INPUTS * 4], vec![0; 4], vec![0; 8], vec![]);
    assert!(matches!(result, Err(NetError::BadBucketCount(0))));
}

#[test]
fn features_follow_the_contract() {
    let [e1, e8, d1, b8] = ["e1", "e8", "d1", "b8"].map(|s| Square::parse(s).unwrap());
    let feature = |perspective, piece, sq| Inputs::Plain.view(perspective, e1).feature(piece, sq);
    let e4 = Square::parse("e4").unwrap();
    let white_knight = Piece::new(Color::White, PieceKind::Knight);
    let black_queen = Piece::new(Color::Black, PieceKind::Queen);
    assert_eq!(feature(Color::White, white_knight, e4), 64 + 28);
    assert_eq!(
        feature(Color::Black, white_knight, e4),
        (6 + 1) * 64 + (28 ^ 56)
    );
    assert_eq!(feature(Color::Black, black_queen, e4), 4 * 64 + 36);
    assert_eq!(feature(Color::White, black_queen, e4), 10 * 64 + 28);
    // Mirrored by king file: a perspective whose king is on e to h sees
    // files reversed; its view does not depend on the other king.
    let view = |perspective, king| Inputs::MirroredByKing.view(perspective, king);
    assert_eq!(view(Color::White, d1).feature(white_knight, e4), 64 + 28);
    assert_eq!(view(Color::White, e1).feature(white_knight, e4), 64 + 27);
    assert_eq!(
        view(Color::Black, e8).feature(black_queen, e4),
        4 * 64 + (35)
    );
    assert_eq!(view(Color::Black, b8).feature(black_queen, e4), 4 * 64 + 36);
    assert_eq!(
        view(Color::White, e1),
        Inputs::MirroredByKing.view(Color::White, Square::new(File::H, e1.rank()))
    );
    // King buckets: mirrored by king file, and a block of 768 features for
    // each of a1-b1, c1-d1, the second rank and the rest (from the king's
    // side, mirrored).
    let bucket = |perspective, king: &str| {
        Inputs::KingBuckets
            .view(perspective, Square::parse(king).unwrap())
            .bucket
    };
    for (king, expected) in [
        ("a1", 0),
        ("b1", 0),
        ("g1", 0),
        ("h1", 0),
        ("c1", 1),
        ("f1", 1),
    ] {
        assert_eq!(bucket(Color::White, king), expected, "{king}");
    }
    for (king, expected) in [("g8", 0), ("d8", 1), ("a7", 2), ("h2", 3), ("e4", 3)] {
        assert_eq!(bucket(Color::Black, king), expected, "{king}");
    }
    let kb = |perspective, king| Inputs::KingBuckets.view(perspective, king);
    assert_eq!(
        kb(Color::White, b8).feature(white_knight, e4),
        3 * 768 + 64 + 28
    );
    assert_eq!(
        kb(Color::Black, e8).feature(black_queen, e4),
        768 + 4 * 64 + 35
    );
}

/// `board` mirrored left to right, without castling rights (which the
/// network does not see).
fn mirror_files(board: &Board) -> Board {
    let fen = board.to_fen(CastlingNotation::Shredder);
    let parts: Vec<&str> = fen.split_whitespace().collect();
    let placement: Vec<String> = parts[0]
        .split('/')
        .map(|rank| rank.chars().rev().collect())
        .collect();
    let en_passant = match Square::parse(parts[3]) {
        Some(sq) => sq.flip_file().to_string(),
        None => "-".to_string(),
    };
    Board::from_fen(&format!(
        "{} {} - {} {} {}",
        placement.join("/"),
        parts[1],
        en_passant,
        parts[4],
        parts[5]
    ))
    .unwrap()
}

#[test]
fn a_net_mirrored_by_king_file_evaluates_mirrored_positions_alike() {
    let plain = random_net(40, 11);
    let net = random_net_with(Inputs::MirroredByKing, 40, 11);
    let buckets = random_net_with(Inputs::KingBuckets, 40, 11);
    let mut plain_differs = 0;
    for b in random_positions(30, 23) {
        let m = mirror_files(&b);
        assert_eq!(evaluate(&net, &b), evaluate(&net, &m), "{b:?}");
        assert_eq!(evaluate(&buckets, &b), evaluate(&buckets, &m), "{b:?}");
        plain_differs += usize::from(evaluate(&plain, &b) != evaluate(&plain, &m));
    }
    assert!(plain_differs > 100, "{plain_differs}");
}

/// Castling that takes the king across the middle of the board, in
/// Chess960 and DFRC, and king moves across it or into another king
/// bucket: the perspective whose view changed is computed again, the other
/// updated.
#[test]
fn kings_changing_their_view_refresh_their_perspective() {
    for inputs in [Inputs::MirroredByKing, Inputs::KingBuckets] {
        kings_changing_their_view_refresh(random_net_with(inputs, 32, 7));
    }
}

fn kings_changing_their_view_refresh(net: Arc<Network>) {
    for (fen, moves) in [
        // The king castles from b1 to g1 and from g8 to c8.
        (
            "rr4k1/pppppppp/8/8/8/8/PPPPPPPP/1K5R w Hb - 0 1",
            &["b1h1", "g8b8"][..],
        ),
        // DFRC: White's king on f1 castles long to c1, Black's on d8 short to g8.
        (
            "1r1k3r/pppppppp/8/8/8/8/PPPPPPPP/R4K2 w Ah - 0 1",
            &["f1a1", "d8h8"][..],
        ),
        // Plain king steps across and back.
        (
            "4k3/8/8/8/8/8/8/3K4 w - - 0 1",
            &["d1e1", "e8d8", "e1d2", "d8e7"][..],
        ),
        // King steps through every bucket: b1, c1, c2, c3 for White, e8,
        // f7, g6 for Black.
        (
            "4k3/8/8/8/8/8/8/1K6 w - - 0 1",
            &["b1c1", "e8f7", "c1c2", "f7g6", "c2c3"][..],
        ),
    ] {
        let mut board = Board::from_fen(fen).unwrap();
        let mut nnue = Nnue::new(Arc::clone(&net));
        nnue.reset(&board);
        let mut line = vec![board.clone()];
        for text in moves {
            let m = board
                .legal_moves()
                .as_slice()
                .iter()
                .copied()
                .find(|m| m.to_uci(true) == *text)
                .unwrap_or_else(|| panic!("{text} in {fen}"));
            nnue.push_move(&board, m);
            board.make_move(m);
            line.push(board.clone());
        }
        // Evaluated only at the end: the updates span every move.
        assert_eq!(nnue.evaluate(&board), evaluate(&net, &board), "{fen}");
        for back in line.iter().rev().skip(1) {
            nnue.pop();
            assert_eq!(nnue.evaluate(back), evaluate(&net, back), "{fen}");
        }
    }
}
