//! Every tunable constant of the search, in one place with its name: the
//! values a tuner may change per engine (`SearchParams`, declared once in
//! the `tunables!` table below), and the constants it leaves alone.

use crate::skill::SkillAnchor;
use std::fmt;

/// Aspiration windows start at this depth.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;

/// Null-move pruning: minimum depth.
pub const NMP_MIN_DEPTH: i32 = 3;

/// Late-move reductions apply from this depth on and after this many moves.
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_MIN_MOVES: usize = 3;

/// History scores saturate at this magnitude.
pub const HISTORY_MAX: i32 = 16_384;

/// Late-move pruning, futility pruning and SEE pruning apply up to these
/// depths.
pub const LMP_MAX_DEPTH: i32 = 8;
pub const FP_MAX_DEPTH: i32 = 8;
pub const SEE_PRUNE_MAX_DEPTH: i32 = 8;

/// Singular extensions: from this depth, at most `MAX_DOUBLE` double
/// extensions along a line.
pub const SE_MIN_DEPTH: i32 = 7;
pub const SE_MAX_DOUBLE: u32 = 6;

/// Alpha-raise reduction: below the root, at depths strictly between these
/// bounds, each move that raises alpha without a cutoff takes a ply off the
/// depth of the moves after it.
pub const ALPHA_RAISE_MIN_DEPTH: i32 = 2;
pub const ALPHA_RAISE_MAX_DEPTH: i32 = 12;

/// Internal iterative reduction: a node this deep with no move from the
/// table is searched one ply shallower (the table will have a move next time).
pub const IIR_MIN_DEPTH: i32 = 4;

/// Correction histories: entries are centipawns times `GRAIN`, one table
/// per side of this many entries.
pub const CORRECTION_SIZE: usize = 16_384;
pub const CORRECTION_GRAIN: i32 = 256;

/// Time management: the plan per move is the usable clock over the moves to
/// go (this many when the GUI gives no `movestogo`) plus three quarters of
/// the increment.
pub const TM_DEFAULT_MOVES_TO_GO: u32 = 30;
/// The hard limit is at most this share of the remaining clock.
pub const TM_HARD_SHARE_OF_CLOCK: f64 = 0.25;
/// The hard limit may exceed the soft limit by this factor.
pub const TM_HARD_OVER_SOFT: f64 = 3.0;
/// The soft limit is this share of the planned time per move. The search
/// scales it down for a settled best move (to under half on a move that held
/// for eight iterations), so moves take less than the plan on average.
pub const TM_SOFT_SHARE_OF_PLAN: f64 = 1.0;

/// Time management: the soft limit is scaled by best-move stability
/// (`STABILITY_BASE - STABILITY_STEP * iterations unchanged`, at most
/// `STABILITY_MAX` iterations counted) and by the share of the last
/// iteration's nodes spent under the best move (`NODES_BASE - share`,
/// times `NODES_SCALE`).
pub const TM_STABILITY_BASE: f64 = 1.4;
pub const TM_STABILITY_STEP: f64 = 0.1;
pub const TM_STABILITY_MAX: u32 = 8;
pub const TM_NODES_BASE: f64 = 1.5;
pub const TM_NODES_SCALE: f64 = 1.25;

/// A tablebase result goes into the table this much deeper than the node:
/// it is exact whatever the depth (Stockfish's choice).
pub const TB_DEPTH_BONUS: i32 = 6;

/// Limited strength (`UCI_LimitStrength`, `UCI_Elo`): at each anchor Elo
/// (the first and last bound the `UCI_Elo` range), the nodes searched per
/// move, the temperature in centipawns of the choice among the best lines
/// (a move `loss` centipawns worse than the best is chosen `exp(-loss /
/// temperature)` times as often) and the largest loss ever chosen. Between
/// anchors, nodes and temperature are interpolated geometrically and the
/// loss cap linearly. Fitted against Stockfish 15.1's `UCI_Elo`
/// (docs/elo-log.md).
pub const SKILL_ANCHORS: [SkillAnchor; 5] = [
    SkillAnchor {
        elo: 1350,
        nodes: 100.0,
        temperature: 80.0,
        max_loss: 250.0,
    },
    SkillAnchor {
        elo: 1500,
        nodes: 250.0,
        temperature: 60.0,
        max_loss: 200.0,
    },
    SkillAnchor {
        elo: 2000,
        nodes: 35_000.0,
        temperature: 13.0,
        max_loss: 60.0,
    },
    SkillAnchor {
        elo: 2500,
        nodes: 2_000_000.0,
        temperature: 2.5,
        max_loss: 20.0,
    },
    SkillAnchor {
        elo: 2850,
        nodes: 8_000_000.0,
        temperature: 1.0,
        max_loss: 8.0,
    },
];
/// Lines searched (MultiPV) to choose from.
pub const SKILL_LINES: usize = 4;

