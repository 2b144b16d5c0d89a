//! Binary training data (a file of 32-byte records, see `chessio::record`)
//! and the network's input features of a record.

use chess::{Color, Piece, PieceKind, Square};
use chessio::{PackedRecord, RecordError, RECORD_BYTES};
use eval::nnue::Inputs;
pub use eval::nnue::INPUTS;
use std::fmt;
use std::path::Path;

/// Why a data file was refused.
#[derive(Debug)]
pub enum DataError {
    Io(std::io::Error),
    /// The length is not a whole number of records.
    Length(u64),
    /// The record at this index (from 0) is malformed.
    Record(usize, RecordError),
    Empty,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Io(e) => write!(f, "{e}"),
            DataError::Length(n) => write!(
                f,
                "{n} bytes is not a whole number of {RECORD_BYTES}-byte records"
            ),
            DataError::Record(i, e) => write!(f, "record {i}: {e}"),
            DataError::Empty => write!(f, "no records"),
        }
    }
}

impl std::error::Error for DataError {}

/// Reads every record of a binary data file, each checked.
pub fn load(path: &Path) -> Result<Vec<PackedRecord>, DataError> {
    let bytes = std::fs::read(path).map_err(DataError::Io)?;
    parse(&bytes)
}

pub fn parse(bytes: &[u8]) -> Result<Vec<PackedRecord>, DataError> {
    if !bytes.len().is_multiple_of(RECORD_BYTES) {
        return Err(DataError::Length(bytes.len() as u64));
    }
    if bytes.is_empty() {
        return Err(DataError::Empty);
    }
    bytes
        .chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(i, chunk)| PackedRecord::from_bytes(chunk).map_err(|e| DataError::Record(i, e)))
        .collect()
}

/// A record as an epoch presents it: possibly mirrored left to right (files
/// a-h reversed), which leaves the value of a position without castling
/// rights unchanged and gives the net twice the positions to learn from.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub record: PackedRecord,
    pub mirrored: bool,
}

impl Sample {
    pub fn features(&self, inputs: Inputs) -> Features {
        Features::new(&self.record, inputs, self.mirrored)
    }
}

/// The active inputs of both perspectives: the side to move's first.
pub struct Features {
    us: [u16; 32],
    them: [u16; 32],
    len: usize,
}

impl Features {
    /// The inputs of `eval::nnue::View::feature`, the engine's, for each
    /// perspective (docs/nets.md).
    pub fn of(record: &PackedRecord, inputs: Inputs) -> Features {
        Features::new(record, inputs, false)
    }

    /// The inputs with the board mirrored left to right when `mirrored`.
    fn new(record: &PackedRecord, inputs: Inputs, mirrored: bool) -> Features {
        let mut features = Features {
            us: [0; 32],
            them: [0; 32],
            len: 0,
        };
        let place = |sq: Square| if mirrored { sq.flip_file() } else { sq };
        let king = |color: Color| {
            let king = Piece::new(color, PieceKind::King);
            record
                .pieces()
                .find(|&(_, piece)| piece == king)
                .map_or(Square::A1, |(sq, _)| place(sq))
        };
        let us = record.side_to_move();
        let (view_us, view_them) = (inputs.view(us, king(us)), inputs.view(!us, king(!us)));
        for (i, (sq, piece)) in record.pieces().enumerate().take(32) {
            let sq = place(sq);
            features.us[i] = view_us.feature(piece, sq) as u16;
            features.them[i] = view_them.feature(piece, sq) as u16;
            features.len = i + 1;
        }
        features
    }

    /// The side to move's inputs.
    pub fn us(&self) -> &[u16] {
        &self.us[..self.len]
    }

