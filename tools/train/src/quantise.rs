//! The network file of docs/nets.md: the float net quantised to integers,
//! the file's bytes, reading them back, and the engine's integer inference,
//! so that the trainer can check what it writes against the float net.

use crate::data::{Features, INPUTS};
use crate::network::{Network, MAX_HIDDEN, SCALE};
use chessio::PackedRecord;
use std::fmt;

pub const MAGIC: &[u8; 8] = b"HVNNUE01";
/// W1 and b1 are stored as round(w * QA).
pub const QA: i32 = 255;
/// W2 is stored as round(w * QB), b2 as round(b2 * QA * QB).
pub const QB: i32 = 64;
/// Magic, H, hash.
const HEADER: usize = 16;
/// A position has at most this many active inputs per perspective.
const MAX_ACTIVE: i32 = 32;
/// The engine multiplies `clamp(acc, 0, QA)` by W2 in 16 bits, which holds
/// for |W2q| up to this (the clipped float weights quantise within it).
const MAX_OUTPUT_WEIGHT: i32 = 127;
const CP_SCALE: i64 = SCALE as i64;

/// Why a net could not be quantised or a file read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NetError {
    Magic,
    /// H is 0 or above 4096.
    Hidden(u32),
    /// The length does not match H (or the file is shorter than its header).
    Length {
        expected: usize,
        actual: usize,
    },
    Hash {
        stored: u32,
        computed: u32,
    },
    /// A weight or a sum the engine computes would not fit its integer type.
    Overflow(String),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Magic => write!(f, "not a Hoeven net: the file does not start with HVNNUE01"),
            NetError::Hidden(h) => write!(f, "hidden size {h}, expected 1 to {MAX_HIDDEN}"),
            NetError::Length { expected, actual } => {
                write!(f, "net file is {actual} bytes, expected {expected}")
            }
            NetError::Hash { stored, computed } => write!(
                f,
                "net file hash {computed:08x} does not match the stored {stored:08x}"
            ),
            NetError::Overflow(what) => write!(f, "quantised net would overflow: {what}"),
        }
    }
}

impl std::error::Error for NetError {}

/// The integer net, as the engine holds it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct QuantisedNet {
    hidden: usize,
    w1: Vec<i16>,
    b1: Vec<i16>,
    w2: Vec<i16>,
    b2: i32,
}

fn to_i16(w: f32, scale: i32, what: &str) -> Result<i16, NetError> {
    let q = (w * scale as f32).round();
    if q >= f32::from(i16::MIN) && q <= f32::from(i16::MAX) {
        Ok(q as i16)
    } else {
        Err(NetError::Overflow(format!(
            "{what} weight {w} quantises to {q}"
        )))
    }
}

/// FNV-1a, 32 bits.
pub fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// The file's length for hidden size `hidden`.
pub fn file_len(hidden: usize) -> usize {
    HEADER + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4
}

impl QuantisedNet {
    /// Rounds every weight and checks that nothing the engine computes can
    /// overflow.
    pub fn quantise(net: &Network) -> Result<QuantisedNet, NetError> {
        let q = QuantisedNet {
            hidden: net.hidden(),
            w1: net
                .w1()
                .iter()
                .map(|&w| to_i16(w, QA, "W1"))
                .collect::<Result<_, _>>()?,
            b1: net
                .b1()
                .iter()
                .map(|&w| to_i16(w, QA, "b1"))
                .collect::<Result<_, _>>()?,
            w2: net
                .w2()
                .iter()
                .map(|&w| to_i16(w, QB, "W2"))
                .collect::<Result<_, _>>()?,
            b2: {
                let b2 = (f64::from(net.b2()) * f64::from(QA * QB)).round();
                if b2.abs() > f64::from(i32::MAX) {
                    return Err(NetError::Overflow(format!(
                        "b2 {} quantises to {b2}",
                        net.b2()
                    )));
                }
                b2 as i32
            },
        };
        q.check_overflow()?;
        Ok(q)
    }

