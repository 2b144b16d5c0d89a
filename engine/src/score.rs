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
/// A win the tablebases prove, scored below every mate: `TB_WIN - ply` for
/// a table win found `ply` plies from the root (Stockfish's convention).
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores beyond this are table wins or mates.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;
/// What a table win `ply` plies from the root shows as, in centipawns minus
/// the ply, as Stockfish shows it: far above any evaluation, below mates.
const TB_WIN_CENTIPAWNS: i32 = 20_000;

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

/// A mate, or a win or loss proven by the tablebases.
#[inline(always)]
pub const fn is_decisive(score: i32) -> bool {
    score.abs() >= TB_WIN_BOUND
}

/// Mate and table scores are stored relative to the node, so an entry found
/// at another ply still gives the right distance to mate.
#[inline(always)]
pub(crate) const fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score + ply as i32
    } else if score <= -TB_WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline(always)]
pub(crate) const fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score - ply as i32
    } else if score <= -TB_WIN_BOUND {
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
        } else if score >= TB_WIN_BOUND {
            HumanScore::Centipawns(TB_WIN_CENTIPAWNS - (TB_WIN - score))
        } else if score <= -TB_WIN_BOUND {
            HumanScore::Centipawns(-TB_WIN_CENTIPAWNS + (TB_WIN + score))
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
    fn table_wins_rank_below_mates_and_show_as_large_centipawns() {
        assert!(TB_WIN < mate_in(MAX_PLY) && TB_WIN_BOUND > 10_000);
        assert!(is_decisive(TB_WIN - 5) && !is_mate(TB_WIN - 5));
        assert_eq!(
            HumanScore::from_score(TB_WIN - 3),
            HumanScore::Centipawns(19_997)
        );
        assert_eq!(
            HumanScore::from_score(-TB_WIN + 4),
            HumanScore::Centipawns(-19_996)
        );
        // A table win found 6 plies deep, stored at ply 6, read at ply 2.
        assert_eq!(from_tt(to_tt(TB_WIN - 6, 6), 2), TB_WIN - 2);
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
