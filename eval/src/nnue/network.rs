//! The network file: reading and checking the format shared with the
//! trainer (`docs/nets.md`), and writing it back.
//!
//! Layout, little-endian: the magic `HVNNUE04`; the hidden size `H` (u32);
//! the number of output buckets `B` (u32); the input layout (u32, an
//! [`Inputs`] code); the FNV-1a 32-bit hash of every byte after the 24-byte
//! header (u32); then `W1` (i16, [`Inputs::features`] rows of `H`,
//! feature-major), `b1` (i16 x H), `W2` (i16, B rows of 2H, each the side
//! to move's half first) and `b2` (i32 x B).

use super::output::SQUARE_SHIFT;
use chess::{Board, Color, File, Piece, Square};
use std::fmt;
use std::path::Path;

pub const MAGIC: &[u8; 8] = b"HVNNUE04";
const HEADER_BYTES: usize = 24;
/// Input features of one king bucket: (own/other side) x six piece kinds x
/// 64 squares.
pub const INPUTS: usize = 768;
/// The king buckets of [`Inputs::KingBuckets`], by the perspective's king
/// square seen from its side and mirrored to files a to d (so only the
/// left half is read): the corner of the back rank, its centre, the second
/// rank, and the king out in the open.
#[rustfmt::skip]
const KING_BUCKET: [u8; 64] = [
    0, 0, 1, 1, 1, 1, 0, 0,
    2, 2, 2, 2, 2, 2, 2, 2,
    3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3,
];
/// How many buckets [`KING_BUCKET`] names.
const KING_BUCKETS: usize = 4;
/// The largest hidden layer a file may declare.
pub const MAX_HIDDEN: usize = 4096;
/// The most output buckets a file may declare.
pub const MAX_BUCKETS: usize = 16;
/// Pieces on a legal board, hence active features per perspective at most.
const MAX_ACTIVE: i32 = 32;
/// The largest output weight in magnitude: the trainer clips W2 within
/// +-1.98, 4055 once quantised, and the output layer sums its products in
/// 32-bit blocks sized for this bound.
pub const MAX_OUTPUT_WEIGHT: i16 = 4064;

/// How a network's first layer sees the board (`docs/nets.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inputs {
    /// Each perspective sees the board as it stands (rank-mirrored for
    /// Black).
    Plain,
    /// Each perspective also mirrors the board left to right when its own
    /// king stands on files e to h, so that its king is always on the
    /// queen's side: one set of weights serves both halves of the board.
    MirroredByKing,
    /// Mirrored by king file, and a first layer of its own for each of the
    /// four places of the perspective's king that [`KING_BUCKET`] tells
    /// apart: where the king stands changes what the pieces around it mean.
    KingBuckets,
}

impl Inputs {
    /// The header's code.
    pub fn code(self) -> u32 {
        match self {
            Inputs::Plain => 0,
            Inputs::MirroredByKing => 1,
            Inputs::KingBuckets => 2,
        }
    }

    pub fn from_code(code: u32) -> Option<Inputs> {
        match code {
            0 => Some(Inputs::Plain),
            1 => Some(Inputs::MirroredByKing),
            2 => Some(Inputs::KingBuckets),
            _ => None,
        }
    }

    /// The first layer's rows: [`INPUTS`] for each king bucket.
    pub fn features(self) -> usize {
        match self {
            Inputs::Plain | Inputs::MirroredByKing => INPUTS,
            Inputs::KingBuckets => KING_BUCKETS * INPUTS,
        }
    }

    /// `perspective`'s view of the board where its king stands on `king`.
    #[inline(always)]
    pub fn view(self, perspective: Color, king: Square) -> View {
        let mirrored = self != Inputs::Plain && king.file() >= File::E;
        let bucket = match self {
            Inputs::Plain | Inputs::MirroredByKing => 0,
            Inputs::KingBuckets => KING_BUCKET[king.relative(perspective).index()],
        };
        View {
            perspective,
            mirrored,
            bucket,
        }
    }

