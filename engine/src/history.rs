//! Move-ordering statistics kept by each search thread: quiet-move history
//! (butterfly, by side, from and to square and whether the opponent attacks
//! either square), continuation history (by the
//! moves one and two plies earlier), capture history (by piece, square and
//! victim), killer moves per ply, and the correction histories of the
//! static evaluation (by pawn structure and by each side's other pieces).

use crate::params::{SearchParams, CORRECTION_GRAIN, CORRECTION_SIZE, HISTORY_MAX};
use crate::score::MAX_PLY;
use chess::{Bitboard, Board, Color, Move, Piece, PieceKind, Square};

/// A move as continuation history sees it: which piece went where.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PieceTo {
    piece: usize,
    to: usize,
}

impl PieceTo {
    pub fn new(piece: Piece, to: Square) -> PieceTo {
        PieceTo {
            piece: piece.index(),
            to: to.index(),
        }
    }
}

/// What a quiet move's history depends on besides the move itself.
#[derive(Clone, Copy, Debug)]
pub struct Context {
    /// The moves that led to the node: one ply back, then two plies back.
    pub earlier: [Option<PieceTo>; 2],
    /// The squares the opponent attacks. A move away from an attacked square
    /// (or onto one) is a different move from the same one played in
    /// peace: it saves (or risks) a piece, so each case keeps its own score.
    pub threats: Bitboard,
}

impl Context {
    /// No earlier moves and no threats: quiescence starts from it (adding
    /// the threats when in check), and tests use it.
    pub const NONE: Context = Context {
        earlier: [None; 2],
        threats: Bitboard::EMPTY,
    };

    /// Which of the four butterfly tables `m` is scored in: whether its
    /// origin is attacked, then whether its destination is.
    #[inline(always)]
    fn threat_index(&self, m: Move) -> usize {
        2 * usize::from(self.threats.contains(m.from()))
            + usize::from(self.threats.contains(m.to()))
    }
}

const CONTINUATION_SIZE: usize = 12 * 64 * 12 * 64;
const CAPTURE_SIZE: usize = 12 * 64 * 6;

/// The capture-history slot of a noisy move: the moving piece, the target
/// square and the victim (a promotion that captures nothing uses the king's
/// slot, since a king is never captured).
pub fn capture_key(board: &Board, m: Move) -> Option<usize> {
    let piece = board.piece_on(m.from())?;
    let victim = if m.is_en_passant() {
        PieceKind::Pawn
    } else {
        board.piece_on(m.to()).map_or(PieceKind::King, |p| p.kind())
    };
    Some((piece.index() * 64 + m.to().index()) * 6 + victim.index())
}

pub struct History {
    /// By side, threat index ([`Context::threat_index`]), from and to.
    butterfly: Box<[[[[i16; 64]; 64]; 4]; 2]>,
    /// Indexed by the earlier move's piece and square, then this move's.
    continuation: Vec<i16>,
    capture: Vec<i16>,
    /// By side to move and pawn key: how far off the evaluation was.
    pawn_correction: Vec<i32>,
    /// By side to move and the placement of White's (then Black's) pieces
    /// other than pawns.
    non_pawn_correction: [Vec<i32>; 2],
    killers: Box<[[Move; 2]; MAX_PLY + 1]>,
}

impl Default for History {
    fn default() -> History {
        History {
            butterfly: Box::new([[[[0; 64]; 64]; 4]; 2]),
            continuation: vec![0; CONTINUATION_SIZE],
            capture: vec![0; CAPTURE_SIZE],
            pawn_correction: vec![0; 2 * CORRECTION_SIZE],
            non_pawn_correction: [vec![0; 2 * CORRECTION_SIZE], vec![0; 2 * CORRECTION_SIZE]],
            killers: Box::new([[Move::NONE; 2]; MAX_PLY + 1]),
        }
    }
}

/// The bonus (or malus) for a move that caused (or failed to cause) a cutoff.
pub fn bonus(depth: i32, params: &SearchParams) -> i32 {
    (depth * depth * 16 + depth * 32).min(params.history_bonus_max)
}

/// Moves `entry` towards +/-HISTORY_MAX by `delta`, more slowly the closer
/// it already is, so that scores stay bounded and recent results weigh most.
fn gravity(entry: &mut i16, delta: i32) {
    let e = *entry as i32;
    let updated = e + delta - e * delta.abs() / HISTORY_MAX;
    *entry = updated.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
}

