//! Time management: from the clock, a soft limit (do not start another
//! iteration after it), stretched or shrunk by how settled the best move
//! is, and a hard limit (stop at once), both measured from the moment `go`
//! arrived.

use crate::limits::Limits;
use crate::params::{
    TM_DEFAULT_MOVES_TO_GO, TM_HARD_OVER_SOFT, TM_HARD_SHARE_OF_CLOCK, TM_NODES_BASE,
    TM_NODES_SCALE, TM_SOFT_SHARE_OF_PLAN, TM_STABILITY_BASE, TM_STABILITY_MAX, TM_STABILITY_STEP,
};
use chess::Color;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// The soft limit comes from a clock (not `movetime`), so the search may
    /// stretch or shrink it as the position demands.
    flexible: bool,
}

impl TimeManager {
    pub fn new(start: Instant, limits: &Limits, us: Color, overhead: Duration) -> TimeManager {
        let mut soft = None;
        let mut hard = None;
        if let Some(mt) = limits.move_time {
            let t = mt.saturating_sub(overhead).max(Duration::from_millis(1));
            soft = Some(t);
            hard = Some(t);
        }
        let clock_given = limits.time.iter().any(Option::is_some);
        let flexible = clock_given && limits.move_time.is_none();
        if clock_given {
            // A clock for the other side only means we have none left to plan with.
            let left = limits.time[us.index()].unwrap_or(Duration::ZERO);
            let inc = limits.increment[us.index()].unwrap_or(Duration::ZERO);
            let usable = left.saturating_sub(overhead).max(Duration::from_millis(1));
            let mtg = limits
                .moves_to_go
                .unwrap_or(TM_DEFAULT_MOVES_TO_GO)
                .clamp(1, 50);
            let base = usable.as_secs_f64() / mtg as f64 + inc.as_secs_f64() * 0.75;
            let cap = usable.as_secs_f64() * TM_HARD_SHARE_OF_CLOCK;
            let soft_clock = (base * TM_SOFT_SHARE_OF_PLAN).min(cap * 0.5);
            // With one move to go the whole clock may be used, less the overhead.
            let hard_cap = if mtg == 1 {
                usable.as_secs_f64() * 0.9
            } else {
                cap
            };
            let hard_clock = (soft_clock * TM_HARD_OVER_SOFT)
                .min(hard_cap)
                .max(soft_clock);
            soft = Some(min_opt(soft, Duration::from_secs_f64(soft_clock)));
            hard = Some(min_opt(hard, Duration::from_secs_f64(hard_clock)));
        }
        TimeManager {
            start,
            soft,
            hard,
            flexible,
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the clock says not to begin another iteration after one that
    /// ended with the same best move as `stability` iterations in a row
    /// before it, a move that took `best_share` of the root's nodes. A best
    /// move that has held for several iterations and took most of the
    /// effort needs less time; a changing one deserves more.
    pub fn iterations_done(&self, stability: u32, best_share: f64) -> bool {
        let stable = TM_STABILITY_BASE - TM_STABILITY_STEP * stability.min(TM_STABILITY_MAX) as f64;
        let effort = (TM_NODES_BASE - best_share) * TM_NODES_SCALE;
        self.soft_expired(stable * effort)
    }

    /// Whether the soft limit has passed; `scale` stretches a clock-based
    /// one (below 1 for an easy move, above 1 for an unsettled one). The
    /// hard limit is never stretched.
    fn soft_expired(&self, scale: f64) -> bool {
        let scale = if self.flexible { scale } else { 1.0 };
        self.soft
            .is_some_and(|s| self.elapsed() >= s.mul_f64(scale))
    }

    /// Whether the clock says to stop now.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }
}

fn min_opt(a: Option<Duration>, b: Duration) -> Duration {
    a.map_or(b, |a| a.min(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(white_ms: Option<u64>, black_ms: Option<u64>, inc_ms: u64) -> Limits {
        Limits {
            time: [
                white_ms.map(Duration::from_millis),
                black_ms.map(Duration::from_millis),
            ],
            increment: [Some(Duration::from_millis(inc_ms)); 2],
            ..Limits::default()
        }
    }

    #[test]
    fn limits_stay_inside_the_clock() {
        let now = Instant::now();
        for ms in [10, 100, 1_000, 60_000, 3_600_000] {
            let tm = TimeManager::new(
                now,
                &limits(Some(ms), Some(ms), ms / 100),
                Color::White,
                Duration::from_millis(10),
            );
            let (soft, hard) = (tm.soft.unwrap(), tm.hard.unwrap());
            assert!(soft <= hard, "{ms}");
            assert!(
                hard <= Duration::from_millis(ms / 4).max(Duration::from_millis(1)),
                "{ms}: {hard:?}"
            );
        }
    }

    #[test]
    fn one_clock_is_enough() {
        let now = Instant::now();
        let tm = TimeManager::new(
            now,
            &limits(None, Some(10_000), 0),
            Color::Black,
            Duration::ZERO,
        );
        assert!(tm.hard.unwrap() > Duration::from_millis(100));
        // Only the opponent's clock: move at once rather than think forever.
        let tm = TimeManager::new(
            now,
            &limits(None, Some(10_000), 0),
            Color::White,
            Duration::ZERO,
        );
        assert!(tm.hard.unwrap() <= Duration::from_millis(1));
    }

    #[test]
    fn movetime_is_honoured_and_no_limit_means_none() {
        let now = Instant::now();
        let l = Limits {
            move_time: Some(Duration::from_millis(500)),
            ..Limits::default()
        };
        let tm = TimeManager::new(now, &l, Color::White, Duration::from_millis(20));
        assert_eq!(tm.hard, Some(Duration::from_millis(480)));
        let tm = TimeManager::new(now, &Limits::default(), Color::White, Duration::ZERO);
        assert!(tm.hard.is_none() && !tm.hard_expired());
        assert!(!tm.soft_expired(1.0));
    }

    #[test]
    fn a_settled_best_move_ends_the_search_sooner() {
        let long_ago = Instant::now() - Duration::from_millis(300);
        let clock = limits(Some(10_000), Some(10_000), 0);
        let tm = TimeManager::new(long_ago, &clock, Color::White, Duration::ZERO);
        // About 333 ms of soft limit: shrunk below 300 ms for a best move
        // that held eight iterations and took every node, stretched far
        // beyond it for a new one that took a tenth of them.
        assert!(tm.iterations_done(8, 1.0));
        assert!(!tm.iterations_done(0, 0.1));
    }

    #[test]
    fn only_clock_limits_stretch() {
        let long_ago = Instant::now() - Duration::from_millis(300);
        let clock = limits(Some(10_000), Some(10_000), 0);
        let tm = TimeManager::new(long_ago, &clock, Color::White, Duration::ZERO);
        // About 333 ms of soft limit: passed when halved, not when doubled.
        assert!(tm.soft_expired(0.5) && !tm.soft_expired(2.0));
        let fixed = Limits {
            move_time: Some(Duration::from_millis(250)),
            ..Limits::default()
        };
        let tm = TimeManager::new(long_ago, &fixed, Color::White, Duration::ZERO);
        assert!(tm.soft_expired(2.0));
    }
}
