//! The UCI protocol as a GUI sees it, driving the built `hoeven` binary over
//! pipes: the handshake, `isready`/`stop`/`ponderhit` during a search, one
//! `bestmove` per `go` whatever the limits, the clock, the shape of `info`
//! lines, MultiPV, WDL and `searchmoves`.

use testkit::uci_harness as harness;

use harness::{board_after, EngineProcess, Info, Score, SOON};
use std::time::{Duration, Instant};

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// White mates in one with Ra8 (the only mate).
const MATE_IN_1: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
/// Black to move is checkmated.
const CHECKMATED: &str = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1";
/// Black to move is stalemated.
const STALEMATE: &str = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
/// White mates in two, only by 1.Nf6+ gxf6 2.Bxf7#.
const MATE_IN_2: &str = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
/// A middlegame with many sensible moves.
const MIDDLEGAME: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 3 8";

/// What the protocol requires to be quick: `isready` and `stop` during a search.
const QUICK: Duration = Duration::from_millis(100);
/// How often a timed action is tried before a slow answer fails the test.
const TRIES: usize = 3;

/// Runs a timed action up to [`TRIES`] times until it is faster than
/// `limit`. A loaded machine can stall any process for a moment, so one slow
/// answer is not yet a failure; an engine that is slow every time fails.
/// The action must leave the engine idle, and fails the test at once on any
/// functional problem.
#[track_caller]
fn within(
    e: &mut EngineProcess,
    limit: Duration,
    what: &str,
    mut attempt: impl FnMut(&mut EngineProcess) -> Duration,
) {
    let mut times = Vec::new();
    for _ in 0..TRIES {
        let t = attempt(e);
        if t < limit {
            return;
        }
        times.push(t);
    }
    e.fail(&format!(
        "{what}: slower than {limit:?} in all {TRIES} tries: {times:?}"
    ));
}

/// `go {go}` after `position` (which set up `board`) must bring a legal
/// bestmove inside `limit`, in one of the tries.
#[track_caller]
fn go_within(
    e: &mut EngineProcess,
    board: &chess::Board,
    go: &str,
    limit: Duration,
    position: &str,
) {
    within(e, limit, &format!("'{position}' 'go {go}'"), |e| {
        let search = e.go(go, SOON);
        e.check_search(board, false, &search);
        search.elapsed
    });
}

/// Sends `stop` to a running search and returns the time to its bestmove,
/// checking the search and that nothing follows.
#[track_caller]
fn stop_and_check(e: &mut EngineProcess, board: &chess::Board, expected: Option<&str>) -> Duration {
    let sent = Instant::now();
    e.send("stop");
    let search = e.finish_search(sent, SOON);
    e.assert_idle();
    match expected {
        Some(best) => e.check(
            search.bestmove == best && (best != "(none)" || search.ponder.is_none()),
            || {
                format!(
                    "expected bestmove {best}, got '{}'",
                    search.lines.last().cloned().unwrap_or_default()
                )
            },
        ),
        None => e.check_search(board, false, &search),
    }
    search.elapsed
}

/// Sends `ponderhit` to a ponder search and returns the time to its
/// bestmove, checking the search and that nothing follows.
#[track_caller]
fn ponderhit_and_check(e: &mut EngineProcess, board: &chess::Board) -> Duration {
    let sent = Instant::now();
    e.send("ponderhit");
    let search = e.finish_search(sent, SOON);
    e.assert_idle();
    e.check_search(board, false, &search);
    search.elapsed
}

