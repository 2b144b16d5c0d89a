//! Game clocks for `--tc`: `[moves/]seconds[+increment]`, as chess GUIs
//! write time controls, and the time each side has left.

use chess::Color;
use std::fmt;
use std::time::Duration;

/// Longest base time or increment accepted: a day, far beyond any test.
const MAX_SECONDS: f64 = 86_400.0;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    /// Moves per period; the base time is added again after each period.
    pub moves: Option<u32>,
    pub base: Duration,
    pub increment: Duration,
}

impl TimeControl {
    /// Reads `10+0.1`, `60`, `40/60` or `40/60+0.5` (seconds).
    pub fn parse(text: &str) -> Option<TimeControl> {
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => (Some(m.parse::<u32>().ok().filter(|&m| m > 0)?), rest),
            None => (None, text),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((b, i)) => (seconds(b)?, seconds(i)?),
            None => (seconds(rest)?, Duration::ZERO),
        };
        (!base.is_zero()).then_some(TimeControl {
            moves,
            base,
            increment,
        })
    }
}

fn seconds(text: &str) -> Option<Duration> {
    let s = text.parse::<f64>().ok()?;
    (s.is_finite() && (0.0..=MAX_SECONDS).contains(&s)).then(|| Duration::from_secs_f64(s))
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", self.base.as_secs_f64())?;
        if !self.increment.is_zero() {
            write!(f, "+{}", self.increment.as_secs_f64())?;
        }
        Ok(())
    }
}

/// Both sides' clocks during one game.
#[derive(Clone, Debug)]
pub struct Clock {
    control: TimeControl,
    left: [Duration; 2],
    moves_made: [u32; 2],
}

impl Clock {
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            left: [control.base; 2],
            moves_made: [0; 2],
        }
    }

    pub fn left(&self, color: Color) -> Duration {
        self.left[color.index()]
    }

    pub fn increment(&self) -> Duration {
        self.control.increment
    }

    /// Moves until `color`'s next period begins, when periods are set.
    pub fn moves_to_go(&self, color: Color) -> Option<u32> {
        let period = self.control.moves?;
        Some(period - self.moves_made[color.index()] % period)
    }

    /// Charges a move that took `spent`; false when it overstepped the time
    /// left, which loses the game.
    pub fn charge(&mut self, color: Color, spent: Duration) -> bool {
        let i = color.index();
        let Some(left) = self.left[i].checked_sub(spent) else {
            self.left[i] = Duration::ZERO;
            return false;
        };
        self.left[i] = left + self.control.increment;
        self.moves_made[i] += 1;
        if let Some(period) = self.control.moves {
            if self.moves_made[i].is_multiple_of(period) {
                self.left[i] += self.control.base;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn time_controls_parse_as_guis_write_them() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        assert_eq!(
            (tc.moves, tc.base, tc.increment),
            (None, ms(10_000), ms(100))
        );
        let tc = TimeControl::parse("40/60").unwrap();
        assert_eq!(
            (tc.moves, tc.base, tc.increment),
            (Some(40), ms(60_000), ms(0))
        );
        assert_eq!(TimeControl::parse("40/60+0.5").unwrap().increment, ms(500));
        assert_eq!(TimeControl::parse("0.5").unwrap().base, ms(500));
        for bad in [
            "", "+1", "0", "0+1", "x+1", "1+x", "0/60", "-1+0", "1e9", "NaN", "inf",
        ] {
            assert_eq!(TimeControl::parse(bad), None, "{bad}");
        }
        assert_eq!(
            TimeControl::parse("40/60+0.5").unwrap().to_string(),
            "40/60+0.5"
        );
    }

    #[test]
    fn clock_adds_increments_and_periods_and_flags() {
        let mut clock = Clock::new(TimeControl::parse("2/1+0.1").unwrap());
        assert_eq!(clock.moves_to_go(Color::White), Some(2));
        assert!(clock.charge(Color::White, ms(300)));
        assert_eq!(clock.left(Color::White), ms(800));
        assert_eq!(clock.moves_to_go(Color::White), Some(1));
        // The second move closes the period: the base comes back on top.
        assert!(clock.charge(Color::White, ms(300)));
        assert_eq!(clock.left(Color::White), ms(1_600));
        assert_eq!(clock.moves_to_go(Color::White), Some(2));
        assert_eq!(clock.left(Color::Black), ms(1_000));
        assert!(!clock.charge(Color::Black, ms(1_001)));
        assert_eq!(clock.left(Color::Black), Duration::ZERO);
    }
}