    /// Bounds every sum of the integer inference: an accumulator (b1 and 32
    /// rows of W1) within i16, `clamp(acc) * W2` within i16, the output sum
    /// and `(s / QA + b2) * 400` within i32.
    fn check_overflow(&self) -> Result<(), NetError> {
        let h = self.hidden;
        if let Some(w) = self
            .w2
            .iter()
            .find(|&&w| i32::from(w).abs() > MAX_OUTPUT_WEIGHT)
        {
            return Err(NetError::Overflow(format!(
                "W2 weight {w} is beyond +-{MAX_OUTPUT_WEIGHT}"
            )));
        }
        for j in 0..h {
            let largest = (0..INPUTS)
                .map(|f| i32::from(self.w1[f * h + j]).abs())
                .max()
                .unwrap_or(0);
            let bound = i32::from(self.b1[j]).abs() + MAX_ACTIVE * largest;
            if bound > i32::from(i16::MAX) {
                return Err(NetError::Overflow(format!(
                    "accumulator {j} can reach {bound}, beyond i16"
                )));
            }
        }
        let w2_sum: i64 = self.w2.iter().map(|&w| i64::from(w).abs()).sum();
        let sum_bound = i64::from(QA * QA) * w2_sum;
        let cp_bound = (i64::from(QA) * w2_sum + i64::from(self.b2).abs()) * CP_SCALE;
        if sum_bound > i64::from(i32::MAX) || cp_bound > i64::from(i32::MAX) {
            return Err(NetError::Overflow(format!(
                "output sums can reach {sum_bound} and {cp_bound}, beyond i32"
            )));
        }
        Ok(())
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(file_len(self.hidden) - HEADER);
        for w in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            payload.extend_from_slice(&w.to_le_bytes());
        }
        payload.extend_from_slice(&self.b2.to_le_bytes());
        let mut bytes = Vec::with_capacity(file_len(self.hidden));
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        bytes.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        bytes.extend_from_slice(&payload);
        bytes
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<QuantisedNet, NetError> {
        if bytes.len() < HEADER {
            return Err(NetError::Length {
                expected: HEADER,
                actual: bytes.len(),
            });
        }
        if &bytes[..8] != MAGIC {
            return Err(NetError::Magic);
        }
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let hidden = word(8);
        if hidden == 0 || hidden as usize > MAX_HIDDEN {
            return Err(NetError::Hidden(hidden));
        }
        let h = hidden as usize;
        if bytes.len() != file_len(h) {
            return Err(NetError::Length {
                expected: file_len(h),
                actual: bytes.len(),
            });
        }
        let stored = word(12);
        let computed = fnv1a(&bytes[HEADER..]);
        if stored != computed {
            return Err(NetError::Hash { stored, computed });
        }
        let mut i16s = bytes[HEADER..bytes.len() - 4]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let w1 = i16s.by_ref().take(INPUTS * h).collect();
        let b1 = i16s.by_ref().take(h).collect();
        let w2 = i16s.take(2 * h).collect();
        let b2 = word(bytes.len() - 4) as i32;
        Ok(QuantisedNet {
            hidden: h,
            w1,
            b1,
            w2,
            b2,
        })
    }

    /// The engine's integer inference: centipawns for the side to move.
    pub fn evaluate(&self, record: &PackedRecord) -> i32 {
        let h = self.hidden;
        let features = Features::of(record);
        let mut sum = 0i32;
        for (inputs, w2) in [
            (features.us(), &self.w2[..h]),
            (features.them(), &self.w2[h..]),
        ] {
            let mut acc = self.b1.clone();
            for &i in inputs {
                let row = &self.w1[usize::from(i) * h..][..h];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += w;
                }
            }
            for (&a, &w) in acc.iter().zip(w2) {
                let c = i32::from(a).clamp(0, QA);
                sum += c * c * i32::from(w);
            }
        }
        let s = sum / QA + self.b2;
        s * CP_SCALE as i32 / (QA * QB)
    }
}

/// How far the integer evaluation strays from the float one, in centipawns.
#[derive(Clone, Copy, Debug)]
pub struct Agreement {
    pub mean: f64,
    pub max: f64,
}

