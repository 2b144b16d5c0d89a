//! `hoeven selfplay` end to end: short Chess960, Double Fischer Random and
//! classical runs whose PGN python-chess replays and whose data file must
//! match the games record for record (tests/python/selfplay_pgn_data.py),
//! reproducibility from a seed, `--compare`, and refusals of bad input.

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

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hoeven-selfplay-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn selfplay(args: &[&str]) -> Output {
    let out = Command::new(hoeven())
        .arg("selfplay")
        .args(args)
        .output()
        .expect("hoeven runs");
    // A panic aborts the process: no exit code at all.
    assert!(
        out.status.code().is_some(),
        "hoeven selfplay {args:?} crashed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn succeed(args: &[&str]) -> String {
    let out = selfplay(args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "hoeven selfplay {args:?} failed\nstdout:\n{stdout}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Runs the python-chess checker; returns its exit status and output.
fn check(pgn: &Path, data: &Path, games: usize) -> (bool, String) {
    let games = games.to_string();
    let args = [
        pgn.as_os_str(),
        data.as_os_str(),
        OsStr::new("--expect-games"),
        OsStr::new(&games),
    ];
    let run = harness::run_python("selfplay_pgn_data.py", &args, CHECK_LIMIT);
    (run.status.success(), run.stdout + &run.stderr)
}

#[test]
fn games_replay_legally_and_the_data_matches_them() {
    let dir = scratch("replay");
    let (pgn, data) = (dir.join("games.pgn"), dir.join("data.txt"));
    let book = dir.join("openings.pgn");
    std::fs::write(
        &book,
        "[Event \"book\"]\n1. e4 e5 2. Nf3 Nc6 *\n\n1. d4 {queen's pawn} d5 (1... Nf6) 2. c4 *\n",
    )
    .unwrap();
    let common = [
        "--nodes",
        "300",
        "--pgn",
        s(&pgn),
        "--data",
        s(&data),
        "--concurrency",
        "2",
    ];
    let runs: [&[&str]; 3] = [
        &[
            "--games",
            "4",
            "--variant",
            "chess960",
            "--random-plies",
            "4",
            "--seed",
            "3",
        ],
        &[
            "--games",
            "4",
            "--variant",
            "dfrc",
            "--pairs",
            "--seed",
            "4",
        ],
        // Classical openings from a PGN book, on a clock.
        &[
            "--games",
            "2",
            "--variant",
            "classical",
            "--openings",
            s(&book),
            "--tc",
            "5+0.05",
        ],
    ];
    for run in runs {
        let args: Vec<&str> = run.iter().chain(common.iter()).copied().collect();
        let stdout = succeed(&args);
        assert!(stdout.contains("finished"), "{stdout}");
    }
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Variant \"Chess960\"]").count(), 8, "{text}");
    assert_eq!(text.matches("[SetUp \"1\"]").count(), 8);
    assert!(
        text.contains("1. e4 {book} e5 {book} 2. Nf3 {book} Nc6 {book}"),
        "{text}"
    );
    let (ok, report) = check(&pgn, &data, 10);
    assert!(ok, "{report}");

    // The checker is strict: one changed score in the data fails it.
    let lines = std::fs::read_to_string(&data).unwrap();
    let mut changed: Vec<String> = lines.lines().map(String::from).collect();
    let fields: Vec<&str> = changed[3].split(" | ").collect();
    let score: i32 = fields[1].parse().unwrap();
    changed[3] = format!("{} | {} | {}", fields[0], score + 1, fields[2]);
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, changed.join("\n") + "\n").unwrap();
    let (ok, report) = check(&pgn, &bad, 10);
    assert!(!ok && report.contains("data line 4"), "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The games of a PGN file keyed by round, in file order.
fn rounds(pgn: &str) -> Vec<(u64, String)> {
    pgn.split("[Event ")
        .filter(|g| !g.is_empty())
        .map(|g| {
            let round = g
                .split("[Round \"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .and_then(|r| r.parse().ok())
                .unwrap();
            (round, g.to_string())
        })
        .collect()
}

#[test]
fn the_same_seed_gives_the_same_games() {
    let dir = scratch("seed");
    let run = |name: &str, seed: &str, concurrency: &str| {
        let pgn = dir.join(format!("{name}.pgn"));
        let data = dir.join(format!("{name}.txt"));
        succeed(&[
            "--games",
            "4",
            "--nodes",
            "200",
            "--random-plies",
            "3",
            "--variant",
            "dfrc",
            "--seed",
            seed,
            "--concurrency",
            concurrency,
            "--pgn",
            s(&pgn),
            "--data",
            s(&data),
        ]);
        (
            std::fs::read_to_string(pgn).unwrap(),
            std::fs::read_to_string(data).unwrap(),
        )
    };
    let first = run("a", "77", "1");
    let again = run("b", "77", "1");
    assert_eq!(first, again);
    assert_ne!(first.0, run("c", "78", "1").0);
    // Two at a time: the same games, perhaps finished in another order.
    let (parallel, _) = run("d", "77", "2");
    let mut games = rounds(&parallel);
    games.sort();
    assert_eq!(games, rounds(&first.0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn compare_pits_two_settings_with_colours_swapped() {
    let dir = scratch("compare");
    let pgn = dir.join("ab.pgn");
    let stdout = succeed(&[
        "--games",
        "4",
        "--nodes",
        "200",
        "--seed",
        "5",
        "--concurrency",
        "1",
        "--pgn",
        s(&pgn),
        "--compare",
        "Hash=1",
        "Hash=2",
    ]);
    assert!(
        stdout.contains("A (Hash=1) against B (Hash=2): +"),
        "{stdout}"
    );
    assert!(stdout.contains("Elo difference A - B: "), "{stdout}");
    assert!(
        stdout.contains("over 2 pairs") || stdout.contains("not finite"),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games = rounds(&text);
    assert_eq!(games.len(), 4);
    for (round, game) in games {
        let a_white = game.contains("[White \"Hoeven A (Hash=1)\"]");
        let b_white = game.contains("[White \"Hoeven B (Hash=2)\"]");
        assert!(a_white != b_white, "{game}");
        assert_eq!(
            a_white,
            round % 2 == 1,
            "round {round}: A is White in odd rounds"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The games of an SPRT test run, up to the two option sets of --compare.
const SPRT_RUN: &[&str] = &[
    "--games",
    "200",
    "--nodes",
    "300",
    "--seed",
    "9",
    "--concurrency",
    "1",
    "--compare",
];

#[test]
fn compare_plays_a_network_against_the_hand_crafted_evaluation_until_the_sprt_decides() {
    let dir = scratch("sprt");
    let net = dir.join("random.nnue");
    let network = testkit::nets::random_network(64, 8, 4).unwrap();
    std::fs::write(&net, network.to_bytes()).unwrap();
    let a = format!("EvalFile={}", s(&net));
    let stdout = succeed(&[SPRT_RUN, &[&a, "EvalFile=<empty>", "--sprt", "0", "10"]].concat());
    // A network of random weights loses nearly every game.
    let games: u64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("finished "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no 'finished N games': {stdout}"));
    assert!(
        games < 200 && games.is_multiple_of(2),
        "{games} games: {stdout}"
    );
    let line = stdout
        .lines()
        .find(|l| l.starts_with("SPRT A - B [0, 10] Elo (alpha 0.05, beta 0.05): LLR "))
        .unwrap_or_else(|| panic!("no SPRT line: {stdout}"));
    assert!(
        line.contains("(bounds -2.94, 2.94), H0 accepted after"),
        "{line}"
    );
    assert!(
        stdout.contains(&format!("A (Hash=16 {a}) against B")),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_continued_sprt_counts_the_earlier_pairs() {
    // Forty lost pairs from an earlier run decide H0 at this run's first pair.
    let stdout = succeed(
        &[
            SPRT_RUN,
            &[
                "Hash=1",
                "Hash=2",
                "--sprt",
                "0",
                "10",
                "--sprt-prior",
                "40,0,0,0,0",
            ],
        ]
        .concat(),
    );
    assert!(stdout.contains("finished 2 games"), "{stdout}");
    assert!(
        stdout.contains("with the earlier pairs of --sprt-prior: ")
            && stdout.contains(" over 41 pairs)"),
        "{stdout}"
    );
    assert!(stdout.contains("H0 accepted after 41 pairs"), "{stdout}");
}

#[test]
fn bad_input_is_refused_with_a_reason() {
    let dir = scratch("bad");
    let help = succeed(&["--help"]);
    for option in [
        "--games",
        "--nodes",
        "--tc",
        "--random-plies",
        "--pairs",
        "--compare",
        "--data",
    ] {
        assert!(help.contains(option), "--help lacks {option}");
    }
    let epd = dir.join("bad.epd");
    std::fs::write(
        &epd,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nnot a fen\n",
    )
    .unwrap();
    let cases: [(&[&str], i32, &str); 7] = [
        (
            &["--games", "2", "--frobnicate"],
            2,
            "unexpected argument '--frobnicate'",
        ),
        (
            &["--nodes", "100"],
            2,
            "required arguments were not provided:\n  --games <N>",
        ),
        (
            &["--games", "2", "--tc", "fast"],
            2,
            "invalid value 'fast' for '--tc <SPEC>'",
        ),
        (&["--games", "3", "--pairs"], 2, "--games must be even"),
        (
            &["--games", "2", "--compare", "Hash=1", "Depth=3"],
            2,
            "unknown option 'Depth'",
        ),
        (&["--games", "1", "--openings", s(&epd)], 1, "line 2"),
        (
            &["--games", "1", "--pgn", "/nonexistent-dir/games.pgn"],
            1,
            "cannot open",
        ),
    ];
    for (args, code, message) in cases {
        let out = selfplay(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