    /// The other side's inputs.
    pub fn them(&self) -> &[u16] {
        &self.them[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chessio::Record;

    fn packed(line: &str) -> PackedRecord {
        line.parse::<Record>().unwrap().pack()
    }

    #[test]
    fn features_follow_the_contract() {
        // White to move: White king e1 is (0*6+5)*64+4 for White, (1*6+5)*64+60 for Black.
        let white = Features::of(
            &packed("4k3/8/8/8/8/3p4/8/4K3 w - - 0 1 | 0 | 0.5"),
            Inputs::Plain,
        );
        assert_eq!(white.us(), [5 * 64 + 4, 6 * 64 + 19, 11 * 64 + 60]);
        assert_eq!(white.them(), [11 * 64 + 60, 43, 5 * 64 + 4]);
        // The same position with Black to move swaps the two lists.
        let black = Features::of(
            &packed("4k3/8/8/8/8/3p4/8/4K3 b - - 0 1 | 0 | 0.5"),
            Inputs::Plain,
        );
        assert_eq!(black.us(), white.them());
        assert_eq!(black.them(), white.us());
    }

    #[test]
    fn mirrored_features_are_those_of_the_mirrored_position() {
        let record = packed("1k6/1pp5/8/8/4P3/8/5PP1/6K1 b - - 0 30 | 20 | 0.5");
        let mirror = packed("6k1/5pp1/8/8/3P4/8/1PP5/1K6 b - - 0 30 | 20 | 0.5");
        let sample = Sample {
            record,
            mirrored: true,
        };
        let (a, b) = (
            sample.features(Inputs::Plain),
            Features::of(&mirror, Inputs::Plain),
        );
        let sorted = |f: &[u16]| {
            let mut v = f.to_vec();
            v.sort();
            v
        };
        assert_eq!(sorted(a.us()), sorted(b.us()));
        assert_eq!(sorted(a.them()), sorted(b.them()));
        assert_ne!(
            sorted(a.us()),
            sorted(Features::of(&record, Inputs::Plain).us())
        );
        // Mirrored by king file, a position and its mirror image are one.
        let by_king = Inputs::MirroredByKing;
        for (x, y) in [
            (sample.features(by_king), Features::of(&mirror, by_king)),
            (
                Features::of(&record, by_king),
                Features::of(&mirror, by_king),
            ),
        ] {
            assert_eq!(sorted(x.us()), sorted(y.us()));
            assert_eq!(sorted(x.them()), sorted(y.them()));
        }
    }

    /// The trainer's inputs are the engine's: the same features as the
    /// accumulators add for each perspective of a board.
    #[test]
    fn features_are_the_engines_for_every_layout() {
        let record = packed("1k6/1pp5/8/8/4P3/8/5PP1/6K1 b - - 0 30 | 20 | 0.5");
        let board = record.unpack().unwrap().board().clone();
        for inputs in [Inputs::Plain, Inputs::MirroredByKing, Inputs::KingBuckets] {
            let f = Features::of(&record, inputs);
            for (perspective, mine) in [(Color::Black, f.us()), (Color::White, f.them())] {
                let view = inputs.view_of(perspective, &board);
                let mut engine: Vec<u16> = board
                    .occupied()
                    .into_iter()
                    .map(|sq| view.feature(board.piece_on(sq).unwrap(), sq) as u16)
                    .collect();
                let mut mine = mine.to_vec();
                engine.sort();
                mine.sort();
                assert_eq!(mine, engine, "{inputs:?} {perspective:?}");
            }
        }
    }

    #[test]
    fn malformed_files_are_refused() {
        let good = *packed("4k3/8/8/8/8/3p4/8/4K3 w - - 0 1 | 0 | 0.5").as_bytes();
        assert_eq!(parse(&good).unwrap().len(), 1);
        assert!(matches!(parse(&good[..20]), Err(DataError::Length(20))));
        assert!(matches!(parse(&[]), Err(DataError::Empty)));
        let mut two = [good, good].concat();
        two[32 + 31] = 9;
        assert!(matches!(
            parse(&two),
            Err(DataError::Record(1, RecordError::ResultCode(9)))
        ));
    }
}
