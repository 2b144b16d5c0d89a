//! Pawn structure and the king's pawn shelter, which depend only on the pawns
//! and the kings, and so are cached by `Board::pawn_key` (pawns and kings).

use crate::features::*;
use crate::masks::{forward_file, passed_span};
use crate::weights::WEIGHTS;
use crate::{Tracer, S};
use chess::{Bitboard, Board, Color, File, PieceKind};

/// The cached result for one pawn structure.
#[derive(Clone, Copy, Default)]
pub(crate) struct PawnEntry {
    pub key: u64,
    /// White's score minus Black's.
    pub score: S,
    /// Passed pawns of both colours.
    pub passed: Bitboard,
}

/// A direct-mapped table of pawn entries.
pub struct PawnCache {
    entries: Box<[PawnEntry]>,
    mask: usize,
}

impl PawnCache {
    /// A table of `2^bits` entries (24 bytes each).
    pub fn new(bits: u32) -> PawnCache {
        let n = 1usize << bits;
        PawnCache {
            entries: vec![PawnEntry::default(); n].into_boxed_slice(),
            mask: n - 1,
        }
    }

    #[inline(always)]
    pub(crate) fn probe(&mut self, board: &Board) -> PawnEntry {
        let key = board.pawn_key();
        let slot = &mut self.entries[key as usize & self.mask];
        if slot.key != key || key == 0 {
            *slot = evaluate_pawns(board, &mut crate::NoTrace);
        }
        *slot
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.entries.fill(PawnEntry::default());
    }
}

/// Evaluates the pawns and the kings' shelters from scratch.
pub(crate) fn evaluate_pawns<T: Tracer>(board: &Board, t: &mut T) -> PawnEntry {
    let pawns = Color::BOTH.map(|color| board.pieces_of(color, PieceKind::Pawn));
    let kings = Color::BOTH.map(|color| board.king_square(color));
    let mut acc = [S::default(); 2];
    let mut passed = Bitboard::EMPTY;
    let mut add = |f: usize, c: usize, n: i32| {
        acc[c] += WEIGHTS[f] * n;
        if T::ON {
            t.add(f, c, n);
        }
    };
    for (c, us) in Color::BOTH.into_iter().enumerate() {
        let them = !us;
        let own = pawns[c];
        let opp = pawns[them.index()];
        for sq in own {
            let r = sq.rank().relative(us).index();
            let bit = Bitboard::from_square(sq);
            add(MATERIAL, c, 1);
            add(PST + sq.relative(us).index(), c, 1);

            let neighbours = own & Bitboard::adjacent_files(sq.file());
            let stop = bit.forward(us);
            let supporters = own & bit.pawn_attacks(them);
            let phalanx = own & (bit.east() | bit.west());
            let opposed = (opp & forward_file(us, sq)).is_nonempty();

            if neighbours.is_empty() {
                add(ISOLATED, c, 1);
            } else if (neighbours & !Bitboard::ranks_ahead(us, sq.rank())).is_empty()
                && (opp & (stop | stop.pawn_attacks(us))).is_nonempty()
            {
                // Every neighbour is ahead, and the pawn cannot advance safely.
                add(if opposed { BACKWARD } else { BACKWARD_OPEN }, c, 1);
            }
            if (own & forward_file(us, sq)).is_nonempty() {
                add(DOUBLED, c, 1);
            }
            if phalanx.is_nonempty() {
                add(PHALANX + r, c, 1);
            }
            if supporters.is_nonempty() {
                add(SUPPORTED + r, c, supporters.count() as i32);
            }
            if (opp & passed_span(us, sq)).is_empty() && (own & forward_file(us, sq)).is_empty() {
                passed |= bit;
                add(PASSED + r, c, 1);
                let front = stop.lsb();
                add(PASSED_OWN_KING + r, c, kings[c].distance(front));
                add(
                    PASSED_ENEMY_KING + r,
                    c,
                    kings[them.index()].distance(front),
                );
            }
        }

        // The king: its square, its distance to its pawns, its shelter.
        let k = kings[c];
        add(PST + 5 * 64 + k.relative(us).index(), c, 1);
        if own.is_nonempty() {
            let d = own.map(|p| k.distance(p)).min().unwrap_or(0);
            add(KING_PAWN_DISTANCE, c, d);
        }
        let not_behind = Bitboard::ranks_ahead(us, k.rank()) | Bitboard::rank(k.rank());
        let ours = own & not_behind;
        let theirs = opp & not_behind;
        let centre = k.file().index().clamp(1, 6);
        for (f, &file) in File::ALL
            .iter()
            .enumerate()
            .take(centre + 2)
            .skip(centre - 1)
        {
            let fm = Bitboard::file(file);
            let rank_of = |set: Bitboard| {
                if set.is_nonempty() {
                    set.backmost(us).rank().relative(us).index()
                } else {
                    0
                }
            };
            let our_rank = rank_of(ours & fm);
            let their_rank = rank_of(theirs & fm);
            let d = f.min(7 - f);
            add(SHELTER + d * 8 + our_rank, c, 1);
            let blocked = our_rank != 0 && their_rank == our_rank + 1;
            add(STORM + usize::from(blocked) * 32 + d * 8 + their_rank, c, 1);
        }
    }
    PawnEntry {
        key: board.pawn_key(),
        score: acc[0] - acc[1],
        passed,
    }
}