#[test]
fn uci_handshake_declares_identity_and_every_option() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    let lines = e.greeting().to_vec();
    e.check(
        lines.first().is_some_and(|l| l.starts_with("id name ")) && lines[0].len() > 8,
        || format!("the first line should be 'id name <name>': {lines:?}"),
    );
    e.check(
        lines
            .iter()
            .any(|l| l.starts_with("id author ") && l.len() > 10),
        || format!("no 'id author' line: {lines:?}"),
    );
    // Nothing but id and option lines before uciok, and no blank lines;
    // the evaluation is named after it, at the first isready.
    let uciok = lines.iter().position(|l| l == "uciok");
    e.check(uciok.is_some(), || format!("no uciok: {lines:?}"));
    let (answer, after) = lines.split_at(uciok.unwrap_or(0));
    for l in answer {
        let ok = l.starts_with("id name ")
            || l.starts_with("id author ")
            || l.starts_with("option name ");
        e.check(ok, || {
            format!("unexpected line '{l}' in the uci answer: {lines:?}")
        });
    }
    e.check(
        after.len() == 2
            && (after[1] == "info string hand-crafted evaluation"
                || after[1].starts_with("info string NNUE evaluation using ")),
        || format!("the first isready should name the evaluation, once: {after:?}"),
    );
    let answer = answer.to_vec();
    let again = e.sync();
    e.check(again.is_empty(), || {
        format!("the evaluation is named once: {again:?}")
    });
    // Each option: name, type, and a consistent default/min/max.
    let expected = [
        ("Hash", "spin"),
        ("Threads", "spin"),
        ("MultiPV", "spin"),
        ("Debug Log File", "string"),
        ("Ponder", "check"),
        ("Move Overhead", "spin"),
        ("Clear Hash", "button"),
        ("UCI_Chess960", "check"),
        ("UCI_ShowWDL", "check"),
        ("UCI_AnalyseMode", "check"),
        ("SyzygyPath", "string"),
        ("SyzygyProbeDepth", "spin"),
        ("Syzygy50MoveRule", "check"),
        ("SyzygyProbeLimit", "spin"),
        ("Skill Level", "spin"),
        ("UCI_LimitStrength", "check"),
        ("UCI_Elo", "spin"),
        ("EvalFile", "string"),
    ];
    for (name, kind) in expected {
        let prefix = format!("option name {name} type ");
        let Some(line) = lines.iter().find(|l| l.starts_with(&prefix)).cloned() else {
            e.fail(&format!("no '{prefix}...' line: {lines:?}"));
        };
        let rest: Vec<&str> = line[prefix.len()..].split_whitespace().collect();
        e.check(rest.first() == Some(&kind), || {
            format!("{name} should be a {kind}: '{line}'")
        });
        let field = |key: &str| option_field(&rest, key).map(str::to_string);
        match kind {
            "spin" => {
                let num = |k: &str| field(k).and_then(|v| v.parse::<i64>().ok());
                let (d, lo, hi) = (num("default"), num("min"), num("max"));
                e.check(
                    matches!((d, lo, hi), (Some(d), Some(lo), Some(hi)) if lo <= d && d <= hi),
                    || format!("spin option needs integer default within min..max: '{line}'"),
                );
            }
            "check" => {
                let d = field("default");
                e.check(matches!(d.as_deref(), Some("true" | "false")), || {
                    format!("check option needs default true/false: '{line}'")
                });
                if name.starts_with("UCI_") || name == "Ponder" {
                    e.check(d.as_deref() == Some("false"), || {
                        format!("{name} defaults to false: '{line}'")
                    });
                }
            }
            "string" => e.check(rest.len() == 3 && rest[1] == "default", || {
                format!("a string option has one default word: '{line}'")
            }),
            _ => e.check(rest.len() == 1, || {
                format!("a button has no default: '{line}'")
            }),
        }
    }
    let names = lines
        .iter()
        .filter(|l| l.starts_with("option name "))
        .count();
    assert_eq!(names, expected.len(), "unexpected options: {lines:?}");
    // A second `uci` gives the same answer, and names nothing again.
    let again = e.handshake();
    assert_eq!(again[..again.len() - 1], answer[..]);
    assert!(e.sync().is_empty());
}

/// A GUI that sends `go` without an `isready` before it learns the
/// evaluation from the search's first line, and only once.
#[test]
fn go_names_the_evaluation_when_no_isready_came_first() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start_unopened();
    let answer = e.handshake();
    e.check(answer.iter().all(|l| !l.starts_with("info")), || {
        format!("no info line before uciok: {answer:?}")
    });
    let first = e.go("depth 2", SOON);
    e.check(
        first.lines.first().is_some_and(|l| {
            l == "info string hand-crafted evaluation"
                || l.starts_with("info string NNUE evaluation using ")
        }),
        || format!("the first go should name the evaluation: {:?}", first.lines),
    );
    let second = e.go("depth 2", SOON);
    e.check(
        second.lines.iter().all(|l| !l.starts_with("info string")),
        || format!("the second go names nothing: {:?}", second.lines),
    );
    let left = e.sync();
    e.check(left.is_empty(), || {
        format!("nothing left to name: {left:?}")
    });
}

/// The word after `key` in the words of an `option` line (`default`, `min`, `max`).
fn option_field<'a>(words: &[&'a str], key: &str) -> Option<&'a str> {
    let i = words.iter().position(|w| *w == key)?;
    words.get(i + 1).copied()
}

