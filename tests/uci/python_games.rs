//! Hoeven plays itself through python-chess, a real UCI client:
//! `tests/python/selfplay_games.py` plays a classical, two Chess960 and a
//! Double Fischer Random game and fails on any illegal move, malformed
//! output, crash, stall or loss on time. CI installs python-chess
//! (`pip install chess`); without it this test fails and says so.

use testkit::uci_harness as harness;

use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(480);

#[test]
fn python_chess_self_play_games_are_legal_and_complete() {
    let _timing = harness::timing_shared();
    let binary = harness::binary();
    let run = harness::run_python("selfplay_games.py", &[binary.as_os_str()], LIMIT);
    let (out, report) = (&run.stdout, &run.report);
    assert!(
        run.status.success(),
        "the self-play games failed ({})\n{report}",
        run.status
    );
    println!("{out}");

    // The summary, and one line per game, each ended by the rules or the cap.
    let last = out.lines().last().unwrap_or("");
    let words: Vec<&str> = last.split_whitespace().collect();
    let (games, plies) = match words.as_slice() {
        ["ok:", g, "games,", p, "plies"] => (g.parse::<usize>().ok(), p.parse::<usize>().ok()),
        _ => (None, None),
    };
    assert!(
        games.is_some_and(|g| g >= 4),
        "expected 'ok: N games, M plies' with N >= 4\n{report}"
    );
    let game_lines: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(
        game_lines.len(),
        games.unwrap_or(0),
        "one line per game\n{report}"
    );
    for kind in ["classical", "Chess960", "DFRC"] {
        assert!(
            game_lines.iter().any(|l| l.contains(kind)),
            "no {kind} game\n{report}"
        );
    }
    let mut counted = 0;
    for l in &game_lines {
        let ended = [
            "(checkmate)",
            "(stalemate)",
            "(insufficient_material)",
            "(threefold_repetition)",
            "(fifty_moves)",
            "(fivefold_repetition)",
            "(seventyfive_moves)",
            "(adjudicated at the move cap)",
            // Only a small overrun, on a loaded machine; a large one fails the script.
            "(time forfeit",
        ];
        assert!(
            ended.iter().any(|e| l.contains(e)),
            "game without a proper ending: {l}\n{report}"
        );
        let n = l
            .split(" after ")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse::<usize>().ok());
        assert!(n.is_some_and(|n| n > 0), "no ply count in '{l}'");
        counted += n.unwrap_or(0);
    }
    assert_eq!(Some(counted), plies, "the games' plies add up\n{report}");
}
