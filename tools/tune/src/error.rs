//! Why `hoeven tune` failed after its command line was accepted.

use std::fmt;
use std::path::PathBuf;

#[derive(Debug)]
pub enum Error {
    Read(PathBuf, std::io::Error),
    Write(PathBuf, std::io::Error),
    /// Every line was held out, or none parsed.
    NoTrainingPositions,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Read(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            Error::Write(path, e) => write!(f, "cannot write {}: {e}", path.display()),
            Error::NoTrainingPositions => write!(f, "no training positions"),
        }
    }
}

impl std::error::Error for Error {}
