//! The Chess960 castling corner cases, one position each. Castling is
//! encoded king-captures-rook; after it the king stands on g/c and the rook
//! on f/d of the back rank.

use crate::{board, sq};
use chess::{Board, Color, Move, Piece, PieceKind};

/// Whether the castling of the king on `king` with the rook on `rook` is
/// legal; `generate` and `is_legal` have to agree.
fn can_castle(b: &Board, king: &str, rook: &str) -> bool {
    let m = Move::castle(sq(king), sq(rook));
    let generated = b.legal_moves().contains(m);
    assert_eq!(b.is_legal(m), generated, "{b:?} {m:?}");
    generated
}

/// Plays the castling and checks where the king and the rook end up.
fn assert_castles_to(fen: &str, king: &str, rook: &str, king_to: &str, rook_to: &str) {
    let mut b = board(fen);
    assert!(
        can_castle(&b, king, rook),
        "{fen}: {king}{rook} should be legal"
    );
    let us = b.side_to_move();
    b.make_move(Move::castle(sq(king), sq(rook)));
    assert_eq!(
        b.piece_on(sq(king_to)),
        Some(Piece::new(us, PieceKind::King)),
        "{fen}"
    );
    assert_eq!(
        b.piece_on(sq(rook_to)),
        Some(Piece::new(us, PieceKind::Rook)),
        "{fen}"
    );
    let others = [king, rook]
        .into_iter()
        .filter(|s| *s != king_to && *s != rook_to);
    for s in others {
        assert_eq!(b.piece_on(sq(s)), None, "{fen}: {s} should be empty");
    }
    assert!(!b.castling_rights().has_any(us));
    assert_eq!(b.key(), b.compute_key());
}

fn assert_cannot_castle(fen: &str, king: &str, rook: &str) {
    assert!(
        !can_castle(&board(fen), king, rook),
        "{fen}: {king}{rook} should be illegal"
    );
}

#[test]
fn king_and_rook_swap_squares() {
    assert_castles_to("4k3/8/8/8/8/8/8/5KR1 w G - 0 1", "f1", "g1", "g1", "f1");
    assert_castles_to("4k3/8/8/8/8/8/8/2RK4 w C - 0 1", "d1", "c1", "c1", "d1");
    assert_castles_to("2rk4/8/8/8/8/8/8/4K3 b c - 0 1", "d8", "c8", "c8", "d8");
}

#[test]
fn king_already_on_its_destination() {
    // Only the rook moves.
    assert_castles_to("4k3/8/8/8/8/8/8/6KR w H - 0 1", "g1", "h1", "g1", "f1");
    assert_castles_to("4k3/8/8/8/8/8/8/R1K5 w A - 0 1", "c1", "a1", "c1", "d1");
    assert_castles_to("r1k5/8/8/8/8/8/8/4K3 b a - 0 1", "c8", "a8", "c8", "d8");
}

#[test]
fn rook_already_on_its_destination() {
    // Only the king moves, over the rook's square.
    assert_castles_to("4k3/8/8/8/8/8/8/4KR2 w F - 0 1", "e1", "f1", "g1", "f1");
    assert_castles_to("4k3/8/8/8/8/8/8/3RK3 w D - 0 1", "e1", "d1", "c1", "d1");
    assert_castles_to("4k3/8/8/8/8/8/8/3R3K w D - 0 1", "h1", "d1", "c1", "d1");
}

#[test]
fn the_rook_crosses_the_kings_square() {
    // King b1, rook a1: the rook goes to d1 over b1 and c1.
    assert_castles_to("4k3/8/8/8/8/8/8/RK6 w A - 0 1", "b1", "a1", "c1", "d1");
    assert_castles_to("4k3/8/8/8/8/8/8/1KR5 w C - 0 1", "b1", "c1", "g1", "f1");
}

#[test]
fn a_rook_shielding_its_king_on_the_back_rank() {
    // The b1 rook blocks the a1 rook; once it has gone to d1 the king on c1
    // would be in check.
    assert_cannot_castle("4k3/8/8/8/8/8/8/rR2K1N1 w B - 0 1", "e1", "b1");
    assert_castles_to("4k3/8/8/8/8/8/8/1R2K1N1 w B - 0 1", "e1", "b1", "c1", "d1");
    // The same on the king side: the g1 rook shields against h1.
    assert_cannot_castle("4k3/8/8/8/8/8/8/2N1K1Rr w G - 0 1", "e1", "g1");
}

