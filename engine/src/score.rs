//! Score conventions: centipawns, and mate scores counted from the root.

/// Deepest ply the search reaches; also bounds the search stack.
pub const MAX_PLY: usize = 128;

/// Larger than any score.
pub const INFINITE: i32 = 32_001;
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
pub const fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline(always)]
pub const fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A score as UCI reports it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum UciScore {
    Centipawns(i32),
    /// Moves (not plies) to mate; negative when the engine is being mated.
    Mate(i32),
}

impl UciScore {
    pub fn from_score(score: i32) -> UciScore {
        if score >= MATE_BOUND {
            UciScore::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            UciScore::Mate(-(MATE + score) / 2)
        } else {
            UciScore::Centipawns(score)
        }
    }
}

/// Win/draw/loss chances in permille for a score, from a logistic model of
/// the score's meaning (a rough fit; it grows with the engine's data).
pub fn wdl(score: i32) -> (u32, u32, u32) {
    if is_mate(score) {
        return if score > 0 {
            (1000, 0, 0)
        } else {
            (0, 0, 1000)
        };
    }
    let model = |x: f64| 1000.0 / (1.0 + ((200.0 - x) / 70.0).exp());
    let win = model(score as f64).round() as u32;
    let loss = model(-score as f64).round() as u32;
    (win, 1000 - win - loss, loss)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_convert_to_moves() {
        assert_eq!(UciScore::from_score(mate_in(1)), UciScore::Mate(1));
        assert_eq!(UciScore::from_score(mate_in(3)), UciScore::Mate(2));
        assert_eq!(UciScore::from_score(mated_in(2)), UciScore::Mate(-1));
        assert_eq!(UciScore::from_score(mated_in(0)), UciScore::Mate(0));
        assert_eq!(UciScore::from_score(35), UciScore::Centipawns(35));
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

    #[test]
    fn wdl_sums_to_1000_and_is_symmetric() {
        for s in [-900, -100, 0, 50, 400] {
            let (w, d, l) = wdl(s);
            assert_eq!(w + d + l, 1000);
            assert_eq!(wdl(-s), (l, d, w));
        }
        assert!(wdl(300).0 > wdl(100).0);
    }
}
