//! Limited strength (`UCI_LimitStrength` and `UCI_Elo`, or `Skill Level`):
//! a search of few nodes
//! over the best few lines, and a move chosen among them with odds that
//! fall with how much worse than the best line each one scores. Weak play
//! then means shallow plans and second-best moves, as in human games, and
//! never a move thrown away at random: nothing worse than the best by more
//! than a cap that shrinks with the Elo is ever chosen.
//!
//! The search itself is untouched: the caller asks for more lines and fewer
//! nodes (`Strength::restrict`) and wraps its reporter in a `SkillReporter`,
//! which remembers the lines and replaces the best move by its choice.

use crate::limits::{Limits, SearchOptions};
use crate::params::{SKILL_ANCHORS, SKILL_LINES};
use crate::report::{PvInfo, Reporter};
use chess::Move;
use std::sync::{Arc, Mutex};

/// `Skill Level`'s top, which is full strength.
pub const SKILL_LEVEL_MAX: u32 = 20;
/// Stockfish 15.1 derives its skill level from `UCI_Elo` as
/// `((elo - BASE) / STEP)^(1 / EXPONENT)`; a level's Elo is the inverse.
const LEVEL_ELO_BASE: f64 = 1346.6;
const LEVEL_ELO_STEP: f64 = 143.4;
const LEVEL_ELO_EXPONENT: f64 = 0.806;

/// The `UCI_Elo` range: from the first anchor to the last.
pub const ELO_MIN: u32 = SKILL_ANCHORS[0].elo;
pub const ELO_MAX: u32 = SKILL_ANCHORS[SKILL_ANCHORS.len() - 1].elo;

/// How the engine plays at one Elo; `Strength::from_elo` interpolates
/// between these.
#[derive(Clone, Copy, Debug)]
pub struct SkillAnchor {
    pub elo: u32,
    pub nodes: f64,
    pub temperature: f64,
    pub max_loss: f64,
}

/// The Elo of `Skill Level` `level` on Stockfish 15.1's scale.
pub fn skill_level_elo(level: u32) -> u32 {
    let level = f64::from(level.min(SKILL_LEVEL_MAX));
    (LEVEL_ELO_BASE + LEVEL_ELO_STEP * level.powf(LEVEL_ELO_EXPONENT)).round() as u32
}

/// How a limited-strength search plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    /// Nodes searched per move.
    pub nodes: u64,
    /// Lines searched to choose from.
    pub lines: usize,
    /// Centipawns of loss that make a move e times less likely.
    pub temperature: f64,
    /// Lines scoring worse than the best by more than this are never chosen.
    pub max_loss: i32,
}

impl Strength {
    /// The strength meant to play at `elo` on Stockfish's `UCI_Elo` scale;
    /// an Elo outside the range is taken at the nearest end.
    pub fn from_elo(elo: u32) -> Strength {
        let elo = elo.clamp(ELO_MIN, ELO_MAX);
        let upper = SKILL_ANCHORS
            .iter()
            .position(|a| a.elo >= elo)
            .unwrap_or(SKILL_ANCHORS.len() - 1)
            .max(1);
        let (low, high) = (SKILL_ANCHORS[upper - 1], SKILL_ANCHORS[upper]);
        let t = f64::from(elo - low.elo) / f64::from(high.elo - low.elo);
        let geometric = |a: f64, b: f64| a * (b / a).powf(t);
        let linear = |a: f64, b: f64| a + (b - a) * t;
        Strength {
            nodes: geometric(low.nodes, high.nodes).round() as u64,
            lines: SKILL_LINES,
            temperature: geometric(low.temperature, high.temperature),
            max_loss: linear(low.max_loss, high.max_loss).round() as i32,
        }
    }

    /// The strength of Stockfish's `Skill Level` `level` (0 to 19; 20 is
    /// full strength): that of the Elo Stockfish 15.1 gives the level, at
    /// the nearest end of the range beyond it.
    pub fn from_skill_level(level: u32) -> Strength {
        Strength::from_elo(skill_level_elo(level))
    }

