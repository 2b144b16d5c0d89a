//! Legal move generation. Pins and check evasions are worked out up front
//! (`Board::pinned`, `Board::checkers`), so every move produced is legal and
//! nothing is tried and taken back.
//!
//! The generator hands whole sets of destinations to a `MoveSink`: a move
//! list turns them into moves, a counter only adds up their sizes, which is
//! all perft needs at its last ply.

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::{Bitboard, Board, CastleSide, Color, Move, MoveList, PieceKind, Rank, Square};

const PROMOTIONS: [PieceKind; 4] = [
    PieceKind::Queen,
    PieceKind::Knight,
    PieceKind::Rook,
    PieceKind::Bishop,
];

/// Receives the generated moves, a set of destinations at a time.
trait MoveSink {
    /// The piece on `from` may move to every square of `targets`.
    fn add_targets(&mut self, from: Square, targets: Bitboard);
    /// Pawns move to every square of `targets`, each from the square `back`
    /// indices lower; `PROMOTE` makes four moves of each.
    fn add_pawn_moves<const PROMOTE: bool>(&mut self, targets: Bitboard, back: i8);
    fn add(&mut self, m: Move);
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn add_targets(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new(from, to));
        }
    }

    #[inline(always)]
    fn add_pawn_moves<const PROMOTE: bool>(&mut self, targets: Bitboard, back: i8) {
        for to in targets {
            let from = Square::from_index_masked((to.index() as i32 - i32::from(back)) as u32);
            if PROMOTE {
                for kind in PROMOTIONS {
                    self.push(Move::promotion(from, to, kind));
                }
            } else {
                self.push(Move::new(from, to));
            }
        }
    }

    #[inline(always)]
    fn add(&mut self, m: Move) {
        self.push(m);
    }
}

/// Counts moves without making them.
struct MoveCounter(usize);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn add_targets(&mut self, _: Square, targets: Bitboard) {
        self.0 += targets.count() as usize;
    }

    #[inline(always)]
    fn add_pawn_moves<const PROMOTE: bool>(&mut self, targets: Bitboard, _: i8) {
        let n = targets.count() as usize;
        self.0 += if PROMOTE { 4 * n } else { n };
    }

    #[inline(always)]
    fn add(&mut self, _: Move) {
        self.0 += 1;
    }
}

