//! FEN writing and reading in both castling notations, every way a FEN can
//! be refused, dropped castling rights, and the Scharnagl numbering.

use crate::{board, sq, suite_positions};
use chess::chess960::start_position;
use chess::{Board, CastleSide, CastlingNotation, Color, FenError, File, PieceKind, Rank, Square};
use testkit::games::random_positions;
use testkit::suites::read_data_file;

const NOTATIONS: [CastlingNotation; 2] = [CastlingNotation::XFen, CastlingNotation::Shredder];

fn assert_round_trip(b: &Board) {
    for notation in NOTATIONS {
        let fen = b.to_fen(notation);
        let back = Board::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(&back, b, "{fen}");
        assert_eq!(back.to_fen(notation), fen);
    }
    assert_eq!(
        b.to_fen(CastlingNotation::XFen).split(' ').nth(2),
        Some(castling_field_by_hand(b, CastlingNotation::XFen).as_str()),
        "{b:?}"
    );
    assert_eq!(
        b.to_fen(CastlingNotation::Shredder).split(' ').nth(2),
        Some(castling_field_by_hand(b, CastlingNotation::Shredder).as_str()),
        "{b:?}"
    );
}

/// The castling field as it should be written, White's king side first:
/// Shredder always names the rook's file, X-FEN only for a rook that has
/// another rook of its colour further out on the back rank.
fn castling_field_by_hand(b: &Board, notation: CastlingNotation) -> String {
    let mut field = String::new();
    for color in Color::BOTH {
        let back = Rank::R1.relative(color);
        for side in CastleSide::BOTH {
            let Some(rook) = b.castling_rights().rook_square(color, side) else {
                continue;
            };
            let further_out = (0..8u8).filter_map(File::new).any(|f| {
                let beyond = match side {
                    CastleSide::King => f > rook.file(),
                    CastleSide::Queen => f < rook.file(),
                };
                beyond
                    && b.piece_on(Square::new(f, back))
                        .is_some_and(|p| p.color() == color && p.kind() == PieceKind::Rook)
            });
            let letter = match (notation, further_out, side) {
                (CastlingNotation::XFen, false, CastleSide::King) => 'k',
                (CastlingNotation::XFen, false, CastleSide::Queen) => 'q',
                _ => rook.file().to_char(),
            };
            field.push(match color {
                Color::White => letter.to_ascii_uppercase(),
                Color::Black => letter,
            });
        }
    }
    if field.is_empty() {
        field.push('-');
    }
    field
}

#[test]
fn positions_from_random_games_round_trip() {
    for played in random_positions(0xfe4, 30_000, 160) {
        assert_round_trip(&played.board);
    }
}

/// Whether the X-FEN castling field names a rook by its file.
fn names_inner_rook(b: &Board) -> bool {
    let fen = b.to_fen(CastlingNotation::XFen);
    fen.split(' ').nth(2).is_some_and(|f| {
        f.chars()
            .any(|c| c.is_ascii_alphabetic() && !"KQkq".contains(c))
    })
}

#[test]
fn suite_positions_round_trip() {
    let mut inner_rooks = 0;
    for p in suite_positions() {
        assert_round_trip(&p.board);
        inner_rooks += usize::from(names_inner_rook(&p.board));
        // The placement and side to move are kept as they were written.
        let ours = p.board.to_fen(CastlingNotation::Shredder);
        assert_eq!(
            ours.split(' ').take(2).collect::<Vec<_>>(),
            p.fen.split(' ').take(2).collect::<Vec<_>>(),
            "{}:{}",
            p.file,
            p.line
        );
    }
    // chess960_hard.epd has positions that need a file letter in X-FEN.
    assert!(inner_rooks > 5, "{inner_rooks}");
}

