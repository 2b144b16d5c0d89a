//! `make EVALFILE=net`, OpenBench's way of building an engine with a
//! network: eval/build.rs builds the file `HOEVEN_EVALFILE` names into the
//! binary, and it becomes the default evaluation: `EvalFile`'s default is
//! its name, the handshake names it, `eval` and `bench` use it; `EvalFile`
//! `<empty>` selects the hand-crafted evaluation and the name brings the
//! network back; `make EVALFILE=` (the variable set and empty) builds none
//! in, and the hand-crafted evaluation is the default. The builds are
//! separate, unoptimised ones (quicker to compile) in `target/embedded-net`,
//! one after the other.

use testkit::uci_harness as harness;

use chess::Board;
use eval::Evaluator;
use harness::{EngineProcess, SOON};
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

const NET: &str = "nets/hoeven-39a27706.nnue";
const NAME: &str = "hoeven-39a27706.nnue";
const FEN: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R b KQ - 3 8";

/// The binary built with `HOEVEN_EVALFILE` set to `evalfile`.
fn build_with(evalfile: &str) -> PathBuf {
    let root = testkit::workspace_root();
    let target = root.join("target").join("embedded-net");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let status = Command::new(&cargo)
        .args(["build", "-p", "hoeven", "--bin", "hoeven", "--target-dir"])
        .arg(&target)
        .env("HOEVEN_EVALFILE", evalfile)
        .current_dir(&root)
        .status()
        .unwrap_or_else(|e| panic!("could not run {cargo}: {e}"));
    assert!(
        status.success(),
        "building with HOEVEN_EVALFILE={evalfile}: {status}"
    );
    target
        .join("debug")
        .join(format!("hoeven{}", std::env::consts::EXE_SUFFIX))
}

fn final_evaluation(e: &mut EngineProcess) -> i32 {
    let out = e.command("eval");
    let last = out.last().cloned().unwrap_or_default();
    last.strip_prefix("Final evaluation: ")
        .and_then(|r| r.strip_suffix(" (white side)"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| e.fail(&format!("no final evaluation: {out:?}")))
}

fn bench_nodes(binary: &std::path::Path, uci_commands: &[&str]) -> u64 {
    let out = Command::new(binary)
        .args(uci_commands)
        .args(["bench 4", "quit"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text
        .lines()
        .rev()
        .find(|l| l.ends_with(" nps"))
        .unwrap_or("");
    last.split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no bench summary from {binary:?}: {text}"))
}

/// One test, so that the two builds share the target directory in turn.
#[test]
fn the_network_built_in_or_none_is_the_default_evaluation() {
    let _timing = harness::timing_shared();
    a_network_built_in_is_the_default_evaluation(&build_with(NET));
    no_network_built_in_leaves_the_hand_crafted_evaluation(&build_with(""));
}

fn a_network_built_in_is_the_default_evaluation(binary: &std::path::Path) {
    let net = Arc::new(eval::nnue::Network::load(&testkit::workspace_root().join(NET)).unwrap());
    let board = Board::from_fen(FEN).unwrap();
    let mut evaluator = Evaluator::new(Some(net));
    evaluator.reset(&board);
    let expected = evaluator.evaluate(&board) * board.side_to_move().sign();

    let mut e = EngineProcess::start_binary(binary);
    let handshake = e.greeting().to_vec();
    for line in [
        format!("option name EvalFile type string default {NAME}"),
        format!("info string NNUE evaluation using {NAME} (embedded) ((768 -> 128) x 2 -> 1, 1 output bucket)"),
    ] {
        assert!(handshake.contains(&line), "{line} in {handshake:?}");
    }
    e.quiet_command(&format!("position fen {FEN}"));
    assert_eq!(final_evaluation(&mut e), expected);

    let announced = e.command("setoption name EvalFile value <empty>");
    assert_eq!(announced, vec!["info string hand-crafted evaluation"]);
    let hand_crafted = final_evaluation(&mut e);
    assert_ne!(hand_crafted, expected);
    let announced = e.command(&format!("setoption name EvalFile value {NAME}"));
    assert_eq!(
        announced,
        vec![format!(
            "info string NNUE evaluation using {NAME} (embedded) ((768 -> 128) x 2 -> 1, 1 output bucket)"
        )]
    );
    assert_eq!(final_evaluation(&mut e), expected);
    e.quit(SOON);

    // `bench`, which OpenBench reads, searches with the built-in network:
    // as the release build does with the same net loaded from its file.
    let built_in = bench_nodes(binary, &[]);
    let path = testkit::workspace_root().join(NET);
    let from_file = bench_nodes(
        &harness::binary(),
        &[&format!("setoption name EvalFile value {}", path.display())],
    );
    let hand_crafted = bench_nodes(
        &harness::binary(),
        &["setoption name EvalFile value <empty>"],
    );
    assert_eq!(built_in, from_file);
    assert_ne!(built_in, hand_crafted);
}

fn no_network_built_in_leaves_the_hand_crafted_evaluation(binary: &std::path::Path) {
    let e = EngineProcess::start_binary(binary);
    let handshake = e.greeting().to_vec();
    for line in [
        "option name EvalFile type string default <empty>",
        "info string hand-crafted evaluation",
    ] {
        assert!(
            handshake.iter().any(|l| l == line),
            "{line} in {handshake:?}"
        );
    }
    e.quit(SOON);
    let hand_crafted = bench_nodes(
        &harness::binary(),
        &["setoption name EvalFile value <empty>"],
    );
    assert_eq!(bench_nodes(binary, &[]), hand_crafted);
}
