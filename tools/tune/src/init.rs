//! Starting points for the tuner: the old material and piece-square
//! evaluation expressed in the new features (the baseline), and hand-set
//! guesses for every feature.

use eval::features::*;
use eval::S;

fn s(mg: i32, eg: i32) -> S {
    S::new(mg, eg)
}

/// 0 on the rim .. 3 in the four centre squares, by the Chebyshev ring.
fn centrality(sq: usize) -> i32 {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    let df = if f < 4 { f } else { 7 - f };
    let dr = if r < 4 { r } else { 7 - r };
    df.min(dr)
}

/// The material and piece-square tables of the evaluation that this one
/// replaces (commit 30fd16e), with every other weight 0 except the tempo.
pub fn old_eval() -> Vec<S> {
    let mut w = vec![S::default(); NUM_FEATURES];
    let material = [
        s(82, 94),
        s(337, 281),
        s(365, 297),
        s(477, 512),
        s(1025, 936),
    ];
    w[MATERIAL..MATERIAL + 5].copy_from_slice(&material);
    for sq in 0..64 {
        let c = centrality(sq);
        let rank = (sq / 8) as i32;
        let file = (sq % 8) as i32;
        let central_file = i32::from((2..=5).contains(&file));
        if (1..=6).contains(&rank) {
            w[PST + sq] = s(
                (rank - 1) * 4 + central_file * (rank - 1) * 5,
                (rank - 1) * (rank - 1) * 4,
            );
        }
        w[PST + 64 + sq] = s(c * 12 - 18, c * 8 - 12);
        w[PST + 128 + sq] = s(c * 6 - 6, c * 5 - 8);
        w[PST + 192 + sq] = if rank == 6 { s(20, 12) } else { s(0, 0) };
        w[PST + 256 + sq] = s(c * 3 - 4, c * 8 - 10);
        let home = if rank == 0 { 10 } else { -12 * rank };
        w[PST + 320 + sq] = s(home - central_file * 8, c * 14 - 20);
    }
    w[TEMPO] = s(10, 10);
    w
}

/// Hand-set starting values for every feature.
pub fn guess() -> Vec<S> {
    let mut w = old_eval();
    // The tempo of the old evaluation was only 10.
    w[TEMPO] = s(20, 10);
    for i in 0..9 {
        w[MOBILITY_KNIGHT + i] = s(-25 + 6 * i as i32, -30 + 7 * i as i32);
    }
    for i in 0..14 {
        w[MOBILITY_BISHOP + i] = s(-25 + 4 * i as i32, -30 + 5 * i as i32);
    }
    for i in 0..15 {
        w[MOBILITY_ROOK + i] = s(-15 + 2 * i as i32, -30 + 5 * i as i32);
    }
    for i in 0..28 {
        w[MOBILITY_QUEEN + i] = s(-10 + i as i32, -20 + 2 * i as i32);
    }
    w[BISHOP_PAIR] = s(25, 55);
    w[BISHOP_PAWNS] = s(-3, -7);
    w[KNIGHT_OUTPOST] = s(25, 15);
    w[BISHOP_OUTPOST] = s(15, 5);
    w[MINOR_BEHIND_PAWN] = s(15, 5);
    w[ROOK_OPEN] = s(40, 15);
    w[ROOK_HALF_OPEN] = s(15, 10);
    w[ROOK_SEVENTH] = s(10, 25);
    w[ROOK_TRAPPED] = s(-40, -5);
    w[CORNER_BISHOP] = s(-20, -20);
    w[CORNER_BISHOP_BLOCKED] = s(-40, -40);
    w[CORNER_QUEEN] = s(-10, -5);
    w[UNDEVELOPED_MINOR] = s(-10, 0);
    w[CASTLING_RIGHTS] = s(15, 0);
    let by_pawn = [s(60, 40), s(60, 40), s(80, 30), s(70, 20)];
    w[THREAT_BY_PAWN..THREAT_BY_PAWN + 4].copy_from_slice(&by_pawn);
    let by_minor = [s(5, 30), s(25, 30), s(30, 40), s(60, 50), s(50, 60)];
    w[THREAT_BY_MINOR..THREAT_BY_MINOR + 5].copy_from_slice(&by_minor);
    let by_rook = [s(0, 20), s(20, 40), s(20, 40), s(0, 20), s(50, 40)];
    w[THREAT_BY_ROOK..THREAT_BY_ROOK + 5].copy_from_slice(&by_rook);
    w[THREAT_BY_KING] = s(10, 40);
    w[HANGING] = s(30, 15);
    w[PAWN_PUSH_THREAT] = s(20, 15);
    w[ISOLATED] = s(-5, -10);
    w[DOUBLED] = s(-10, -25);
    w[BACKWARD] = s(-8, -10);
    w[BACKWARD_OPEN] = s(-15, -12);
    let phalanx = [0, 4, 6, 10, 25, 45, 80, 0];
    let supported = [0, 8, 6, 8, 15, 30, 50, 0];
    let passed_mg = [0, 0, 5, 10, 20, 50, 90, 0];
    let passed_eg = [0, 10, 15, 30, 50, 100, 160, 0];
    let own_king = [0, 0, 0, 2, 5, 8, 10, 0];
    let enemy_king = [0, 0, 0, 5, 10, 15, 20, 0];
    let blocked = [0, 0, -5, -5, -10, -15, -20, 0];
    let free = [0, 0, 5, 10, 20, 35, 60, 0];
    for r in 0..8 {
        w[PHALANX + r] = s(phalanx[r], phalanx[r] * 7 / 10);
        w[SUPPORTED + r] = s(supported[r], supported[r]);
        w[PASSED + r] = s(passed_mg[r], passed_eg[r]);
        w[PASSED_OWN_KING + r] = s(0, -own_king[r]);
        w[PASSED_ENEMY_KING + r] = s(0, enemy_king[r]);
        w[PASSED_BLOCKED + r] = s(blocked[r], blocked[r]);
        w[PASSED_FREE + r] = s(free[r] / 2, free[r]);
    }
    w[PASSED_SAFE_PATH] = s(5, 25);
    w[PASSED_UNSTOPPABLE] = s(0, 200);
    w[KING_PAWN_DISTANCE] = s(0, -8);
    let shelter = [-30, 20, 15, 5, -5, -5, -5, 0];
    let storm = [0, -10, -30, -20, -10, -5, 0, 0];
    let storm_blocked = [0, 0, -5, -10, -5, 0, 0, 0];
    for d in 0..4 {
        for r in 0..8 {
            w[SHELTER + d * 8 + r] = s(shelter[r], 0);
            w[STORM + d * 8 + r] = s(storm[r], 0);
            w[STORM + 32 + d * 8 + r] = s(storm_blocked[r], 0);
        }
    }
    let attackers = [s(48, 41), s(24, 35), s(36, 8), s(30, 6)];
    w[KS_ATTACKER..KS_ATTACKER + 4].copy_from_slice(&attackers);
    w[KS_ATTACKS] = s(45, 34);
    w[KS_WEAK] = s(42, 41);
    let checks = [s(112, 117), s(59, 59), s(90, 98), s(93, 83)];
    w[KS_SAFE_CHECK..KS_SAFE_CHECK + 4].copy_from_slice(&checks);
    w[KS_UNSAFE_CHECK] = s(20, 20);
    w[KS_NO_QUEEN] = s(-237, -259);
    w[KS_BASE] = s(-74, -26);
    w
}
