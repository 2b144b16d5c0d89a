//! Hoeven mates with king, bishop and knight against a lone king that
//! defends as well as the tablebases allow: `tests/python/kbnk_mate.py`
//! plays twenty random won positions against a defender that always picks
//! the move with the longest distance to mate, and fails unless every game
//! ends in mate within the fifty-move rule. The evaluation's corner of the
//! bishop's colour is what makes this work; with the wrong corners the
//! engine mated in none of them.

use testkit::uci_harness as harness;

use std::path::Path;
use std::time::Duration;

#[test]
fn bishop_and_knight_mate_the_lone_king_within_fifty_moves() {
    let _timing = harness::timing_shared();
    let tables = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy");
    let binary = harness::binary();
    let run = harness::run_python(
        "kbnk_mate.py",
        &[
            binary.as_os_str(),
            tables.as_os_str(),
            "--games".as_ref(),
            "20".as_ref(),
        ],
        Duration::from_secs(900),
    );
    let report = &run.report;
    assert!(
        run.status.success(),
        "not every game was mated ({})\n{report}",
        run.status
    );
    let mates = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("game ") && l.contains(": mate after "))
        .count();
    assert_eq!(mates, 20, "twenty mates\n{report}");
    assert!(
        run.stdout
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("ok: 20 mates")),
        "summary line\n{report}"
    );
}