#[test]
fn x_fen_names_an_inner_rook_by_its_file() {
    // Rooks a1, b1 and h1 with the b1 rook the queen-side castling rook.
    let b = board("4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1");
    assert_eq!(
        b.castling_rights()
            .rook_square(Color::White, CastleSide::Queen),
        Some(sq("b1"))
    );
    assert_eq!(
        b.to_fen(CastlingNotation::XFen),
        "4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1"
    );
    assert_eq!(
        b.to_fen(CastlingNotation::Shredder),
        "4k3/8/8/8/8/8/8/RR2K2R w HB - 0 1"
    );
    // With the a1 rook as the castling rook, `Q` says it.
    let b = board("4k3/8/8/8/8/8/8/RR2K2R w KQ - 0 1");
    assert_eq!(
        b.castling_rights()
            .rook_square(Color::White, CastleSide::Queen),
        Some(sq("a1"))
    );
    assert_eq!(
        b.to_fen(CastlingNotation::Shredder),
        "4k3/8/8/8/8/8/8/RR2K2R w HA - 0 1"
    );
}

#[test]
fn malformed_fens_are_refused_with_the_field_at_fault() {
    let cases: Vec<(&str, FenError)> = vec![
        ("4k3/8/8/8/8/8/8/4K3 w", FenError::FieldCount(2)),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra",
            FenError::FieldCount(7),
        ),
        ("", FenError::FieldCount(0)),
        ("4k3/8/8/8/8/8/4K3 w - - 0 1", FenError::RankCount(7)),
        ("4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", FenError::RankCount(9)),
        (
            "4k3/8/8/8/8/8/8/4K2 w - - 0 1",
            FenError::RankLength {
                rank: Rank::R1,
                squares: 7,
            },
        ),
        (
            "4k4/8/8/8/8/8/8/4K3 w - - 0 1",
            FenError::RankLength {
                rank: Rank::R8,
                squares: 9,
            },
        ),
        ("4k3/8/8/8/8/8/8/4K2X w - - 0 1", FenError::PieceLetter('X')),
        ("4k3/8/8/8/8/8/8/4K9 w - - 0 1", FenError::PieceLetter('9')),
        ("4k3/8/8/8/0/8/8/4K3 w - - 0 1", FenError::PieceLetter('0')),
        (
            "8/8/8/8/8/8/8/4K3 w - - 0 1",
            FenError::KingCount {
                color: Color::Black,
                count: 0,
            },
        ),
        (
            "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
            FenError::KingCount {
                color: Color::White,
                count: 2,
            },
        ),
        (
            "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
            FenError::PawnOnBackRank(sq("a8")),
        ),
        (
            "4k3/8/8/8/8/8/8/4K2p w - - 0 1",
            FenError::PawnOnBackRank(sq("h1")),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
            FenError::SideToMove("x".into()),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 W - - 0 1",
            FenError::SideToMove("W".into()),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w Kx - 0 1",
            FenError::CastlingLetter('x'),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w 1 - 0 1",
            FenError::CastlingLetter('1'),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",
            FenError::EnPassant("e3".into()),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 b - e6 0 1",
            FenError::EnPassant("e6".into()),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - z6 0 1",
            FenError::EnPassant("z6".into()),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - e66 0 1",
            FenError::EnPassant("e66".into()),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - x 1",
            FenError::HalfmoveClock("x".into()),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - -1 1",
            FenError::HalfmoveClock("-1".into()),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 65536 1",
            FenError::HalfmoveClock("65536".into()),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 0",
            FenError::FullmoveNumber("0".into()),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 y",
            FenError::FullmoveNumber("y".into()),
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 65536",
            FenError::FullmoveNumber("65536".into()),
        ),
        ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", FenError::OpponentInCheck),
        ("4k3/8/8/8/8/8/8/r3K3 b - - 0 1", FenError::OpponentInCheck),
        (
            "4k3/8/8/b7/8/3n4/8/4K2r w - - 0 1",
            FenError::TooManyCheckers(3),
        ),
    ];
    for (fen, expected) in cases {
        match Board::from_fen(fen) {
            Err(e) => {
                assert_eq!(e, expected, "{fen}");
                assert!(!e.to_string().is_empty());
            }
            Ok(b) => panic!("{fen} accepted as {b:?}, expected {expected:?}"),
        }
    }
    // Four fields are enough; the counters default to 0 and 1.
    let b = board("4k3/8/8/8/8/8/8/4K3 w - -");
    assert_eq!((b.halfmove_clock(), b.fullmove_number()), (0, 1));
}