    /// Narrows a search to this strength: at most `nodes` nodes, at least
    /// `lines` lines, one thread (so that the play repeats).
    pub fn restrict(&self, limits: &mut Limits, options: &mut SearchOptions) {
        limits.nodes = Some(limits.nodes.map_or(self.nodes, |n| n.min(self.nodes)));
        options.multi_pv = options.multi_pv.max(self.lines);
        options.threads = 1;
    }

    /// The move to play among `lines` (each line's first move and score, in
    /// any order); `seed` decides among the candidates, so the same lines
    /// and seed give the same move. `None` only when `lines` is empty.
    pub fn choose(&self, lines: &[(Move, i32)], seed: u64) -> Option<Move> {
        let best = lines.iter().map(|&(_, score)| score).max()?;
        let candidates: Vec<(Move, f64)> = lines
            .iter()
            .filter(|&&(_, score)| best - score <= self.max_loss)
            .map(|&(m, score)| {
                let weight = (-f64::from(best - score) / self.temperature.max(1e-9)).exp();
                (m, weight)
            })
            .collect();
        let total: f64 = candidates.iter().map(|&(_, w)| w).sum();
        let mut point = unit_interval(seed) * total;
        for &(m, weight) in &candidates {
            if point < weight {
                return Some(m);
            }
            point -= weight;
        }
        candidates.last().map(|&(m, _)| m)
    }
}

/// A number in [0, 1) from `seed` (the SplitMix64 finaliser: every bit of
/// the seed moves the result).
fn unit_interval(seed: u64) -> f64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// Passes a limited-strength search's output on, showing only the lines the
/// user asked for, and plays the move `Strength::choose` picks among the
/// lines of the last completed iteration.
pub struct SkillReporter {
    inner: Arc<dyn Reporter>,
    strength: Strength,
    shown_lines: usize,
    seed: u64,
    /// The latest exact line reported under each MultiPV number.
    lines: Mutex<Vec<Option<PvInfo>>>,
}

impl SkillReporter {
    /// `shown_lines` is the user's MultiPV; `seed` is mixed into the choice
    /// (the root position's key makes it repeat for the same position).
    pub fn new(
        inner: Arc<dyn Reporter>,
        strength: Strength,
        shown_lines: usize,
        seed: u64,
    ) -> SkillReporter {
        SkillReporter {
            inner,
            strength,
            shown_lines: shown_lines.max(1),
            seed,
            lines: Mutex::new(Vec::new()),
        }
    }

    /// The first move and score of every line of the deepest iteration
    /// reported in full.
    fn final_lines(&self) -> Vec<(Move, i32)> {
        let lines = match self.lines.lock() {
            Ok(l) => l,
            Err(poisoned) => poisoned.into_inner(),
        };
        let Some(Some(first)) = lines.first() else {
            return Vec::new();
        };
        lines
            .iter()
            .flatten()
            .filter(|info| info.depth == first.depth)
            .filter_map(|info| info.pv.first().map(|&m| (m, info.score)))
            .collect()
    }
}

impl Reporter for SkillReporter {
    fn pv(&self, info: &PvInfo) {
        if info.bound.is_none() && info.multipv >= 1 {
            let mut lines = match self.lines.lock() {
                Ok(l) => l,
                Err(poisoned) => poisoned.into_inner(),
            };
            if lines.len() < info.multipv {
                lines.resize(info.multipv, None);
            }
            lines[info.multipv - 1] = Some(info.clone());
        }
        if info.multipv <= self.shown_lines {
            self.inner.pv(info);
        }
    }

    fn current_move(&self, depth: i32, mv: Move, number: usize) {
        self.inner.current_move(depth, mv, number);
    }

    fn no_moves(&self, in_check: bool) {
        self.inner.no_moves(in_check);
    }

    fn error(&self, message: &str) {
        self.inner.error(message);
    }

