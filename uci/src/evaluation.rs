//! The `EvalFile` option: which evaluation the engine uses, and how the
//! engine names it. An empty path is the hand-crafted evaluation.

use eval::nnue::Network;
use std::path::Path;
use std::sync::Arc;

/// The evaluation chosen by `EvalFile`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Evaluation {
    /// The file the network was read from; empty for the hand-crafted
    /// evaluation.
    path: String,
    network: Option<Arc<Network>>,
}

impl Evaluation {
    /// The evaluation `EvalFile` set to `path` asks for; the reason when
    /// the file cannot be used.
    pub fn load(path: &str) -> Result<Evaluation, String> {
        if path.is_empty() {
            return Ok(Evaluation::default());
        }
        let network =
            Network::load(Path::new(path)).map_err(|e| format!("EvalFile {path}: {e}"))?;
        Ok(Evaluation {
            path: path.to_string(),
            network: Some(Arc::new(network)),
        })
    }

    pub fn network(&self) -> Option<Arc<Network>> {
        self.network.clone()
    }

    /// The engine's announcement of what it evaluates with.
    pub fn describe(&self) -> String {
        match &self.network {
            None => "hand-crafted evaluation".to_string(),
            Some(net) => format!(
                "NNUE evaluation using {} ((768 -> {}) x 2 -> 1)",
                self.path,
                net.hidden()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