#[test]
fn castling_rights_without_their_king_or_rook_are_dropped_and_reported() {
    let cases: [(&str, &str, &[char]); 6] = [
        // No rook on the king side.
        (
            "4k3/8/8/8/8/8/8/R3K3 w KQ - 0 1",
            "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
            &['K'],
        ),
        // The king is off its back rank.
        (
            "4k3/8/8/8/8/8/4K3/R6R w HA - 0 1",
            "4k3/8/8/8/8/8/4K3/R6R w - - 0 1",
            &['H', 'A'],
        ),
        (
            "4k3/8/8/8/8/8/4K3/R6R w KQ - 0 1",
            "4k3/8/8/8/8/8/4K3/R6R w - - 0 1",
            &['K', 'Q'],
        ),
        // No rook on the named file, or a black rook there.
        (
            "4k3/8/8/8/8/8/8/4K1r1 w G - 0 1",
            "4k3/8/8/8/8/8/8/4K1r1 w - - 0 1",
            &['G'],
        ),
        // Black's letters look at Black's back rank.
        (
            "r3k3/8/8/8/8/8/8/4K2R w Kkq - 0 1",
            "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1",
            &['k'],
        ),
        // A second rook for a side that already has one.
        (
            "4k3/8/8/8/8/8/8/4K1RR w HG - 0 1",
            "4k3/8/8/8/8/8/8/4K1RR w H - 0 1",
            &['G'],
        ),
    ];
    for (fen, kept, letters) in cases {
        let (b, dropped) = Board::from_fen_reporting(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let got: Vec<char> = dropped.iter().map(|d| d.letter).collect();
        assert_eq!(got, letters, "{fen}");
        assert!(dropped
            .iter()
            .all(|d| !d.reason.is_empty() && !d.to_string().is_empty()));
        assert_eq!(b, board(kept), "{fen}");
        assert_eq!(b, board(fen), "from_fen drops the same rights: {fen}");
    }
    let (_, dropped) = Board::from_fen_reporting("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    assert!(dropped.is_empty());
}

#[test]
fn every_scharnagl_number_gives_the_listed_position() {
    let text = read_data_file("chess960_numbering.tsv").unwrap_or_else(|e| panic!("{e}"));
    let mut numbers = Vec::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        let [n, shredder, xfen] = fields[..] else {
            panic!("not <n>\\t<Shredder-FEN>\\t<X-FEN>: {line}");
        };
        let n: u32 = n.parse().unwrap_or_else(|_| panic!("{line}"));
        let start = start_position(n).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(start.to_fen(CastlingNotation::Shredder), shredder, "{n}");
        assert_eq!(start.to_fen(CastlingNotation::XFen), xfen, "{n}");
        for fen in [shredder, xfen] {
            let b = board(fen);
            assert_eq!(b, start, "{fen}");
            assert_eq!(b.chess960_number(), Some(n), "{fen}");
            assert_eq!(b.double_chess960_numbers(), Some((n, n)), "{fen}");
        }
        numbers.push(n);
    }
    assert_eq!(numbers, (0..960).collect::<Vec<u32>>());
}

#[test]
fn positions_that_are_not_starts_have_no_number() {
    let after_e4 = board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert_eq!(after_e4.chess960_number(), None);
    let no_rights = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Qkq - 0 1");
    assert_eq!(no_rights.chess960_number(), None);
    let dfrc = chess::chess960::double_start_position(3, 700).unwrap();
    assert_eq!(dfrc.chess960_number(), None);
    assert_eq!(dfrc.double_chess960_numbers(), Some((3, 700)));
}
