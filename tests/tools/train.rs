//! `hoeven train` from outside: convert, train, eval, and its refusals.

use std::path::PathBuf;
use std::process::{Command, Output};

const LINES: &str = "\
1bnrbkqr/pp2pppp/2pp1Q2/3n4/8/5P2/PPPPP1PP/NBNRBRK1 w kq - 2 5 | 87 | 0.0
bnnqrb1r/pp1pp1pp/2p2pk1/8/P2P4/2P5/NP2PPPP/BNQ1RBKR b KQ - 0 5 | -85 | 1.0
rkbq1r1b/1pp1p1p1/p4n2/3p1p1p/PPnP4/3N1PPN/2P1P2P/RKBQ1R1B w KQkq - 0 8 | 44 | 0.0
2n1rkbr/p2Qbp2/6p1/4p2p/8/3P2P1/1qPBPPNP/1B3RKR b KQkq - 0 11 | -88 | 0.0
8/3p4/R5p1/5p1p/4k2P/2K1P1P1/5P2/5r2 w - - 3 61 | -86 | 0.5
3r3r/p2p1kp1/6Rp/1p2q3/5p2/2P2P2/1PB1P2P/B2K2Q1 b - - 0 22 | -157 | 0.0
2k3nb/p1r1p3/4R3/8/1P2N3/2P3P1/2KP4/B7 w - - 3 28 | 362 | 1.0
8/5pk1/4p1p1/3qP2p/5P1P/4Q1P1/5K2/8 w - - 9 52 | 0 | 0.5
";

