//! The `EvalFile` option: which evaluation the engine uses, and how the
//! engine names it. The default is the network built into the binary
//! (`make EVALFILE=path`) when there is one, else the hand-crafted
//! evaluation; an empty `EvalFile` is the hand-crafted evaluation, the
//! embedded network's name selects it again, and any other value is a file.

use eval::nnue::{Embedded, Inputs, Network};
use std::path::Path;
use std::sync::Arc;

/// The evaluation chosen by `EvalFile`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Evaluation {
    /// The file the network was read from, or the embedded network's
    /// name; empty for the hand-crafted evaluation.
    path: String,
    embedded: bool,
    network: Option<Arc<Network>>,
}

/// `EvalFile`'s default: the embedded network's name, or empty.
pub fn default_eval_file() -> &'static str {
    eval::nnue::embedded().map_or("", |e| e.name)
}

impl Evaluation {
    /// The evaluation a new engine starts with; the hand-crafted one, and
    /// the reason, if the embedded network cannot be read.
    pub fn builtin() -> Result<Evaluation, (Evaluation, String)> {
        match eval::nnue::embedded() {
            None => Ok(Evaluation::default()),
            Some(e) => Evaluation::from_embedded(e).map_err(|why| (Evaluation::default(), why)),
        }
    }

    fn from_embedded(e: &Embedded) -> Result<Evaluation, String> {
        match &e.network {
            Ok(net) => Ok(Evaluation {
                path: e.name.to_string(),
                embedded: true,
                network: Some(Arc::clone(net)),
            }),
            Err(why) => Err(format!("the embedded network {}: {why}", e.name)),
        }
    }

    /// The evaluation `EvalFile` set to `path` asks for (empty or `<empty>`:
    /// the hand-crafted one); the reason when the file cannot be used.
    pub fn load(path: &str) -> Result<Evaluation, String> {
        Evaluation::load_with(path, eval::nnue::embedded())
    }

    fn load_with(path: &str, embedded: Option<&Embedded>) -> Result<Evaluation, String> {
        if path.is_empty() || path == crate::options::EMPTY {
            return Ok(Evaluation::default());
        }
        if let Some(e) = embedded.filter(|e| e.name == path) {
            return Evaluation::from_embedded(e);
        }
        let network =
            Network::load(Path::new(path)).map_err(|e| format!("EvalFile {path}: {e}"))?;
        Ok(Evaluation {
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
    pub fn export(&self, file: &str) -> Result<String, String> {
        let Some(net) = &self.network else {
            return Err("no network to write, the hand-crafted evaluation is in use".to_string());
        };
        let path = match file {
            "" if self.embedded => self.path.as_str(),
            "" => return Err(format!("give a file name to write {} to", self.path)),
            named => named,
        };
        std::fs::write(path, net.to_bytes()).map_err(|e| format!("{path}: {e}"))?;
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
    use eval::nnue::NetError;

    #[test]
    fn empty_is_hand_crafted_and_a_bad_path_is_refused() {
        let hce = Evaluation::load("").unwrap();
        assert!(hce.network().is_none());
        assert_eq!(hce.describe(), "hand-crafted evaluation");
        let err = Evaluation::load("/nonexistent/x.nnue").unwrap_err();
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
        let e = Evaluation::load_with("hoeven-test.nnue", Some(&embedded)).unwrap();
        assert_eq!(e.network(), Some(net));
        assert_eq!(
            e.describe(),
            "NNUE evaluation using hoeven-test.nnue (embedded) ((768 -> 8) x 2 -> 1, 1 output bucket)"
        );
        // Another name is a file, and the empty one the hand-crafted
        // evaluation, embedded network or not.
        assert!(Evaluation::load_with("other.nnue", Some(&embedded)).is_err());
        for hand_crafted in ["", "<empty>"] {
            assert!(Evaluation::load_with(hand_crafted, Some(&embedded))
                .unwrap()
                .network()
                .is_none());
        }
        let broken = Embedded {
            name: "broken.nnue",
            network: Err(NetError::BadMagic),
        };
        let err = Evaluation::load_with("broken.nnue", Some(&broken)).unwrap_err();
        assert!(err.contains("embedded network broken.nnue"), "{err}");
    }

    #[test]
    fn the_input_layout_is_named() {
        let describe = |inputs: Inputs| {
            let w1 = vec![1; inputs.features() * 8];
            let net = Network::new(inputs, w1, vec![2; 8], vec![3; 32], vec![4, 5]).unwrap();
            Evaluation {
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