/// One value of `SearchParams` as a tuner sees it: its UCI option name, its
/// default, the range it may take, and the perturbation SPSA ends with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunable {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    pub step: i32,
}

/// Declares `SearchParams`, its defaults and `TUNABLES` from one list, so
/// that the UCI options, the SPSA driver and the defaults cannot disagree.
macro_rules! tunables {
    ($($(#[doc = $doc:expr])* $field:ident $name:literal = $default:literal,
       $min:literal..=$max:literal, step $step:literal;)+) => {
        /// The search's tunable values, one set per engine (`Engine::set_params`),
        /// so that two configurations can play each other in one process.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $($(#[doc = $doc])* pub $field: i32,)+
        }

        impl Default for SearchParams {
            fn default() -> SearchParams {
                SearchParams { $($field: $default,)+ }
            }
        }

        /// Every field of `SearchParams`, in declaration order.
        pub const TUNABLES: &[Tunable] = &[
            $(Tunable { name: $name, default: $default, min: $min, max: $max, step: $step },)+
        ];

        impl SearchParams {
            fn slots(&mut self) -> [&mut i32; TUNABLES.len()] {
                [$(&mut self.$field,)+]
            }
        }
    };
}

tunables! {
    /// Aspiration windows start this wide around the last score: narrower
    /// cuts more, at the price of more re-searches.
    aspiration_delta "ASPIRATION_DELTA" = 18, 5..=60, step 3;
    /// Null-move pruning reduces by `BASE + depth / DIVISOR`: how much a
    /// pass may be trusted to show a fail high.
    nmp_base_reduction "NMP_BASE_REDUCTION" = 4, 1..=6, step 1;
    nmp_depth_divisor "NMP_DEPTH_DIVISOR" = 3, 2..=8, step 1;
    /// Late-move reductions: `BASE + ln(depth) * ln(moves) / DIVISOR`, both
    /// in hundredths, the shape of how fast late moves lose depth.
    lmr_base "LMR_BASE" = 80, 0..=200, step 10;
    lmr_divisor "LMR_DIVISOR" = 221, 100..=400, step 15;
    /// History score worth one ply less (or more) reduction.
    lmr_history_divisor "LMR_HISTORY_DIVISOR" = 8382, 2048..=32768, step 512;
    /// A quiet move's history bonus grows with depth up to this cap: how
    /// much one deep cutoff may outweigh the record of many.
    history_bonus_max "HISTORY_BONUS_MAX" = 1589, 400..=4000, step 120;
    /// Reverse futility pruning: at depth up to `MAX_DEPTH`, a node whose
    /// evaluation beats beta by `MARGIN` per ply (one ply less when
    /// improving) is taken to fail high.
    rfp_margin "RFP_MARGIN" = 77, 30..=200, step 8;
    rfp_max_depth "RFP_MAX_DEPTH" = 8, 4..=14, step 1;
    /// Late-move pruning: after `(BASE + depth^2) / (2 - improving)` moves,
    /// quiet moves are no longer searched at shallow depth.
    lmp_base "LMP_BASE" = 5, 0..=10, step 1;
    /// Futility pruning: quiet moves are skipped when the evaluation plus
    /// `BASE + MARGIN * depth` cannot reach alpha.
    fp_base "FP_BASE" = 90, 0..=300, step 12;
    fp_margin "FP_MARGIN" = 99, 30..=250, step 8;
    /// SEE pruning: a move is skipped when it loses more than this many
    /// centipawns per ply of depth in the exchange on its square, quiet
    /// moves and captures apart since captures win something back.
    see_quiet_margin "SEE_QUIET_MARGIN" = 57, 10..=200, step 6;
    see_noisy_margin "SEE_NOISY_MARGIN" = 95, 20..=250, step 8;
    /// Singular extensions: the table's move is extended when it is at
    /// least `MARGIN` centipawns per ply better than every alternative
    /// searched at half depth, twice when better still by `DOUBLE_MARGIN`.
    se_margin "SE_MARGIN" = 2, 1..=8, step 1;
    se_double_margin "SE_DOUBLE_MARGIN" = 20, 0..=80, step 3;
    /// Correction histories learn errors capped at this many centipawns:
    /// beyond it a result says more about tactics than about the structure.
    correction_max "CORRECTION_MAX" = 96, 16..=256, step 8;
    /// A search of depth d weighs `min(d + 1, WEIGHT_MAX)` out of 256 in the
    /// correction's running average: how fast it forgets.
    correction_weight_max "CORRECTION_WEIGHT_MAX" = 16, 4..=64, step 2;
}

