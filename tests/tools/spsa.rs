//! `hoeven spsa` end to end through the library (the plain binary under
//! test is not a tuning build): a short block of pairs, its state file,
//! resuming from it, refusing another parameter set, and the plain
//! binary's refusal.

use clap::Parser;
use selfplay::spsa::{self, SpsaError, State, StateError};
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    args: spsa::Args,
}

fn config(state: &Path, extra: &[&str]) -> spsa::Config {
    let state = state.to_str().unwrap();
    let base = [
        "spsa",
        "--state",
        state,
        "--pairs-per-block",
        "2",
        "--blocks",
        "1",
        "--nodes",
        "300",
        "--iterations",
        "50",
    ];
    Cli::parse_from(base.iter().chain(extra))
        .args
        .config()
        .unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hoeven-spsa-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_block_saves_its_state_and_a_second_run_resumes_it() {
    let dir = scratch("resume");
    let path = dir.join("state.txt");
    let mut lines = Vec::new();
    let first = spsa::tune(
        &config(&path, &["--concurrency", "2", "--seed", "3"]),
        &mut |l| lines.push(l),
    )
    .unwrap();
    assert_eq!(first.pairs, 2);
    assert_eq!(first.theta.params.len(), engine::TUNABLES.len());
    let all: Vec<_> = engine::TUNABLES.iter().collect();
    assert_eq!(State::load(&path, &all).unwrap(), first);
    assert!(lines[0].starts_with("block 1: pairs 2/50"), "{lines:?}");

    // The pairs depend only on the seed, not on how many run at once.
    let alone = dir.join("alone.txt");
    let same = spsa::tune(
        &config(&alone, &["--concurrency", "1", "--seed", "3"]),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(same, first);

    let mut lines = Vec::new();
    // The state's seed wins over the command line's.
    let second = spsa::tune(&config(&path, &["--seed", "99"]), &mut |l| lines.push(l)).unwrap();
    assert_eq!((second.pairs, second.seed), (4, 3));
    assert!(lines[0].contains("resuming"), "{lines:?}");
    assert_eq!(State::load(&path, &all).unwrap(), second);

    let other = spsa::tune(&config(&path, &["--params", "RFP_MARGIN"]), &mut |_| {});
    assert!(matches!(
        other,
        Err(SpsaError::State(StateError::Mismatch { .. }))
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_plain_build_refuses_spsa() {
    let binary = testkit::uci_harness::binary();
    let out = Command::new(binary)
        .args(["spsa", "--state", "/nonexistent/state.txt"])
        .output()
        .unwrap();
    let refused = String::from_utf8_lossy(&out.stderr).contains("make spsa-build");
    // A tuning build takes the command and fails only on the state file.
    assert_eq!(refused, !engine::options::TUNING, "{out:?}");
    assert_eq!(
        out.status.code() == Some(2),
        !engine::options::TUNING,
        "{out:?}"
    );
}