impl Board {
    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate::<true, true, _>(&mut list);
        list
    }

    /// How many legal moves there are; the same as `legal_moves().len()`,
    /// without writing the moves down.
    pub fn legal_move_count(&self) -> usize {
        let mut counter = MoveCounter(0);
        self.generate::<true, true, _>(&mut counter);
        counter.0
    }

    /// Captures (en passant included) and every promotion: what quiescence searches.
    pub fn noisy_moves(&self, list: &mut MoveList) {
        self.generate::<true, false, _>(list);
    }

    /// Every other legal move: quiet moves, castling included.
    pub fn quiet_moves(&self, list: &mut MoveList) {
        self.generate::<false, true, _>(list);
    }

    /// Whether the side to move has any legal move (false at mate and stalemate).
    pub fn has_legal_move(&self) -> bool {
        self.legal_move_count() > 0
    }

    /// Every square that a piece of `color` attacks on this board.
    pub fn attacks_by(&self, color: Color) -> Bitboard {
        self.attacked_squares(color, self.occupied())
    }

    /// Every square that a piece of `color` attacks, with `occ` as the blockers.
    fn attacked_squares(&self, color: Color, occ: Bitboard) -> Bitboard {
        let pawns = self.pieces_of(color, PieceKind::Pawn);
        let forward = match color {
            Color::White => pawns.north(),
            Color::Black => pawns.south(),
        };
        let mut attacked = forward.east() | forward.west();
        attacked |= king_attacks(self.king_square(color));
        for from in self.pieces_of(color, PieceKind::Knight) {
            attacked |= knight_attacks(from);
        }
        for from in self.diagonal_sliders(color) {
            attacked |= bishop_attacks(from, occ);
        }
        for from in self.orthogonal_sliders(color) {
            attacked |= rook_attacks(from, occ);
        }
        attacked
    }

    /// Generates for White or for Black with the side a constant, so that
    /// every colour-dependent shift and rank folds away.
    #[inline(always)]
    fn generate<const NOISY: bool, const QUIET: bool, S: MoveSink>(&self, sink: &mut S) {
        match self.side_to_move() {
            Color::White => self.generate_for::<NOISY, QUIET, true, S>(sink),
            Color::Black => self.generate_for::<NOISY, QUIET, false, S>(sink),
        }
    }

    fn generate_for<const NOISY: bool, const QUIET: bool, const WHITE: bool, S: MoveSink>(
        &self,
        sink: &mut S,
    ) {
        let us = if WHITE { Color::White } else { Color::Black };
        let them = !us;
        let king = self.king_square(us);
        let ours = self.colored(us);
        let theirs = self.colored(them);
        let occ = self.occupied();
        let kind_mask = match (NOISY, QUIET) {
            (true, true) => !ours,
            (true, false) => theirs,
            _ => !occ,
        };

        // What the opponent attacks, with the king lifted off the board so
        // that it cannot hide behind its own square from a slider. Only king
        // steps and castling need it, so it is worked out when they do.
        let mut danger_map = None;
        let mut danger =
            || *danger_map.get_or_insert_with(|| self.attacked_squares(them, occ ^ king));
        let king_targets = king_attacks(king) & kind_mask;
        // One square is quicker to test by itself than with the whole map.
        if king_targets.more_than_one() {
            sink.add_targets(king, king_targets & !danger());
        } else if king_targets.is_nonempty()
            && !self.is_attacked_by(king_targets.lsb(), them, occ ^ king)
        {
            sink.add_targets(king, king_targets);
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
        let mask = kind_mask & target;

        let pinned = self.pinned();
        let free = !pinned;
        for from in self.pieces_of(us, PieceKind::Knight) & free {
            sink.add_targets(from, knight_attacks(from) & mask);
        }
        for from in self.diagonal_sliders(us) & free {
            sink.add_targets(from, bishop_attacks(from, occ) & mask);
        }
        for from in self.orthogonal_sliders(us) & free {
            sink.add_targets(from, rook_attacks(from, occ) & mask);
        }
        let pawns = self.pieces_of(us, PieceKind::Pawn);
        self.generate_pawn_moves::<NOISY, QUIET, WHITE, S>(sink, pawns & free, target);

        // A pinned piece may only move along the line through it and its
        // king, which never answers a check; a pinned knight never moves.
        if checkers.is_empty() {
            for from in self.diagonal_sliders(us) & pinned {
                sink.add_targets(from, bishop_attacks(from, occ) & mask & line(king, from));
            }
            for from in self.orthogonal_sliders(us) & pinned {
                sink.add_targets(from, rook_attacks(from, occ) & mask & line(king, from));
            }
            for from in pawns & pinned {
                self.generate_pawn_moves::<NOISY, QUIET, WHITE, S>(
                    sink,
                    from.into(),
                    line(king, from),
                );
            }
        }

        if NOISY {
            if let Some(ep) = self.en_passant() {
                for from in pawn_attacks(them, ep) & pawns {
                    if self.ep_capture_is_legal(from, ep) {
                        sink.add(Move::en_passant(from, ep));
                    }
                }
            }
        }

        if QUIET && checkers.is_empty() && self.castling_rights().has_any(us) {
            for side in CastleSide::BOTH {
                if let Some(rook) = self.castling_rights().rook_square(us, side) {
                    if self.castle_is_legal_given(side, rook, &mut danger) {
                        sink.add(Move::castle(king, rook));
                    }
                }
            }
        }
    }

    /// The moves of `pawns` (all free to move, or a single pinned one) that
    /// end on `allowed`; en passant is done by the caller.
    #[inline(always)]
    fn generate_pawn_moves<const NOISY: bool, const QUIET: bool, const WHITE: bool, S: MoveSink>(
        &self,
        sink: &mut S,
        pawns: Bitboard,
        allowed: Bitboard,
    ) {
        let us = if WHITE { Color::White } else { Color::Black };
        let theirs = self.colored(!us);
        let empty = !self.occupied();
        let seventh = Bitboard::rank(Rank::R7.relative(us));
        let third = Bitboard::rank(Rank::R3.relative(us));
        // How far the destination's index is from the pawn's: a push, and
        // captures towards the a-file and the h-file.
        let (push, west, east): (i8, i8, i8) = match us {
            Color::White => (8, 7, 9),
            Color::Black => (-8, -9, -7),
        };
        let forward = |bb: Bitboard| match us {
            Color::White => bb.north(),
            Color::Black => bb.south(),
        };

        let promoting = pawns & seventh;
        let others = pawns & !seventh;

        if QUIET {
            let single = forward(others) & empty;
            let double = forward(single & third) & empty;
            sink.add_pawn_moves::<false>(single & allowed, push);
            sink.add_pawn_moves::<false>(double & allowed, 2 * push);
        }
        if NOISY {
            let captures = theirs & allowed;
            let ahead = forward(others);
            sink.add_pawn_moves::<false>(ahead.west() & captures, west);
            sink.add_pawn_moves::<false>(ahead.east() & captures, east);
            if promoting.is_nonempty() {
                let ahead = forward(promoting);
                sink.add_pawn_moves::<true>(ahead.west() & captures, west);
                sink.add_pawn_moves::<true>(ahead.east() & captures, east);
                sink.add_pawn_moves::<true>(ahead & empty & allowed, push);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Bitboard, Board, Color, Square};

    /// `attacks_by` agrees square by square with `is_attacked_by`, which
    /// looks from the target square instead.
    #[test]
    fn attacks_by_is_every_attacked_square() {
        for fen in [
            crate::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            let board = Board::from_fen(fen).unwrap();
            for color in Color::BOTH {
                let expected = (0..64)
                    .filter_map(Square::from_index)
                    .filter(|&sq| board.is_attacked_by(sq, color, board.occupied()))
                    .fold(Bitboard::EMPTY, |b, sq| b | Bitboard::from_square(sq));
                assert_eq!(board.attacks_by(color), expected, "{fen} {color:?}");
            }
        }
    }
}
