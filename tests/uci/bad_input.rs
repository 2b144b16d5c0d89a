//! Bad input survived, driving the built `hoeven` binary: malformed FENs and
//! position commands, illegal moves, unknown commands and options, values
//! out of range, garbage, bytes that are not UTF-8, very long and empty
//! lines. Each is answered with an `info string`, the previous state stays
//! in force, and the engine still answers and searches afterwards.

use testkit::uci_harness as harness;

use harness::{board_after, EngineProcess, SOON};
use std::time::Instant;

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const MIDDLEGAME: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 3 8";

/// Sends `command` and checks it printed exactly one error line that
/// contains every one of `words` (case-insensitively).
#[track_caller]
fn expect_error(e: &mut EngineProcess, command: &str, words: &[&str]) -> String {
    let out = e.command(command);
    let ok = out.len() == 1 && out[0].starts_with("info string error: ") && {
        let lower = out[0].to_lowercase();
        words.iter().all(|w| lower.contains(&w.to_lowercase()))
    };
    let shown = harness::clip(command, 120);
    e.check(ok, || {
        format!("'{shown}' should print one 'info string error: ...' line mentioning {words:?}, printed {out:?}")
    });
    out[0].clone()
}

/// Checks that the engine still answers and searches `fen` (after `moves`) soundly.
#[track_caller]
fn still_searches(e: &mut EngineProcess, fen: &str, moves: &[&str]) {
    let out = e.sync();
    e.check(out.is_empty(), || {
        format!("stray output before readyok: {out:?}")
    });
    let search = e.go("depth 3", SOON);
    let board = board_after(fen, moves, false);
    e.check_search(&board, false, &search);
}

#[test]
fn malformed_fens_are_refused_and_the_previous_position_kept() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    e.quiet_command(&format!("position fen {MIDDLEGAME}"));
    assert_eq!(e.fen(), MIDDLEGAME);
    let bad = [
        ("8/8/8/8/8/8/8/K6k w", "fields"),
        ("8/8/8/8/8/8/8/K6k w - - 0 1 extra", "fields"),
        ("8/8/8/8/8/8/K6k w - - 0 1", "ranks"),
        ("8/8/8/8/8/8/8/8/K6k w - - 0 1", "ranks"),
        ("7/8/8/8/8/8/8/K6k w - - 0 1", "rank 8"),
        ("8p/8/8/8/8/8/8/K6k w - - 0 1", "rank 8"),
        ("8/8/8/8/8/8/8/K5xk w - - 0 1", "'x'"),
        ("8/8/8/8/8/8/8/K5k9 w - - 0 1", "'9'"),
        ("8/8/8/8/8/8/8/K7 w - - 0 1", "kings"),
        ("8/8/8/8/8/8/8/KK5k w - - 0 1", "kings"),
        ("P7/8/8/8/8/8/8/K6k w - - 0 1", "pawn on a8"),
        ("8/8/8/8/8/8/8/K5pk w - - 0 1", "pawn on g1"),
        ("8/8/8/8/8/8/8/K6k x - - 0 1", "side to move"),
        ("8/8/8/8/8/8/8/K6k W - - 0 1", "side to move"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KZkq - 0 1", "castling"),
        ("8/8/8/8/8/8/8/K6k w - e9 0 1", "en passant"),
        ("8/8/8/8/8/8/8/K6k w - e4 0 1", "en passant"),
        ("8/8/8/8/8/8/8/K6k w - - x 1", "halfmove"),
        ("8/8/8/8/8/8/8/K6k w - - -1 1", "halfmove"),
        ("8/8/8/8/8/8/8/K6k w - - 0 0", "fullmove"),
        ("8/8/8/8/8/8/8/K6k w - - 0 y", "fullmove"),
        ("k6R/8/8/8/8/8/8/K7 w - - 0 1", "not to move is in check"),
        ("7k/4r3/8/8/1b6/3n4/8/4K3 w - - 0 1", "check from 3"),
        ("", "expected"),
    ];
    for (fen, word) in bad {
        expect_error(&mut e, &format!("position fen {fen}"), &["fen", word]);
        let now = e.fen();
        e.check(now == MIDDLEGAME, || {
            format!(
                "after the bad FEN '{fen}' the position should still be {MIDDLEGAME}, got {now}"
            )
        });
        // With moves after the bad FEN too.
        e.command(&format!("position fen {fen} moves e2e4"));
        let now = e.fen();
        e.check(now == MIDDLEGAME, || {
            format!("'{fen} moves e2e4' changed the position to {now}")
        });
    }
    for bad_setup in [
        "position",
        "position startpos extra",
        "position frc 960",
        "position frc -1",
        "position frc x",
        "position dfrc 1",
        "position dfrc 1 960",
        "position dfrc 1 2 3",
        "position foo",
        "position moves e2e4",
        "position fenx 8/8/8/8/8/8/8/K6k w - - 0 1",
    ] {
        expect_error(&mut e, bad_setup, &["position"]);
        let now = e.fen();
        e.check(now == MIDDLEGAME, || {
            format!("'{bad_setup}' changed the position to {now}")
        });
    }
    still_searches(&mut e, MIDDLEGAME, &[]);
}

