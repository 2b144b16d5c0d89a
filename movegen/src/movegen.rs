//! Legal move generation. Pins and check evasions are worked out up front
//! (`Board::pinned`, `Board::checkers`), so every move produced is legal and
//! nothing is tried and taken back.

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use crate::{Bitboard, Board, CastleSide, Color, Move, MoveList, PieceKind, Rank};

const PROMOTIONS: [PieceKind; 4] = [
    PieceKind::Queen,
    PieceKind::Knight,
    PieceKind::Rook,
    PieceKind::Bishop,
];

impl Board {
    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<true, true>(&mut list);
        list
    }

    /// Captures (en passant included) and every promotion: what quiescence searches.
    pub fn noisy_moves(&self, list: &mut MoveList) {
        self.generate::<true, false>(list);
    }

    /// Every other legal move: quiet moves, castling included.
    pub fn quiet_moves(&self, list: &mut MoveList) {
        self.generate::<false, true>(list);
    }

    /// Whether the side to move has any legal move (false at mate and stalemate).
    pub fn has_legal_move(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    fn generate<const NOISY: bool, const QUIET: bool>(&self, list: &mut MoveList) {
        let us = self.side_to_move();
        let them = !us;
        let king = self.king_square(us);
        let ours = self.colored(us);
        let theirs = self.colored(them);
        let occ = self.occupied();

        // King steps: the king itself is lifted off the board so that it
        // cannot hide behind its own square from a slider.
        let mut king_targets = king_attacks(king) & !ours;
        king_targets &= match (NOISY, QUIET) {
            (true, true) => Bitboard::FULL,
            (true, false) => theirs,
            _ => !occ,
        };
        let occ_without_king = occ ^ king;
        for to in king_targets {
            if !self.is_attacked_by(to, them, occ_without_king) {
                list.push(Move::new(king, to));
            }
        }

        let checkers = self.checkers();
        if checkers.more_than_one() {
            return;
        }
        // In check, every other move must capture the checker or block it.
        let target = if checkers.is_nonempty() {
            between(king, checkers.lsb()) | checkers
        } else {
            Bitboard::FULL
        };
        let mut mask = Bitboard::EMPTY;
        if NOISY {
            mask |= theirs;
        }
        if QUIET {
            mask |= !occ;
        }
        mask &= target;

        let pinned = self.pinned();
        // A pinned knight can never move.
        for from in self.pieces_of(us, PieceKind::Knight) & !pinned {
            for to in knight_attacks(from) & mask {
                list.push(Move::new(from, to));
            }
        }
        for from in self.diagonal_sliders(us) {
            for to in bishop_attacks(from, occ) & mask {
                if self.pin_allows(from, to) {
                    list.push(Move::new(from, to));
                }
            }
        }
        for from in self.orthogonal_sliders(us) {
            for to in rook_attacks(from, occ) & mask {
                if self.pin_allows(from, to) {
                    list.push(Move::new(from, to));
                }
            }
        }

        self.generate_pawn_moves::<NOISY, QUIET>(list, target);

        if QUIET && checkers.is_empty() && self.castling_rights().has_any(us) {
            for side in CastleSide::BOTH {
                if self.castle_is_legal(side) {
                    if let Some(rook) = self.castling_rights().rook_square(us, side) {
                        list.push(Move::castle(king, rook));
                    }
                }
            }
        }
    }

    fn generate_pawn_moves<const NOISY: bool, const QUIET: bool>(
        &self,
        list: &mut MoveList,
        target: Bitboard,
    ) {
        let us = self.side_to_move();
        let pawns = self.pieces_of(us, PieceKind::Pawn);
        if pawns.is_empty() {
            return;
        }
        let theirs = self.colored(!us);
        let empty = !self.occupied();
        let seventh = Bitboard::rank(Rank::R7.relative(us));
        let third = Bitboard::rank(Rank::R3.relative(us));
        let (up, forward): (i8, fn(Bitboard) -> Bitboard) = match us {
            Color::White => (8, Bitboard::north),
            Color::Black => (-8, Bitboard::south),
        };
        let back = |to: crate::Square, delta: i8| to.offset(-delta);

        let promoting = pawns & seventh;
        let others = pawns & !seventh;

        if QUIET {
            let single = forward(others) & empty;
            let double = forward(single & third) & empty & target;
            for to in single & target {
                if let Some(from) = back(to, up) {
                    if self.pin_allows(from, to) {
                        list.push(Move::new(from, to));
                    }
                }
            }
            for to in double {
                if let Some(from) = back(to, 2 * up) {
                    if self.pin_allows(from, to) {
                        list.push(Move::new(from, to));
                    }
                }
            }
        }

        if NOISY {
            let captures = theirs & target;
            for (shift, delta) in [
                (Bitboard::west as fn(Bitboard) -> Bitboard, up - 1),
                (Bitboard::east, up + 1),
            ] {
                for to in shift(forward(others)) & captures {
                    if let Some(from) = back(to, delta) {
                        if self.pin_allows(from, to) {
                            list.push(Move::new(from, to));
                        }
                    }
                }
                for to in shift(forward(promoting)) & captures {
                    if let Some(from) = back(to, delta) {
                        if self.pin_allows(from, to) {
                            for kind in PROMOTIONS {
                                list.push(Move::promotion(from, to, kind));
                            }
                        }
                    }
                }
            }
            for to in forward(promoting) & empty & target {
                if let Some(from) = back(to, up) {
                    if self.pin_allows(from, to) {
                        for kind in PROMOTIONS {
                            list.push(Move::promotion(from, to, kind));
                        }
                    }
                }
            }
            if let Some(ep) = self.en_passant() {
                for from in pawn_attacks(!us, ep) & pawns {
                    if self.ep_capture_is_legal(from, ep) {
                        list.push(Move::en_passant(from, ep));
                    }
                }
            }
        }
    }
}
