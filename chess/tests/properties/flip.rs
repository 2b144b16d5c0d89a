//! The colour-flipped board (`Board::flipped`) against the mirror worked
//! out square by square, move by move and right by right.

use super::board;
use chess::{Board, CastlingNotation, Color, Piece, Square};
use std::collections::HashSet;
use testkit::games::random_positions;

fn mirror(sq: Square) -> Square {
    sq.relative(Color::Black)
}

#[test]
fn a_chess960_position_flips_as_written_by_hand() {
    let b = board("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    assert_eq!(
        b.flipped().to_fen(CastlingNotation::Shredder),
        "bq1bnrkr/npp1p1pp/p2p4/5p2/2P5/3PPN2/PP3PPP/BQNB1RKR b HFhf - 2 9"
    );
    // One right left, on the queen's side of a DFRC array: it stays there.
    let b = board("qnnbbrkr/pppppppp/8/8/8/8/PPPPPPPP/RKRBBNNQ b A - 0 1");
    assert_eq!(
        b.flipped().to_fen(CastlingNotation::Shredder),
        "rkrbbnnq/pppppppp/8/8/8/8/PPPPPPPP/QNNBBRKR w a - 0 1"
    );
}

#[test]
fn an_en_passant_capture_flips_with_the_board() {
    let b = board("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    let f = b.flipped();
    assert_eq!(
        f.to_fen(CastlingNotation::Shredder),
        "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1"
    );
    assert!(f.legal_moves().iter().any(|m| m.is_en_passant()));
}

#[test]
fn flipping_mirrors_pieces_rights_and_moves_and_twice_restores_the_board() {
    let flip_piece = |p: Piece| Piece::new(!p.color(), p.kind());
    let mut en_passant = 0;
    for played in random_positions(0xf11b_b0a4, 20_000, 160) {
        let b: &Board = &played.board;
        let f = b.flipped();
        assert_eq!(&f.flipped(), b, "{b:?}");
        assert_eq!(f.side_to_move(), !b.side_to_move());
        assert_eq!(f.key(), f.compute_key());
        for sq in Square::all() {
            assert_eq!(f.piece_on(mirror(sq)), b.piece_on(sq).map(flip_piece));
        }
        let rights = |board: &Board| -> HashSet<_> { board.castling_rights().iter().collect() };
        let mirrored: HashSet<_> = rights(b)
            .into_iter()
            .map(|(color, side, rook)| (!color, side, mirror(rook)))
            .collect();
        assert_eq!(rights(&f), mirrored, "{b:?}");
        assert_eq!(f.en_passant(), b.en_passant().map(mirror));
        en_passant += usize::from(b.en_passant().is_some());
        assert_eq!(f.checkers().count(), b.checkers().count());
        let moves = |board: &Board, turn: fn(Square) -> Square| -> HashSet<_> {
            board
                .legal_moves()
                .iter()
                .map(|m| (turn(m.from()), turn(m.to()), m.promotion_piece()))
                .collect()
        };
        assert_eq!(moves(&f, mirror), moves(b, |sq| sq), "{b:?}");
    }
    assert!(en_passant > 10, "only {en_passant} en-passant positions");
}