    fn best_move(&self, best: Option<Move>, ponder: Option<Move>) {
        let Some(chosen) = self.strength.choose(&self.final_lines(), self.seed) else {
            return self.inner.best_move(best, ponder);
        };
        if Some(chosen) == best {
            return self.inner.best_move(best, ponder);
        }
        let reply = match self.lines.lock() {
            Ok(l) => l,
            Err(poisoned) => poisoned.into_inner(),
        }
        .iter()
        .flatten()
        .find(|info| info.pv.first() == Some(&chosen))
        .and_then(|info| info.pv.get(1).copied());
        self.inner.best_move(Some(chosen), reply);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::Board;
    use std::time::Duration;

    /// A move of the start position.
    fn mv(text: &str) -> Move {
        Board::startpos().parse_uci_move(text, false).unwrap()
    }

    fn four_lines() -> Vec<(Move, i32)> {
        vec![
            (mv("e2e4"), 40),
            (mv("d2d4"), 30),
            (mv("g1f3"), 0),
            (mv("f2f3"), -150),
        ]
    }

    #[test]
    fn weaker_settings_search_less_and_choose_more_freely() {
        let mut previous = Strength::from_elo(ELO_MIN);
        for elo in (ELO_MIN + 10..=ELO_MAX).step_by(10) {
            let s = Strength::from_elo(elo);
            assert!(s.nodes >= previous.nodes, "{elo}: {s:?} after {previous:?}");
            assert!(s.temperature < previous.temperature, "{elo}");
            assert!(s.max_loss <= previous.max_loss, "{elo}");
            previous = s;
        }
        assert!(Strength::from_elo(ELO_MAX).nodes > 100 * Strength::from_elo(ELO_MIN).nodes);
        assert_eq!(Strength::from_elo(0), Strength::from_elo(ELO_MIN));
    }

    #[test]
    fn skill_levels_map_to_stockfish_elos() {
        // Stockfish 15.1's level for an Elo, whose inverse this is.
        let level_of = |elo: u32| {
            ((f64::from(elo) - LEVEL_ELO_BASE) / LEVEL_ELO_STEP).powf(1.0 / LEVEL_ELO_EXPONENT)
        };
        for level in 1..SKILL_LEVEL_MAX {
            let elo = skill_level_elo(level);
            assert!(elo > skill_level_elo(level - 1), "{level}");
            assert!(
                (level_of(elo) - f64::from(level)).abs() < 0.01,
                "{level}: {elo}"
            );
        }
        assert_eq!(skill_level_elo(0), 1347);
        assert_eq!(skill_level_elo(10), 2264);
        assert_eq!(Strength::from_skill_level(0), Strength::from_elo(ELO_MIN));
        assert_eq!(Strength::from_skill_level(10), Strength::from_elo(2264));
        assert_eq!(Strength::from_skill_level(19), Strength::from_elo(ELO_MAX));
        assert_eq!(Strength::from_elo(u32::MAX), Strength::from_elo(ELO_MAX));
    }

    #[test]
    fn the_anchors_are_met_exactly() {
        for a in SKILL_ANCHORS {
            let s = Strength::from_elo(a.elo);
            assert_eq!(s.nodes, a.nodes.round() as u64);
            assert!((s.temperature - a.temperature).abs() < 1e-9);
            assert_eq!(s.max_loss, a.max_loss.round() as i32);
        }
    }

    #[test]
    fn restrict_lowers_the_node_limit_and_raises_the_lines() {
        let s = Strength::from_elo(ELO_MIN);
        let mut limits = Limits::default();
        let mut options = SearchOptions {
            threads: 8,
            ..SearchOptions::default()
        };
        s.restrict(&mut limits, &mut options);
        assert_eq!(limits.nodes, Some(s.nodes));
        assert_eq!((options.multi_pv, options.threads), (SKILL_LINES, 1));
        limits.nodes = Some(5);
        s.restrict(&mut limits, &mut options);
        assert_eq!(limits.nodes, Some(5));
    }

    #[test]
    fn the_choice_repeats_with_the_seed_and_respects_the_loss_cap() {
        let lines = four_lines();
        let s = Strength {
            nodes: 100,
            lines: 4,
            temperature: 100.0,
            max_loss: 100,
        };
        let mut seen = std::collections::HashMap::new();
        for seed in 0..2000 {
            let m = s.choose(&lines, seed).unwrap();
            assert_eq!(s.choose(&lines, seed), Some(m));
            *seen.entry(m).or_insert(0) += 1;
        }
        // The last line loses 190 centipawns, beyond the cap of 100.
        assert!(!seen.contains_key(&lines[3].0), "{seen:?}");
        // Odds fall with the loss, and every line within the cap is played.
        let counts: Vec<i32> = lines[..3].iter().map(|l| seen[&l.0]).collect();
        assert!(counts[0] > counts[1] && counts[1] > counts[2], "{counts:?}");
    }

    #[test]
    fn the_strongest_setting_keeps_to_the_best_lines() {
        let s = Strength::from_elo(ELO_MAX);
        let lines = four_lines();
        for seed in 0..500 {
            let m = s.choose(&lines, seed).unwrap();
            // Only lines within the cap of the best are possible.
            let score = lines.iter().find(|l| l.0 == m).unwrap().1;
            assert!(40 - score <= s.max_loss, "{m:?}");
        }
        assert_eq!(s.choose(&[], 1), None);
    }

    #[derive(Default)]
    struct Recorder {
        shown: Mutex<Vec<usize>>,
        best: Mutex<Option<(Option<Move>, Option<Move>)>>,
    }

    impl Reporter for Recorder {
        fn pv(&self, info: &PvInfo) {
            self.shown.lock().unwrap().push(info.multipv);
        }
        fn current_move(&self, _: i32, _: Move, _: usize) {}
        fn no_moves(&self, _: bool) {}
        fn best_move(&self, best: Option<Move>, ponder: Option<Move>) {
            *self.best.lock().unwrap() = Some((best, ponder));
        }
    }

    fn info(depth: i32, multipv: usize, score: i32, pv: Vec<Move>) -> PvInfo {
        PvInfo {
            depth,
            seldepth: depth as usize,
            multipv,
            score,
            bound: None,
            nodes: 100,
            time: Duration::ZERO,
            hashfull: 0,
            tbhits: 0,
            pv,
        }
    }

    #[test]
    fn the_reporter_shows_the_users_lines_and_plays_a_choice_of_the_last_iteration() {
        let recorder = Arc::new(Recorder::default());
        let s = Strength {
            nodes: 100,
            lines: 3,
            temperature: 1e6,
            max_loss: 1000,
        };
        // The reporter only passes moves on: any move serves as the reply.
        let reply = mv("b1c3");
        let (a, b, c) = (mv("e2e4"), mv("d2d4"), mv("c2c4"));
        // Seeds whose choice among three equal lines is not the first line.
        let seed = (0..100)
            .find(|&seed| s.choose(&[(a, 0), (b, 0), (c, 0)], seed) == Some(b))
            .unwrap();
        let skill = SkillReporter::new(recorder.clone(), s, 1, seed);
        // Depth 1 had other lines; depth 2 is the last complete iteration.
        skill.pv(&info(1, 1, 5, vec![c]));
        skill.pv(&info(1, 2, 0, vec![a]));
        skill.pv(&info(1, 3, -5, vec![b]));
        let mut fail_high = info(2, 1, 90, vec![c]);
        fail_high.bound = Some(crate::tt::Bound::Lower);
        skill.pv(&fail_high);
        skill.pv(&info(2, 1, 0, vec![a, reply]));
        skill.pv(&info(2, 2, 0, vec![b, reply]));
        skill.pv(&info(2, 3, 0, vec![c]));
        skill.best_move(Some(a), Some(reply));
        assert_eq!(*recorder.shown.lock().unwrap(), vec![1, 1, 1]);
        assert_eq!(*recorder.best.lock().unwrap(), Some((Some(b), Some(reply))));
    }

    #[test]
    fn without_lines_the_search_move_is_played() {
        let recorder = Arc::new(Recorder::default());
        let skill = SkillReporter::new(recorder.clone(), Strength::from_elo(ELO_MIN), 1, 0);
        skill.best_move(None, None);
        assert_eq!(*recorder.best.lock().unwrap(), Some((None, None)));
    }
}