pub fn agreement(net: &Network, quantised: &QuantisedNet, records: &[PackedRecord]) -> Agreement {
    let mut sum = 0.0;
    let mut max = 0.0f64;
    for record in records {
        let float = f64::from(net.forward(record) * SCALE);
        let diff = (float - f64::from(quantised.evaluate(record))).abs();
        sum += diff;
        max = max.max(diff);
    }
    Agreement {
        mean: sum / records.len().max(1) as f64,
        max,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::CLIP;
    use chessio::Record;
    use movegen::Board;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Positions from random games of every variant's kind of start.
    fn positions(count: usize, seed: u64) -> Vec<PackedRecord> {
        let mut rng = StdRng::seed_from_u64(seed);
        let starts = [
            "rkbrnqnb/pppppppp/8/8/8/8/PPPPPPPP/RKBRNQNB w KQkq - 0 1",
            "bbrknnqr/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQNR w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ];
        let mut out = Vec::new();
        while out.len() < count {
            let mut board = Board::from_fen(starts[out.len() % starts.len()]).unwrap();
            for _ in 0..rng.gen_range(0..120) {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                board.make_move(moves.as_slice()[rng.gen_range(0..moves.len())]);
            }
            out.push(
                Record::new(board, 0, chessio::GameResult::Draw)
                    .unwrap()
                    .pack(),
            );
        }
        out
    }

    /// A random net with weights spread over the whole clipped range, so
    /// that accumulators cross SCReLU's clamps.
    fn wide_net(hidden: usize, seed: u64) -> Network {
        let mut net = Network::random(hidden, seed);
        let mut rng = StdRng::seed_from_u64(seed + 1);
        let n = net.params().len();
        for (i, p) in net.params_mut().iter_mut().enumerate() {
            *p = if i + 1 == n {
                rng.gen_range(-1.0..1.0)
            } else if i < INPUTS * hidden + hidden {
                rng.gen_range(-0.3..0.35)
            } else {
                rng.gen_range(-CLIP..CLIP)
            };
        }
        net
    }

    fn dequantised(q: &QuantisedNet) -> Network {
        let qa = QA as f32;
        let qb = QB as f32;
        let params =
            q.w1.iter()
                .chain(&q.b1)
                .map(|&w| f32::from(w) / qa)
                .chain(q.w2.iter().map(|&w| f32::from(w) / qb))
                .chain([q.b2 as f32 / (qa * qb)])
                .collect();
        Network::from_params(q.hidden, params).unwrap()
    }

    #[test]
    fn the_file_reads_back_and_agrees_with_the_float_net() {
        let net = wide_net(32, 5);
        let q = QuantisedNet::quantise(&net).unwrap();
        let bytes = q.to_bytes();
        assert_eq!(bytes.len(), file_len(32));
        assert_eq!(&bytes[..8], b"HVNNUE01");
        assert_eq!(bytes[8..12], 32u32.to_le_bytes());
        let back = QuantisedNet::from_bytes(&bytes).unwrap();
        assert_eq!(back, q);
        let records = positions(300, 9);
        // The integer inference computes exactly the float net of the
        // rounded weights, but for the two truncating divisions (under
        // 1 cp together).
        let rounded = dequantised(&back);
        for r in &records {
            let float = f64::from(rounded.forward(r) * SCALE);
            let int = f64::from(back.evaluate(r));
            assert!((float - int).abs() < 1.1, "{float} vs {int}");
        }
        // Rounding W2 to 1/64 dominates the gap to the unrounded net: on
        // this net, whose W2 spans the whole clipped range, some 10 cp.
        let a = agreement(&net, &back, &records);
        assert!(a.mean < 20.0 && a.max < 80.0, "{a:?}");
        let spread = records
            .iter()
            .map(|r| back.evaluate(r).abs())
            .max()
            .unwrap();
        assert!(spread > 100, "the net should not be flat: {spread}");
    }

    #[test]
    fn the_layout_is_the_contracts() {
        let mut net = Network::random(1, 0);
        let p = net.params_mut();
        p[0] = 1.0 / 255.0; // W1[0][0]
        p[767] = -2.0 / 255.0; // W1[767][0]
        p[768] = 3.0 / 255.0; // b1
        p[769] = 4.0 / 64.0; // W2 us
        p[770] = -5.0 / 64.0; // W2 them
        p[771] = 6.0 / (255.0 * 64.0); // b2
        let bytes = QuantisedNet::quantise(&net).unwrap().to_bytes();
        let at = |i: usize| i16::from_le_bytes([bytes[16 + 2 * i], bytes[17 + 2 * i]]);
        assert_eq!(
            (at(0), at(767), at(768), at(769), at(770)),
            (1, -2, 3, 4, -5)
        );
        assert_eq!(bytes[bytes.len() - 4..], 6i32.to_le_bytes());
        assert_eq!(bytes[12..16], fnv1a(&bytes[16..]).to_le_bytes());
        assert_eq!(fnv1a(b""), 0x811c_9dc5);
        assert_eq!(fnv1a(b"a"), 0xe40c_292c);
    }

    #[test]
    fn malformed_files_are_refused() {
        let good = QuantisedNet::quantise(&Network::random(4, 1))
            .unwrap()
            .to_bytes();
        let mut magic = good.clone();
        magic[0] = b'X';
        assert_eq!(QuantisedNet::from_bytes(&magic), Err(NetError::Magic));
        let mut zero = good.clone();
        zero[8..12].copy_from_slice(&0u32.to_le_bytes());
        assert_eq!(QuantisedNet::from_bytes(&zero), Err(NetError::Hidden(0)));
        let mut huge = good.clone();
        huge[8..12].copy_from_slice(&5000u32.to_le_bytes());
        assert_eq!(QuantisedNet::from_bytes(&huge), Err(NetError::Hidden(5000)));
        assert_eq!(
            QuantisedNet::from_bytes(&good[..good.len() - 1]),
            Err(NetError::Length {
                expected: good.len(),
                actual: good.len() - 1
            })
        );
        assert!(matches!(
            QuantisedNet::from_bytes(&good[..10]),
            Err(NetError::Length { .. })
        ));
        let mut flipped = good.clone();
        flipped[100] ^= 1;
        assert!(matches!(
            QuantisedNet::from_bytes(&flipped),
            Err(NetError::Hash { .. })
        ));
        for e in [
            NetError::Magic,
            NetError::Hidden(0),
            NetError::Overflow("x".into()),
        ] {
            assert!(!e.to_string().is_empty());
        }
    }

    #[test]
    fn weights_that_could_overflow_are_refused() {
        let mut net = Network::random(4, 1);
        net.params_mut()[0] = 200.0;
        assert!(matches!(
            QuantisedNet::quantise(&net),
            Err(NetError::Overflow(_))
        ));
        // Within i16 on its own, but 32 such rows overflow the accumulator.
        let mut net = Network::random(4, 1);
        net.params_mut()[4] = 10.0;
        assert!(matches!(
            QuantisedNet::quantise(&net),
            Err(NetError::Overflow(_))
        ));
        // W2 a little beyond the clip: 2.0 * 64 = 128.
        let mut net = Network::random(4, 1);
        let w2 = net.params().len() - 2;
        net.params_mut()[w2] = 2.0;
        assert_eq!(
            QuantisedNet::quantise(&net),
            Err(NetError::Overflow("W2 weight 128 is beyond +-127".into()))
        );
        net.clip();
        assert!(QuantisedNet::quantise(&net).is_ok());
        // W2 at the clip everywhere on a wide net overflows the output sum.
        let mut net = Network::random(256, 1);
        let n = net.params().len();
        let w2 = n - 1 - 512;
        for w in &mut net.params_mut()[w2..n - 1] {
            *w = CLIP;
        }
        assert!(matches!(
            QuantisedNet::quantise(&net),
            Err(NetError::Overflow(_))
        ));
        assert!(QuantisedNet::quantise(&Network::random(256, 1)).is_ok());
    }
}