/// README.md's table of UCI options says what the engine says: the same
/// options, each with its type, range and default.
#[test]
fn readme_option_table_matches_the_engine() {
    let readme = std::fs::read_to_string(testkit::workspace_root().join("README.md")).unwrap();
    // Rows `| `Name` | type | default | meaning |` of the table under "## UCI options".
    let section = readme
        .split("\n## UCI options\n")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("README.md has a '## UCI options' section");
    let rows: Vec<Vec<&str>> = section
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| l.trim_matches('|').split(" | ").map(str::trim).collect())
        .collect();

    let mut e = EngineProcess::start();
    let options: Vec<String> = e
        .handshake()
        .into_iter()
        .filter(|l| l.starts_with("option name "))
        .collect();
    for line in &options {
        let (name, rest) = line["option name ".len()..]
            .split_once(" type ")
            .unwrap_or_else(|| e.fail(&format!("no type in '{line}'")));
        let words: Vec<&str> = rest.split_whitespace().collect();
        let field = |key: &str| option_field(&words, key);
        let Some(row) = rows.iter().find(|r| r[0] == format!("`{name}`")) else {
            e.fail(&format!("README.md's option table has no row for {name}"));
        };
        let kind = match (words[0], field("min"), field("max")) {
            ("spin", Some(lo), Some(hi)) => format!("spin {lo}..{hi}"),
            (kind, _, _) => kind.to_string(),
        };
        e.check(row.get(1) == Some(&kind.as_str()), || {
            format!(
                "README.md gives {name} the type {:?}, the engine '{kind}'",
                row.get(1)
            )
        });
        if let Some(default) = field("default") {
            e.check(
                row.get(2)
                    .is_some_and(|cell| *cell == default || cell.contains(&format!("`{default}`"))),
                || {
                    format!(
                        "README.md gives {name} the default {:?}, the engine '{default}'",
                        row.get(2)
                    )
                },
            );
        }
    }
    for row in &rows {
        let prefix = format!("option name {} type ", row[0].trim_matches('`'));
        e.check(options.iter().any(|l| l.starts_with(&prefix)), || {
            format!("README.md lists {}, which the engine does not have", row[0])
        });
    }
}

#[test]
fn isready_is_answered_within_100ms_during_go_infinite() {
    let _timing = harness::timing_exclusive();
    let mut e = EngineProcess::start();
    let board = board_after(MIDDLEGAME, &[], false);
    e.send(&format!("position fen {MIDDLEGAME}"));
    e.send("go infinite");
    e.wait_for_first_info();
    for round in 0..5 {
        std::thread::sleep(Duration::from_millis(50 + 30 * round));
        within(&mut e, QUICK, "readyok during go infinite", |e| {
            let sent = Instant::now();
            e.send("isready");
            let (lines, at) = e.read_until_at("readyok", SOON, |l| l == "readyok");
            e.check(
                lines[..lines.len() - 1]
                    .iter()
                    .all(|l| l.starts_with("info ")),
                || format!("go infinite printed a non-info line before stop: {lines:?}"),
            );
            at.saturating_duration_since(sent)
        });
    }
    e.assert_no_bestmove_for(Duration::from_millis(100), "go infinite waits for stop");
    stop_and_check(&mut e, &board, None);
}

#[test]
fn stop_is_answered_within_100ms_with_exactly_one_bestmove() {
    let _timing = harness::timing_exclusive();
    let mut e = EngineProcess::start();
    // Nothing to stop: stop and ponderhit are ignored silently.
    e.quiet_command("stop");
    e.quiet_command("ponderhit");
    for (position, wait_ms) in [
        ("position startpos", 50u64),
        ("position startpos moves e2e4 c7c5", 400),
    ] {
        let moves: Vec<&str> = position.split_whitespace().skip(3).collect();
        let board = board_after(STARTPOS, &moves, false);
        e.send(position);
        within(
            &mut e,
            QUICK,
            &format!("bestmove after stop ({position})"),
            |e| {
                e.send("go infinite");
                e.wait_for_first_info();
                e.assert_no_bestmove_for(
                    Duration::from_millis(wait_ms),
                    "go infinite waits for stop",
                );
                let t = stop_and_check(e, &board, None);
                // A second stop after the bestmove changes nothing.
                e.quiet_command("stop");
                t
            },
        );
    }
}

#[test]
fn go_ponder_waits_for_ponderhit_then_plays_within_its_clock() {
    let _timing = harness::timing_exclusive();
    let mut e = EngineProcess::start();
    e.set_option("Ponder", "true");
    e.send("position startpos moves e2e4 e7e5");
    let board = board_after(STARTPOS, &["e2e4", "e7e5"], false);
    // After ponderhit the search runs on its clock: 3 s, of which it uses a part.
    within(
        &mut e,
        Duration::from_millis(1500),
        "bestmove after ponderhit with 3 s on the clock",
        |e| {
            e.send("go ponder wtime 3000 btime 3000 winc 0 binc 0");
            e.wait_for_first_info();
            e.assert_no_bestmove_for(
                Duration::from_millis(500),
                "a ponder search waits for ponderhit or stop",
            );
            ponderhit_and_check(e, &board)
        },
    );
    // Ponder, then stop (the opponent played another move): one bestmove.
    within(
        &mut e,
        QUICK,
        "bestmove after stopping a ponder search",
        |e| {
            e.send("go ponder wtime 3000 btime 3000");
            e.wait_for_first_info();
            e.assert_no_bestmove_for(
                Duration::from_millis(200),
                "a ponder search waits for ponderhit or stop",
            );
            stop_and_check(e, &board, None)
        },
    );
    // A ponder search with a depth limit reaches it and still waits.
    within(
        &mut e,
        QUICK,
        "bestmove after ponderhit at the depth limit",
        |e| {
            e.send("go ponder depth 2");
            e.assert_no_bestmove_for(
                Duration::from_millis(500),
                "a ponder search waits even when its depth is reached",
            );
            ponderhit_and_check(e, &board)
        },
    );
}

