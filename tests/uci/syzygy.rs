//! Syzygy tablebases seen from outside, driving the built `hoeven` binary
//! with the tables of `tests/data/syzygy`: the options, `d`'s table lines,
//! table scores and `tbhits` in the search, and every way a path can be
//! bad (missing, empty, a file with a bad header, a corrupt table body),
//! each reported with `info string` while the engine keeps playing. The
//! probe results and played endings are checked against python-chess by
//! `tests/python/syzygy_check.py`.

use testkit::uci_harness as harness;

use harness::{board_after, EngineProcess, Score, SOON};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use std::time::{Duration, Instant};

const KRVK: &str = "8/8/8/8/8/2k5/8/KR6 w - - 0 1";

fn tables() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy")
}

/// An empty folder of this test's own under the system's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hoeven-uci-tb-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Checks that the engine still searches `fen` and answers with a legal move.
#[track_caller]
fn still_searches(e: &mut EngineProcess, fen: &str) {
    e.quiet_command(&format!("position fen {fen}"));
    let search = e.go("depth 4", SOON);
    let board = board_after(fen, &[], false);
    e.check_search(&board, false, &search);
}

#[test]
fn the_options_are_declared_with_stockfish_names_and_defaults() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    let lines = e.handshake();
    for want in [
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name Syzygy50MoveRule type check default true",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
    ] {
        assert!(lines.iter().any(|l| l == want), "no '{want}' in {lines:?}");
    }
}

#[test]
fn a_valid_path_is_announced_and_table_wins_are_searched_and_scored() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    let out = e.command(&format!(
        "setoption name SyzygyPath value {}",
        tables().display()
    ));
    assert_eq!(
        out,
        ["info string found 35 WDL and 35 DTZ tablebase files (up to 4-man)"]
    );
    e.quiet_command(&format!("position fen {KRVK}"));
    assert_eq!(e.d_field("Tablebases WDL: "), "2");
    assert_eq!(e.d_field("Tablebases DTZ: "), "27");
    let search = e.go("depth 8", SOON);
    e.check_search(&board_after(KRVK, &[], false), false, &search);
    let last = search.last_info().expect("an info line");
    assert!(last.tbhits.is_some_and(|t| t > 0), "{}", last.raw);
    assert!(
        matches!(last.score, Some(Score::Cp(cp)) if cp >= 19_000)
            || matches!(last.score, Some(Score::Mate(m)) if m > 0),
        "a table win scores above every evaluation: {}",
        last.raw
    );

    // Castling rights: never probed, even with three pieces.
    e.quiet_command("position fen 4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    let wdl = e.d_field("Tablebases WDL: ");
    assert!(wdl.starts_with("none") && wdl.contains("castling"), "{wdl}");

    // <empty> turns the tables off: no more table lines, no more hits.
    e.set_option("SyzygyPath", "<empty>");
    e.quiet_command(&format!("position fen {KRVK}"));
    let d = e.command("d");
    assert!(!d.iter().any(|l| l.starts_with("Tablebases")), "{d:?}");
    let search = e.go("depth 6", SOON);
    assert_eq!(search.last_info().and_then(|i| i.tbhits), Some(0));
}

/// MultiPV at a root in the tables, as Stockfish does it: the first lines
/// are the moves that keep the draw, each scored as a draw; the moves that
/// lose come last, scored as table losses, however the search rates them.
#[test]
fn multipv_at_a_table_root_lists_the_moves_by_their_table_rank() {
    let _timing = harness::timing_shared();
    // python-chess: f1f5 f1f4 f1f3 f1f2 f1g1 lose, the 14 others draw.
    let drawn = "8/8/8/6r1/8/4k3/K7/5R2 w - - 0 1";
    let losing = ["f1f5", "f1f4", "f1f3", "f1f2", "f1g1"];
    let mut e = EngineProcess::start();
    e.command(&format!(
        "setoption name SyzygyPath value {}",
        tables().display()
    ));
    e.set_option("MultiPV", "19");
    e.quiet_command(&format!("position fen {drawn}"));
    let search = e.go("depth 6", SOON);
    e.check_search(&board_after(drawn, &[], false), false, &search);
    let mut last: Vec<(String, Option<Score>)> = vec![(String::new(), None); 19];
    for info in &search.infos {
        if let (Some(k), Some(first)) = (info.multipv, info.pv.first()) {
            last[k as usize - 1] = (first.clone(), info.score);
        }
    }
    for (i, (first, score)) in last.iter().enumerate() {
        if i < 14 {
            assert!(!losing.contains(&first.as_str()), "line {}: {first}", i + 1);
            assert_eq!(*score, Some(Score::Cp(0)), "line {}: {first}", i + 1);
        } else {
            assert!(losing.contains(&first.as_str()), "line {}: {first}", i + 1);
            assert!(
                matches!(score, Some(Score::Cp(cp)) if *cp <= -19_000),
                "line {}: {first} {score:?}",
                i + 1
            );
        }
    }
    assert!(!losing.contains(&search.bestmove.as_str()));

    // Without MultiPV only the drawing moves are searched.
    e.set_option("MultiPV", "1");
    let search = e.go("depth 6", SOON);
    assert!(!losing.contains(&search.bestmove.as_str()));
    assert_eq!(search.final_score(), Some(Score::Cp(0)));
}

