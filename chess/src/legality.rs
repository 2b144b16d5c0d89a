//! `is_legal`: whether a move that comes from elsewhere (the hash table, a
//! killer slot, another thread) is legal in this position, without generating
//! the move list.

use crate::attacks::{between, pawn_attacks, piece_attacks};
use crate::{Bitboard, Board, CastleSide, Move, MoveKind, PieceKind, Rank};

impl Board {
    /// Whether `m` is exactly one of the moves `legal_moves` would produce.
    pub fn is_legal(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let from = m.from();
        let to = m.to();
        let Some(piece) = self.piece_on(from) else {
            return false;
        };
        if piece.color() != us {
            return false;
        }
        let king = self.king_square(us);

        if m.kind() == MoveKind::Castle {
            // The bits in the promotion field are unused by castling; only
            // the canonical encoding is legal.
            if m != Move::castle(from, to) || from != king {
                return false;
            }
            return CastleSide::BOTH.into_iter().any(|side| {
                self.castling_rights().rook_square(us, side) == Some(to)
                    && self.castle_is_legal(side)
            });
        }
        if m.kind() != MoveKind::Promotion && m != Move::new(from, to) && !m.is_en_passant() {
            return false;
        }
        if m.is_en_passant() && m != Move::en_passant(from, to) {
            return false;
        }
        if self.colored(us).contains(to) {
            return false;
        }
        let occ = self.occupied();
        let theirs = self.colored(!us);

        if piece.kind() == PieceKind::Pawn {
            let last_rank = Rank::R8.relative(us);
            if (to.rank() == last_rank) != m.is_promotion() {
                return false;
            }
            if m.is_en_passant() {
                return self.en_passant() == Some(to)
                    && pawn_attacks(us, from).contains(to)
                    && self.ep_capture_is_legal(from, to);
            }
            let up: i8 = if us == crate::Color::White { 8 } else { -8 };
            let single = from.offset(up);
            let is_push = single == Some(to) && !occ.contains(to);
            let is_double = from.rank() == Rank::R2.relative(us)
                && from.offset(2 * up) == Some(to)
                && single.is_some_and(|s| !occ.contains(s))
                && !occ.contains(to);
            let is_capture = pawn_attacks(us, from).contains(to) && theirs.contains(to);
            if !(is_push || is_double || is_capture) {
                return false;
            }
        } else {
            if m.kind() != MoveKind::Normal {
                return false;
            }
            if !piece_attacks(piece.kind(), from, occ).contains(to) {
                return false;
            }
            if piece.kind() == PieceKind::King {
                return !self.is_attacked_by(to, !us, occ ^ from);
            }
        }

        // A non-king move: it must answer a check and respect a pin.
        let checkers = self.checkers();
        if checkers.is_nonempty() {
            if checkers.more_than_one() {
                return false;
            }
            let checker = checkers.lsb();
            if !(between(king, checker) | Bitboard::from(checker)).contains(to) {
                return false;
            }
        }
        self.pin_allows(from, to)
    }
}