#[test]
fn every_kind_of_go_gets_exactly_one_bestmove() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    let board = board_after(MIDDLEGAME, &[], false);
    e.send(&format!("position fen {MIDDLEGAME}"));
    for go in [
        "depth 1",
        "nodes 1",
        "movetime 10",
        "depth 3 nodes 500",
        "wtime 100 btime 100",
    ] {
        let search = e.go(go, SOON);
        e.check_search(&board, false, &search);
        if go == "depth 1" {
            e.check(search.pv_infos().iter().all(|i| i.depth == Some(1)), || {
                format!("go depth 1 reported another depth: {:?}", search.lines)
            });
        }
    }
    // A go sent during a search waits for it: two gos, two bestmoves.
    e.send("go infinite");
    e.send("go depth 2");
    e.wait_for_first_info();
    e.send("stop");
    let first = e.finish_search(Instant::now(), SOON);
    e.check_search(&board, false, &first);
    let second = e.finish_search(Instant::now(), SOON);
    e.check_search(&board, false, &second);
    e.assert_idle();
}

#[test]
fn short_clock_is_respected() {
    let _timing = harness::timing_exclusive();
    let mut e = EngineProcess::start();
    let middlegame = format!("position fen {MIDDLEGAME}");
    for (position, fen, moves) in [
        ("position startpos", STARTPOS, vec![]),
        ("position startpos moves d2d4", STARTPOS, vec!["d2d4"]),
        (middlegame.as_str(), MIDDLEGAME, vec![]),
    ] {
        e.send(position);
        let board = board_after(fen, &moves, false);
        for go in [
            "wtime 100 btime 100",
            "wtime 100 btime 100 winc 0 binc 0 movestogo 5",
            "movetime 10",
        ] {
            // The bestmove must come inside the 100 ms on the clock.
            go_within(&mut e, &board, go, Duration::from_millis(100), position);
        }
    }
}

#[test]
fn one_sided_clock_still_gives_a_move_in_time() {
    let _timing = harness::timing_exclusive();
    let mut e = EngineProcess::start();
    // Black to move with only Black's clock: a real think, inside the 2 s.
    // White to move with only Black's clock, and the other way round: the
    // engine has no clock of its own to plan with and must still move.
    for (position, go, moves) in [
        ("position startpos moves e2e4", "btime 2000", vec!["e2e4"]),
        ("position startpos", "btime 2000", vec![]),
        ("position startpos moves e2e4", "wtime 2000", vec!["e2e4"]),
    ] {
        e.send(position);
        let board = board_after(STARTPOS, &moves, false);
        go_within(&mut e, &board, go, Duration::from_millis(2000), position);
    }
}

#[test]
fn infinite_and_ponder_never_move_before_stop_even_when_the_root_is_decided() {
    let _timing = harness::timing_exclusive();
    let mut e = EngineProcess::start();
    for (fen, expected) in [
        (MATE_IN_1, "a1a8"),
        (CHECKMATED, "(none)"),
        (STALEMATE, "(none)"),
    ] {
        let board = board_after(fen, &[], false);
        e.send(&format!("position fen {fen}"));
        for go in [
            "go infinite",
            "go ponder",
            "go ponder wtime 1000 btime 1000",
        ] {
            within(
                &mut e,
                QUICK,
                &format!("bestmove after stop ('{go}' on {fen})"),
                |e| {
                    e.send(go);
                    e.assert_no_bestmove_for(
                        Duration::from_millis(500),
                        &format!("'{go}' waits for stop ({fen})"),
                    );
                    stop_and_check(e, &board, Some(expected))
                },
            );
        }
    }
    // ponderhit releases a decided ponder search too.
    e.send(&format!("position fen {CHECKMATED}"));
    e.send("go ponder");
    e.assert_no_bestmove_for(
        Duration::from_millis(300),
        "a ponder search waits for ponderhit",
    );
    e.send("ponderhit");
    let search = e.finish_search(Instant::now(), SOON);
    assert_eq!(search.bestmove, "(none)");
    e.assert_idle();
}

