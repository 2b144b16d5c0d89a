//! `hoeven book` end to end: the same book whatever the threads, every
//! line a legal Shredder-FEN start with its score and depth, a killed run
//! resumed from its partial file, and refusals of bad input.

use chess::Board;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use testkit::uci_harness as harness;

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hoeven-book-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn book(args: &[&str]) -> Output {
    let out = Command::new(harness::binary())
        .arg("book")
        .args(args)
        .output()
        .expect("hoeven runs");
    // A panic aborts the process: no exit code at all.
    assert!(
        out.status.code().is_some(),
        "hoeven book {args:?} crashed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs to the end; returns the summary.
fn succeed(args: &[&str]) -> String {
    let out = book(args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "hoeven book {args:?} failed\nstdout:\n{stdout}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Fails; returns the message.
fn refuse(args: &[&str], status: i32) -> String {
    let out = book(args);
    assert_eq!(out.status.code(), Some(status), "hoeven book {args:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn partial(out: &Path) -> PathBuf {
    PathBuf::from(format!("{}.partial", out.display()))
}

/// One book line: the position (checked legal, and the start its id
/// names), the score and the depth.
fn parse(line: &str) -> (String, i32, i32) {
    let (epd, ops) = line.split_once(" ce ").expect("a ce operation");
    let board = Board::from_fen(&format!("{epd} 0 1"))
        .unwrap_or_else(|e| panic!("{line}: not a legal position: {e}"));
    let castling = epd.split(' ').nth(2).unwrap();
    assert!(
        castling.len() == 4
            && castling
                .chars()
                .all(|c| ('a'..='h').contains(&c.to_ascii_lowercase())),
        "{line}: not Shredder-FEN castling"
    );
    let ops: Vec<&str> = ops.split("; ").collect();
    let [score, depth, id] = ops.as_slice() else {
        panic!("{line}: not ce, acd and id")
    };
    let depth = depth.strip_prefix("acd ").expect("acd").parse().unwrap();
    let id = id
        .strip_prefix("id \"dfrc ")
        .and_then(|i| i.strip_suffix("\";"))
        .expect("a DFRC id");
    let (white, black) = id.split_once(' ').unwrap();
    let numbers = (white.parse().unwrap(), black.parse().unwrap());
    assert_eq!(board.double_chess960_numbers(), Some(numbers), "{line}");
    (id.to_string(), score.parse().unwrap(), depth)
}

#[test]
fn the_threads_do_not_change_the_book_and_every_line_is_a_legal_start() {
    let dir = scratch("threads");
    let (one, two) = (dir.join("one.epd"), dir.join("two.epd"));
    let common = [
        "--variant",
        "dfrc",
        "--count",
        "6",
        "--depth",
        "2",
        "--bound",
        "10000",
    ];
    let summary = succeed(&[&common[..], &["--threads", "1", "--out", s(&one)]].concat());
    assert!(summary.contains("6 of 6 dfrc starts"), "{summary}");
    succeed(&[&common[..], &["--threads", "2", "--out", s(&two)]].concat());
    let text = std::fs::read_to_string(&one).unwrap();
    assert_eq!(text, std::fs::read_to_string(&two).unwrap());
    assert!(!partial(&one).exists() && !partial(&two).exists());

    let lines: Vec<(String, i32, i32)> = text.lines().map(parse).collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert!(lines.iter().all(|&(_, _, depth)| depth == 2));
    let sizes: Vec<u32> = lines.iter().map(|l| l.1.unsigned_abs()).collect();
    assert!(sizes.windows(2).all(|w| w[0] <= w[1]), "{text}");

    // A tighter bound keeps a part of the same lines.
    let tight = dir.join("tight.epd");
    let bound = sizes[2].to_string();
    succeed(&[&common[..6], &["--bound", &bound, "--out", s(&tight)]].concat());
    let kept = std::fs::read_to_string(&tight).unwrap();
    assert!(
        text.starts_with(&kept) && kept.lines().count() >= 3,
        "{kept}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Starts a run and kills it once it has scored `scored` positions; the
/// partial file is left as the kill left it.
fn kill_after(args: &[&str], out: &Path, scored: usize) {
    let mut child = Command::new(harness::binary())
        .arg("book")
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("hoeven runs");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let lines = std::fs::read_to_string(partial(out)).map_or(0, |t| t.matches('\n').count());
        if lines > scored {
            break;
        }
        let finished = child.try_wait().unwrap();
        assert!(
            finished.is_none(),
            "the run ended before it could be killed"
        );
        assert!(Instant::now() < deadline, "no progress in the partial file");
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

/// Depth 10 takes tens of milliseconds a position: time enough to kill
/// the run in the middle.
fn resume_args(out: &Path) -> Vec<&str> {
    let mut args = vec![
        "--variant",
        "dfrc",
        "--count",
        "24",
        "--seed",
        "5",
        "--depth",
        "10",
        "--bound",
        "10000",
        "--out",
    ];
    args.push(s(out));
    args
}

#[test]
fn a_killed_run_resumes_where_it_stopped() {
    let dir = scratch("resume");
    let (whole, resumed) = (dir.join("whole.epd"), dir.join("resumed.epd"));
    succeed(&[&resume_args(&whole)[..], &["--threads", "2"]].concat());

    kill_after(
        &[&resume_args(&resumed)[..], &["--threads", "1"]].concat(),
        &resumed,
        3,
    );
    // Two positions kept, the first with a score no search gives, so that
    // the book shows it was read rather than searched again; and a line
    // cut short, as a kill while writing leaves it.
    let text = std::fs::read_to_string(partial(&resumed)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let (header, first, second) = (lines[0], lines[1], lines[2]);
    let (first_id, _) = first.split_once('\t').unwrap();
    let forged = format!("{first_id}\t4321\t10");
    std::fs::write(
        partial(&resumed),
        format!("{header}\n{forged}\n{second}\n{}", &lines[3][..4]),
    )
    .unwrap();

    let summary = succeed(&[&resume_args(&resumed)[..], &["--threads", "2"]].concat());
    assert!(
        summary.contains("22 searched") && summary.contains("2 from the partial file"),
        "{summary}"
    );
    assert!(!partial(&resumed).exists());
    let book = std::fs::read_to_string(&resumed).unwrap();
    let expected = std::fs::read_to_string(&whole).unwrap();
    let tag = format!("id \"{first_id}\";");
    let forged_line = book.lines().find(|l| l.contains(&tag)).unwrap();
    assert!(forged_line.contains(" ce 4321; acd 10; "), "{forged_line}");
    let others = |text: &str| {
        let mut lines: Vec<String> = text
            .lines()
            .filter(|l| !l.contains(&tag))
            .map(String::from)
            .collect();
        lines.sort();
        lines
    };
    assert_eq!(others(&book), others(&expected));
    assert_eq!(book.lines().count(), 24);

    // The same file under other settings is refused, and left alone.
    let other = header.replace("depth=10", "depth=9");
    let stale = format!("{other}\n{second}\n");
    std::fs::write(partial(&resumed), &stale).unwrap();
    let why = refuse(&resume_args(&resumed), 1);
    assert!(
        why.contains("other settings") && why.contains("depth=9"),
        "{why}"
    );
    assert_eq!(std::fs::read_to_string(partial(&resumed)).unwrap(), stale);
    std::fs::write(
        partial(&resumed),
        format!("{header}\n{second}\ndfrc 1 1\t5\t10\n"),
    )
    .unwrap();
    let why = refuse(&resume_args(&resumed), 1);
    assert!(why.contains("line 3"), "{why}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_refused_with_a_message() {
    let dir = scratch("refusals");
    let out = dir.join("b.epd");
    let run = ["--depth", "1", "--bound", "50", "--out", s(&out)];
    let why = refuse(&[&["--variant", "shogi"][..], &run].concat(), 2);
    assert!(why.contains("shogi"), "{why}");
    let why = refuse(
        &[&["--variant", "chess960", "--count", "3"][..], &run].concat(),
        2,
    );
    assert!(why.contains("--count is for --variant dfrc"), "{why}");
    let why = refuse(&[&["--variant", "dfrc"][..], &run].concat(), 2);
    assert!(why.contains("needs --count"), "{why}");
    let dfrc = [
        "--variant",
        "dfrc",
        "--count",
        "2",
        "--depth",
        "1",
        "--bound",
        "5",
        "--out",
    ];
    let why = refuse(&[&dfrc[..], &[s(&dir)]].concat(), 1);
    assert!(why.contains("is a folder"), "{why}");
    let nowhere = dir.join("missing").join("b.epd");
    let why = refuse(&[&dfrc[..], &[s(&nowhere)]].concat(), 1);
    assert!(why.contains("cannot write"), "{why}");
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
