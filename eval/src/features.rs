//! The evaluation's features: every weight has an index in one flat table of
//! tapered (middlegame, endgame) pairs, `crate::weights::WEIGHTS`. The
//! evaluation is a sum of feature counts times weights (plus the king-danger
//! term, a function of a weighted sum of its own features), so that the tuner
//! can rebuild it from a trace of the counts.

/// A group of consecutive weights: its label (for the trace and the generated
/// weights file), first index, length and the term of the `eval` table it
/// belongs to.
#[derive(Clone, Copy, Debug)]
pub struct Group {
    pub name: &'static str,
    pub start: usize,
    pub len: usize,
    pub term: Term,
}

/// The rows of the `eval` command's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    Material,
    Placement,
    Mobility,
    Pieces,
    Chess960,
    Threats,
    Pawns,
    Passed,
    KingShelter,
    KingDanger,
    Tempo,
}

impl Term {
    pub const ALL: [Term; 11] = [
        Term::Material,
        Term::Placement,
        Term::Mobility,
        Term::Pieces,
        Term::Chess960,
        Term::Threats,
        Term::Pawns,
        Term::Passed,
        Term::KingShelter,
        Term::KingDanger,
        Term::Tempo,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::Placement => "Placement",
            Term::Mobility => "Mobility",
            Term::Pieces => "Pieces",
            Term::Chess960 => "Chess960",
            Term::Threats => "Threats",
            Term::Pawns => "Pawns",
            Term::Passed => "Passed",
            Term::KingShelter => "King shelter",
            Term::KingDanger => "King danger",
            Term::Tempo => "Tempo",
        }
    }
}

macro_rules! layout {
    ($($name:ident = $len:expr, $term:ident;)*) => {
        layout!(@offsets 0usize; $($name = $len;)*);
        /// Every group of weights, in table order.
        pub const GROUPS: &[Group] = &[$(Group {
            name: stringify!($name),
            start: $name,
            len: $len,
            term: Term::$term,
        }),*];
    };
    (@offsets $off:expr; $name:ident = $len:expr; $($rest:tt)*) => {
        pub const $name: usize = $off;
        layout!(@offsets $off + $len; $($rest)*);
    };
    (@offsets $off:expr;) => {
        /// The number of weights.
        pub const NUM_FEATURES: usize = $off;
    };
}

