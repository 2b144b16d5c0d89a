//! The network built into the binary (`make EVALFILE=path`, see
//! `eval/build.rs`), if any: the engine's default evaluation.

use super::network::{NetError, Network};
use std::sync::{Arc, OnceLock};

static BYTES: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/embedded.nnue"));
static NAME: &str = include_str!(concat!(env!("OUT_DIR"), "/embedded.name"));

/// The embedded network, read once.
pub struct Embedded {
    /// Its file name, which `EvalFile` accepts to select it.
    pub name: &'static str,
    pub network: Result<Arc<Network>, NetError>,
}

/// The network this binary was built with; `None` when it has none.
pub fn embedded() -> Option<&'static Embedded> {
    static EMBEDDED: OnceLock<Option<Embedded>> = OnceLock::new();
    EMBEDDED
        .get_or_init(|| {
            (!BYTES.is_empty()).then(|| Embedded {
                name: NAME,
                network: Network::from_bytes(BYTES).map(Arc::new),
            })
        })
        .as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A build with `HOEVEN_EVALFILE` must carry a usable net under a name;
    /// one without carries nothing.
    #[test]
    fn the_embedded_network_is_whole_or_absent() {
        match embedded() {
            Some(e) => {
                assert!(!e.name.is_empty());
                let net = e.network.as_ref().expect("the embedded net reads");
                assert_eq!(net.to_bytes(), BYTES);
            }
            None => assert!(BYTES.is_empty() && NAME.is_empty()),
        }
    }
}
