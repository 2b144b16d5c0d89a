//! `UCI_LimitStrength` and `UCI_Elo`, and `Skill Level`, seen from a GUI: a
//! limited engine
//! answers quickly with a legal move, shows only the lines asked for,
//! repeats itself in the same position, plays moves other than its best
//! ones, and still never leaves a queen hanging.

use testkit::uci_harness as harness;

use harness::{board_after, find_move, EngineProcess, SOON};

/// Quiet openings and middlegames with several reasonable moves each.
const OPEN_POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkb1r/pppp1ppp/4pn2/8/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - 0 3",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 3 8",
    "r2q1rk1/pp1nbppp/2p1pn2/3p4/2PP4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 9",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    "rnbqk2r/ppp1bppp/4pn2/3p4/2PP4/5NP1/PP2PPBP/RNBQK2R b KQkq - 2 5",
];

/// Positions where one capture wins a queen for nothing, with that capture.
const HANGING_QUEENS: &[(&str, &str)] = &[
    ("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", "d1d5"),
    (
        "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "f3g5",
    ),
    (
        "r1b1kbnr/pppp1ppp/2n5/4p3/3qP3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 0 4",
        "f3d4",
    ),
    ("6k1/5ppp/8/8/8/2n5/4QPPP/6K1 b - - 0 1", "c3e2"),
];

fn limited(elo: u32) -> EngineProcess {
    let mut e = EngineProcess::start();
    e.set_option("UCI_LimitStrength", "true");
    e.set_option("UCI_Elo", &elo.to_string());
    e
}

fn best_move(e: &mut EngineProcess, fen: &str, go: &str) -> String {
    e.send(&format!("position fen {fen}"));
    let search = e.go(go, SOON);
    let board = board_after(fen, &[], false);
    e.check(find_move(&board, &search.bestmove, false).is_some(), || {
        format!("bestmove {} is not legal in {fen}", search.bestmove)
    });
    search.bestmove
}

#[test]
fn a_limited_engine_answers_soon_and_shows_only_the_lines_asked_for() {
    let _timing = harness::timing_shared();
    let mut e = limited(1350);
    for fen in OPEN_POSITIONS {
        e.send(&format!("position fen {fen}"));
        // A long clock: the node budget, not the clock, ends the search.
        let search = e.go("wtime 600000 btime 600000", SOON);
        e.check(search.elapsed.as_secs() < 5, || {
            format!("took {:?} in {fen}", search.elapsed)
        });
        let infos = search.pv_infos();
        e.check(!infos.is_empty(), || format!("no PV in {fen}"));
        e.check(infos.iter().all(|i| i.multipv.unwrap_or(1) == 1), || {
            format!("lines beyond MultiPV 1 shown: {:?}", search.lines)
        });
        let nodes = infos.last().and_then(|i| i.nodes).unwrap_or(0);
        e.check(nodes < 5_000, || format!("{nodes} nodes in {fen}"));
    }
    // With MultiPV 2 asked for, two lines are shown.
    e.set_option("MultiPV", "2");
    e.send(&format!("position fen {}", OPEN_POSITIONS[0]));
    let search = e.go("wtime 600000 btime 600000", SOON);
    e.check(
        search.pv_infos().iter().any(|i| i.multipv == Some(2)),
        || format!("no second line with MultiPV 2: {:?}", search.lines),
    );
}

/// The nodes of the last PV line of a search with a long clock.
fn nodes_searched(e: &mut EngineProcess, fen: &str, go: &str) -> i64 {
    e.send(&format!("position fen {fen}"));
    let search = e.go(go, SOON);
    let nodes = search.pv_infos().last().and_then(|i| i.nodes);
    nodes.unwrap_or_else(|| e.fail(&format!("no nodes in {:?}", search.lines)))
}

#[test]
fn skill_level_limits_strength_unless_uci_elo_does() {
    let _timing = harness::timing_shared();
    let fen = OPEN_POSITIONS[4];
    let mut e = EngineProcess::start();
    e.set_option("Skill Level", "0");
    let nodes = nodes_searched(&mut e, fen, "wtime 600000 btime 600000");
    assert!(nodes < 5_000, "{nodes} nodes at Skill Level 0");
    // The level of a 1350 Elo: the same search and move as UCI_Elo 1350.
    let weakest = best_move(&mut e, fen, "wtime 60000 btime 60000");
    assert_eq!(
        weakest,
        best_move(&mut limited(1350), fen, "wtime 60000 btime 60000")
    );
    // UCI_Elo, where set, is the strength.
    e.set_option("UCI_LimitStrength", "true");
    e.set_option("UCI_Elo", "2850");
    let nodes = nodes_searched(&mut e, fen, "nodes 20000");
    assert!(nodes >= 20_000, "{nodes} nodes at UCI_Elo 2850");
    // Level 20 is full strength.
    e.set_option("UCI_LimitStrength", "false");
    e.set_option("Skill Level", "20");
    e.set_option("MultiPV", "1");
    let search = {
        e.send(&format!("position fen {fen}"));
        e.go("nodes 20000", SOON)
    };
    let infos = search.pv_infos();
    assert!(
        infos.iter().all(|i| i.multipv.unwrap_or(1) == 1)
            && infos.last().and_then(|i| i.nodes).unwrap_or(0) >= 20_000,
        "{:?}",
        search.lines
    );
}

#[test]
fn the_same_position_gives_the_same_move() {
    let _timing = harness::timing_shared();
    let mut e = limited(1350);
    for fen in OPEN_POSITIONS {
        let first = best_move(&mut e, fen, "wtime 60000 btime 60000");
        e.quiet_command("ucinewgame");
        let again = best_move(&mut e, fen, "wtime 60000 btime 60000");
        e.check(first == again, || format!("{first} then {again} in {fen}"));
    }
}

#[test]
fn the_weakest_setting_plays_other_moves_than_full_strength() {
    let _timing = harness::timing_shared();
    let mut weak = limited(1350);
    let mut full = EngineProcess::start();
    let differ = OPEN_POSITIONS
        .iter()
        .filter(|fen| {
            best_move(&mut weak, fen, "wtime 60000 btime 60000")
                != best_move(&mut full, fen, "depth 8")
        })
        .count();
    assert!(
        differ >= 2,
        "only {differ} of {} moves differ",
        OPEN_POSITIONS.len()
    );
}

#[test]
fn no_setting_leaves_a_queen_hanging() {
    let _timing = harness::timing_shared();
    for elo in [1350, 2000, 2850] {
        let mut e = limited(elo);
        for (fen, capture) in HANGING_QUEENS {
            let played = best_move(&mut e, fen, "wtime 60000 btime 60000");
            e.check(played == *capture, || {
                format!("UCI_Elo {elo} played {played} instead of {capture} in {fen}")
            });
        }
    }
}

#[test]
fn without_the_limit_the_engine_searches_in_full_again() {
    let _timing = harness::timing_shared();
    let mut e = limited(1350);
    e.set_option("UCI_LimitStrength", "false");
    e.send(&format!("position fen {}", OPEN_POSITIONS[4]));
    let search = e.go("depth 8", SOON);
    let last = search.pv_infos().last().map(|i| (i.depth, i.nodes));
    e.check(
        matches!(last, Some((Some(8), Some(n))) if n > 5_000),
        || format!("last line {last:?} of a full depth-8 search"),
    );
}
