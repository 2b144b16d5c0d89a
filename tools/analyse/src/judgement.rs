//! How much a move lost: in expected score, for the judgement, and in
//! centipawns, for the average loss.
//!
//! Expected score (win = 1, draw = 1/2, loss = 0, for the side to move):
//!
//! ```text
//! E(cp) = 1 / (1 + exp(-0.00368208 * cp))
//! ```
//!
//! the curve lichess fitted to its players' results (its "winning chances"
//! `2E - 1`), with mates counting as a certain win or loss. A move that
//! lowers its side's E by at least 0.05 is an inaccuracy (`?!`), 0.10 a
//! mistake (`?`), 0.15 a blunder (`??`): lichess's thresholds of 0.1, 0.2
//! and 0.3 in winning chances. The curve is flat far from equality, so
//! that a move from +10 to +8 costs nearly nothing while one from +1 to -2
//! is a blunder. The UCI output's `score::wdl` is fitted to engine games
//! and calls +3 a near-certain win, which would judge people too harshly.
//!
//! A move that is the engine's own best move is never judged: its lower
//! score after the move is the search seeing deeper, not the move.

use engine::score::is_mate;

/// Logistic slope per centipawn.
const SLOPE: f64 = 0.003_682_08;

pub const INACCURACY: f64 = 0.05;
pub const MISTAKE: f64 = 0.10;
pub const BLUNDER: f64 = 0.15;

/// Scores are clipped to this many centipawns, mates included, for the
/// average centipawn loss: one lost mate must not outweigh a whole game.
pub const CP_LOSS_CLIP: i32 = 1000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    pub const ALL: [Judgement; 3] = [
        Judgement::Inaccuracy,
        Judgement::Mistake,
        Judgement::Blunder,
    ];

    /// The numeric annotation glyph: `$6` is `?!`, `$2` is `?`, `$4` is `??`.
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    pub fn glyph(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }
}

/// The expected score of a search score (centipawns or mate, from the side
/// to move).
pub fn expected_score(score: i32) -> f64 {
    if is_mate(score) {
        return if score > 0 { 1.0 } else { 0.0 };
    }
    1.0 / (1.0 + (-SLOPE * f64::from(score)).exp())
}

/// The mover's expected-score loss from `before` to `after`, both from the
/// mover's side; never negative.
fn expected_loss(before: i32, after: i32) -> f64 {
    (expected_score(before) - expected_score(after)).max(0.0)
}

pub fn judge(before: i32, after: i32, played_best: bool) -> Option<Judgement> {
    if played_best {
        return None;
    }
    let loss = expected_loss(before, after);
    Judgement::ALL
        .into_iter()
        .rev()
        .find(|j| loss >= threshold(*j))
}

fn threshold(judgement: Judgement) -> f64 {
    match judgement {
        Judgement::Inaccuracy => INACCURACY,
        Judgement::Mistake => MISTAKE,
        Judgement::Blunder => BLUNDER,
    }
}

/// Centipawns lost from `before` to `after` (mover's side), each clipped to
/// `CP_LOSS_CLIP`; never negative.
pub fn centipawn_loss(before: i32, after: i32) -> i32 {
    let clip = |s: i32| {
        if is_mate(s) {
            CP_LOSS_CLIP * s.signum()
        } else {
            s.clamp(-CP_LOSS_CLIP, CP_LOSS_CLIP)
        }
    };
    (clip(before) - clip(after)).max(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::score::{mate_in, mated_in};

    #[test]
    fn expected_score_is_a_logistic_with_certain_mates() {
        assert!((expected_score(0) - 0.5).abs() < 1e-12);
        assert!((expected_score(100) + expected_score(-100) - 1.0).abs() < 1e-12);
        // lichess: +1 pawn is winning chances 0.182, E = 0.591.
        assert!((expected_score(100) - 0.591).abs() < 0.001);
        assert_eq!(expected_score(mate_in(9)), 1.0);
        assert_eq!(expected_score(mated_in(2)), 0.0);
    }

    #[test]
    fn thresholds_grade_the_loss() {
        // From equality: 28 cp lose 0.026, 60 cp 0.055, 120 cp 0.109,
        // 200 cp 0.177.
        assert_eq!(judge(0, -28, false), None);
        assert_eq!(judge(0, -60, false), Some(Judgement::Inaccuracy));
        assert_eq!(judge(0, -120, false), Some(Judgement::Mistake));
        assert_eq!(judge(0, -200, false), Some(Judgement::Blunder));
        assert_eq!(judge(0, -200, true), None);
        // Far ahead, two pawns cost little; a lost mate costs all.
        assert_eq!(judge(1000, 800, false), None);
        assert_eq!(judge(mate_in(3), 0, false), Some(Judgement::Blunder));
        // Gains are no loss.
        assert_eq!(judge(-300, 200, false), None);
        assert_eq!(expected_loss(-300, 200), 0.0);
    }

    #[test]
    fn centipawn_loss_is_clipped_and_never_negative() {
        assert_eq!(centipawn_loss(35, -20), 55);
        assert_eq!(centipawn_loss(-20, 35), 0);
        assert_eq!(centipawn_loss(mate_in(5), 200), 800);
        assert_eq!(centipawn_loss(3000, mated_in(4)), 2000);
    }

    #[test]
    fn glyphs_and_nags_agree() {
        let all: Vec<_> = Judgement::ALL
            .iter()
            .map(|j| (j.glyph(), j.nag(), j.name()))
            .collect();
        assert_eq!(
            all,
            [
                ("?!", 6, "Inaccuracy"),
                ("?", 2, "Mistake"),
                ("??", 4, "Blunder")
            ]
        );
    }
}