#[test]
fn illegal_moves_stop_the_move_list_at_the_last_legal_move() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    // (moves, the offending move, its ply, the moves that stand)
    let cases: [(&str, &str, usize, &[&str]); 6] = [
        ("e2e4 e7e5 e1e3 g1f3", "e1e3", 3, &["e2e4", "e7e5"]),
        ("e2e4 zz9 e7e5", "zz9", 2, &["e2e4"]),
        ("e7e5", "e7e5", 1, &[]),
        (
            "f2f3 e7e5 g2g4 d8h4 a2a3",
            "a2a3",
            5,
            &["f2f3", "e7e5", "g2g4", "d8h4"],
        ),
        ("e2e4 e7e5 e1g1", "e1g1", 3, &["e2e4", "e7e5"]),
        (
            "g1f3 g8f6 f3g1 f6g8 e2e5",
            "e2e5",
            5,
            &["g1f3", "g8f6", "f3g1", "f6g8"],
        ),
    ];
    for (moves, culprit, ply, stand) in cases {
        let line = expect_error(
            &mut e,
            &format!("position startpos moves {moves}"),
            &[&format!("'{culprit}'"), &format!("ply {ply}")],
        );
        let board = board_after(STARTPOS, stand, false);
        let expected_key = format!("{:016X}", board.key());
        let key = e.d_field("Key: ");
        e.check(key == expected_key, || {
            format!("after '{line}' the position should be startpos + {stand:?}")
        });
        if !board.has_legal_move() {
            let search = e.go("depth 2", SOON);
            assert_eq!(search.bestmove, "(none)", "checkmated after {stand:?}");
        } else {
            still_searches(&mut e, STARTPOS, stand);
        }
    }
    // A promotion needs its piece letter.
    let fen = "8/P6k/8/8/8/8/8/K7 w - - 0 1";
    expect_error(
        &mut e,
        &format!("position fen {fen} moves a7a8"),
        &["'a7a8'", "ply 1"],
    );
    assert_eq!(e.fen(), fen);
    e.quiet_command(&format!("position fen {fen} moves a7a8n"));
    assert_eq!(e.fen(), "N7/7k/8/8/8/8/8/K7 b - - 0 1");
}

