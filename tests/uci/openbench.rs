//! What OpenBench's client asks of the binary: `bench` output its parser
//! reads, the UCI commands it passes as arguments (`hoeven "setoption ..."
//! bench quit`), and `genfens` openings, read as the client reads them and
//! checked by python-chess.

use testkit::uci_harness as harness;

use chess::Board;
use harness::{binary, EngineProcess, SOON};
use std::collections::HashSet;
use std::io::Write;
use std::process::{Command, Stdio};

const PREFIX: &str = "info string genfens ";

/// Runs the binary with `args`; its standard output as lines.
fn run(args: &[&str]) -> Vec<String> {
    let out = Command::new(binary())
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run hoeven {args:?}: {e}"));
    assert!(out.status.success(), "hoeven {args:?}: {:?}", out.status);
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(String::from)
        .collect()
}

/// The bench and speed as OpenBench's client reads them: from the last line
/// back, the first `<digits> nodes` and `<digits> nps` found once every
/// character other than a letter, digit or space is a space.
fn openbench_bench(lines: &[String]) -> (Option<u64>, Option<u64>) {
    let (mut bench, mut nps) = (None, None);
    for line in lines.iter().rev() {
        let clean: String = line
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == ' ' {
                    c
                } else {
                    ' '
                }
            })
            .collect();
        let words: Vec<&str> = clean.split_whitespace().collect();
        for pair in words.windows(2) {
            let number = pair[0].parse::<u64>().ok();
            if pair[1].eq_ignore_ascii_case("nodes") && bench.is_none() {
                bench = number.or(bench);
            }
            if pair[1].eq_ignore_ascii_case("nps") && nps.is_none() {
                nps = number.or(nps);
            }
        }
    }
    (bench, nps)
}

/// The FENs of `genfens` output, read as OpenBench's client reads them.
fn genfens_fens(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix(PREFIX))
        .map(|f| f.trim_end().to_string())
        .collect()
}

#[test]
fn bench_reads_as_openbench_reads_it_in_both_forms() {
    let _timing = harness::timing_shared();
    let plain = run(&["bench"]);
    let (bench, nps) = openbench_bench(&plain);
    let last = plain.last().cloned().unwrap_or_default();
    assert_eq!(
        Some(format!(
            "{} nodes {} nps",
            bench.unwrap_or(0),
            nps.unwrap_or(0)
        )),
        Some(last.clone()),
        "OpenBench would read {bench:?} {nps:?} from '{last}'"
    );
    assert!(bench.unwrap_or(0) > 0 && nps.unwrap_or(0) > 0);
    // A private network's bench: the options first, as UCI lines.
    let with_option = run(&["setoption name Hash value 16", "bench", "quit"]);
    assert_eq!(openbench_bench(&with_option).0, bench);
}

#[test]
fn genfens_prints_distinct_legal_openings_that_repeat_with_the_seed() {
    let _timing = harness::timing_shared();
    for extra in ["", "chess960", "dfrc"] {
        let command = format!("genfens 16 seed 11 book None {extra}");
        let out = run(&[command.trim(), "quit"]);
        let fens = genfens_fens(&out);
        assert_eq!(fens.len(), 16, "{command}: {out:?}");
        let distinct: HashSet<&String> = fens.iter().collect();
        assert_eq!(distinct.len(), 16, "{command}: {fens:?}");
        for fen in &fens {
            let board = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(board.has_legal_move(), "{fen}");
            // OpenBench turns each into EPD from its six fields.
            assert_eq!(fen.split_whitespace().count(), 6, "{fen}");
        }
        assert_eq!(genfens_fens(&run(&[command.trim(), "quit"])), fens);
        let other = format!("genfens 16 seed 12 book None {extra}");
        assert_ne!(genfens_fens(&run(&[other.trim(), "quit"])), fens);
        python_chess_accepts(&fens);
    }
}

/// Every FEN is a valid position with a legal move for python-chess.
fn python_chess_accepts(fens: &[String]) {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string());
    let script = "import sys, chess\n\
                  for fen in sys.stdin.read().splitlines():\n\
                  \x20   board = chess.Board(fen, chess960=True)\n\
                  \x20   assert board.is_valid(), fen\n\
                  \x20   assert any(board.legal_moves), fen\n\
                  print('ok')\n";
    let mut child = Command::new(&python)
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run '{python}' ({e}): needs python-chess"));
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(fens.join("\n").as_bytes())
        .expect("write FENs");
    let out = child.wait_with_output().expect("python-chess check");
    assert!(
        out.status.success() && String::from_utf8_lossy(&out.stdout).trim() == "ok",
        "python-chess rejects a FEN: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn genfens_reads_a_book_and_reports_a_missing_one() {
    let _timing = harness::timing_shared();
    let dir = std::env::temp_dir().join(format!("hoeven-openbench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("frc.epd");
    std::fs::write(
        &book,
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\n\
         qnrbbkrn/pppppppp/8/8/8/8/PPPPPPPP/QNRBBKRN w GCgc - 0 1\n",
    )
    .unwrap();
    let command = format!("genfens 5 seed 3 book {} chess960", book.display());
    let fens = genfens_fens(&run(&[&command, "quit"]));
    assert_eq!(fens.len(), 5, "{fens:?}");
    for fen in &fens {
        // Two random plies after one of the two arrays: White to move again,
        // and a8 still holds the bishop or queen that no first move frees.
        assert!(fen.contains(" w "), "{fen}");
        assert!(fen.starts_with('b') || fen.starts_with('q'), "{fen}");
    }
    python_chess_accepts(&fens);

    let missing = format!("genfens 5 seed 3 book {}", dir.join("none.epd").display());
    let out = run(&[&missing, "quit"]);
    assert!(genfens_fens(&out).is_empty(), "{out:?}");
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string error: genfens: cannot read book")),
        "{out:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn genfens_is_a_uci_command_too_and_the_engine_keeps_answering() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    e.send("genfens 3 seed 1 book None dfrc");
    for _ in 0..3 {
        e.expect("a genfens line", SOON, |l| l.starts_with(PREFIX));
    }
    e.assert_idle();
    e.send("genfens 3 seed 1 book None plies");
    e.expect("an error line", SOON, |l| {
        l.starts_with("info string error: genfens")
    });
    e.send("genfens 2 seed 1 book /no/such/book.epd");
    e.expect("an error line", SOON, |l| {
        l.starts_with("info string error: genfens: cannot read book")
    });
    e.assert_idle();
}
