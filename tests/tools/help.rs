//! One command line: `hoeven --help` names every tool, each tool's `--help`
//! documents its flags, and a bad flag is a usage error (exit status 2)
//! rather than a panic or a run with the flag ignored.

use std::process::{Command, Output};
use testkit::uci_harness as harness;

fn hoeven(args: &[&str]) -> Output {
    let out = Command::new(harness::binary())
        .args(args)
        .output()
        .expect("hoeven runs");
    // A panic aborts the process: no exit code at all.
    assert!(
        out.status.code().is_some(),
        "hoeven {args:?} crashed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn help(args: &[&str]) -> String {
    let out = hoeven(args);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "hoeven {args:?}: {text}");
    text
}

/// The names in the Commands section of a help text.
fn commands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .collect()
}

/// Refused as clap refuses: exit status 2, the culprit named, and the way
/// to the help (with the usage too where the flag itself is unknown).
fn usage_error(args: &[&str], bad: &str) {
    let out = hoeven(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "hoeven {args:?}: {stderr}");
    assert!(
        stderr.starts_with("error: ")
            && stderr.contains(&format!("'{bad}'"))
            && stderr.contains("try '--help'"),
        "hoeven {args:?}: {stderr}"
    );
    if bad.starts_with("--") {
        assert!(
            stderr.contains("Usage: hoeven"),
            "hoeven {args:?}: {stderr}"
        );
    }
}

#[test]
fn help_lists_every_tool() {
    let listed = commands(&help(&["--help"]));
    for tool in [
        "perft", "bench", "selfplay", "spsa", "analyse", "train", "tune", "book", "help",
    ] {
        assert!(listed.iter().any(|c| c == tool), "{tool} not in {listed:?}");
    }
}

#[test]
fn train_help_lists_its_commands_and_their_flags() {
    let listed = commands(&help(&["train", "--help"]));
    assert_eq!(
        listed,
        ["convert", "train", "pgn", "eval", "distil", "loss", "help"]
    );
    for (command, flags) in [
        (
            "convert",
            &[
                "--max-score",
                "--keep-in-check",
                "--validation",
                "--validation-share",
                "--seed",
            ][..],
        ),
        (
            "train",
            &[
                "--data",
                "--out",
                "--validation",
                "--hidden",
                "--output-buckets",
                "--king-mirror",
                "--king-buckets",
                "--epochs",
                "--batch",
                "--lr",
                "--lr-drop",
                "--lr-gamma",
                "--weight-decay",
                "--lambda",
                "--no-mirror",
                "--seed",
                "--save-every",
                "--resume",
                "--init",
                "--threads",
            ],
        ),
        ("pgn", &[]),
        ("eval", &[]),
        (
            "distil",
            &[
                "--net",
                "--nodes",
                "--per-position",
                "--plies",
                "--max-score",
                "--seed",
            ],
        ),
        ("loss", &["--lambda"]),
    ] {
        let text = help(&["train", command, "--help"]);
        for flag in flags {
            assert!(text.contains(flag), "train {command}: {flag} in\n{text}");
        }
    }
    // Defaults come from the code, and show.
    let text = help(&["train", "train", "--help"]);
    for default in ["[default: 16384]", "[default: 40,55]", "[default: 128]"] {
        assert!(text.contains(default), "{default} in\n{text}");
    }
}

#[test]
fn tune_help_lists_its_flags() {
    let text = help(&["tune", "--help"]);
    for flag in [
        "--data",
        "--limit",
        "--validation",
        "--lambda",
        "--epochs",
        "--lr",
        "--l2",
        "--keep-best",
        "--init",
        "--report",
        "--out",
        "--write-init",
    ] {
        assert!(text.contains(flag), "tune: {flag} in\n{text}");
    }
    assert!(text.contains("[default: current]"), "{text}");
}

#[test]
fn spsa_help_lists_its_flags() {
    let text = help(&["spsa", "--help"]);
    for flag in [
        "--state",
        "--pairs-per-block",
        "--blocks",
        "--iterations",
        "--nodes",
        "--variant",
        "--concurrency",
        "--seed",
        "--params",
        "--a ",
        "--c ",
        "--alpha",
        "--gamma",
        "--r-end",
    ] {
        assert!(text.contains(flag), "spsa: {flag} in\n{text}");
    }
}

#[test]
fn bad_arguments_are_usage_errors() {
    usage_error(&["--bogus"], "--bogus");
    usage_error(&["train", "--bogus"], "--bogus");
    usage_error(
        &["train", "convert", "out.bin", "in.txt", "--bogus"],
        "--bogus",
    );
    usage_error(
        &[
            "train", "train", "--data", "a.bin", "--out", "n", "--hidden", "0",
        ],
        "0",
    );
    usage_error(
        &[
            "train", "train", "--data", "a.bin", "--out", "n", "--lambda", "2",
        ],
        "2",
    );
    usage_error(
        &[
            "train", "train", "--data", "a", "--out", "n", "--init", "a", "--resume", "b",
        ],
        "--init <NET>",
    );
    usage_error(
        &["train", "distil", "out.bin", "in.bin", "--plies", "0"],
        "0",
    );
    usage_error(&["tune", "--bogus"], "--bogus");
    usage_error(&["tune", "--init", "best"], "best");
    usage_error(&["tune", "--data", "a.txt", "--epochs", "x"], "x");
    // Without --data there is nothing to tune, unless only the start is written.
    let out = hoeven(&["tune"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--data"));
}