layout! {
    // Material of pawn, knight, bishop, rook, queen.
    MATERIAL = 5, Material;
    // Piece-square tables: kind * 64 + square from the owner's side (a1 = 0).
    PST = 384, Placement;
    // Mobility by the number of safe squares reached.
    MOBILITY_KNIGHT = 9, Mobility;
    MOBILITY_BISHOP = 14, Mobility;
    MOBILITY_ROOK = 15, Mobility;
    MOBILITY_QUEEN = 28, Mobility;
    BISHOP_PAIR = 1, Pieces;
    // Own pawns on the bishop's colour, per bishop.
    BISHOP_PAWNS = 1, Pieces;
    KNIGHT_OUTPOST = 1, Pieces;
    BISHOP_OUTPOST = 1, Pieces;
    // A knight or bishop right behind a pawn.
    MINOR_BEHIND_PAWN = 1, Pieces;
    ROOK_OPEN = 1, Pieces;
    ROOK_HALF_OPEN = 1, Pieces;
    // A rook on the seventh rank that cuts off the king or attacks pawns.
    ROOK_SEVENTH = 1, Pieces;
    // A rook with little mobility shut in by its own king (twice without castling rights).
    ROOK_TRAPPED = 1, Pieces;
    // A bishop on a1/h1 (a8/h8) behind its own pawn on b2/g2 (b7/g7), and
    // more so when that pawn cannot advance.
    CORNER_BISHOP = 1, Chess960;
    CORNER_BISHOP_BLOCKED = 1, Chess960;
    CORNER_QUEEN = 1, Chess960;
    // Knights and bishops still on their own back rank.
    UNDEVELOPED_MINOR = 1, Chess960;
    // Castling rights held (0, 1 or 2).
    CASTLING_RIGHTS = 1, Chess960;
    // Safe squares in the centre of the own camp (twice behind a pawn), by
    // the number of own pieces (0..7) that could use them.
    SPACE = 8, Pieces;
    // The distance of each knight and bishop to the own king.
    KING_PROTECTOR = 2, Pieces;
    // A bishop that sees two centre squares through the pawns.
    LONG_DIAGONAL = 1, Pieces;
    // The king on a flank with no pawns.
    PAWNLESS_FLANK = 1, KingShelter;
    // Enemy pieces attacked by a pawn (knight, bishop, rook, queen).
    THREAT_BY_PAWN = 4, Threats;
    // Enemy pieces (pawn .. queen) not defended by a pawn, or of more value,
    // attacked by a knight or bishop; by a rook.
    THREAT_BY_MINOR = 5, Threats;
    THREAT_BY_ROOK = 5, Threats;
    // Undefended enemy pieces attacked by the king.
    THREAT_BY_KING = 1, Threats;
    // Enemy pieces other than pawns attacked and not defended at all.
    HANGING = 1, Threats;
    // Squares the enemy attacks, not strongly, that are contested.
    RESTRICTED = 1, Threats;
    // A safe pawn push that would attack an enemy piece.
    PAWN_PUSH_THREAT = 1, Threats;
    TEMPO = 1, Tempo;
    // Pawn structure (cached by the pawn key).
    ISOLATED = 1, Pawns;
    DOUBLED = 1, Pawns;
    BACKWARD = 1, Pawns;
    BACKWARD_OPEN = 1, Pawns;
    // By rank from the owner's side.
    PHALANX = 8, Pawns;
    // By rank, times the number of defending pawns.
    SUPPORTED = 8, Pawns;
    PASSED = 8, Passed;
    // By rank, times the king's distance to the square in front of the pawn.
    PASSED_OWN_KING = 8, Passed;
    PASSED_ENEMY_KING = 8, Passed;
    // The king's distance to its nearest pawn.
    KING_PAWN_DISTANCE = 1, KingShelter;
    // Shelter: edge distance of the file (0..3) * 8 + rank of the own pawn
    // on that file (0 = none), for the king's file and its neighbours.
    SHELTER = 32, KingShelter;
    // Storm: blocked * 32 + edge distance * 8 + rank of the enemy pawn.
    STORM = 64, KingShelter;
    // Passed pawns by rank with the pieces on the board: blocked, or free
    // to advance one square safely; the whole path free; unstoppable.
    PASSED_BLOCKED = 8, Passed;
    PASSED_FREE = 8, Passed;
    PASSED_SAFE_PATH = 1, Passed;
    PASSED_UNSTOPPABLE = 1, Passed;
    // King danger: the weights of a sum that is turned into the score by
    // -s * max(s, 0) / 720 (middlegame) and -max(s, 0) / 20 (endgame).
    KS_ATTACKER = 4, KingDanger;
    KS_ATTACKS = 1, KingDanger;
    // Attacked squares (twice counted when attacked twice) and defended
    // squares of the king's flank in its camp.
    KS_FLANK_ATTACK = 1, KingDanger;
    KS_FLANK_DEFENSE = 1, KingDanger;
    KS_WEAK = 1, KingDanger;
    KS_SAFE_CHECK = 4, KingDanger;
    KS_UNSAFE_CHECK = 1, KingDanger;
    KS_NO_QUEEN = 1, KingDanger;
    KS_BASE = 1, KingDanger;
}

/// The king-danger weights, which enter the score through a non-linear function.
pub const KS_START: usize = KS_ATTACKER;
pub const KS_END: usize = NUM_FEATURES;
pub const NUM_SAFETY: usize = KS_END - KS_START;

/// Whether feature `f` is a king-danger weight.
#[inline(always)]
pub const fn is_safety(f: usize) -> bool {
    f >= KS_START
}

/// A readable name of feature `f`: its group and the index inside the group.
pub fn feature_name(f: usize) -> String {
    let g = GROUPS
        .iter()
        .find(|g| f >= g.start && f < g.start + g.len)
        .expect("feature index in range");
    if g.len == 1 {
        g.name.to_string()
    } else {
        format!("{}[{}]", g.name, f - g.start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_tile_the_table() {
        let mut next = 0;
        for g in GROUPS {
            assert_eq!(g.start, next, "{}", g.name);
            next += g.len;
        }
        assert_eq!(next, NUM_FEATURES);
        assert_eq!(GROUPS.last().unwrap().name, "KS_BASE");
        assert!(GROUPS
            .iter()
            .all(|g| is_safety(g.start) == (g.term == Term::KingDanger)));
    }
}