#[test]
fn the_fifty_move_rule_option_decides_whether_a_late_win_is_a_win() {
    let _timing = harness::timing_shared();
    // DTZ 27 with 90 half-moves gone: the fifty-move rule comes first.
    let late = "8/8/8/8/8/2k5/8/KR6 w - - 90 1";
    let mut e = EngineProcess::start();
    e.command(&format!(
        "setoption name SyzygyPath value {}",
        tables().display()
    ));
    e.quiet_command(&format!("position fen {late}"));
    let score = |e: &mut EngineProcess| match e.go("depth 5", SOON).final_score() {
        Some(Score::Cp(cp)) => cp,
        other => panic!("expected a centipawn score, got {other:?}"),
    };
    let with_rule = score(&mut e);
    assert!((0..=100).contains(&with_rule), "{with_rule}");
    e.set_option("Syzygy50MoveRule", "false");
    assert!(score(&mut e) >= 19_000);
}

#[test]
fn a_missing_or_empty_folder_is_reported_and_the_engine_plays_on() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    let empty = scratch("empty");
    let missing = empty.join("no-such-folder");
    let out = e.command(&format!(
        "setoption name SyzygyPath value {}",
        missing.display()
    ));
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(out[0].starts_with("info string error: ") && out[0].contains("not found"));
    assert!(out[1].starts_with("info string no tablebase files found"));
    still_searches(&mut e, KRVK);

    let out = e.command(&format!(
        "setoption name SyzygyPath value {}",
        empty.display()
    ));
    assert_eq!(
        out,
        [format!(
            "info string no tablebase files found in '{}'",
            empty.display()
        )]
    );
    still_searches(&mut e, KRVK);
    let _ = std::fs::remove_dir_all(&empty);
}

