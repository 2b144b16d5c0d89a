//! Builds the network named by `HOEVEN_EVALFILE` into the binary as its
//! default evaluation (`make EVALFILE=path` sets the variable, OpenBench's
//! convention). Without it nothing is embedded and the default is the
//! hand-crafted evaluation. A relative path is taken from the workspace
//! root.

use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-env-changed=HOEVEN_EVALFILE");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let (bytes, name) = match std::env::var("HOEVEN_EVALFILE") {
        Ok(path) if !path.is_empty() => {
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
        }
        _ => (Vec::new(), String::new()),
    };
    std::fs::write(out.join("embedded.nnue"), bytes).expect("OUT_DIR is writable");
    std::fs::write(out.join("embedded.name"), name).expect("OUT_DIR is writable");
}