#[test]
fn pieces_in_the_way() {
    // In the king's path only: king b1 to g1 over c1..g1, rook c1 to f1.
    assert_cannot_castle("4k3/8/8/8/8/8/8/1KR3N1 w C - 0 1", "b1", "c1");
    assert_cannot_castle("4k3/8/8/8/8/8/8/1KR3n1 w C - 0 1", "b1", "c1");
    // In the rook's path only: king b1 to c1, rook a1 to d1.
    assert_cannot_castle("4k3/8/8/8/8/8/8/RK1N4 w A - 0 1", "b1", "a1");
    assert_cannot_castle("4k3/8/8/8/8/8/8/RK1n4 w A - 0 1", "b1", "a1");
    // Between king and rook but on neither destination: classical b1 knight.
    assert_cannot_castle("4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1", "e1", "a1");
    // The other rook of the same side stands on the destination.
    assert_cannot_castle("4k3/8/8/8/8/8/8/R2RK3 w A - 0 1", "e1", "a1");
}

#[test]
fn attacked_squares_stop_the_king_but_not_the_rook() {
    // The king would pass f1, which the f8 rook attacks.
    assert_cannot_castle("4kr2/8/8/8/8/8/8/4K2R w K - 0 1", "e1", "h1");
    // The king would land on an attacked square.
    assert_cannot_castle("4k1r1/8/8/8/8/8/8/4K2R w K - 0 1", "e1", "h1");
    // The king is in check.
    assert_cannot_castle("4r1k1/8/8/8/8/8/8/4K2R w K - 0 1", "e1", "h1");
    // Only the rook passes b1, attacked by the b8 rook: legal.
    assert_castles_to("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1", "a1", "c1", "d1");
    // The rook lands on an attacked square: legal.
    assert_castles_to("5rk1/8/8/8/8/8/8/6KR w H - 0 1", "g1", "h1", "g1", "f1");
    assert_castles_to("3r3k/8/8/8/8/8/8/RK6 w A - 0 1", "b1", "a1", "c1", "d1");
}

#[test]
fn castling_and_a_king_step_to_the_same_square_are_two_moves() {
    // King f1, rook h1: the castling puts the king on g1, and so does Kg1.
    let b = board("4k3/8/8/8/8/8/8/5K1R w H - 0 1");
    assert!(can_castle(&b, "f1", "h1"));
    assert!(b.legal_moves().contains(Move::new(sq("f1"), sq("g1"))));
    assert_ne!(
        Move::castle(sq("f1"), sq("h1")),
        Move::new(sq("f1"), sq("h1"))
    );
}

#[test]
fn double_fischer_random_with_the_kings_on_different_files() {
    // White king b1 with rooks a1 and g1; Black king g8 with rooks b8 and h8.
    let fen = "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w GAhb - 0 1";
    assert_castles_to(fen, "b1", "g1", "g1", "f1");
    assert_castles_to(fen, "b1", "a1", "c1", "d1");
    let black = "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 b GAhb - 0 1";
    assert_castles_to(black, "g8", "h8", "g8", "f8");
    assert_castles_to(black, "g8", "b8", "c8", "d8");
    // Each side's rights follow its own rooks: taking b8 costs Black the
    // queen-side right only.
    let b = board(
        "1r4kr/p1pppppp/8/8/8/8/PRPPPPPP/1K4R1 w Gh - 0 1"
            .replace("Gh", "Ghb")
            .as_str(),
    );
    let mut after = b.clone();
    after.make_move(Move::new(sq("b2"), sq("b8")));
    let rights = after.castling_rights();
    assert_eq!(
        rights.rook_square(Color::Black, chess::CastleSide::Queen),
        None
    );
    assert_eq!(
        rights.rook_square(Color::Black, chess::CastleSide::King),
        Some(sq("h8"))
    );
    assert_eq!(
        rights.rook_square(Color::White, chess::CastleSide::King),
        Some(sq("g1"))
    );
}