#[test]
fn go_mate_2_finds_the_mate_in_two() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    e.send(&format!("position fen {MATE_IN_2}"));
    let search = e.go("mate 2", Duration::from_secs(60));
    let board = board_after(MATE_IN_2, &[], false);
    e.check_search(&board, false, &search);
    e.check(search.final_score() == Some(Score::Mate(2)), || {
        format!("expected score mate 2: {:?}", search.last_info())
    });
    // The move really mates in two: every reply allows a mate in one.
    let mut after = board.clone();
    let Some(key) = harness::find_move(&board, &search.bestmove, false) else {
        e.fail("bestmove is not legal");
    };
    after.make_move(key);
    let replies = after.legal_moves();
    assert!(
        !replies.is_empty(),
        "{} is mate in one, not two",
        search.bestmove
    );
    for &reply in replies.iter() {
        let mut b = after.clone();
        b.make_move(reply);
        let mates = b.legal_moves().iter().any(|&m| {
            let mut c = b.clone();
            c.make_move(m);
            c.in_check() && !c.has_legal_move()
        });
        assert!(
            mates,
            "after {} {:?} there is no mate in one",
            search.bestmove, reply
        );
    }
    assert_eq!(search.bestmove, "d5f6");
}

#[test]
fn mate_and_stalemate_at_the_root() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    for (fen, info) in [
        (CHECKMATED, "info depth 0 score mate 0"),
        (STALEMATE, "info depth 0 score cp 0"),
    ] {
        e.send(&format!("position fen {fen}"));
        for go in ["depth 5", "movetime 50", "wtime 1000 btime 1000", "nodes 1"] {
            let search = e.go(go, SOON);
            e.check(
                search.bestmove == "(none)" && search.ponder.is_none(),
                || format!("{fen} 'go {go}': expected 'bestmove (none)'"),
            );
            e.check(search.lines.len() == 2 && search.lines[0] == info, || {
                format!(
                    "{fen} 'go {go}': expected exactly '{info}' then the bestmove: {:?}",
                    search.lines
                )
            });
        }
    }
    // Mate in one is reported as such.
    e.send(&format!("position fen {MATE_IN_1}"));
    let search = e.go("depth 4", SOON);
    assert_eq!(search.bestmove, "a1a8");
    assert_eq!(search.final_score(), Some(Score::Mate(1)));
}

#[test]
fn info_lines_are_well_formed_and_consistent() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    for (fen, moves, go) in [
        (MIDDLEGAME, vec![], "depth 8"),
        (STARTPOS, vec!["e2e4", "e7e5", "g1f3"], "movetime 300"),
        (MATE_IN_1, vec![], "depth 6"),
    ] {
        let mut position = format!("position fen {fen}");
        if !moves.is_empty() {
            position.push_str(&format!(" moves {}", moves.join(" ")));
        }
        e.send(&position);
        let search = e.go(go, SOON);
        let board = board_after(fen, &moves, false);
        // check_search: bestmove legal, last info exact with pv[0] ==
        // bestmove, ponder == pv[1], every pv a legal line.
        e.check_search(&board, false, &search);
        let pvs = search.pv_infos();
        e.check(!pvs.is_empty(), || "no pv info".into());
        let mut last_depth = 0;
        let mut last_nodes = 0;
        for i in &pvs {
            let ok = i.depth.is_some()
                && i.seldepth.is_some()
                && i.score.is_some()
                && i.nodes.is_some()
                && i.time.is_some()
                && i.nps.is_some()
                && i.multipv == Some(1);
            e.check(ok, || format!("pv info lacks a field: '{}'", i.raw));
            let (d, n) = (i.depth.unwrap_or(0), i.nodes.unwrap_or(0));
            e.check(d >= last_depth && d >= 1, || {
                format!("depth went backwards: '{}'", i.raw)
            });
            e.check(n >= last_nodes, || {
                format!("nodes went backwards: '{}'", i.raw)
            });
            e.check(i.hashfull.is_none_or(|h| h <= 1000), || {
                format!("hashfull over 1000: '{}'", i.raw)
            });
            if let Some(Score::Mate(m)) = i.score {
                e.check(m != 0, || format!("mate 0 with a pv: '{}'", i.raw));
            }
            last_depth = d;
            last_nodes = n;
        }
        if go.starts_with("depth") {
            let want: i64 = go[6..].parse().unwrap_or(0);
            e.check(
                search.last_info().and_then(|i| i.depth) == Some(want),
                || format!("'go {go}' should end at depth {want}"),
            );
        }
    }
}

