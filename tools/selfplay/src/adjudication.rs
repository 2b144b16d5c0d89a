//! Ending games early when their result is no longer in doubt: a loss when
//! both sides' scores agree that one side is far behind, a draw when both
//! stay near zero late in the game.

use super::rules::{Ending, Outcome};
use chess::Color;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdjudicationRules {
    /// Centipawns behind that count as lost.
    pub resign_score: i32,
    /// Moves in a row (each side's) the scores must agree on; 0: never.
    pub resign_moves: u32,
    /// Centipawns from zero that count as drawn.
    pub draw_score: i32,
    /// Moves in a row (each side's) within the draw score; 0: never.
    pub draw_moves: u32,
    /// The move number from which draws are adjudicated.
    pub draw_after: u32,
}

impl Default for AdjudicationRules {
    fn default() -> AdjudicationRules {
        AdjudicationRules {
            resign_score: 600,
            resign_moves: 3,
            draw_score: 10,
            draw_moves: 8,
            draw_after: 40,
        }
    }
}

/// Watches one game's scores.
pub struct Adjudicator {
    rules: AdjudicationRules,
    /// The side the resignation scores favour, and for how many plies.
    leader: Option<(Color, u32)>,
    quiet_plies: u32,
}

impl Adjudicator {
    pub fn new(rules: AdjudicationRules) -> Adjudicator {
        Adjudicator {
            rules,
            leader: None,
            quiet_plies: 0,
        }
    }

    /// Takes the score of `mover`'s search (from its point of view) in a
    /// position of move number `fullmove`; says when the game is decided.
    pub fn observe(
        &mut self,
        mover: Color,
        score: Option<i32>,
        fullmove: u16,
    ) -> Option<(Outcome, Ending)> {
        let Some(score) = score else {
            self.leader = None;
            self.quiet_plies = 0;
            return None;
        };
        let r = &self.rules;
        let favoured = if score >= r.resign_score {
            Some(mover)
        } else if score <= -r.resign_score {
            Some(!mover)
        } else {
            None
        };
        self.leader = match (favoured, self.leader) {
            (Some(side), Some((leader, plies))) if side == leader => Some((side, plies + 1)),
            (Some(side), _) => Some((side, 1)),
            (None, _) => None,
        };
        let late = u32::from(fullmove) >= r.draw_after;
        self.quiet_plies = if late && score.abs() <= r.draw_score {
            self.quiet_plies + 1
        } else {
            0
        };
        // Each side's score counts once per move, so N moves are 2N plies.
        match self.leader {
            Some((side, plies)) if r.resign_moves > 0 && plies >= 2 * r.resign_moves => {
                return Some((Outcome::win_for(side), Ending::Resignation));
            }
            _ => {}
        }
        (r.draw_moves > 0 && self.quiet_plies >= 2 * r.draw_moves)
            .then_some((Outcome::Draw, Ending::DrawAdjudication))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(rules: AdjudicationRules, plies: &[(i32, u16)]) -> Option<(usize, Outcome, Ending)> {
        let mut adj = Adjudicator::new(rules);
        let mut mover = Color::White;
        for (i, &(score, fullmove)) in plies.iter().enumerate() {
            if let Some((o, e)) = adj.observe(mover, Some(score), fullmove) {
                return Some((i, o, e));
            }
            mover = !mover;
        }
        None
    }

    #[test]
    fn resignation_needs_both_sides_to_agree_for_long_enough() {
        let rules = AdjudicationRules::default();
        // White thinks it is winning, Black agrees (its score is negative).
        let agreed = [
            (700, 20),
            (-650, 20),
            (800, 21),
            (-700, 21),
            (900, 22),
            (-900, 22),
        ];
        assert_eq!(
            run(rules, &agreed),
            Some((5, Outcome::WhiteWins, Ending::Resignation))
        );
        // Black's evaluation disagrees every time: no adjudication.
        let disputed = [
            (700, 20),
            (-100, 20),
            (800, 21),
            (-100, 21),
            (900, 22),
            (-100, 22),
        ];
        assert_eq!(run(rules, &disputed), None);
        // Black to move first; Black is the one winning.
        let mut adj = Adjudicator::new(rules);
        let mut result = None;
        for (i, s) in [700, -700, 700, -700, 700, -700].into_iter().enumerate() {
            let mover = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            result = result.or(adj.observe(mover, Some(s), 30));
        }
        assert_eq!(result, Some((Outcome::BlackWins, Ending::Resignation)));
        let never = AdjudicationRules {
            resign_moves: 0,
            ..rules
        };
        assert_eq!(run(never, &agreed), None);
    }

    #[test]
    fn draws_wait_for_the_move_number_and_a_quiet_streak() {
        let rules = AdjudicationRules {
            draw_moves: 2,
            draw_after: 30,
            ..AdjudicationRules::default()
        };
        let early = [(0, 10), (0, 10), (0, 11), (0, 11), (0, 12), (0, 12)];
        assert_eq!(run(rules, &early), None);
        let broken = [
            (0, 30),
            (5, 30),
            (0, 31),
            (50, 31),
            (0, 32),
            (-10, 32),
            (0, 33),
        ];
        assert_eq!(run(rules, &broken), None);
        let quiet = [(0, 30), (5, 30), (-10, 31), (10, 31)];
        assert_eq!(
            run(rules, &quiet),
            Some((3, Outcome::Draw, Ending::DrawAdjudication))
        );
    }

    #[test]
    fn a_missing_score_breaks_every_streak() {
        let rules = AdjudicationRules {
            resign_moves: 1,
            ..AdjudicationRules::default()
        };
        let mut adj = Adjudicator::new(rules);
        assert_eq!(adj.observe(Color::White, Some(900), 5), None);
        assert_eq!(adj.observe(Color::Black, None, 5), None);
        assert_eq!(adj.observe(Color::White, Some(900), 6), None);
        assert!(adj.observe(Color::Black, Some(-900), 6).is_some());
    }
}
