//! Chooses the opening of each game: from the source, followed by random
//! plies when asked, and then only if a search finds it still balanced.

use super::limits::MoveLimit;
use super::openings::{with_random_plies, Opening, Source};
use super::player::Player;
use rand::rngs::StdRng;
use rand::SeedableRng;

/// Draws allowed before falling back on the source's opening alone.
const MAX_DRAWS: u32 = 100;

pub struct OpeningChoice<'a> {
    pub source: &'a Source,
    pub seed: u64,
    pub random_plies: u32,
    /// Centipawns from zero beyond which a randomised opening is drawn again.
    pub bound: i32,
    pub limit: &'a MoveLimit,
}

impl OpeningChoice<'_> {
    /// Opening number `index`. It depends only on the seed and the index
    /// (the check runs on a cleared engine), so a pair's two games get the
    /// same opening whichever thread plays them.
    pub fn opening(&self, index: u64, checker: &mut Player) -> Opening {
        let mut rng = StdRng::seed_from_u64(self.seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        if self.random_plies == 0 {
            return self.source.opening(index, &mut rng);
        }
        for _ in 0..MAX_DRAWS {
            let base = self.source.opening(index, &mut rng);
            let Some(opening) = with_random_plies(&base, self.random_plies, &mut rng) else {
                continue;
            };
            if self.is_balanced(&opening, checker) {
                return opening;
            }
        }
        self.source.opening(index, &mut rng)
    }

    fn is_balanced(&self, opening: &Opening, checker: &mut Player) -> bool {
        checker.new_game();
        checker
            .search(&opening.game(), self.limit.for_opening_check())
            .and_then(|s| s.score)
            .is_some_and(|score| score.abs() <= self.bound)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::PlayerSettings;
    use chess::openings::Variant;

    #[test]
    fn random_plies_are_kept_only_within_the_bound() {
        let source = Source::Random(Variant::Chess960);
        let limit = MoveLimit {
            nodes: Some(1_000),
            ..MoveLimit::default()
        };
        let mut checker = Player::new(&PlayerSettings::new(1).unwrap()).unwrap();
        let choice = |bound| OpeningChoice {
            source: &source,
            seed: 5,
            random_plies: 6,
            bound,
            limit: &limit,
        };
        for index in 0..4 {
            let a = choice(150).opening(index, &mut checker);
            let b = choice(150).opening(index, &mut checker);
            assert_eq!(a.moves, b.moves);
            assert_eq!(a.moves.len(), 6);
            assert!(a.start.chess960_number().is_some());
            checker.new_game();
            let score = checker
                .search(&a.game(), limit.for_opening_check())
                .and_then(|s| s.score)
                .unwrap();
            assert!(score.abs() <= 150, "{score}");
        }
        // No opening is ever within a negative bound: the plain start is used.
        let fallback = choice(-1).opening(0, &mut checker);
        assert!(fallback.moves.is_empty());
    }
}