#[test]
fn multipv_3_reports_three_ranked_lines_per_depth() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    e.set_option("MultiPV", "3");
    e.send(&format!("position fen {MIDDLEGAME}"));
    let search = e.go("depth 6", SOON);
    let board = board_after(MIDDLEGAME, &[], false);
    e.check_search(&board, false, &search);
    let pvs = search.pv_infos();
    for depth in 1..=6 {
        let at: Vec<&&Info> = pvs.iter().filter(|i| i.depth == Some(depth)).collect();
        for k in 1..=3 {
            e.check(at.iter().any(|i| i.multipv == Some(k)), || {
                format!("depth {depth} has no multipv {k} line")
            });
        }
    }
    e.check(pvs.iter().all(|i| matches!(i.multipv, Some(1..=3))), || {
        "multipv outside 1..3".into()
    });
    let last3 = &pvs[pvs.len() - 3..];
    let numbers: Vec<Option<i64>> = last3.iter().map(|i| i.multipv).collect();
    assert_eq!(
        numbers,
        vec![Some(1), Some(2), Some(3)],
        "the final lines are multipv 1, 2, 3"
    );
    let firsts: Vec<&String> = last3.iter().map(|i| &i.pv[0]).collect();
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
        "the three lines start with different moves: {firsts:?}"
    );
    assert_eq!(
        firsts[0], &search.bestmove,
        "bestmove is line 1's first move"
    );
    let cp = |i: &Info| match i.score {
        Some(Score::Cp(c)) => c,
        other => panic!("expected a cp score, got {other:?}"),
    };
    assert!(
        cp(last3[0]) >= cp(last3[1]) && cp(last3[1]) >= cp(last3[2]),
        "the lines are ranked best first: {:?}",
        last3.iter().map(|i| &i.raw).collect::<Vec<_>>()
    );

    // Fewer legal moves than MultiPV lines: only as many lines as moves.
    let two_moves = "8/8/8/8/8/p7/P6P/K1k5 w - - 0 1"; // only h2h3 and h2h4
    let board = board_after(two_moves, &[], false);
    let legal = board.legal_moves().len() as i64;
    e.send(&format!("position fen {two_moves}"));
    let search = e.go("depth 4", SOON);
    e.check_search(&board, false, &search);
    let max = search.pv_infos().iter().filter_map(|i| i.multipv).max();
    assert_eq!(max, Some(legal.min(3)), "with {legal} legal moves");
    // Back to one line.
    e.set_option("MultiPV", "1");
    let search = e.go("depth 3", SOON);
    assert!(search.pv_infos().iter().all(|i| i.multipv == Some(1)));
}

#[test]
fn show_wdl_adds_win_draw_loss_summing_to_1000() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    e.send(&format!("position fen {MIDDLEGAME}"));
    let search = e.go("depth 4", SOON);
    assert!(
        search.infos.iter().all(|i| i.wdl.is_none()),
        "no wdl unless asked"
    );
    e.set_option("UCI_ShowWDL", "true");
    for (fen, go) in [
        (MIDDLEGAME, "depth 5"),
        (MATE_IN_1, "depth 3"),
        ("8/8/4k3/8/8/4K3/8/8 w - - 0 1", "depth 3"),
    ] {
        e.send(&format!("position fen {fen}"));
        let search = e.go(go, SOON);
        let board = board_after(fen, &[], false);
        e.check_search(&board, false, &search);
        for i in search.pv_infos() {
            let Some([w, d, l]) = i.wdl else {
                e.fail(&format!("no wdl with UCI_ShowWDL: '{}'", i.raw));
            };
            e.check(w >= 0 && d >= 0 && l >= 0 && w + d + l == 1000, || {
                format!("wdl must be three permilles summing to 1000: '{}'", i.raw)
            });
            if let Some(Score::Mate(m)) = i.score {
                e.check(m > 0 && w == 1000, || {
                    format!("a mate for us is a win: '{}'", i.raw)
                });
            }
        }
    }
    e.set_option("UCI_ShowWDL", "false");
    let search = e.go("depth 2", SOON);
    assert!(
        search.infos.iter().all(|i| i.wdl.is_none()),
        "wdl switched off again"
    );
}