    /// `perspective`'s view of `board`.
    #[inline(always)]
    pub fn view_of(self, perspective: Color, board: &Board) -> View {
        self.view(perspective, board.king_square(perspective))
    }
}

/// One perspective's view of the board: its colour, whether it mirrors
/// the board left to right, and its king bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    pub perspective: Color,
    pub mirrored: bool,
    pub bucket: u8,
}

impl View {
    /// How many views there are: two perspectives, mirrored or not, and
    /// their king buckets.
    pub const COUNT: usize = 2 * 2 * KING_BUCKETS;

    /// The input feature of `piece` on `sq`: the king bucket's block, own
    /// pieces first, squares rank-mirrored for Black and file-mirrored when
    /// the view is. The engine's accumulators and the trainer both index
    /// the first layer with it.
    #[inline(always)]
    pub fn feature(self, piece: Piece, sq: Square) -> usize {
        let sq = if self.mirrored { sq.flip_file() } else { sq };
        let side = usize::from(piece.color() != self.perspective);
        let f = usize::from(self.bucket) * INPUTS
            + (side * 6 + piece.kind().index()) * 64
            + sq.relative(self.perspective).index();
        debug_assert!(f < KING_BUCKETS * INPUTS);
        f
    }

    /// A number for each view, below [`View::COUNT`].
    #[inline(always)]
    pub fn index(self) -> usize {
        (self.perspective.index() * 2 + usize::from(self.mirrored)) * KING_BUCKETS
            + usize::from(self.bucket)
    }
}

/// The output bucket of a position with `pieces` pieces (kings included)
/// among `buckets`: the material left splits the game into phases that each
/// get their own output layer, from bucket 0 (bare kings) to `buckets - 1`
/// (all 32 pieces). The engine and the trainer both choose it here.
#[inline(always)]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    let left = pieces.clamp(2, 32) as usize - 2;
    left * buckets / 31
}

/// Why a network file was refused.
#[derive(Debug)]
pub enum NetError {
    Io(std::io::Error),
    BadMagic,
    /// A Hoeven network in another version of the format (its magic).
    OtherVersion(String),
    /// `H` is 0 or above [`MAX_HIDDEN`].
    BadHiddenSize(u32),
    /// `B` is 0 or above [`MAX_BUCKETS`].
    BadBucketCount(u32),
    /// An input layout this engine does not know.
    BadInputs(u32),
    /// The length does not match the `H` the header declares.
    BadLength {
        expected: usize,
        found: usize,
    },
    BadHash {
        stored: u32,
        computed: u32,
    },
    /// A neuron whose bias and weights could overflow its 16-bit accumulator.
    AccumulatorOverflow {
        neuron: usize,
    },
    /// An output weight beyond [`MAX_OUTPUT_WEIGHT`] in magnitude.
    OutputWeightOutOfRange {
        index: usize,
        value: i16,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Io(e) => write!(f, "cannot read the file: {e}"),
            NetError::BadMagic => write!(f, "not a Hoeven network (bad magic)"),
            NetError::OtherVersion(magic) => write!(
                f,
                "a Hoeven network in format {magic}, where this engine reads {}",
                String::from_utf8_lossy(MAGIC)
            ),
            NetError::BadHiddenSize(h) => {
                write!(f, "hidden size {h} is outside 1..={MAX_HIDDEN}")
            }
            NetError::BadBucketCount(b) => {
                write!(f, "{b} output buckets is outside 1..={MAX_BUCKETS}")
            }
            NetError::BadInputs(code) => write!(f, "unknown input layout {code}"),
            NetError::BadLength { expected, found } => write!(
                f,
                "{found} bytes where the header's sizes need {expected} (truncated?)"
            ),
            NetError::BadHash { stored, computed } => write!(
                f,
                "hash mismatch: the file says {stored:08x}, its contents give {computed:08x}"
            ),
            NetError::AccumulatorOverflow { neuron } => write!(
                f,
                "hidden neuron {neuron} could overflow its 16-bit accumulator"
            ),
            NetError::OutputWeightOutOfRange { index, value } => write!(
                f,
                "output weight {index} is {value}, beyond +/-{MAX_OUTPUT_WEIGHT}"
            ),
        }
    }
}

