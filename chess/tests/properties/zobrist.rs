//! Incremental Zobrist keys and castling rights against values worked out
//! from scratch, along random games biased towards captures.

use chess::{zobrist, Board, CastlingRights, Color, Move, PieceKind, Square};
use std::collections::HashMap;
use testkit::games::random_positions;

/// The key from the documented parts: pieces, castling rooks, a usable
/// en-passant file and the side to move.
fn key_from_scratch(board: &Board) -> u64 {
    let mut key = 0;
    for sq in Square::all() {
        if let Some(piece) = board.piece_on(sq) {
            key ^= zobrist::piece(piece, sq);
        }
    }
    key ^= zobrist::castling(board.castling_rights());
    if let Some(ep) = board.en_passant() {
        key ^= zobrist::en_passant(ep.file());
    }
    if board.side_to_move() == Color::Black {
        key ^= zobrist::side();
    }
    key
}

/// The pawn-structure key covers pawns and kings only.
fn pawn_key_from_scratch(board: &Board) -> u64 {
    Square::all()
        .filter_map(|sq| board.piece_on(sq).map(|p| (p, sq)))
        .filter(|(p, _)| matches!(p.kind(), PieceKind::Pawn | PieceKind::King))
        .fold(0, |key, (p, sq)| key ^ zobrist::piece(p, sq))
}

/// The rights after `m`: a king move (castling too) loses both of its
/// side's, and any move from or onto a castling rook's square loses that one.
fn rights_after(before: &Board, m: Move) -> CastlingRights {
    let mut rights = *before.castling_rights();
    let us = before.side_to_move();
    let king_moves =
        m.is_castle() || before.piece_on(m.from()).map(|p| p.kind()) == Some(PieceKind::King);
    if king_moves {
        rights.clear(us);
    }
    for (color, side, rook) in before.castling_rights().iter() {
        if rook == m.from() || rook == m.to() {
            rights.set(color, side, None);
        }
    }
    rights
}

#[test]
fn incremental_keys_equal_keys_from_scratch_along_random_games() {
    let positions = random_positions(0x2b1d_5eed, 200_000, 200);
    let mut rights_lost_to_captures = 0;
    for (i, played) in positions.iter().enumerate() {
        let b = &played.board;
        assert_eq!(b.key(), b.compute_key(), "{b:?}");
        assert_eq!(b.key(), key_from_scratch(b), "{b:?}");
        assert_eq!(b.pawn_key(), pawn_key_from_scratch(b), "{b:?}");
        if let (Some(m), Some(prev)) = (played.last_move, i.checked_sub(1)) {
            let before = &positions[prev].board;
            let expected = rights_after(before, m);
            assert_eq!(b.castling_rights(), &expected, "{before:?} {m:?}");
            let captured =
                before.piece_on(m.to()).map(|p| p.color()) == Some(!before.side_to_move());
            if captured && expected != *before.castling_rights() && !m.is_castle() {
                rights_lost_to_captures += 1;
            }
        }
    }
    // The bias has to produce the case this test is for.
    assert!(rights_lost_to_captures > 100, "{rights_lost_to_captures}");
}

/// Two different positions with the same key would mean the key leaves a
/// part of the position out (castling rights, say, or the en-passant file).
#[test]
fn different_positions_have_different_keys() {
    let positions = random_positions(0x0d15_7111, 200_000, 200);
    let mut seen: HashMap<u64, String> = HashMap::new();
    let mut repeats = 0;
    for played in &positions {
        let fen = played.board.to_fen(chess::CastlingNotation::Shredder);
        // The move counters are not part of the position.
        let position: String = fen.rsplitn(3, ' ').nth(2).unwrap_or_default().to_string();
        if let Some(earlier) = seen.insert(played.board.key(), position.clone()) {
            assert_eq!(earlier, position, "same key {:#x}", played.board.key());
            repeats += 1;
        }
    }
    assert!(
        seen.len() > 100_000 && repeats > 0,
        "{} {repeats}",
        seen.len()
    );
}

#[test]
fn null_move_keeps_the_key_consistent() {
    for played in random_positions(0x4e55, 5_000, 100) {
        let mut b = played.board;
        if b.in_check() {
            continue;
        }
        let side = b.side_to_move();
        b.make_null_move();
        assert_eq!(b.side_to_move(), !side);
        assert_eq!(b.en_passant(), None);
        assert_eq!(b.key(), key_from_scratch(&b), "{b:?}");
    }
}

/// `key_after` is the key after the move up to the castling rights and the
/// en-passant file, for every legal move: castling, captures, promotions
/// and en passant included.
#[test]
fn key_after_is_the_next_key_but_for_castling_and_en_passant() {
    let ep_key = |b: &Board| {
        b.en_passant()
            .map_or(0, |sq| zobrist::en_passant(sq.file()))
    };
    let mut kinds = [0usize; 4];
    for played in random_positions(0x6b65_7961, 20_000, 200) {
        let before = &played.board;
        for m in before.legal_moves().iter().copied() {
            let mut after = before.clone();
            after.make_move(m);
            let expected = after.key()
                ^ zobrist::castling(before.castling_rights())
                ^ zobrist::castling(after.castling_rights())
                ^ ep_key(before)
                ^ ep_key(&after);
            assert_eq!(before.key_after(m), expected, "{before:?} {m:?}");
            let kind = if m.is_castle() {
                0
            } else if m.is_en_passant() {
                1
            } else if m.is_promotion() {
                2
            } else {
                3
            };
            kinds[kind] += 1;
        }
    }
    assert!(
        kinds.iter().all(|&n| n > 50),
        "castles, en passant, promotions, others: {kinds:?}"
    );
}
