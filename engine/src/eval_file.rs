//! The `EvalFile` option: which evaluation the engine uses, and how the
//! engine names it. The default is the network built into the binary
//! (`make EVALFILE=path`) when there is one, else the hand-crafted
//! evaluation; an empty `EvalFile` (or `<empty>`) is the hand-crafted
//! evaluation, the embedded network's name selects it again, and any other
//! value is a file.

use crate::options::EMPTY;
use eval::nnue::{Embedded, Inputs, NetError, Network};
use std::fmt;
use std::path::Path;
use std::sync::Arc;

/// The evaluation chosen by `EvalFile`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalFile {
    /// The file the network was read from, or the embedded network's
    /// name; empty for the hand-crafted evaluation.
    path: String,
    embedded: bool,
    network: Option<Arc<Network>>,
}

/// Why an `EvalFile` cannot be used or written.
#[derive(Debug)]
pub enum EvalFileError {
    /// The network built into the binary is unusable (why, as its reader
    /// said: the embedded network is read once and kept, error and all).
    Embedded {
        name: String,
        why: String,
    },
    File {
        path: String,
        error: NetError,
    },
    /// Writing was asked for with the hand-crafted evaluation in use.
    NoNetwork,
    /// A network read from a file is written only under a name given.
    NoFileName {
        network: String,
    },
    Write {
        path: String,
        error: std::io::Error,
    },
}

impl fmt::Display for EvalFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalFileError::Embedded { name, why } => {
                write!(f, "the embedded network {name}: {why}")
            }
            EvalFileError::File { path, error } => write!(f, "EvalFile {path}: {error}"),
            EvalFileError::NoNetwork => write!(
                f,
                "no network to write, the hand-crafted evaluation is in use"
            ),
            EvalFileError::NoFileName { network } => {
                write!(f, "give a file name to write {network} to")
            }
            EvalFileError::Write { path, error } => write!(f, "{path}: {error}"),
        }
    }
}

impl std::error::Error for EvalFileError {}

/// `EvalFile`'s default: the embedded network's name, or empty.
pub fn default_name() -> &'static str {
    eval::nnue::embedded().map_or("", |e| e.name)
}

impl EvalFile {
    /// The evaluation a new engine starts with; the hand-crafted one, and
    /// the reason, if the embedded network cannot be read.
    pub fn builtin() -> Result<EvalFile, (EvalFile, EvalFileError)> {
        match eval::nnue::embedded() {
            None => Ok(EvalFile::default()),
            Some(e) => EvalFile::from_embedded(e).map_err(|why| (EvalFile::default(), why)),
        }
    }

    fn from_embedded(e: &Embedded) -> Result<EvalFile, EvalFileError> {
        match &e.network {
            Ok(net) => Ok(EvalFile {
                path: e.name.to_string(),
                embedded: true,
                network: Some(Arc::clone(net)),
            }),
            Err(why) => Err(EvalFileError::Embedded {
                name: e.name.to_string(),
                why: why.to_string(),
            }),
        }
    }

    /// The evaluation `EvalFile` set to `path` asks for (empty or `<empty>`:
    /// the hand-crafted one); the reason when the file cannot be used.
    pub fn load(path: &str) -> Result<EvalFile, EvalFileError> {
        EvalFile::load_with(path, eval::nnue::embedded())
    }

    fn load_with(path: &str, embedded: Option<&Embedded>) -> Result<EvalFile, EvalFileError> {
        if path.is_empty() || path == EMPTY {
            return Ok(EvalFile::default());
        }
        if let Some(e) = embedded.filter(|e| e.name == path) {
            return EvalFile::from_embedded(e);
        }
        let network = Network::load(Path::new(path)).map_err(|error| EvalFileError::File {
            path: path.to_string(),
            error,
        })?;
        Ok(EvalFile {
            path: path.to_string(),
            embedded: false,
            network: Some(Arc::new(network)),
        })
    }

    pub fn network(&self) -> Option<Arc<Network>> {
        self.network.clone()
    }

