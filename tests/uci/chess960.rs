//! Chess960 over UCI, driving the built `hoeven` binary: castling written
//! king-captures-rook with `UCI_Chess960` and king-two-squares without it,
//! both notations (and `O-O`) read in either mode, Shredder-FEN, X-FEN and
//! Double Fischer Random FENs, and `position frc`/`position dfrc`.
//!
//! The expected FENs were worked out with python-chess.

use testkit::uci_harness as harness;

use harness::{board_after, EngineProcess, Score, SOON};

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// Classical: O-O is the only mate in one (Rh1-f1 alone lets the king out to g2).
const CLASSICAL_CASTLE_MATES: &str = "8/8/8/8/8/2N2k1P/3P3B/4K2R w K - 0 1";
/// King b1, rook a1: castling (king to c1, rook to d1 over the king) is the only mate.
const B1_CASTLE_MATES: &str = "2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1";
/// King g1, rook h1: castling leaves the king on g1 and mates with the rook on f1.
const G1_CASTLE_MATES: &str = "4rkr1/4p1p1/8/8/8/8/8/6KR w H - 0 1";
const BOTH_SIDES: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";

fn set_chess960(e: &mut EngineProcess, on: bool) {
    e.set_option("UCI_Chess960", if on { "true" } else { "false" });
}

#[test]
fn castling_is_written_king_takes_rook_in_chess960_mode() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    for (fen, chess960, expected) in [
        (CLASSICAL_CASTLE_MATES, true, "e1h1"),
        (B1_CASTLE_MATES, true, "b1a1"),
        (G1_CASTLE_MATES, true, "g1h1"),
        (CLASSICAL_CASTLE_MATES, false, "e1g1"),
    ] {
        set_chess960(&mut e, chess960);
        e.send(&format!("position fen {fen}"));
        let search = e.go("depth 4", SOON);
        let board = board_after(fen, &[], chess960);
        e.check_search(&board, chess960, &search);
        e.check(search.bestmove == expected, || {
            format!("{fen} (UCI_Chess960 {chess960}): the mating castle is {expected}")
        });
        e.check(search.final_score() == Some(Score::Mate(1)), || {
            format!("{fen}: castling mates in one")
        });
    }
}

#[test]
fn searchmoves_and_pv_use_the_mode_notation_for_castling() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    for chess960 in [false, true] {
        set_chess960(&mut e, chess960);
        e.send(&format!("position fen {BOTH_SIDES}"));
        let board = board_after(BOTH_SIDES, &[], chess960);
        // searchmoves may name the castle in either notation; the answer is
        // always in the mode's.
        let (king_side, queen_side) = if chess960 {
            ("e1h1", "e1a1")
        } else {
            ("e1g1", "e1c1")
        };
        for (given, expected) in [
            ("e1g1", king_side),
            ("e1h1", king_side),
            ("O-O", king_side),
            ("e1c1", queen_side),
            ("e1a1", queen_side),
            ("O-O-O", queen_side),
        ] {
            let search = e.go(&format!("depth 4 searchmoves {given}"), SOON);
            e.check_search(&board, chess960, &search);
            e.check(search.bestmove == expected, || {
                format!(
                    "UCI_Chess960 {chess960}: searchmoves {given} should give bestmove {expected}"
                )
            });
        }
        // Black's castling in a pv, after White castled.
        e.send(&format!("position fen {BOTH_SIDES} moves {king_side}"));
        let board = board_after(BOTH_SIDES, &[king_side], chess960);
        let black = if chess960 { "e8h8" } else { "e8g8" };
        let search = e.go(&format!("depth 3 searchmoves {black}"), SOON);
        e.check_search(&board, chess960, &search);
        assert_eq!(search.bestmove, black);
    }
}

