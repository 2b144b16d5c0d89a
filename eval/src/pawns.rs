//! Pawn structure and the king's pawn shelter, which depend only on the pawns
//! and the kings, and so are cached by `Board::pawn_key` (pawns and kings).

use crate::features::*;
use crate::masks::*;
use crate::weights::WEIGHTS;
use crate::{Tracer, S};
use movegen::{Board, Color, PieceKind};

/// The cached result for one pawn structure.
#[derive(Clone, Copy, Default)]
pub(crate) struct PawnEntry {
    pub key: u64,
    /// White's score minus Black's.
    pub score: S,
    /// Passed pawns of both colours.
    pub passed: u64,
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
    let pawns = [
        board.pieces_of(Color::White, PieceKind::Pawn).0,
        board.pieces_of(Color::Black, PieceKind::Pawn).0,
    ];
    let kings = [
        board.king_square(Color::White).index(),
        board.king_square(Color::Black).index(),
    ];
    let mut acc = [S::default(); 2];
    let mut passed = 0u64;
    let mut add = |f: usize, c: usize, n: i32| {
        acc[c] += WEIGHTS[f] * n;
        if T::ON {
            t.add(f, c, n);
        }
    };
    for c in 0..2 {
        let them = c ^ 1;
        let own = pawns[c];
        let opp = pawns[them];
        for sq in squares(own) {
            let file = sq % 8;
            let r = relative_rank(c, sq);
            let bit = 1u64 << sq;
            add(MATERIAL, c, 1);
            add(PST + relative_square(c, sq), c, 1);

            let neighbours = own & adjacent_files(file);
            let stop = push(c, bit);
            let supporters = own & pawn_attacks(them, bit);
            let phalanx = own & (((bit << 1) & !FILE_A) | ((bit >> 1) & !FILE_H));
            let opposed = opp & FORWARD_FILE[c][sq] != 0;

            if neighbours == 0 {
                add(ISOLATED, c, 1);
            } else if neighbours & !forward_ranks(c, sq / 8) == 0
                && (opp & (stop | pawn_attacks(c, stop))) != 0
            {
                // Every neighbour is ahead, and the pawn cannot advance safely.
                add(if opposed { BACKWARD } else { BACKWARD_OPEN }, c, 1);
            }
            if own & FORWARD_FILE[c][sq] != 0 {
                add(DOUBLED, c, 1);
            }
            if phalanx != 0 {
                add(PHALANX + r, c, 1);
            }
            if supporters != 0 {
                add(SUPPORTED + r, c, popcount(supporters));
            }
            if opp & PASSED_SPAN[c][sq] == 0 && own & FORWARD_FILE[c][sq] == 0 {
                passed |= bit;
                add(PASSED + r, c, 1);
                let front = stop.trailing_zeros() as usize;
                add(PASSED_OWN_KING + r, c, distance(kings[c], front));
                add(PASSED_ENEMY_KING + r, c, distance(kings[them], front));
            }
        }

        // The king: its square, its distance to its pawns, its shelter.
        let k = kings[c];
        add(PST + 5 * 64 + relative_square(c, k), c, 1);
        if own != 0 {
            let d = squares(own).map(|p| distance(k, p)).min().unwrap_or(0);
            add(KING_PAWN_DISTANCE, c, d);
        }
        let not_behind = forward_ranks(c, k / 8) | rank_mask(k / 8);
        let ours = own & not_behind;
        let theirs = opp & not_behind;
        let centre = (k % 8).clamp(1, 6);
        for f in centre - 1..=centre + 1 {
            let fm = file_mask(f);
            let our_rank = if ours & fm != 0 {
                relative_rank(c, backmost(c, ours & fm))
            } else {
                0
            };
            let their_rank = if theirs & fm != 0 {
                relative_rank(c, backmost(c, theirs & fm))
            } else {
                0
            };
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