    /// Writes the network in use to `file`; an empty `file` is, for the
    /// built-in network, its own name in the working directory (a network
    /// read from a file needs a name). The path written, or why not.
    pub fn export(&self, file: &str) -> Result<String, EvalFileError> {
        let Some(net) = &self.network else {
            return Err(EvalFileError::NoNetwork);
        };
        let path = match file {
            "" if self.embedded => self.path.as_str(),
            "" => {
                return Err(EvalFileError::NoFileName {
                    network: self.path.clone(),
                })
            }
            named => named,
        };
        std::fs::write(path, net.to_bytes()).map_err(|error| EvalFileError::Write {
            path: path.to_string(),
            error,
        })?;
        Ok(path.to_string())
    }

    /// The engine's announcement of what it evaluates with.
    pub fn describe(&self) -> String {
        match &self.network {
            None => "hand-crafted evaluation".to_string(),
            Some(net) => format!(
                "NNUE evaluation using {}{} (({} -> {}) x 2 -> 1, {} output bucket{}{})",
                self.path,
                if self.embedded { " (embedded)" } else { "" },
                net.inputs().features(),
                net.hidden(),
                net.buckets(),
                if net.buckets() == 1 { "" } else { "s" },
                match net.inputs() {
                    Inputs::Plain => "",
                    Inputs::MirroredByKing => ", mirrored by king file",
                    Inputs::KingBuckets => ", mirrored by king file, 4 king buckets",
                }
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_is_hand_crafted_and_a_bad_path_is_refused() {
        let hce = EvalFile::load("").unwrap();
        assert!(hce.network().is_none());
        assert_eq!(hce.describe(), "hand-crafted evaluation");
        let err = EvalFile::load("/nonexistent/x.nnue")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("/nonexistent/x.nnue") && err.contains("cannot read"),
            "{err}"
        );
    }

    #[test]
    fn the_embedded_name_selects_the_embedded_network() {
        let net = Arc::new(
            Network::new(
                Inputs::Plain,
                vec![1; 768 * 8],
                vec![2; 8],
                vec![3; 16],
                vec![4],
            )
            .unwrap(),
        );
        let embedded = Embedded {
            name: "hoeven-test.nnue",
            network: Ok(Arc::clone(&net)),
        };
        let e = EvalFile::load_with("hoeven-test.nnue", Some(&embedded)).unwrap();
        assert_eq!(e.network(), Some(net));
        assert_eq!(
            e.describe(),
            "NNUE evaluation using hoeven-test.nnue (embedded) ((768 -> 8) x 2 -> 1, 1 output bucket)"
        );
        // Another name is a file, and the empty one the hand-crafted
        // evaluation, embedded network or not.
        assert!(EvalFile::load_with("other.nnue", Some(&embedded)).is_err());
        for hand_crafted in ["", "<empty>"] {
            assert!(EvalFile::load_with(hand_crafted, Some(&embedded))
                .unwrap()
                .network()
                .is_none());
        }
        let broken = Embedded {
            name: "broken.nnue",
            network: Err(NetError::BadMagic),
        };
        let err = EvalFile::load_with("broken.nnue", Some(&broken))
            .unwrap_err()
            .to_string();
        assert!(err.contains("embedded network broken.nnue"), "{err}");
    }

    #[test]
    fn the_input_layout_is_named() {
        let describe = |inputs: Inputs| {
            let w1 = vec![1; inputs.features() * 8];
            let net = Network::new(inputs, w1, vec![2; 8], vec![3; 32], vec![4, 5]).unwrap();
            EvalFile {
                path: "m.nnue".to_string(),
                embedded: false,
                network: Some(Arc::new(net)),
            }
            .describe()
        };
        assert_eq!(
            describe(Inputs::MirroredByKing),
            "NNUE evaluation using m.nnue ((768 -> 8) x 2 -> 1, 2 output buckets, mirrored by king file)"
        );
        assert_eq!(
            describe(Inputs::KingBuckets),
            "NNUE evaluation using m.nnue ((3072 -> 8) x 2 -> 1, 2 output buckets, mirrored by king file, 4 king buckets)"
        );
    }
}