#[test]
fn both_castling_notations_and_o_o_are_read_in_both_modes() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    let k_side = "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1";
    let q_side = "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1";
    for chess960 in [false, true] {
        set_chess960(&mut e, chess960);
        let classical = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        for (moves, expected) in [
            ("e1g1", k_side),
            ("e1h1", k_side),
            ("O-O", k_side),
            ("e1c1", q_side),
            ("e1a1", q_side),
            ("O-O-O", q_side),
            ("e1h1 e8a8", "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2"),
            ("e1g1 e8c8", "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2"),
            ("O-O O-O-O", "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2"),
        ] {
            e.quiet_command(&format!("position fen {classical} moves {moves}"));
            let fen = e.fen();
            e.check(fen == expected, || {
                format!("UCI_Chess960 {chess960}: moves {moves} should give {expected}, got {fen}")
            });
        }
        for (fen, moves, expected) in [
            // The king stays on g1 and the rook jumps it.
            (
                G1_CASTLE_MATES,
                "g1h1",
                "4rkr1/4p1p1/8/8/8/8/8/5RK1 b - - 1 1",
            ),
            (
                G1_CASTLE_MATES,
                "O-O",
                "4rkr1/4p1p1/8/8/8/8/8/5RK1 b - - 1 1",
            ),
            (
                B1_CASTLE_MATES,
                "b1a1",
                "2rkr3/2p1p3/8/8/8/8/8/2KR4 b - - 1 1",
            ),
            (
                B1_CASTLE_MATES,
                "O-O-O",
                "2rkr3/2p1p3/8/8/8/8/8/2KR4 b - - 1 1",
            ),
            // b1c1 is the plain king step in both modes (it loses the right).
            (
                B1_CASTLE_MATES,
                "b1c1",
                "2rkr3/2p1p3/8/8/8/8/8/R1K5 b - - 1 1",
            ),
        ] {
            e.quiet_command(&format!("position fen {fen} moves {moves}"));
            let got = e.fen();
            e.check(got == expected, || {
                format!("UCI_Chess960 {chess960}: {fen} moves {moves} should give {expected}, got {got}")
            });
        }
    }
}

#[test]
fn startpos_works_in_chess960_mode() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    set_chess960(&mut e, true);
    e.quiet_command("position startpos");
    assert_eq!(e.fen(), STARTPOS);
    let moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1h1"];
    e.quiet_command(&format!("position startpos moves {}", moves.join(" ")));
    assert_eq!(
        e.fen(),
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"
    );
    let board = board_after(STARTPOS, &moves, true);
    let search = e.go("depth 5", SOON);
    e.check_search(&board, true, &search);
    e.quiet_command("position startpos");
    let search = e.go("depth 3", SOON);
    e.check_search(&board_after(STARTPOS, &[], true), true, &search);
}

#[test]
fn shredder_x_fen_and_dfrc_fens_are_read() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    // (input, its Shredder-FEN, an equivalent spelling)
    for (fen, shredder, other) in [
        (
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
        ),
        (
            // X-FEN names an inner rook by its file.
            "1r2k1rr/8/8/8/8/8/8/RR2K2R w KBgq - 0 1",
            "1r2k1rr/8/8/8/8/8/8/RR2K2R w HBgb - 0 1",
            "1r2k1rr/8/8/8/8/8/8/RR2K2R w HBgb - 0 1",
        ),
        (
            // Double Fischer Random: each side its own back rank (0 and 959).
            "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1",
            "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1",
            "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
        ),
        (
            // Four fields only: the clocks default.
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
        ),
    ] {
        e.quiet_command(&format!("position fen {fen}"));
        let (xfen, shred) = e.fens();
        let key = e.d_field("Key: ");
        e.check(shred == shredder, || {
            format!("{fen}: Shredder-FEN should be {shredder}, got {shred}")
        });
        e.quiet_command(&format!("position fen {other}"));
        let key2 = e.d_field("Key: ");
        e.check(key == key2, || {
            format!("{fen} and {other} should be the same position")
        });
        // The X-FEN that d prints reads back as the same position.
        e.quiet_command(&format!("position fen {xfen}"));
        let key3 = e.d_field("Key: ");
        e.check(key == key3, || {
            format!("d's X-FEN {xfen} should read back as {fen}")
        });
    }
    // A castling right without its rook is dropped with a warning.
    let out = e.command("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1");
    assert!(
        out.len() == 1 && out[0].starts_with("info string warning:") && out[0].contains('K'),
        "expected one warning about the K right: {out:?}"
    );
    assert_eq!(
        e.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1"
    );
}

