//! Builds a network into the binary as its default evaluation: the one
//! `HOEVEN_EVALFILE` names (`make EVALFILE=path` sets the variable,
//! OpenBench's convention), or [`DEFAULT_NET`] when the variable is unset.
//! Set and empty, nothing is embedded and the default is the hand-crafted
//! evaluation. A relative path is taken from the workspace root.

use std::path::{Path, PathBuf};

/// The network a plain build carries: the strongest that passed its SPRT
/// against the evaluation it replaced (docs/nets.md, docs/elo-log.md).
const DEFAULT_NET: &str = "nets/hoeven-57825d87.nnue";

fn main() {
    println!("cargo:rerun-if-env-changed=HOEVEN_EVALFILE");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let path = std::env::var("HOEVEN_EVALFILE").unwrap_or_else(|_| DEFAULT_NET.to_string());
    let (bytes, name) = if path.is_empty() {
        (Vec::new(), String::new())
    } else {
        let manifest = std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it");
        let root = Path::new(&manifest)
            .parent()
            .expect("eval sits inside the workspace");
        let file = root.join(&path);
        println!("cargo:rerun-if-changed={}", file.display());
        let bytes = std::fs::read(&file)
            .unwrap_or_else(|e| panic!("HOEVEN_EVALFILE {}: {e}", file.display()));
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.clone());
        (bytes, name)
    };
    std::fs::write(out.join("embedded.nnue"), bytes).expect("OUT_DIR is writable");
    std::fs::write(out.join("embedded.name"), name).expect("OUT_DIR is writable");
}
