//! `EvalFile`: a network file chosen at run time is used by `eval`, `go`
//! and `bench`; a missing, truncated or corrupt file is refused with an
//! `info string error` and the evaluation in use stays; an empty path
//! selects the hand-crafted evaluation. The engine names its evaluation,
//! the network built in by default, and `export_net` writes the network in
//! use to a file.

use testkit::uci_harness as harness;

use chess::Board;
use eval::Evaluator;
use harness::{board_after, EngineProcess, SOON};
use std::path::PathBuf;
use std::sync::Arc;
use testkit::nets::random_network;

const FEN: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R b KQ - 3 8";

/// A file in the temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, bytes: &[u8]) -> TempFile {
        let path = std::env::temp_dir().join(format!("hoeven-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The `Final evaluation` of the `eval` command.
fn final_evaluation(e: &mut EngineProcess) -> (Vec<String>, i32) {
    let out = e.command("eval");
    let last = out.last().cloned().unwrap_or_default();
    let Some(cp) = last
        .strip_prefix("Final evaluation: ")
        .and_then(|r| r.strip_suffix(" (white side)"))
        .and_then(|n| n.parse().ok())
    else {
        e.fail(&format!(
            "eval should end with 'Final evaluation: N (white side)': {out:?}"
        ));
    };
    (out, cp)
}

fn bench_nodes(e: &mut EngineProcess) -> u64 {
    e.send("bench 5");
    let lines = e.read_until("bench", SOON, |l| l.ends_with(" nps"));
    let words: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
    words[0].parse().unwrap()
}

#[test]
fn a_network_file_is_used_and_bad_ones_are_refused() {
    let _timing = harness::timing_shared();
    let net = random_network(128, 8, 7).unwrap();
    let bytes = net.to_bytes();
    let good = TempFile::new("good.nnue", &bytes);
    let truncated = TempFile::new("truncated.nnue", &bytes[..bytes.len() / 2]);
    let mut corrupt_bytes = bytes.clone();
    corrupt_bytes[4000] ^= 0x10;
    let corrupt = TempFile::new("corrupt.nnue", &corrupt_bytes);
    let text = TempFile::new("text.nnue", b"not a network\n");

    let mut e = EngineProcess::start();
    let handshake = e.greeting().to_vec();
    // The default is the network built in (eval/build.rs), or the
    // hand-crafted evaluation in a build without one.
    let default = match eval::nnue::embedded() {
        Some(net) => format!(
            "info string NNUE evaluation using {} (embedded) (",
            net.name
        ),
        None => "info string hand-crafted evaluation".to_string(),
    };
    assert!(
        handshake.iter().any(|l| l.starts_with(&default)),
        "{default}: {handshake:?}"
    );
    let announced = e.command("setoption name EvalFile value <empty>");
    assert_eq!(announced, vec!["info string hand-crafted evaluation"]);
    e.quiet_command(&format!("position fen {FEN}"));
    let (trace, hand_crafted) = final_evaluation(&mut e);
    assert!(
        trace.len() > 10,
        "the hand-crafted eval shows its terms: {trace:?}"
    );
    let hand_crafted_nodes = bench_nodes(&mut e);

    // Silent itself; the next `isready` names the new evaluation.
    let announced = e.command(&format!("setoption name EvalFile value {}", good.path()));
    assert_eq!(
        announced,
        vec![format!(
            "info string NNUE evaluation using {} ((768 -> 128) x 2 -> 1, 8 output buckets)",
            good.path()
        )]
    );
    assert!(e.sync().is_empty(), "named once");

    // The engine's evaluation is the network's, computed here in-process.
    let board = Board::from_fen(FEN).unwrap();
    let mut evaluator = Evaluator::new(Some(Arc::new(net)));
    evaluator.reset(&board);
    let expected = evaluator.evaluate(&board) * board.side_to_move().sign();
    let (out, with_net) = final_evaluation(&mut e);
    assert_eq!(with_net, expected, "{out:?}");
    assert_ne!(with_net, hand_crafted);

    let search = e.go("depth 6", SOON);
    e.check_search(&board_after(FEN, &[], false), false, &search);
    e.quiet_command(&format!("position fen {FEN}"));
    let net_nodes = bench_nodes(&mut e);
    assert_ne!(
        net_nodes, hand_crafted_nodes,
        "bench searches with the network"
    );

    for (bad, why) in [
        (truncated.path(), "bytes where"),
        (corrupt.path(), "hash mismatch"),
        (text.path(), "bad magic"),
        ("/nonexistent/dir/x.nnue", "cannot read"),
    ] {
        let out = e.command(&format!("setoption name EvalFile value {bad}"));
        assert!(
            out.len() == 1
                && out[0].starts_with("info string error: ")
                && out[0].contains(bad)
                && out[0].contains(why),
            "{bad}: {out:?}"
        );
        assert_eq!(final_evaluation(&mut e).1, expected, "the network stays");
    }
    assert_eq!(bench_nodes(&mut e), net_nodes);

    let announced = e.command("setoption name EvalFile value <empty>");
    assert_eq!(announced, vec!["info string hand-crafted evaluation"]);
    assert_eq!(final_evaluation(&mut e).1, hand_crafted);
    assert_eq!(bench_nodes(&mut e), hand_crafted_nodes);
}

#[test]
fn export_net_writes_the_network_in_use() {
    let _timing = harness::timing_shared();
    let dir = std::env::temp_dir().join(format!("hoeven-{}-export", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let net = random_network(16, 2, 11).unwrap();
    let bytes = net.to_bytes();
    let source = TempFile::new("export-source.nnue", &bytes);
    let mut e = EngineProcess::start_in(&dir);
    e.handshake();
    e.command("setoption name EvalFile value <empty>");
    let out = e.command("export_net");
    assert!(
        out.len() == 1 && out[0].starts_with("info string error: export_net: no network"),
        "{out:?}"
    );

    e.command(&format!("setoption name EvalFile value {}", source.path()));
    let named = dir.join("copy of the net.nnue");
    let out = e.command(&format!("export_net {}", named.display()));
    assert_eq!(
        out,
        vec![format!(
            "info string network written to {}",
            named.display()
        )]
    );
    assert_eq!(std::fs::read(&named).unwrap(), bytes);
    // A network read from a file is written only under a name given.
    let out = e.command("export_net");
    assert!(
        out.len() == 1
            && out[0].starts_with("info string error: export_net: give a file name")
            && out[0].contains(source.path()),
        "{out:?}"
    );
    let out = e.command("export_net /nonexistent/dir/x.nnue");
    assert!(
        out.len() == 1
            && out[0].starts_with("info string error: export_net: /nonexistent/dir/x.nnue"),
        "{out:?}"
    );
    // The exported file is a network the engine reads back.
    let out = e.command(&format!(
        "setoption name EvalFile value {}",
        named.display()
    ));
    assert_eq!(
        out,
        vec![format!(
            "info string NNUE evaluation using {} ((768 -> 16) x 2 -> 1, 2 output buckets)",
            named.display()
        )]
    );

    // The built-in network, where there is one, under its own name in the
    // working directory.
    if let Some(embedded) = eval::nnue::embedded() {
        e.command(&format!("setoption name EvalFile value {}", embedded.name));
        let out = e.command("export_net");
        assert_eq!(
            out,
            vec![format!("info string network written to {}", embedded.name)]
        );
        let written = std::fs::read(dir.join(embedded.name)).unwrap();
        let expected = embedded.network.as_ref().unwrap().to_bytes();
        assert!(written == expected, "the built-in network, byte for byte");
    }
    drop(e);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A tournament director may move or delete the network file while the
/// engine runs: the network was read when `EvalFile` was set, so games go
/// on with it, and setting the vanished path again is refused with the
/// network kept.
#[test]
fn a_network_file_removed_after_it_was_set_leaves_the_engine_playing() {
    let _timing = harness::timing_shared();
    let net = random_network(64, 4, 13).unwrap();
    let file = TempFile::new("removed.nnue", &net.to_bytes());
    let path = file.path().to_string();

    let mut e = EngineProcess::start();
    e.command(&format!("setoption name EvalFile value {path}"));
    e.quiet_command(&format!("position fen {FEN}"));
    let (_, before) = final_evaluation(&mut e);
    drop(file);
    assert!(!std::path::Path::new(&path).exists());

    e.quiet_command("ucinewgame");
    assert!(
        e.sync().is_empty(),
        "nothing to report: the net is in memory"
    );
    e.quiet_command(&format!("position fen {FEN}"));
    assert_eq!(final_evaluation(&mut e).1, before, "the same network");
    let search = e.go("depth 6", SOON);
    e.check_search(&board_after(FEN, &[], false), false, &search);

    let out = e.command(&format!("setoption name EvalFile value {path}"));
    assert!(
        out.len() == 1
            && out[0].starts_with("info string error: ")
            && out[0].contains(&path)
            && out[0].contains("cannot read"),
        "{out:?}"
    );
    assert_eq!(final_evaluation(&mut e).1, before, "the network stays");
    let search = e.go("depth 6", SOON);
    e.check_search(&board_after(FEN, &[], false), false, &search);
}