/// A directory of the test's own: the tests run in parallel.
fn dir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hoeven-train-cli-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn train(args: &[&str]) -> Output {
    Command::new(testkit::uci_harness::binary())
        .arg("train")
        .args(args)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn convert_train_and_eval_a_small_net() {
    let d = dir("convert");
    let input = d.join("in.txt");
    std::fs::write(&input, LINES.repeat(20)).unwrap();
    let bin = d.join("train.bin");
    let o = train(&["convert", bin.to_str().unwrap(), input.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("160 lines: 160 training"), "{}", text(&o));
    assert_eq!(std::fs::metadata(&bin).unwrap().len(), 160 * 32);

    let out = d.join("net");
    let o = train(&[
        "train",
        "--data",
        bin.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--hidden",
        "8",
        "--output-buckets",
        "4",
        "--epochs",
        "3",
        "--batch",
        "32",
        "--save-every",
        "2",
    ]);
    let log = text(&o);
    assert!(o.status.success(), "{log}");
    assert_eq!(log.matches("epoch ").count(), 3, "{log}");
    let net = d.join("net.nnue");
    let bytes = std::fs::read(&net).unwrap();
    assert_eq!(bytes.len(), 24 + 2 * (768 * 8 + 8 + 4 * 16) + 4 * 4);
    assert_eq!(&bytes[8..16], [8, 0, 0, 0, 4, 0, 0, 0]);
    assert!(d.join("net-e2.ckpt").exists() && d.join("net-e2.nnue").exists());

    let o = train(&[
        "eval",
        net.to_str().unwrap(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ]);
    let line = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(o.status.success(), "{}", text(&o));
    let cp: i32 = line.split(" | ").next().unwrap().parse().unwrap();
    assert!(cp.abs() < 2000, "{line}");

    for evaluation in [net.to_str().unwrap(), "hce"] {
        let o = train(&["loss", evaluation, bin.to_str().unwrap()]);
        let line = text(&o);
        assert!(o.status.success(), "{line}");
        assert!(line.contains(": 160 positions, loss 0.0"), "{line}");
    }
    let o = train(&["loss", "hce", d.join("missing.bin").to_str().unwrap()]);
    assert!(!o.status.success());
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn bad_input_is_refused_with_a_message() {
    let d = dir("bad");
    let input = d.join("bad.txt");
    std::fs::write(&input, format!("{LINES}not a record\n")).unwrap();
    let bin = d.join("bad.bin");
    let o = train(&["convert", bin.to_str().unwrap(), input.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("bad.txt:9: record has 1 fields"),
        "{}",
        text(&o)
    );

    std::fs::write(&bin, [0u8; 33]).unwrap();
    let o = train(&["train", "--data", bin.to_str().unwrap(), "--out", "x"]);
    assert!(!o.status.success());
    assert!(text(&o).contains("not a whole number"), "{}", text(&o));

    let net = d.join("bad.nnue");
    // A header for H = 128 and one bucket, and nothing after it.
    std::fs::write(
        &net,
        [
            &b"HVNNUE04"[..],
            &128u32.to_le_bytes(),
            &1u32.to_le_bytes(),
            &[0; 8],
        ]
        .concat(),
    )
    .unwrap();
    let o = train(&[
        "eval",
        net.to_str().unwrap(),
        "8/8/8/8/8/8/8/K1k5 w - - 0 1",
    ]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("24 bytes where the header's sizes need 197404"),
        "{}",
        text(&o)
    );

    let o = train(&["train", "--data", "x.bin", "--out", "x", "--bogus", "1"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("unexpected argument '--bogus'"),
        "{}",
        text(&o)
    );
    std::fs::remove_dir_all(&d).unwrap();
}

/// `hoeven train pgn` reads back, from the PGN self-play writes, exactly the
/// records self-play writes itself: both keep the same positions (one rule,
/// `chessio::is_training_position`) with the same scores and results, in
/// the comment format fastchess also writes for OpenBench.
#[test]
fn pgn_gives_the_records_self_play_wrote() {
    let d = dir("pgn");
    let (pgn, data, out) = (d.join("games.pgn"), d.join("data.txt"), d.join("out.txt"));
    for variant in ["chess960", "dfrc"] {
        let o = Command::new(testkit::uci_harness::binary())
            .args([
                "selfplay",
                "--games",
                "6",
                "--nodes",
                "400",
                "--random-plies",
                "4",
            ])
            .args(["--concurrency", "1", "--seed", "7", "--variant", variant])
            .arg("--pgn")
            .arg(&pgn)
            .arg("--data")
            .arg(&data)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", text(&o));
    }
    let o = train(&["pgn", out.to_str().unwrap(), pgn.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let expected = std::fs::read_to_string(&data).unwrap();
    let lines = expected.lines().count();
    assert!(lines > 200, "{lines} records from 12 games");
    assert!(
        text(&o).starts_with(&format!(
            "12 games (0 unfinished or without moves, 0 refused): {lines} records"
        )),
        "{}",
        text(&o)
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), expected);

    let o = train(&["pgn", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let o = train(&["pgn", out.to_str().unwrap(), "/nonexistent.pgn"]);
    assert!(!o.status.success() && text(&o).contains("/nonexistent.pgn"));
}

/// `scripts/stage.sh` on two record files, one of them cut off mid-line as a
/// generator killed hard leaves it: the fragment is cut, the net trained
/// from the built-in one (the script reads its name from `eval/build.rs`),
/// both nets measured, and the candidate named after its header's hash.
#[test]
fn the_stage_script_trains_measures_and_names_a_candidate() {
    let d = dir("stage");
    // Four blocks of 1000 lines each; seed 7 holds one of the eight out.
    let whole = LINES.repeat(500);
    let (a, b) = (d.join("chess960-1.txt"), d.join("dfrc-2.txt"));
    std::fs::write(
        &a,
        format!("{whole}8/5pk1/4p1p1/3qP2p/5P1P/4Q1P1/5K2/8 w - - 9 5"),
    )
    .unwrap();
    std::fs::write(&b, &whole).unwrap();
    let out = d.join("stage");
    let candidates = d.join("candidates");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/stage.sh");
    let o = Command::new("bash")
        .arg(script)
        .arg(&out)
        .args([&a, &b])
        .env("SEED", "7")
        .env("EPOCHS", "1")
        .env("THREADS", "1")
        .env("HOEVEN", testkit::uci_harness::binary())
        .env("CANDIDATES", &candidates)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));

    assert_eq!(std::fs::read_to_string(&a).unwrap(), whole);
    let manifest = std::fs::read_to_string(out.join("STAGE")).unwrap();
    let cut = format!("cut: {} after byte {}", a.display(), whole.len());
    assert!(manifest.contains(&cut), "{manifest}");
    assert_eq!(
        manifest.matches(" 4000 lines sha256 ").count(),
        2,
        "{manifest}"
    );
    assert_eq!(
        manifest.matches("loss on val.bin: ").count(),
        2,
        "{manifest}"
    );
    assert!(manifest.contains("--init"), "{manifest}");
    let validation = std::fs::metadata(out.join("val.bin")).unwrap().len();
    let training = std::fs::metadata(out.join("new.bin")).unwrap().len();
    assert_eq!((training, validation), (7000 * 32, 1000 * 32));

    let net = std::fs::read(out.join("stage.nnue")).unwrap();
    let hash = u32::from_le_bytes(net[20..24].try_into().unwrap());
    let candidate = candidates.join(format!("hoeven-{hash:08x}.nnue"));
    assert_eq!(std::fs::read(&candidate).unwrap(), net);
    assert!(manifest.contains(&format!("candidate: {}", candidate.display())));
}
