//! The fuzz targets' checks (`testkit::fuzz`, `uci::fuzz`) on their seed inputs and
//! on every input a fuzzer found failing (`fuzz/regressions/<target>/`), so
//! that `make test` catches a regression without a nightly toolchain.

use std::path::Path;
use testkit::fuzz::{Check, TARGETS};

fn inputs(folder: &Path) -> Vec<(String, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p.display().to_string(), bytes)
        })
        .collect()
}

#[test]
fn seed_and_regression_inputs_pass_every_fuzz_check() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let session: (&str, Check) = ("uci_session", uci::fuzz::session);
    for (target, check) in TARGETS.into_iter().chain([session]) {
        let seeds = inputs(&root.join("seeds").join(target));
        assert!(
            seeds.len() >= 5,
            "{target}: only {} seed inputs",
            seeds.len()
        );
        let regressions = inputs(&root.join("regressions").join(target));
        for (name, bytes) in seeds.iter().chain(&regressions) {
            let outcome = std::panic::catch_unwind(|| check(bytes));
            assert!(outcome.is_ok(), "{target}: {name} failed its check");
        }
    }
}
