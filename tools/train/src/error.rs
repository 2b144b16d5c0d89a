//! Why a `hoeven train` command failed after its command line was accepted.

use crate::checkpoint::CheckpointError;
use crate::convert::ConvertError;
use crate::data::DataError;
use crate::network::Shape;
use crate::quantise::QuantiseError;
use chess::FenError;
use chessio::RecordError;
use engine::AllocError;
use eval::nnue::{Inputs, NetError};
use std::fmt;
use std::path::PathBuf;

#[derive(Debug)]
pub enum Error {
    Read(PathBuf, std::io::Error),
    Write(PathBuf, std::io::Error),
    Convert(ConvertError),
    Data(PathBuf, DataError),
    Net(PathBuf, NetError),
    Checkpoint(PathBuf, CheckpointError),
    Quantise(QuantiseError),
    /// A record the evaluation cannot read back.
    Record(RecordError),
    Hash(AllocError),
    Fen(String, FenError),
    Threads(rayon::ThreadPoolBuildError),
    /// A net for --init whose inputs cannot become king buckets.
    NoKingBuckets(PathBuf),
    /// A net for --init that cannot be widened to this many neurons.
    NoWidening(PathBuf, usize),
    /// A checkpoint whose net cannot be read with these inputs.
    NoInputs(PathBuf, Inputs),
    /// The net of --init or --resume is not of the shape asked for.
    Shape {
        path: PathBuf,
        found: Shape,
        wanted: Shape,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Read(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            Error::Write(path, e) => write!(f, "cannot write {}: {e}", path.display()),
            Error::Convert(e) => write!(f, "{e}"),
            Error::Data(path, e) => write!(f, "{}: {e}", path.display()),
            Error::Net(path, e) => write!(f, "{}: {e}", path.display()),
            Error::Checkpoint(path, e) => write!(f, "{}: {e}", path.display()),
            Error::Quantise(e) => write!(f, "{e}"),
            Error::Record(e) => write!(f, "{e}"),
            Error::Hash(e) => write!(f, "{e}"),
            Error::Fen(fen, e) => write!(f, "{fen}: {e}"),
            Error::Threads(e) => write!(f, "{e}"),
            Error::NoKingBuckets(path) => {
                write!(f, "{}: cannot give its net king buckets", path.display())
            }
            Error::NoWidening(path, hidden) => write!(
                f,
                "{}: cannot widen its net to {hidden} neurons",
                path.display()
            ),
            Error::NoInputs(path, inputs) => write!(
                f,
                "{}: its net cannot be read as {inputs:?}",
                path.display()
            ),
            Error::Shape {
                path,
                found,
                wanted,
            } => write!(
                f,
                "{} holds a net of {found:?}, not {wanted:?}",
                path.display()
            ),
        }
    }
}

impl std::error::Error for Error {}