#[test]
fn searchmoves_restricts_the_best_move() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    // Free queen: exd5 is best, and is what the engine plays unrestricted.
    let fen = "k7/8/8/3q4/4P3/8/8/K7 w - - 0 1";
    let board = board_after(fen, &[], false);
    e.send(&format!("position fen {fen}"));
    let free = e.go("depth 5", SOON);
    assert_eq!(free.bestmove, "e4d5");
    for allowed in [
        vec!["a1b1"],
        vec!["a1a2", "a1b2"],
        vec!["e4e5", "a1b1", "a1a2"],
    ] {
        let search = e.go(&format!("depth 5 searchmoves {}", allowed.join(" ")), SOON);
        e.check_search(&board, false, &search);
        e.check(allowed.contains(&search.bestmove.as_str()), || {
            format!(
                "bestmove {} is not among searchmoves {allowed:?}",
                search.bestmove
            )
        });
        for i in search.pv_infos() {
            e.check(allowed.contains(&i.pv[0].as_str()), || {
                format!("pv starts outside searchmoves {allowed:?}: '{}'", i.raw)
            });
        }
    }
    // searchmoves followed by another limit keyword.
    let search = e.go("searchmoves a1b2 depth 3", SOON);
    assert_eq!(search.bestmove, "a1b2");
    // And the next search is unrestricted again.
    let search = e.go("depth 3", SOON);
    assert_eq!(search.bestmove, "e4d5");
}

#[test]
fn options_threads_hash_and_new_game_keep_the_engine_searching() {
    let _timing = harness::timing_exclusive();
    let mut e = EngineProcess::start();
    e.set_option("Threads", "2");
    e.set_option("Hash", "8");
    e.quiet_command("setoption name Clear Hash");
    e.quiet_command("ucinewgame");
    e.set_option("Move Overhead", "50");
    e.set_option("UCI_AnalyseMode", "true");
    e.send(&format!("position fen {MIDDLEGAME}"));
    let board = board_after(MIDDLEGAME, &[], false);
    for go in ["depth 6", "movetime 200", "nodes 5000"] {
        let search = e.go(go, SOON);
        e.check_search(&board, false, &search);
    }
    within(&mut e, QUICK, "bestmove after stop with 2 threads", |e| {
        e.send("go infinite");
        e.wait_for_first_info();
        stop_and_check(e, &board, None)
    });
}

/// A GUI stepping through a game in analysis mode sends `stop`, the next
/// `position` and `go infinite` without waiting for each `bestmove`. Each
/// `stop` must end the search the commands before it started, even when
/// that search is still waiting for the previous one to finish.
#[test]
fn a_burst_of_analysis_commands_applies_in_order() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    e.send("position startpos");
    e.send("go infinite");
    e.wait_for_first_info();
    for line in [
        "stop".to_string(),
        format!("position fen {MATE_IN_1}"),
        "go infinite".to_string(),
        "stop".to_string(),
        format!("position fen {MIDDLEGAME}"),
        "go infinite".to_string(),
        "isready".to_string(),
    ] {
        e.send(&line);
    }
    let lines = e.read_until("readyok", SOON, |l| l == "readyok");
    let bestmoves: Vec<&String> = lines.iter().filter(|l| harness::is_bestmove(l)).collect();
    e.check(bestmoves.len() == 2, || {
        format!("expected the first two searches' bestmoves before readyok, got {bestmoves:?}")
    });
    for (line, fen) in bestmoves.iter().zip([STARTPOS, MATE_IN_1]) {
        let mv = line.split_whitespace().nth(1).unwrap_or("").to_string();
        let legal = harness::check_line(&board_after(fen, &[], false), &[mv], false);
        e.check(legal.is_ok(), || format!("'{line}' in {fen}: {legal:?}"));
    }
    e.assert_no_bestmove_for(
        Duration::from_millis(200),
        "the third search is infinite and was not stopped",
    );
    stop_and_check(&mut e, &board_after(MIDDLEGAME, &[], false), None);
}

/// `quit`, or the end of input, behind searches still waiting their turn
/// ends each of them at once in order: every `go` gets its `bestmove`, as a
/// script piped into the engine expects, and the process exits promptly.
#[test]
fn quit_behind_queued_searches_answers_every_go() {
    let _timing = harness::timing_shared();
    for end_of_input in [false, true] {
        let mut e = EngineProcess::start();
        e.send("go infinite");
        e.wait_for_first_info();
        for line in ["go depth 60", "isready", "go infinite"] {
            e.send(line);
        }
        let sent = Instant::now();
        if end_of_input {
            e.close_stdin();
        } else {
            e.send("quit");
        }
        let lines = e.lines_for(SOON);
        let status = e.wait_exit(Duration::from_secs(5));
        let bestmoves = lines.iter().filter(|l| harness::is_bestmove(l)).count();
        let ready = lines.iter().filter(|l| *l == "readyok").count();
        e.check(status.success() && bestmoves == 3 && ready == 1, || {
            format!("end of input {end_of_input}: {status}, {bestmoves} bestmoves and {ready} readyok in {lines:?}")
        });
        e.check(sent.elapsed() < Duration::from_secs(10), || {
            format!("exit took {:?}", sent.elapsed())
        });
    }
}

