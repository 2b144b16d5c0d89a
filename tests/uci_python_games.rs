//! Hoeven plays itself through python-chess, a real UCI client:
//! `tests/python/selfplay_games.py` plays a classical, two Chess960 and a
//! Double Fischer Random game and fails on any illegal move, malformed
//! output, crash, stall or loss on time. CI installs python-chess
//! (`pip install chess`); without it this test fails and says so.

use testkit::uci_harness as harness;

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(480);

fn python() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string())
}

#[test]
fn python_chess_self_play_games_are_legal_and_complete() {
    let python = python();
    let probe = Command::new(&python)
        .args(["-c", "import chess, chess.engine; print(chess.__version__)"])
        .output();
    match probe {
        Err(e) => panic!("cannot run '{python}' ({e}): these games need Python 3 with python-chess (pip install chess)"),
        Ok(out) if !out.status.success() => panic!(
            "python-chess is missing for '{python}' (pip install chess): {}",
            String::from_utf8_lossy(&out.stderr)
        ),
        Ok(_) => {}
    }

    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/selfplay_games.py");
    let mut child = Command::new(&python)
        .arg(&script)
        .arg(harness::binary())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", script.display()));
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() < LIMIT => std::thread::sleep(Duration::from_millis(50)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let out = out_reader.join().unwrap_or_default();
    let err = err_reader.join().unwrap_or_default();
    let report = format!(
        "--- stdout ---\n{out}\n--- stderr ---\n{}",
        harness::clip(&err, 8000)
    );
    let Some(status) = status else {
        panic!("the self-play games did not finish within {LIMIT:?}\n{report}");
    };
    assert!(
        status.success(),
        "the self-play games failed ({status})\n{report}"
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
