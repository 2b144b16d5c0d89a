//! `scripts/pgn_score.py` on nine hand-written games
//! (`tests/data/pgn_score/games.pgn`): three pairs from shared start
//! positions, one game whose partner never finished, one unfinished game
//! and one the engine did not play. Every count and the Elo follow from
//! the file by hand.

use testkit::uci_harness as harness;

use std::ffi::OsStr;
use std::path::Path;
use std::time::Duration;

fn score(name: &str) -> harness::ScriptRun {
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pgn_score/games.pgn");
    harness::run_python_file(
        Path::new("scripts/pgn_score.py"),
        &[OsStr::new(name), games.as_os_str()],
        Duration::from_secs(60),
    )
}

#[test]
fn pairs_counts_and_elo_are_those_of_the_games() {
    let run = score("eng");
    let report = &run.report;
    assert!(run.status.success(), "{}\n{report}", run.status);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines.first().copied(),
        Some("games 7: 3 W 2 D 2 L, score 0.5714"),
        "the unfinished game and the one without the engine are left out\n{report}"
    );
    assert_eq!(
        lines.get(1).copied(),
        Some("pairs 3: pentanomial [0, 1, 1, 0, 1]"),
        "pairs of 2, 1 and 1/2 points; the lone draw in none\n{report}"
    );
    // Mean pair score 7/12: -400 log10(12/7 - 1) = +58.5.
    assert!(
        lines
            .get(2)
            .is_some_and(|l| l.starts_with("Elo +58.5 +/- ")),
        "{report}"
    );
}

#[test]
fn a_name_that_played_no_game_is_an_error() {
    let run = score("nobody");
    assert!(!run.status.success(), "{}", run.report);
    assert!(
        run.stderr.contains("no finished game of 'nobody'"),
        "{}",
        run.report
    );
}
