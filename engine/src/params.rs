//! Every tunable constant of the search, in one place with its name.

use crate::skill::SkillAnchor;

/// Aspiration windows start at this depth, this wide around the last score.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
pub const ASPIRATION_DELTA: i32 = 18;

/// Null-move pruning: minimum depth, and the reduction `BASE + depth / DIVISOR`.
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE_REDUCTION: i32 = 3;
pub const NMP_DEPTH_DIVISOR: i32 = 4;

/// Late-move reductions: `BASE + ln(depth) * ln(moves) / DIVISOR`, applied
/// from this depth on and after this many moves.
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_MIN_MOVES: usize = 3;
/// History score worth one ply of reduction.
pub const LMR_HISTORY_DIVISOR: i32 = 8192;

/// History scores saturate at this magnitude.
pub const HISTORY_MAX: i32 = 16_384;
/// A quiet move's history bonus grows with depth up to this cap.
pub const HISTORY_BONUS_MAX: i32 = 1_600;

/// Reverse futility pruning: at depth up to `MAX_DEPTH`, a node whose static
/// evaluation beats beta by `MARGIN` per ply (one ply less when improving)
/// is taken to fail high.
pub const RFP_MAX_DEPTH: i32 = 8;
pub const RFP_MARGIN: i32 = 80;

/// Late-move pruning: after `(BASE + depth^2) / (2 - improving)` moves,
/// quiet moves are no longer searched at shallow depth.
pub const LMP_BASE: i32 = 3;
pub const LMP_MAX_DEPTH: i32 = 8;

/// Futility pruning: quiet moves are skipped when the static evaluation plus
/// `BASE + MARGIN * depth` cannot reach alpha.
pub const FP_MAX_DEPTH: i32 = 8;
pub const FP_BASE: i32 = 90;
pub const FP_MARGIN: i32 = 100;

/// SEE pruning: a move is skipped when it loses more than
/// `SEE_QUIET_MARGIN * depth` (quiet moves) or `SEE_NOISY_MARGIN * depth`
/// (captures) in the exchange on its square.
pub const SEE_PRUNE_MAX_DEPTH: i32 = 8;
pub const SEE_QUIET_MARGIN: i32 = 60;
pub const SEE_NOISY_MARGIN: i32 = 100;

/// Singular extensions: from this depth, when the table's move is at least
/// `MARGIN` centipawns per ply of depth better than every alternative
/// searched at half depth, it is extended (twice if better still by
/// `DOUBLE_MARGIN`, at most `MAX_DOUBLE` times along a line).
pub const SE_MIN_DEPTH: i32 = 7;
pub const SE_MARGIN: i32 = 2;
pub const SE_DOUBLE_MARGIN: i32 = 20;
pub const SE_MAX_DOUBLE: u32 = 6;

/// Internal iterative reduction: a node this deep with no move from the
/// table is searched one ply shallower (the table will have a move next time).
pub const IIR_MIN_DEPTH: i32 = 4;

/// Correction histories: the static evaluation is corrected by running
/// averages of how far searches found it off for the same pawn structure
/// and for the same placement of each side's other pieces.
/// Entries are centipawns times `GRAIN`, capped at `MAX` centipawns; a
/// search of depth d weighs `min(d + 1, WEIGHT_MAX)` out of 256.
pub const CORRECTION_SIZE: usize = 16_384;
pub const CORRECTION_GRAIN: i32 = 256;
pub const CORRECTION_MAX: i32 = 96;
pub const CORRECTION_WEIGHT_MAX: i32 = 16;

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
