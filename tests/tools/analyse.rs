//! `hoeven analyse` end to end: short Chess960 and classical games
//! analysed at a low depth, their annotated PGN read back and replayed by
//! python-chess and their graph parsed as XML
//! (tests/python/analyse_check.py), broken games reported and skipped, and
//! the exit status. CI installs python-chess (`pip install chess`); without
//! it the read-back test fails and says so.

use testkit::uci_harness as harness;

/// Enough for the python-chess checker on a loaded machine.
const CHECK_LIMIT: Duration = Duration::from_secs(120);

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

/// The binary under test, located (and built if missing) by the shared harness.
fn hoeven() -> PathBuf {
    harness::binary()
}

fn data(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/analyse")
        .join(name);
    path.to_string_lossy().into_owned()
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hoeven-analyse-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn analyse(args: &[&str]) -> Run {
    let Output {
        status,
        stdout,
        stderr,
    } = Command::new(hoeven())
        .arg("analyse")
        .args(args)
        .output()
        .expect("hoeven runs");
    let stderr = String::from_utf8_lossy(&stderr).into_owned();
    // A panic aborts the process: no exit code at all.
    let Some(code) = status.code() else {
        panic!("hoeven analyse {args:?} crashed: {stderr}");
    };
    Run {
        code,
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr,
    }
}

/// Runs the python-chess checker; returns its success and output.
fn check(args: &[&str]) -> (bool, String) {
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    let run = harness::run_python("analyse_check.py", &args, CHECK_LIMIT);
    (run.status.success(), run.stdout + &run.stderr)
}

#[test]
fn games_are_annotated_and_python_chess_reads_them_back() {
    let dir = scratch("games");
    let (pgn, svg) = (dir.join("out.pgn"), dir.join("graph.svg"));
    let run = analyse(&[
        &data("games.pgn"),
        "--depth",
        "6",
        "-o",
        s(&pgn),
        "--svg",
        s(&svg),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // The summary goes to standard output when the games go to a file.
    for line in [
        "Game 1: Anna - Boris, 0-1",
        "  White  Anna   7 moves, ",
        "  Black  Boris  7 moves, ",
        "Game 2: Carl - Dora, 1-0",
        "Game 3: Boris - Anna, *",
        "Players over 3 games:",
        "  Anna   2 games, 10 moves, ",
        "analysed 3 of 3 games\n",
    ] {
        assert!(
            run.stdout.contains(line),
            "'{line}' missing from\n{}",
            run.stdout
        );
    }
    assert!(run.stdout.contains("average centipawn loss"));

    let text = std::fs::read_to_string(&pgn).unwrap();
    // Chess960 in one spelling, the Shredder-FEN rewritten as X-FEN.
    assert_eq!(text.matches("[Variant \"Chess960\"]").count(), 2, "{text}");
    assert!(text.contains("[FEN \"nrbbqnkr/pppppppp/8/8/8/8/PPPPPPPP/NRBBQNKR w KQkq - 0 1\"]"));
    let annotator = text.lines().find(|l| l.starts_with("[Annotator ")).unwrap();
    assert!(
        annotator.starts_with("[Annotator \"Hoeven ") && annotator.ends_with(", depth 6\"]"),
        "{annotator}"
    );
    // Giving the queen for a pawn, and walking into mate, are blunders
    // at any depth; the mate in one is written as lichess does.
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("6. Qxg6+ $4 { [%eval -"), "{text}");
    assert!(flat.contains("3... Nf6 $4 { [%eval #1] Blunder."), "{text}");
    assert!(flat.contains("4. Qxf7# 1-0"), "{text}");
    // The input's own comments and variations are not copied.
    assert!(!text.contains("both castle short") && !text.contains("the queen is lost"));

    let (ok, report) = check(&[s(&pgn), "--svg", s(&svg), "--expect-games", "3"]);
    assert!(ok, "{report}");
    assert!(report.starts_with("ok: 3 games, 28 moves,"), "{report}");

    // The checker can fail: a variation without its judgement, an
    // illegal move, and a graph that lost its closing tag.
    let bad_pgn = dir.join("bad.pgn");
    std::fs::write(&bad_pgn, text.replacen("6. Qxg6+ $4", "6. Qxg6+", 1)).unwrap();
    let (ok, report) = check(&[s(&bad_pgn)]);
    assert!(
        !ok && report.contains("a variation without a judgement"),
        "{report}"
    );
    std::fs::write(&bad_pgn, text.replacen("4. Qxf7#", "4. Qxa7#", 1)).unwrap();
    let (ok, report) = check(&[s(&bad_pgn)]);
    assert!(!ok && report.contains("could not read it"), "{report}");
    let graph = std::fs::read_to_string(&svg).unwrap();
    let bad_svg = dir.join("bad.svg");
    std::fs::write(&bad_svg, graph.replace("</svg>", "")).unwrap();
    let (ok, report) = check(&[s(&pgn), "--svg", s(&bad_svg)]);
    assert!(!ok && report.contains("not well-formed XML"), "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn multipv_and_threads_give_several_better_lines() {
    let dir = scratch("multipv");
    let pgn = dir.join("out.pgn");
    let run = analyse(&[
        &data("games.pgn"),
        "--depth",
        "5",
        "--multipv",
        "3",
        "--threads",
        "2",
        "-o",
        s(&pgn),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(&pgn).unwrap();
    // Three lines after the queen sacrifice, none of them the move played.
    let after = text.split("6. Qxg6+ $4").nth(1).unwrap();
    let before_reply = after.split("6... fxg6").next().unwrap();
    assert_eq!(before_reply.matches("(6.").count(), 3, "{text}");
    let (ok, report) = check(&[s(&pgn), "--expect-games", "3"]);
    assert!(ok, "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn broken_games_are_reported_and_the_others_analysed() {
    let dir = scratch("broken");
    let pgn = dir.join("out.pgn");
    let run = analyse(&[&data("broken.pgn"), "--depth", "4", "-o", s(&pgn)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for message in [
        "analyse: game 2, line 14: move 2. O-O-O: 'O-O-O' is not a legal move in this position; game skipped",
        "analyse: game 3, line 20: comment '{' has no closing '}'; game skipped",
        "analyse: game 4, line 24: '[Black Jo]' is not a tag [Name \"value\"]; game skipped",
    ] {
        assert!(run.stderr.contains(message), "'{message}' missing from\n{}", run.stderr);
    }
    assert!(
        run.stdout.contains("Game 1: Eve - Finn, *"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("Game 5: Hal - Eve, *"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("analysed 2 of 5 games, 3 skipped"),
        "{}",
        run.stdout
    );
    let (ok, report) = check(&[s(&pgn), "--expect-games", "2"]);
    assert!(ok, "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_an_analysable_game_the_exit_status_is_non_zero() {
    let dir = scratch("none");
    let only_bad = dir.join("bad.pgn");
    std::fs::write(&only_bad, "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n").unwrap();
    let run = analyse(&[s(&only_bad), "--depth", "2"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .contains("game 1, line 3: move 2. Ke3: 'Ke3' is not a legal move"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("analysed 0 of 1 games, 1 skipped"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout, "");

    let empty = dir.join("empty.pgn");
    std::fs::write(&empty, "\n").unwrap();
    let run = analyse(&[s(&empty)]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("no games in"), "{}", run.stderr);

    let run = analyse(&[s(&dir.join("missing.pgn"))]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("cannot read"), "{}", run.stderr);

    let run = analyse(&[s(&empty), "--depth", "0"]);
    assert_eq!(run.code, 2);
    assert!(run
        .stderr
        .contains("invalid value '0' for '--depth <N>': 0 is not in 1..=100"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_an_output_file_the_pgn_goes_to_standard_output() {
    let dir = scratch("stdout");
    let game = dir.join("game.pgn");
    std::fs::write(&game, "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 *\n").unwrap();
    let run = analyse(&[s(&game), "--depth", "3"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Only PGN on standard output; the summary is on standard error.
    assert!(run.stdout.starts_with("[White \"A\"]\n"), "{}", run.stdout);
    // The move itself may be judged (a NAG between it and its comment),
    // depending on the evaluation; only its annotation is required here.
    let after_e4 = run.stdout.split("1. e4 ").nth(1).unwrap_or("");
    assert!(
        after_e4.starts_with("{ [%eval ") || after_e4.starts_with('$'),
        "{}",
        run.stdout
    );
    assert!(after_e4.contains("[%eval "), "{}", run.stdout);
    assert!(!run.stdout.contains("analysed"));
    assert!(
        run.stderr.contains("analysed 1 of 1 games"),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--eval-file` chooses the evaluation as `EvalFile` does: the built-in
/// network by default, `<empty>` the hand-crafted one, a network file, and
/// a missing file is refused before any search.
#[test]
fn eval_file_chooses_the_evaluation() {
    let dir = scratch("eval-file");
    let game = dir.join("game.pgn");
    std::fs::write(
        &game,
        "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n",
    )
    .unwrap();
    let evals = |extra: &[&str]| -> String {
        let mut args = vec![s(&game), "--depth", "4"];
        args.extend_from_slice(extra);
        let run = analyse(&args);
        assert_eq!(run.code, 0, "{extra:?}: {}", run.stderr);
        run.stdout
            .split("[%eval ")
            .skip(1)
            .map(|e| e.split(']').next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let built_in = evals(&[]);
    let hand_crafted = evals(&["--eval-file", "<empty>"]);
    let net = testkit::workspace_root().join("nets/hoeven-39a27706.nnue");
    let other_net = evals(&["--eval-file", s(&net)]);
    assert!(!built_in.is_empty());
    assert_ne!(built_in, hand_crafted);
    assert_ne!(built_in, other_net);
    assert_ne!(hand_crafted, other_net);

    let run = analyse(&[s(&game), "--eval-file", "/nonexistent/x.nnue"]);
    assert_ne!(run.code, 0);
    assert!(
        run.stderr.contains("/nonexistent/x.nnue") && run.stderr.contains("cannot read"),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}
