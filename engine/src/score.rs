//! Score conventions: centipawns, and mate scores counted from the root.

/// Deepest ply the search reaches; also bounds the search stack.
pub const MAX_PLY: usize = 128;

/// Larger than any score.
pub(crate) const INFINITE: i32 = 32_001;
/// The score of delivering mate now; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores beyond this are mates found within the search horizon.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
pub const DRAW: i32 = 0;

/// The score of being mated at `ply`.
#[inline(always)]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// The score of mating at `ply`.
#[inline(always)]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

#[inline(always)]
pub const fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// Mate scores are stored relative to the node, so an entry found at another
/// ply still gives the right distance to mate.
#[inline(always)]
pub(crate) const fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline(always)]
pub(crate) const fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A score as people read it (and UCI and PGN write it): centipawns, or
/// moves to mate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HumanScore {
    Centipawns(i32),
    /// Moves (not plies) to mate; negative when the engine is being mated.
    Mate(i32),
}

impl HumanScore {
    pub fn from_score(score: i32) -> HumanScore {
        if score >= MATE_BOUND {
            HumanScore::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            HumanScore::Mate(-(MATE + score) / 2)
        } else {
            HumanScore::Centipawns(score)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_convert_to_moves() {
        assert_eq!(HumanScore::from_score(mate_in(1)), HumanScore::Mate(1));
        assert_eq!(HumanScore::from_score(mate_in(3)), HumanScore::Mate(2));
        assert_eq!(HumanScore::from_score(mated_in(2)), HumanScore::Mate(-1));
        assert_eq!(HumanScore::from_score(mated_in(0)), HumanScore::Mate(0));
        assert_eq!(HumanScore::from_score(35), HumanScore::Centipawns(35));
    }

    #[test]
    fn tt_round_trip_keeps_mate_distance() {
        for ply in [0, 5, 40] {
            for s in [mate_in(7 + ply), mated_in(9 + ply), 123, -50] {
                assert_eq!(from_tt(to_tt(s, ply), ply), s);
            }
        }
        // Stored at ply 4 as mate in 10 from the root: mate in 6 from the node.
        assert_eq!(to_tt(mate_in(10), 4), mate_in(6));
    }
}