/// A hash of where `color`'s knights, bishops, rooks, queens and king stand.
#[inline(always)]
fn non_pawn_key(board: &Board, color: Color) -> u64 {
    let mut h = 0u64;
    for kind in [
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
    ] {
        h = (h ^ board.pieces_of(color, kind).0).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    h
}

#[inline(always)]
fn continuation_index(earlier: PieceTo, now: PieceTo) -> usize {
    ((earlier.piece * 64 + earlier.to) * 12 + now.piece) * 64 + now.to
}

impl History {
    pub fn clear(&mut self) {
        self.butterfly
            .iter_mut()
            .flatten()
            .flatten()
            .flatten()
            .for_each(|e| *e = 0);
        self.continuation.iter_mut().for_each(|e| *e = 0);
        self.capture.iter_mut().for_each(|e| *e = 0);
        self.pawn_correction.iter_mut().for_each(|e| *e = 0);
        self.non_pawn_correction
            .iter_mut()
            .flatten()
            .for_each(|e| *e = 0);
        self.killers.iter_mut().for_each(|k| *k = [Move::NONE; 2]);
    }

    /// How well a quiet move has done: its own history plus how it did
    /// after the same previous moves.
    #[inline(always)]
    pub fn quiet(&self, color: Color, m: Move, moved: PieceTo, context: &Context) -> i32 {
        let mut score = self.butterfly[color.index()][context.threat_index(m)][m.from().index()]
            [m.to().index()] as i32;
        for earlier in context.earlier.iter().flatten() {
            score += self.continuation[continuation_index(*earlier, moved)] as i32;
        }
        score
    }

    fn reward(&mut self, color: Color, m: Move, moved: PieceTo, context: &Context, delta: i32) {
        gravity(
            &mut self.butterfly[color.index()][context.threat_index(m)][m.from().index()]
                [m.to().index()],
            delta,
        );
        for earlier in context.earlier.iter().flatten() {
            gravity(
                &mut self.continuation[continuation_index(*earlier, moved)],
                delta,
            );
        }
    }

    /// After a quiet move caused a cutoff: reward it by `bonus`, punish the quiet moves
    /// tried before it, and make it the first killer of the ply.
    pub fn update_quiet(
        &mut self,
        color: Color,
        best: (Move, PieceTo),
        tried: &[(Move, PieceTo)],
        context: &Context,
        bonus: i32,
        ply: usize,
    ) {
        self.reward(color, best.0, best.1, context, bonus);
        for &(m, moved) in tried {
            self.reward(color, m, moved, context, -bonus);
        }
        let killers = &mut self.killers[ply.min(MAX_PLY)];
        if killers[0] != best.0 {
            killers[1] = killers[0];
            killers[0] = best.0;
        }
    }

    /// The slots of a position in the pawn table and in the two non-pawn
    /// tables.
    #[inline(always)]
    fn correction_slots(board: &Board) -> [usize; 3] {
        let side = board.side_to_move().index() * CORRECTION_SIZE;
        [
            side + (board.pawn_key() as usize % CORRECTION_SIZE),
            side + (non_pawn_key(board, Color::White) as usize % CORRECTION_SIZE),
            side + (non_pawn_key(board, Color::Black) as usize % CORRECTION_SIZE),
        ]
    }

    /// The correction to add to the static evaluation, in centipawns: the
    /// pawn structure's, plus half of each side's non-pawn placement's.
    #[inline(always)]
    pub fn correction(&self, board: &Board) -> i32 {
        let [p, w, b] = Self::correction_slots(board);
        let non_pawn = self.non_pawn_correction[0][w] + self.non_pawn_correction[1][b];
        (self.pawn_correction[p] + non_pawn / 2) / CORRECTION_GRAIN
    }

    /// A search of `depth` found the position worth `error` more than its
    /// static evaluation said.
    pub fn update_correction(
        &mut self,
        board: &Board,
        depth: i32,
        error: i32,
        params: &SearchParams,
    ) {
        let weight = (depth + 1).min(params.correction_weight_max);
        let max = params.correction_max;
        let target = error.clamp(-max, max) * CORRECTION_GRAIN;
        let [p, w, b] = Self::correction_slots(board);
        let blend = |entry: &mut i32| *entry = (*entry * (256 - weight) + target * weight) / 256;
        blend(&mut self.pawn_correction[p]);
        blend(&mut self.non_pawn_correction[0][w]);
        blend(&mut self.non_pawn_correction[1][b]);
    }

    #[inline(always)]
    pub fn capture(&self, key: usize) -> i32 {
        self.capture.get(key).map_or(0, |&e| e as i32)
    }

    /// After a cutoff: reward the capture that caused it (if it was one) by
    /// `bonus` and punish the captures tried before it.
    pub fn update_captures(&mut self, best: Option<usize>, tried: &[usize], bonus: i32) {
        if let Some(e) = best.and_then(|k| self.capture.get_mut(k)) {
            gravity(e, bonus);
        }
        for &k in tried {
            if let Some(e) = self.capture.get_mut(k) {
                gravity(e, -bonus);
            }
        }
    }

    #[inline(always)]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply.min(MAX_PLY)]
    }

    /// Killers are about siblings in the tree; clear the next ply's slots
    /// before searching a node's children.
    #[inline(always)]
    pub fn clear_killers(&mut self, ply: usize) {
        self.killers[ply.min(MAX_PLY)] = [Move::NONE; 2];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::PieceKind;

    #[test]
    fn history_is_bounded_and_ordered() {
        let mut h = History::default();
        let rook = Piece::new(Color::White, PieceKind::Rook);
        let good = Move::new(Square::E1, Square::F1);
        let bad = Move::new(Square::E1, Square::D1);
        let (good_pt, bad_pt) = (
            PieceTo::new(rook, Square::F1),
            PieceTo::new(rook, Square::D1),
        );
        let previous = PieceTo::new(Piece::new(Color::Black, PieceKind::Knight), Square::H8);
        let context = Context {
            earlier: [Some(previous), None],
            threats: Bitboard::EMPTY,
        };
        for _ in 0..1000 {
            h.update_quiet(
                Color::White,
                (good, good_pt),
                &[(bad, bad_pt)],
                &context,
                bonus(20, &SearchParams::default()),
                3,
            );
        }
        let with = h.quiet(Color::White, good, good_pt, &context);
        let without = h.quiet(Color::White, good, good_pt, &Context::NONE);
        assert!(without <= HISTORY_MAX && without > 10_000);
        assert!(
            with > without,
            "the continuation adds to the butterfly score"
        );
        assert!(h.quiet(Color::White, bad, bad_pt, &context) < -20_000);
        assert_eq!(h.quiet(Color::Black, good, good_pt, &Context::NONE), 0);
        assert_eq!(h.killers(3)[0], good);
        h.clear_killers(3);
        assert_eq!(h.killers(3), [Move::NONE; 2]);
        h.clear();
        assert_eq!(h.quiet(Color::White, good, good_pt, &context), 0);
    }

    #[test]
    fn a_threatened_origin_keeps_its_own_score() {
        let mut h = History::default();
        let knight = Piece::new(Color::White, PieceKind::Knight);
        let (c3, e4) = (Square::parse("c3").unwrap(), Square::parse("e4").unwrap());
        let m = Move::new(c3, e4);
        let pt = PieceTo::new(knight, e4);
        let attacked_from = Context {
            earlier: [None; 2],
            threats: Bitboard::from_square(c3),
        };
        for _ in 0..100 {
            h.update_quiet(
                Color::White,
                (m, pt),
                &[],
                &attacked_from,
                bonus(10, &SearchParams::default()),
                0,
            );
        }
        assert!(h.quiet(Color::White, m, pt, &attacked_from) > 1000);
        assert_eq!(h.quiet(Color::White, m, pt, &Context::NONE), 0);
        let attacked_to = Context {
            threats: Bitboard::from_square(e4),
            ..attacked_from
        };
        assert_eq!(h.quiet(Color::White, m, pt, &attacked_to), 0);
    }

    #[test]
    fn correction_moves_towards_the_error_and_stays_bounded() {
        let board = Board::startpos();
        let params = SearchParams::default();
        let mut h = History::default();
        assert_eq!(h.correction(&board), 0);
        for _ in 0..200 {
            h.update_correction(&board, 10, 500, &params);
        }
        // The pawn table and half of each non-pawn table: twice the cap.
        let full = h.correction(&board);
        let cap = params.correction_max;
        assert!((2 * cap - 3..=2 * cap).contains(&full));
        for _ in 0..200 {
            h.update_correction(&board, 10, -40, &params);
        }
        assert!((-80..=-76).contains(&h.correction(&board)));
    }

    #[test]
    fn non_pawn_correction_tells_piece_placements_apart() {
        let board = Board::startpos();
        let knight_out =
            Board::from_fen("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1").unwrap();
        assert_eq!(board.pawn_key(), knight_out.pawn_key());
        let mut h = History::default();
        for _ in 0..200 {
            h.update_correction(&knight_out, 10, 60, &SearchParams::default());
        }
        // Same pawns, so the pawn part carries over; White's pieces differ,
        // so only Black's half of the non-pawn part does.
        let moved = h.correction(&knight_out);
        let start = h.correction(&board);
        assert!(moved > start && start > 0, "{moved} {start}");
    }

    #[test]
    fn capture_history_rewards_the_cutting_capture() {
        let board = Board::from_fen("4k3/8/3p1n2/4P3/8/8/8/4K3 w - - 0 1").unwrap();
        let takes_pawn = board.parse_uci_move("e5d6", true).unwrap();
        let takes_knight = board.parse_uci_move("e5f6", true).unwrap();
        let (kp, kn) = (
            capture_key(&board, takes_pawn).unwrap(),
            capture_key(&board, takes_knight).unwrap(),
        );
        assert_ne!(kp, kn);
        let mut h = History::default();
        h.update_captures(Some(kp), &[kn], bonus(8, &SearchParams::default()));
        assert!(h.capture(kp) > 0 && h.capture(kn) < 0);
    }
}