#[test]
fn unknown_commands_options_and_bad_values_are_reported() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    e.handshake();
    expect_error(&mut e, "foo", &["unknown command", "foo"]);
    expect_error(&mut e, "goo depth 1", &["unknown command", "goo"]);
    expect_error(&mut e, "ISREADY", &["unknown command"]);
    expect_error(
        &mut e,
        "setoption name Foo value 1",
        &["unknown option", "Foo"],
    );
    expect_error(&mut e, "setoption name Hash value abc", &["Hash", "abc"]);
    expect_error(&mut e, "setoption name Hash", &["Hash", "value"]);
    expect_error(
        &mut e,
        "setoption name Ponder value maybe",
        &["Ponder", "maybe"],
    );
    expect_error(&mut e, "setoption Hash value 1", &["name"]);
    expect_error(&mut e, "setoption", &["name"]);
    // Out of range: clamped, with a note (not an error), and in effect.
    for (option, value, clamped) in [
        ("Threads", "0", "1"),
        ("MultiPV", "1000", "256"),
        ("Move Overhead", "-5", "0"),
        ("Hash", "0", "1"),
    ] {
        let out = e.command(&format!("setoption name {option} value {value}"));
        let ok = out.len() == 1
            && out[0].starts_with("info string ")
            && !out[0].starts_with("info string error")
            && out[0].contains(option)
            && out[0].contains(&format!("set to {clamped}"));
        e.check(ok, || {
            format!("{option} {value}: expected one clamping note, got {out:?}")
        });
    }
    // MultiPV 256 is in force: every legal move of the start position gets a line.
    e.send("position startpos");
    let search = e.go("depth 1", SOON);
    let lines = search.pv_infos().iter().filter_map(|i| i.multipv).max();
    assert_eq!(lines, Some(20), "MultiPV clamped to 256 shows all 20 moves");
    e.set_option("MultiPV", "1");
    // A table too large to allocate fails cleanly and the engine goes on.
    let out = e.command("setoption name Hash value 100000000");
    e.check(
        !out.is_empty() && out.iter().all(|l| l.starts_with("info string ")),
        || format!("an impossible Hash should be reported, got {out:?}"),
    );
    // Bad go parameters are reported and the search still runs.
    e.send("go depth x movetime 50");
    let warning = e.expect("a warning about 'depth x'", SOON, |l| {
        l.starts_with("info string")
    });
    assert!(warning.contains("depth"), "{warning}");
    let search = e.finish_search(Instant::now(), SOON);
    e.check_search(&board_after(STARTPOS, &[], false), false, &search);
    e.assert_idle();
    let search = e.go("depth 2 frobnicate", SOON);
    assert!(
        search
            .lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("frobnicate")),
        "unknown go parameter reported: {:?}",
        search.lines
    );
    still_searches(&mut e, STARTPOS, &[]);
}

#[test]
fn garbage_long_and_empty_lines_are_survived() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    e.quiet_command(&format!("position fen {MIDDLEGAME}"));
    // Empty and blank lines: nothing at all.
    for blank in ["", "   ", "\t", " \t \r"] {
        e.quiet_command(blank);
    }
    // Windows line endings and surrounding blanks.
    e.send_bytes(b"isready\r\n");
    e.expect("readyok for 'isready\\r'", SOON, |l| l == "readyok");
    e.send_bytes(b"   isready   \n");
    e.expect("readyok for '   isready   '", SOON, |l| l == "readyok");
    // Not UTF-8, control characters, NUL.
    e.send_bytes(b"\xff\xfe\xfd garbage \x80\n");
    let out = e.sync();
    e.check(out.len() == 1 && out[0].starts_with("info string"), || {
        format!("a line of invalid UTF-8 should get one info string, got {out:?}")
    });
    e.send_bytes(b"\x00\x01\x02\x1b[31m\n");
    e.sync();
    // A megabyte-long garbage line, and a long line of words.
    let long = "x".repeat(1 << 20);
    expect_error(&mut e, &long, &["unknown command"]);
    let words = "go ".repeat(20_000);
    e.send(&format!("{words}depth 1"));
    let _ = e.finish_search(Instant::now(), SOON);
    let after = e.sync();
    e.check(after.iter().all(|l| !harness::is_bestmove(l)), || {
        "two bestmoves".into()
    });
    let options = format!("setoption name {} value 1", "Hash ".repeat(10_000));
    expect_error(&mut e, &options, &["unknown option"]);
    // A very long but legal move list: knights out and back, 3000 plies.
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves: Vec<&str> = shuffle.iter().cycle().take(3000).copied().collect();
    e.quiet_command(&format!("position startpos moves {}", moves.join(" ")));
    assert_eq!(
        e.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3000 1501"
    );
    still_searches(&mut e, STARTPOS, &moves);

    // Garbage while a search runs: one bestmove, then the queued answers.
    e.quiet_command(&format!("position fen {MIDDLEGAME}"));
    e.send("go infinite");
    e.expect("the search's first info", SOON, |l| {
        l.starts_with("info depth")
    });
    e.send("foo");
    e.send_bytes(b"\xff\n");
    e.send("");
    e.send(&long);
    e.send("stop");
    let search = e.finish_search(Instant::now(), SOON);
    e.check_search(&board_after(MIDDLEGAME, &[], false), false, &search);
    let after = e.sync();
    e.check(
        after.iter().all(|l| l.starts_with("info string")) && after.len() == 3,
        || format!("after the bestmove only the three queued errors should follow: {after:?}"),
    );
    // After all of it: ready, and a sound search.
    let fen = e.fen();
    assert_eq!(fen, MIDDLEGAME);
    still_searches(&mut e, MIDDLEGAME, &[]);
}