impl std::error::Error for NetError {}

/// A quantised perspective network `(768 -> H) x 2 -> 1` with SCReLU and
/// `B` output buckets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    inputs: Inputs,
    hidden: usize,
    /// Feature-major: the row of feature `f` is `w1[f * hidden..][..hidden]`.
    w1: Vec<i16>,
    b1: Vec<i16>,
    /// Bucket-major rows of `2 * hidden`: the side to move's weights, then
    /// the other side's.
    w2: Vec<i16>,
    /// Per bucket, what the output layer adds back to its shifted sum:
    /// `SQUARE_SHIFT` times the sum of the bucket's weights.
    w2_shift: Vec<i64>,
    /// One bias per bucket.
    b2: Vec<i32>,
}

/// FNV-1a, 32 bits.
pub fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// The file length for input layout `inputs`, hidden size `hidden` and
/// `buckets` output buckets.
pub fn file_len(inputs: Inputs, hidden: usize, buckets: usize) -> usize {
    HEADER_BYTES + 2 * (inputs.features() * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
}

fn i16s(bytes: &[u8]) -> Vec<i16> {
    bytes
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect()
}

impl Network {
    /// A network from its input layout and parts (one output bias per
    /// bucket); checked as a file would be.
    pub fn new(
        inputs: Inputs,
        w1: Vec<i16>,
        b1: Vec<i16>,
        w2: Vec<i16>,
        b2: Vec<i32>,
    ) -> Result<Network, NetError> {
        let (hidden, buckets) = (b1.len(), b2.len());
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(NetError::BadHiddenSize(hidden as u32));
        }
        if buckets == 0 || buckets > MAX_BUCKETS {
            return Err(NetError::BadBucketCount(buckets as u32));
        }
        let expected = file_len(inputs, hidden, buckets);
        let found = HEADER_BYTES + 2 * (w1.len() + b1.len() + w2.len()) + 4 * buckets;
        if w1.len() != inputs.features() * hidden || w2.len() != buckets * 2 * hidden {
            return Err(NetError::BadLength { expected, found });
        }
        if let Some((index, &value)) = w2
            .iter()
            .enumerate()
            .find(|(_, w)| w.unsigned_abs() > MAX_OUTPUT_WEIGHT as u16)
        {
            return Err(NetError::OutputWeightOutOfRange { index, value });
        }
        let w2_shift = w2
            .chunks_exact(2 * hidden)
            .map(|row| SQUARE_SHIFT * row.iter().map(|&w| i64::from(w)).sum::<i64>())
            .collect();
        let net = Network {
            inputs,
            hidden,
            w1,
            b1,
            w2,
            w2_shift,
            b2,
        };
        net.check_ranges()?;
        Ok(net)
    }

    /// Reads and checks a network file.
    pub fn load(path: &Path) -> Result<Network, NetError> {
        Network::from_bytes(&std::fs::read(path).map_err(NetError::Io)?)
    }

    /// Reads and checks a network from the bytes of a file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < HEADER_BYTES || !bytes.starts_with(&MAGIC[..6]) {
            return Err(NetError::BadMagic);
        }
        if &bytes[..8] != MAGIC {
            let magic = String::from_utf8_lossy(&bytes[..8]).into_owned();
            return Err(NetError::OtherVersion(magic));
        }
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let declared = word(8);
        let hidden = declared as usize;
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(NetError::BadHiddenSize(declared));
        }
        let declared = word(12);
        let buckets = declared as usize;
        if buckets == 0 || buckets > MAX_BUCKETS {
            return Err(NetError::BadBucketCount(declared));
        }
        let code = word(16);
        let inputs = Inputs::from_code(code).ok_or(NetError::BadInputs(code))?;
        let expected = file_len(inputs, hidden, buckets);
        if bytes.len() != expected {
            return Err(NetError::BadLength {
                expected,
                found: bytes.len(),
            });
        }
        let stored = word(20);
        let computed = fnv1a(&bytes[HEADER_BYTES..]);
        if stored != computed {
            return Err(NetError::BadHash { stored, computed });
        }
        let (w1, rest) = bytes[HEADER_BYTES..].split_at(2 * inputs.features() * hidden);
        let (b1, rest) = rest.split_at(2 * hidden);
        let (w2, b2) = rest.split_at(buckets * 4 * hidden);
        let b2 = b2
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Network::new(inputs, i16s(w1), i16s(b1), i16s(w2), b2)
    }

    /// The hash the file's header holds, which names a committed net
    /// (`nets/hoeven-<hash>.nnue`).
    pub fn hash(&self) -> u32 {
        let bytes = self.to_bytes();
        u32::from_le_bytes([bytes[20], bytes[21], bytes[22], bytes[23]])
    }

    /// The file's bytes, header and hash included.
    pub fn to_bytes(&self) -> Vec<u8> {
        let len = file_len(self.inputs, self.hidden, self.buckets());
        let mut body = Vec::with_capacity(len - HEADER_BYTES);
        for v in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            body.extend_from_slice(&v.to_le_bytes());
        }
        for b in &self.b2 {
            body.extend_from_slice(&b.to_le_bytes());
        }
        let mut bytes = Vec::with_capacity(len);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        bytes.extend_from_slice(&(self.buckets() as u32).to_le_bytes());
        bytes.extend_from_slice(&self.inputs.code().to_le_bytes());
        bytes.extend_from_slice(&fnv1a(&body).to_le_bytes());
        bytes.extend_from_slice(&body);
        bytes
    }

    /// The accumulators are 16-bit, sound only for first-layer weights the
    /// trainer's clipping yields.
    fn check_ranges(&self) -> Result<(), NetError> {
        let mut largest = vec![0i32; self.hidden];
        for row in self.w1.chunks_exact(self.hidden) {
            for (l, &w) in largest.iter_mut().zip(row) {
                *l = (*l).max(i32::from(w).abs());
            }
        }
        for (neuron, (&l, &b)) in largest.iter().zip(&self.b1).enumerate() {
            if i32::from(b).abs() + MAX_ACTIVE * l > i32::from(i16::MAX) {
                return Err(NetError::AccumulatorOverflow { neuron });
            }
        }
        Ok(())
    }

    pub fn inputs(&self) -> Inputs {
        self.inputs
    }

    pub fn hidden(&self) -> usize {
        self.hidden
    }

    pub fn buckets(&self) -> usize {
        self.b2.len()
    }

    /// The integer weights as the file stores them, for tools that read a
    /// net back (the trainer starts from one).
    pub fn tensors(&self) -> Tensors<'_> {
        Tensors {
            w1: &self.w1,
            b1: &self.b1,
            w2: &self.w2,
            b2: &self.b2,
        }
    }

    /// The first-layer weights of feature `feature`.
    #[inline(always)]
    pub(crate) fn row(&self, feature: usize) -> &[i16] {
        &self.w1[feature * self.hidden..(feature + 1) * self.hidden]
    }

    pub(crate) fn bias(&self) -> &[i16] {
        &self.b1
    }

    /// The output layer of `bucket`.
    pub(crate) fn output_layer(&self, bucket: usize) -> OutputLayer<'_> {
        let row = &self.w2[bucket * 2 * self.hidden..(bucket + 1) * 2 * self.hidden];
        let (us, them) = row.split_at(self.hidden);
        OutputLayer {
            us,
            them,
            bias: self.b2[bucket],
            shift: self.w2_shift[bucket],
        }
    }
}

/// A net's integer weights in the file's order and layout (docs/nets.md).
pub struct Tensors<'a> {
    pub w1: &'a [i16],
    pub b1: &'a [i16],
    pub w2: &'a [i16],
    pub b2: &'a [i32],
}

/// One bucket's output layer: the weights of the side to move's half and
/// of the other side's, the bias, and the shift its sum takes back.
pub(crate) struct OutputLayer<'a> {
    pub us: &'a [i16],
    pub them: &'a [i16],
    pub bias: i32,
    pub shift: i64,
}