#[test]
fn corrupt_files_are_reported_and_the_good_tables_still_used() {
    let _timing = harness::timing_shared();
    let dir = scratch("corrupt");
    for name in ["KRvK.rtbw", "KRvK.rtbz", "KQvK.rtbz"] {
        std::fs::copy(tables().join(name), dir.join(name)).unwrap();
    }
    // A header that is no table's, and a right header on a scrambled body.
    std::fs::write(dir.join("KPvK.rtbw"), vec![7u8; 64 + 16]).unwrap();
    let mut kqvk = std::fs::read(tables().join("KQvK.rtbw")).unwrap();
    for (i, byte) in kqvk.iter_mut().enumerate().skip(64) {
        *byte = (i as u8).wrapping_mul(151) ^ 0x5a;
    }
    std::fs::write(dir.join("KQvK.rtbw"), kqvk).unwrap();

    let mut e = EngineProcess::start();
    let out = e.command(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(out[0].starts_with("info string error: ") && out[0].contains("KPvK.rtbw"));
    assert_eq!(
        out[1],
        "info string found 2 WDL and 2 DTZ tablebase files (up to 3-man)"
    );
    e.quiet_command(&format!("position fen {KRVK}"));
    assert_eq!(e.d_field("Tablebases WDL: "), "2");

    // The scrambled table fails when probed: said once, and a move is played.
    let kqvk_fen = "8/8/8/8/8/2k5/8/KQ6 w - - 0 1";
    e.quiet_command(&format!("position fen {kqvk_fen}"));
    let sent = Instant::now();
    e.send("go depth 6");
    let search = e.finish_search(sent, SOON);
    e.check_search(&board_after(kqvk_fen, &[], false), false, &search);
    let errors: Vec<&String> = search
        .lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect();
    assert_eq!(errors.len(), 1, "{:?}", search.lines);
    assert!(errors[0].contains("KQvK"), "{}", errors[0]);
    still_searches(&mut e, KRVK);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A table cut short while the engine runs (a disk filling up, a copy
/// still in progress) is met in the middle of a game: the failing probe is
/// reported once, every search still plays a legal move, and the other
/// tables keep working.
#[test]
fn a_table_truncated_during_a_game_is_reported_and_play_goes_on() {
    let _timing = harness::timing_shared();
    let dir = scratch("truncated");
    for name in ["KRvK.rtbw", "KRvK.rtbz", "KQvK.rtbw", "KQvK.rtbz"] {
        std::fs::copy(tables().join(name), dir.join(name)).unwrap();
    }
    let mut e = EngineProcess::start();
    let out = e.command(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    assert_eq!(
        out,
        vec!["info string found 2 WDL and 2 DTZ tablebase files (up to 3-man)"]
    );
    let kqvk = "8/8/8/8/8/2k5/8/KQ6 w - - 0 1";
    let board = board_after(kqvk, &[], false);
    let errors = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .filter(|l| l.starts_with("info string error: "))
            .cloned()
            .collect()
    };
    e.quiet_command(&format!("position fen {kqvk}"));
    let search = e.go("depth 6", SOON);
    e.check_search(&board, false, &search);
    assert!(errors(&search.lines).is_empty(), "{:?}", search.lines);

    for name in ["KQvK.rtbw", "KQvK.rtbz"] {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(dir.join(name))
            .unwrap();
        file.set_len(100).unwrap();
    }
    e.quiet_command("ucinewgame");
    let mut reported = Vec::new();
    for _ in 0..3 {
        e.quiet_command(&format!("position fen {kqvk}"));
        let search = e.go("depth 6", SOON);
        e.check_search(&board, false, &search);
        reported.extend(errors(&search.lines));
    }
    assert!(
        !reported.is_empty() && reported.iter().all(|l| l.contains("KQvK")),
        "{reported:?}"
    );
    assert!(reported.len() <= 2, "each table once: {reported:?}");
    assert!(
        reported
            .iter()
            .all(|l| l.ends_with("the file is truncated or corrupt")),
        "{reported:?}"
    );
    still_searches(&mut e, KRVK);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `tests/python/syzygy_check.py` with `args`; returns its output.
fn run_checker(args: &[&str], limit: Duration) -> String {
    let binary = harness::binary();
    let tables = tables();
    let mut words: Vec<&OsStr> = vec![binary.as_os_str(), tables.as_os_str()];
    words.extend(args.iter().map(OsStr::new));
    let run = harness::run_python("syzygy_check.py", &words, limit);
    let report = &run.report;
    assert!(
        run.status.success(),
        "the check failed ({})\n{report}",
        run.status
    );
    assert_eq!(
        run.stdout.lines().last(),
        Some("ok: probes and endings agree with python-chess"),
        "{report}"
    );
    run.stdout
}

#[test]
fn probes_of_random_positions_agree_with_python_chess() {
    let _timing = harness::timing_shared();
    let out = run_checker(
        &["--only", "probe", "--positions", "1200"],
        Duration::from_secs(120),
    );
    let line = out.lines().find(|l| l.starts_with("probe: ")).unwrap_or("");
    assert!(
        line.starts_with("probe: 1200 positions of 35 materials")
            && line.ends_with(", 0 mismatches"),
        "{out}"
    );
    assert!(!line.contains("(0 with en passant)"), "{out}");
}

#[test]
fn won_endings_are_played_out_to_mate_with_the_tables() {
    let _timing = harness::timing_shared();
    let out = run_checker(&["--only", "play"], Duration::from_secs(400));
    let games: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("play: ") && l.contains(" plies, "))
        .collect();
    assert!(games.len() >= 5, "{out}");
    assert!(games.iter().all(|l| l.ends_with("plies, mate")), "{out}");
}