/// Why a tunable cannot be read or set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    Unknown(String),
    OutOfRange {
        name: &'static str,
        value: i64,
        min: i32,
        max: i32,
    },
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::Unknown(name) => write!(f, "unknown search parameter '{name}'"),
            ParamError::OutOfRange {
                name,
                value,
                min,
                max,
            } => write!(f, "{name}: {value} is out of range {min}..{max}"),
        }
    }
}

impl std::error::Error for ParamError {}

/// The tunable named `name` (case-insensitive, as UCI names are) and its
/// index in `TUNABLES`.
pub fn tunable(name: &str) -> Result<(usize, &'static Tunable), ParamError> {
    TUNABLES
        .iter()
        .enumerate()
        .find(|(_, t)| t.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| ParamError::Unknown(name.to_string()))
}

impl SearchParams {
    pub fn get(&self, name: &str) -> Result<i32, ParamError> {
        let (index, _) = tunable(name)?;
        let mut copy = *self;
        Ok(*copy.slots()[index])
    }

    /// Sets the tunable `name`; a value outside its range is refused.
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), ParamError> {
        let (index, t) = tunable(name)?;
        if value < i64::from(t.min) || value > i64::from(t.max) {
            return Err(ParamError::OutOfRange {
                name: t.name,
                value,
                min: t.min,
                max: t.max,
            });
        }
        *self.slots()[index] = value as i32;
        Ok(())
    }

    /// `LMR_BASE` and `LMR_DIVISOR` as the reduction formula uses them.
    pub(crate) fn lmr_shape(&self) -> (f64, f64) {
        (
            f64::from(self.lmr_base) / 100.0,
            f64::from(self.lmr_divisor) / 100.0,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_values_the_search_was_built_with() {
        // The values of the SPSA run in tuning/spsa-20263409.txt, rounded;
        // bench's node count depends on them.
        let before = [
            18, 4, 3, 80, 221, 8382, 1589, 77, 8, 5, 90, 99, 57, 95, 2, 20, 96, 16,
        ];
        let d = SearchParams::default();
        assert_eq!(TUNABLES.len(), before.len());
        for (t, value) in TUNABLES.iter().zip(before) {
            assert_eq!(t.default, value, "{}", t.name);
            assert_eq!(d.get(t.name), Ok(value), "{}", t.name);
            // The UCI option ranges are unsigned.
            assert!(0 <= t.min && t.min <= t.default && t.default <= t.max && t.step > 0);
        }
        assert_eq!(d.lmr_shape(), (0.80, 2.21));
    }

    #[test]
    fn values_are_set_by_name_within_their_range() {
        let mut p = SearchParams::default();
        p.set("rfp_margin", 95).unwrap();
        assert_eq!(p.rfp_margin, 95);
        assert_eq!(p.get("RFP_MARGIN"), Ok(95));
        assert_ne!(p, SearchParams::default());
        for t in TUNABLES {
            let mut q = SearchParams::default();
            q.set(t.name, i64::from(t.max)).unwrap();
            assert_eq!(q.get(t.name), Ok(t.max));
            let others = TUNABLES.iter().filter(|o| o.name != t.name);
            assert!(others.clone().all(|o| q.get(o.name) == Ok(o.default)));
            for outside in [i64::from(t.min) - 1, i64::from(t.max) + 1] {
                assert!(matches!(
                    q.set(t.name, outside),
                    Err(ParamError::OutOfRange { .. })
                ));
            }
        }
        assert_eq!(
            p.set("NO_SUCH_PARAM", 1),
            Err(ParamError::Unknown("NO_SUCH_PARAM".into()))
        );
        assert!(p.get("").is_err());
    }
}