#[test]
fn quit_during_a_search_and_end_of_input_end_the_process() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    e.send("go infinite");
    e.wait_for_first_info();
    let status = e.quit(Duration::from_secs(5));
    assert!(status.success(), "quit should exit cleanly: {status}");

    let mut e = EngineProcess::start();
    e.send("go infinite");
    e.wait_for_first_info();
    e.close_stdin();
    let status = e.wait_exit(Duration::from_secs(5));
    assert!(
        status.success(),
        "end of input should exit cleanly: {status}"
    );

    // Idle quit, after a handshake.
    let mut e = EngineProcess::start();
    e.handshake();
    let status = e.quit(Duration::from_secs(5));
    assert!(status.success());
}

#[test]
fn pvs_stay_legal_through_mating_lines() {
    let _timing = harness::timing_shared();
    // Positions from a self-play game where mate-distance pruning narrowed
    // beta and a move accepted on a null-window search once inherited a
    // stale PV tail, printing illegal moves after the mate.
    let mut e = EngineProcess::start();
    for fen in [
        "4k3/1b6/p7/Pp3Q1p/3P1P1P/3BP1P1/3B4/6K1 w - - 1 44",
        "4k3/1b6/p3Q3/Pp5p/3P1P1P/3BP1P1/3B4/6K1 b - - 2 44",
        "8/1b4k1/p3Q3/Pp5p/1B1P1P1P/3BP1P1/8/6K1 w - - 5 46",
        "8/1b2Q1k1/p7/Pp5p/1B1P1P1P/3BP1P1/8/6K1 b - - 6 46",
        MATE_IN_2,
        MATE_IN_1,
    ] {
        e.quiet_command("ucinewgame");
        e.send(&format!("position fen {fen}"));
        let search = e.go("depth 14", SOON);
        let board = board_after(fen, &[], false);
        // Every pv is a legal line, and a mate line ends at the mate.
        e.check_search(&board, false, &search);
        for i in search.pv_infos() {
            if let Some(Score::Mate(n)) = i.score {
                let plies = if n > 0 { 2 * n - 1 } else { -2 * n };
                e.check(i.pv.len() as i64 <= plies, || {
                    format!(
                        "a mate in {n} needs at most {plies} plies of pv: '{}'",
                        i.raw
                    )
                });
            }
        }
    }
}

#[test]
fn debug_log_file_records_the_conversation_both_ways() {
    let dir = std::env::temp_dir().join(format!("hoeven-{}-log", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("uci log.txt");
    let mut e = EngineProcess::start();
    e.set_option("Debug Log File", log.to_str().unwrap());
    e.send(&format!("position fen {MATE_IN_1}"));
    let search = e.go("depth 3", SOON);
    assert_eq!(search.bestmove, "a1a8");
    e.set_option("Debug Log File", "<empty>");
    e.quiet_command("ucinewgame");
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    for expected in [
        format!("<< position fen {MATE_IN_1}"),
        "<< go depth 3".to_string(),
        "<< isready".to_string(),
        ">> readyok".to_string(),
        ">> bestmove a1a8".to_string(),
        "<< setoption name Debug Log File value <empty>".to_string(),
    ] {
        assert!(lines.contains(&expected.as_str()), "{expected}: {lines:?}");
    }
    assert!(
        lines.iter().any(|l| l.starts_with(">> info depth 3 ")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("<< ") || l.starts_with(">> ")),
        "{lines:?}"
    );
    assert!(
        !text.contains("ucinewgame"),
        "logged after it stopped: {lines:?}"
    );

    // A file that cannot be created is refused; the engine goes on.
    let out = e.command("setoption name Debug Log File value /nonexistent/dir/log.txt");
    assert!(
        out.len() == 1
            && out[0].starts_with("info string error: Debug Log File /nonexistent/dir/log.txt"),
        "{out:?}"
    );
    e.send("position startpos");
    let search = e.go("depth 2", SOON);
    e.check_search(&board_after(STARTPOS, &[], false), false, &search);
    drop(e);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn compiler_tells_how_the_binary_was_built() {
    let mut e = EngineProcess::start();
    let out = e.command("compiler");
    let field = |prefix: &str| out.iter().find_map(|l| l.strip_prefix(prefix));
    assert!(
        out.len() == 4 && field("Compiled by: rustc ").is_some() && field("Target: ").is_some(),
        "{out:?}"
    );
    let extensions = field("Instruction sets: ").unwrap_or_default();
    // Every build of the Makefile's, portable or native, has POPCNT.
    if cfg!(target_arch = "x86_64") {
        assert!(extensions.split(' ').any(|x| x == "popcnt"), "{out:?}");
    }
    assert!(
        matches!(
            field("Profile-guided: "),
            Some("no") | Some("yes (make profile-build)")
        ),
        "{out:?}"
    );
}
