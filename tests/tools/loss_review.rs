//! `scripts/loss_review.py` on three hand-written games
//! (`tests/data/loss_review/games.pgn`), Hoeven standing in as the referee:
//! it must pick the two games Hoeven lost, in each the move just before
//! the opponent's score first reached +1.50, and see that walking into
//! mate cost everything.

use testkit::uci_harness as harness;

use std::ffi::OsStr;
use std::path::Path;
use std::time::Duration;

fn review(opponent: &str) -> harness::ScriptRun {
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/loss_review/games.pgn");
    let binary = harness::binary();
    harness::run_python_file(
        Path::new("scripts/loss_review.py"),
        &[
            games.as_os_str(),
            OsStr::new(opponent),
            OsStr::new("--hoeven"),
            binary.as_os_str(),
            OsStr::new("--referee"),
            binary.as_os_str(),
            OsStr::new("--referee-nodes"),
            OsStr::new("2000"),
            OsStr::new("--hoeven-nodes"),
            OsStr::new("2000"),
        ],
        Duration::from_secs(120),
    )
}

/// The number after `word` in `line`.
fn number_after(line: &str, word: &str) -> i64 {
    let rest = &line[line
        .find(word)
        .unwrap_or_else(|| panic!("no '{word}' in {line}"))
        + word.len()..];
    rest.split_whitespace()
        .next()
        .and_then(|n| n.trim_end_matches(';').parse().ok())
        .unwrap_or_else(|| panic!("no number after '{word}' in {line}"))
}

#[test]
fn the_turning_move_of_each_lost_game_is_found_and_judged() {
    let run = review("opp");
    let report = &run.report;
    assert!(run.status.success(), "{}\n{report}", run.status);
    let rows: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("game "))
        .collect();
    assert_eq!(
        rows.len(),
        2,
        "the two lost games, not the won one\n{report}"
    );
    assert!(
        rows[0].starts_with("game    1 move   2:") && rows[0].contains("Hoeven's g2g4 costs"),
        "game 1: 2. g4, before the mate\n{report}"
    );
    assert!(
        number_after(rows[0], "costs") > 9000,
        "g4 walks into mate in one\n{report}"
    );
    assert!(
        rows[1].starts_with("game    3 move   2:") && rows[1].contains("Hoeven's d8c6 costs"),
        "game 3: 2...Nc6 of the Chess960 game, before the opponent's +1.60\n{report}"
    );
    assert!(
        run.stdout.contains("2 lost games") && run.stdout.contains("moves costing over 100 cp: 1"),
        "the summary\n{report}"
    );
}

#[test]
fn an_opponent_without_wins_is_reported_as_such() {
    let run = review("nobody");
    assert_eq!(run.status.code(), Some(1), "{}", run.report);
    assert!(
        run.stdout.contains("no lost game against nobody"),
        "{}",
        run.report
    );
}
