//! Move-ordering statistics kept by each search thread: quiet-move history
//! (butterfly, by side, from and to square) and killer moves per ply.

use crate::params::{HISTORY_BONUS_MAX, HISTORY_MAX};
use crate::score::MAX_PLY;
use movegen::{Color, Move};

pub struct History {
    butterfly: Box<[[[i16; 64]; 64]; 2]>,
    killers: Box<[[Move; 2]; MAX_PLY + 1]>,
}

impl Default for History {
    fn default() -> History {
        History {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            killers: Box::new([[Move::NONE; 2]; MAX_PLY + 1]),
        }
    }
}

/// The bonus (or malus) for a move that caused (or failed to cause) a cutoff.
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * 16 + depth * 32).min(HISTORY_BONUS_MAX)
}

/// Moves `entry` towards +/-HISTORY_MAX by `delta`, more slowly the closer
/// it already is, so that scores stay bounded and recent results weigh most.
fn gravity(entry: &mut i16, delta: i32) {
    let e = *entry as i32;
    let updated = e + delta - e * delta.abs() / HISTORY_MAX;
    *entry = updated.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
}

impl History {
    pub fn clear(&mut self) {
        *self = History::default();
    }

    #[inline(always)]
    pub fn quiet(&self, color: Color, m: Move) -> i32 {
        self.butterfly[color.index()][m.from().index()][m.to().index()] as i32
    }

    /// After a quiet move caused a cutoff: reward it, punish the quiet moves
    /// tried before it, and make it the first killer of the ply.
    pub fn update_quiet(
        &mut self,
        color: Color,
        best: Move,
        tried: &[Move],
        depth: i32,
        ply: usize,
    ) {
        let b = bonus(depth);
        let table = &mut self.butterfly[color.index()];
        gravity(&mut table[best.from().index()][best.to().index()], b);
        for m in tried {
            gravity(&mut table[m.from().index()][m.to().index()], -b);
        }
        let killers = &mut self.killers[ply.min(MAX_PLY)];
        if killers[0] != best {
            killers[1] = killers[0];
            killers[0] = best;
        }
    }

    #[inline(always)]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply.min(MAX_PLY)]
    }

    /// Killers are about siblings in the tree; clear the next ply's slots
    /// before searching a node's children.
    #[inline(always)]
    pub fn clear_killers(&mut self, ply: usize) {
        self.killers[ply.min(MAX_PLY)] = [Move::NONE; 2];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Square;

    #[test]
    fn history_is_bounded_and_ordered() {
        let mut h = History::default();
        let good = Move::new(Square::E1, Square::F1);
        let bad = Move::new(Square::E1, Square::D1);
        for _ in 0..1000 {
            h.update_quiet(Color::White, good, &[bad], 20, 3);
        }
        assert!(h.quiet(Color::White, good) <= HISTORY_MAX);
        assert!(h.quiet(Color::White, good) > 10_000);
        assert!(h.quiet(Color::White, bad) < -10_000);
        assert_eq!(h.quiet(Color::Black, good), 0);
        assert_eq!(h.killers(3)[0], good);
        h.clear_killers(3);
        assert_eq!(h.killers(3), [Move::NONE; 2]);
    }
}
