//! What bounds each search of a game: a node count, a depth, a fixed time
//! per move, a game clock, or several of these at once.

use super::clock::{Clock, TimeControl};
use chess::Color;
use engine::Limits;
use std::time::Duration;

/// The node count a move gets when no limit is given, and the opening
/// filter's search under time-based limits.
pub const DEFAULT_NODES: u64 = 5_000;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveLimit {
    /// Soft: the iteration under way stops once this many nodes are searched.
    pub nodes: Option<u64>,
    pub depth: Option<i32>,
    pub move_time: Option<Duration>,
    pub clock: Option<TimeControl>,
}

impl MoveLimit {
    /// The same limits repeat from move to move (no clock and no time): the
    /// same position searched twice on a cleared engine gives the same move.
    pub fn is_reproducible(&self) -> bool {
        self.move_time.is_none() && self.clock.is_none()
    }

    /// The limits for `mover`'s next search; the clocks, when this game has
    /// them, go to the engine's own time management as in a UCI `go`.
    pub fn for_move(&self, clock: Option<&Clock>, mover: Color) -> Limits {
        let mut limits = Limits {
            nodes: self.nodes,
            depth: self.depth,
            move_time: self.move_time,
            ..Limits::default()
        };
        if let Some(clock) = clock {
            for color in Color::BOTH {
                limits.time[color.index()] = Some(clock.left(color));
                limits.increment[color.index()] = Some(clock.increment());
            }
            limits.moves_to_go = clock.moves_to_go(mover);
        }
        limits
    }

    /// The search that judges an opening after its random plies: this limit
    /// when it repeats exactly, else a fixed node count, so that the same
    /// seed still chooses the same openings.
    pub fn for_opening_check(&self) -> Limits {
        if self.is_reproducible() {
            self.for_move(None, Color::White)
        } else {
            Limits {
                nodes: Some(DEFAULT_NODES),
                ..Limits::default()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_reach_the_engine_for_both_sides() {
        let limit = MoveLimit {
            nodes: Some(900),
            clock: TimeControl::parse("40/10+0.5"),
            ..MoveLimit::default()
        };
        let mut clock = Clock::new(limit.clock.unwrap());
        assert!(clock.charge(Color::White, Duration::from_secs(1)));
        let l = limit.for_move(Some(&clock), Color::Black);
        assert_eq!(l.nodes, Some(900));
        assert_eq!(
            l.time,
            [
                Some(Duration::from_millis(9_500)),
                Some(Duration::from_secs(10))
            ]
        );
        assert_eq!(l.increment, [Some(Duration::from_millis(500)); 2]);
        assert_eq!(l.moves_to_go, Some(40));
        assert!(!limit.is_reproducible());
        assert_eq!(limit.for_opening_check().nodes, Some(DEFAULT_NODES));
        assert_eq!(limit.for_opening_check().time, [None, None]);
    }

    #[test]
    fn node_and_depth_limits_are_reproducible_and_judge_openings() {
        let limit = MoveLimit {
            depth: Some(7),
            ..MoveLimit::default()
        };
        assert!(limit.is_reproducible());
        let l = limit.for_opening_check();
        assert_eq!((l.depth, l.nodes), (Some(7), None));
    }
}
