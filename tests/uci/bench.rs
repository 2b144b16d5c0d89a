//! `bench`, as a command-line tool and as a UCI command: deterministic node
//! counts, a per-position breakdown that adds up, and the `N nodes M nps`
//! summary line last.

use testkit::uci_harness as harness;

use harness::{binary, EngineProcess};
use std::process::Command;
use std::time::Duration;

/// Reads a bench report: the per-position node counts and the summary
/// `(nodes, nps)`, checking the format as it goes.
fn parse_report(lines: &[String]) -> Result<(Vec<u64>, u64, u64), String> {
    let last = lines
        .iter()
        .rev()
        .find(|l| !l.trim().is_empty())
        .ok_or("empty bench output")?;
    let words: Vec<&str> = last.split_whitespace().collect();
    let (nodes, nps) = match words.as_slice() {
        [n, "nodes", s, "nps"] => (
            n.parse::<u64>()
                .map_err(|_| format!("bad node count in '{last}'"))?,
            s.parse::<u64>()
                .map_err(|_| format!("bad speed in '{last}'"))?,
        ),
        _ => {
            return Err(format!(
                "the last line should be 'N nodes M nps', got '{last}'"
            ))
        }
    };
    let mut per_position = Vec::new();
    for l in lines.iter().filter(|l| l.starts_with("position ")) {
        // position  1:    123456 nodes  <fen>
        let words: Vec<&str> = l.split_whitespace().collect();
        match words.as_slice() {
            ["position", i, n, "nodes", fen @ ..] if i.ends_with(':') && !fen.is_empty() => {
                per_position.push(
                    n.parse::<u64>()
                        .map_err(|_| format!("bad count in '{l}'"))?,
                )
            }
            _ => return Err(format!("malformed bench line '{l}'")),
        }
    }
    Ok((per_position, nodes, nps))
}

fn command_line_bench(args: &[&str]) -> (Vec<u64>, u64, u64) {
    let out = Command::new(binary())
        .arg("bench")
        .args(args)
        .output()
        .expect("could not run hoeven bench");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "hoeven bench {args:?} failed: {}\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<String> = stdout.lines().map(str::to_string).collect();
    parse_report(&lines).unwrap_or_else(|e| panic!("hoeven bench {args:?}: {e}\n{stdout}"))
}

fn check_report(what: &str, (per_position, nodes, nps): &(Vec<u64>, u64, u64)) {
    assert!(
        per_position.len() >= 10,
        "{what}: too few positions: {per_position:?}"
    );
    assert!(
        per_position.iter().all(|&n| n > 0),
        "{what}: a position searched no nodes"
    );
    assert_eq!(
        per_position.iter().sum::<u64>(),
        *nodes,
        "{what}: the positions add up to the total"
    );
    assert!(*nps > 0, "{what}: zero speed");
}

#[test]
fn command_line_bench_is_deterministic() {
    let _timing = harness::timing_shared();
    let first = command_line_bench(&[]);
    let second = command_line_bench(&[]);
    check_report("hoeven bench", &first);
    check_report("hoeven bench", &second);
    assert_eq!(
        first.0, second.0,
        "every position searches the same nodes twice"
    );
    assert_eq!(first.1, second.1);
    // A shallower bench searches fewer nodes, and as deterministically.
    let shallow = command_line_bench(&["4"]);
    check_report("hoeven bench 4", &shallow);
    assert!(
        shallow.1 < first.1,
        "depth 4 ({}) should be smaller than the default ({})",
        shallow.1,
        first.1
    );
    assert_eq!(command_line_bench(&["4"]).1, shallow.1);
    // A bad depth is refused.
    for bad in ["0", "x", "-3"] {
        let out = Command::new(binary())
            .args(["bench", bad])
            .output()
            .expect("run hoeven");
        assert!(!out.status.success(), "hoeven bench {bad} should fail");
    }
}

#[test]
fn uci_bench_is_deterministic_and_matches_the_command_line() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    // Settings of the session do not change the bench.
    e.set_option("Hash", "4");
    e.set_option("MultiPV", "2");
    e.send("position startpos moves e2e4");
    let mut runs = Vec::new();
    for _ in 0..2 {
        e.send("bench");
        let lines = e.read_until("the bench summary", Duration::from_secs(120), |l| {
            l.ends_with(" nps")
        });
        let report = parse_report(&lines).unwrap_or_else(|err| e.fail(&err));
        check_report("uci bench", &report);
        runs.push(report);
        e.assert_idle();
    }
    assert_eq!(
        runs[0].1, runs[1].1,
        "UCI bench twice gives the same node count"
    );
    e.send("bench 4");
    let lines = e.read_until("the bench summary", Duration::from_secs(60), |l| {
        l.ends_with(" nps")
    });
    let shallow = parse_report(&lines).unwrap_or_else(|err| e.fail(&err));
    assert_eq!(
        shallow.1,
        command_line_bench(&["4"]).1,
        "UCI and command-line bench 4 agree"
    );
    assert_eq!(
        runs[0].1,
        command_line_bench(&[]).1,
        "UCI and command-line bench agree"
    );
    let out = e.command("bench 0");
    assert!(
        out.len() == 1 && out[0].starts_with("info string error"),
        "{out:?}"
    );
    // The session is unchanged: still the position set before.
    let key = e.d_field("Key: ");
    let board = harness::board_after(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &["e2e4"],
        false,
    );
    assert_eq!(
        key,
        format!("{:016X}", board.key()),
        "bench left the position alone"
    );
}