#[test]
fn frc_and_dfrc_start_positions() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    e.quiet_command("position startpos");
    let (start_fen, _) = e.fens();
    let start_key = e.d_field("Key: ");
    e.quiet_command("position frc 518");
    assert_eq!(e.fens().0, start_fen, "frc 518 is the standard start");
    assert_eq!(e.d_field("Key: "), start_key);
    assert_eq!(e.d_field("Chess960 start position: "), "518");
    e.quiet_command("position dfrc 518 518");
    assert_eq!(
        e.d_field("Key: "),
        start_key,
        "dfrc 518 518 is the standard start"
    );

    for (command, shredder, label) in [
        (
            "frc 0",
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
            "Chess960 start position: 0",
        ),
        (
            "frc 1",
            "bqnbnrkr/pppppppp/8/8/8/8/PPPPPPPP/BQNBNRKR w HFhf - 0 1",
            "Chess960 start position: 1",
        ),
        (
            "frc 100",
            "qbbnrnkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNRNKR w HEhe - 0 1",
            "Chess960 start position: 100",
        ),
        (
            "frc 777",
            "qrkbbnrn/pppppppp/8/8/8/8/PPPPPPPP/QRKBBNRN w GBgb - 0 1",
            "Chess960 start position: 777",
        ),
        (
            "frc 959",
            "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1",
            "Chess960 start position: 959",
        ),
        (
            "dfrc 0 959",
            "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1",
            "Double Fischer Random start position: 0 959",
        ),
    ] {
        let out = e.command(&format!("position {command}"));
        e.check(out.is_empty(), || {
            format!("'position {command}' printed {out:?}")
        });
        let d = e.command("d");
        e.check(
            d.iter().any(|l| l == &format!("Shredder-FEN: {shredder}")),
            || format!("position {command}: expected Shredder-FEN {shredder}"),
        );
        e.check(d.iter().any(|l| l == label), || {
            format!("position {command}: expected '{label}'")
        });
        // With moves, and a search in Chess960 mode.
        set_chess960(&mut e, true);
        let board = board_after(shredder, &[], true);
        e.send(&format!("position {command}"));
        let search = e.go("depth 4", SOON);
        e.check_search(&board, true, &search);
        e.quiet_command(&format!("position {command} moves {}", search.bestmove));
        let after = board_after(shredder, &[search.bestmove.as_str()], true);
        let key = e.d_field("Key: ");
        e.check(key == format!("{:016X}", after.key()), || {
            format!(
                "position {command} moves {}: wrong position",
                search.bestmove
            )
        });
        set_chess960(&mut e, false);
    }
}

#[test]
fn flip_exchanges_the_colours_and_negates_the_evaluation() {
    let _timing = harness::timing_shared();
    const ARRAY_FEN: &str = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let white_eval = |e: &mut EngineProcess| -> i32 {
        let out = e.command("eval");
        let value = out.last().and_then(|l| {
            l.strip_prefix("Final evaluation: ")?
                .strip_suffix(" (white side)")?
                .parse()
                .ok()
        });
        match value {
            Some(cp) => cp,
            None => e.fail(&format!("no 'Final evaluation' line: {out:?}")),
        }
    };
    let mut e = EngineProcess::start();
    e.quiet_command(&format!("position fen {ARRAY_FEN}"));
    let before = white_eval(&mut e);
    e.quiet_command("flip");
    assert_eq!(
        e.fens().1,
        "bq1bnrkr/npp1p1pp/p2p4/5p2/2P5/3PPN2/PP3PPP/BQNB1RKR b HFhf - 2 9"
    );
    assert_eq!(white_eval(&mut e), -before);
    let flipped = board_after(&e.fen(), &[], true);
    set_chess960(&mut e, true);
    let search = e.go("depth 5", SOON);
    e.check_search(&flipped, true, &search);
    e.quiet_command("flip");
    assert_eq!(e.fens().1, ARRAY_FEN);
}
