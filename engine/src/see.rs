//! Static exchange evaluation: whether a capture sequence on one square wins
//! at least a threshold, with both sides always recapturing with their
//! least valuable attacker and x-rays behind it joining in.

use chess::attacks::{bishop_attacks, rook_attacks};
use chess::{Board, Move, PieceKind};

/// Piece values for exchange evaluation (the king is never lost).
pub const SEE_VALUES: [i32; 6] = [100, 300, 300, 500, 900, 20_000];

#[inline(always)]
pub fn value(kind: PieceKind) -> i32 {
    SEE_VALUES[kind.index()]
}

/// Whether `m` wins at least `threshold` in the exchange it starts.
pub fn see_ge(board: &Board, m: Move, threshold: i32) -> bool {
    if m.is_castle() {
        return threshold <= 0;
    }
    let from = m.from();
    let to = m.to();
    let captured = if m.is_en_passant() {
        value(PieceKind::Pawn)
    } else {
        board.piece_on(to).map_or(0, |p| value(p.kind()))
    };
    let mut swap = captured - threshold;
    if swap < 0 {
        return false;
    }
    let Some(mover) = board.piece_on(from) else {
        return false;
    };
    swap = value(mover.kind()) - swap;
    if swap <= 0 {
        return true;
    }

    let mut occ = board.occupied() ^ from ^ to;
    if m.is_en_passant() {
        occ ^= chess::Square::new(to.file(), from.rank());
    }
    let diagonal = board.pieces(PieceKind::Bishop) | board.pieces(PieceKind::Queen);
    let orthogonal = board.pieces(PieceKind::Rook) | board.pieces(PieceKind::Queen);
    let mut attackers = board.attackers_to(to, occ) & occ;
    let mut side = !mover.color();
    // 1 while the side that made the first capture is ahead.
    let mut result = 1;

    loop {
        let ours = attackers & board.colored(side);
        if ours.is_empty() {
            break;
        }
        result ^= 1;
        let Some(kind) = PieceKind::ALL
            .into_iter()
            .find(|&k| (ours & board.pieces(k)).is_nonempty())
        else {
            break;
        };
        if kind == PieceKind::King {
            // The king may take only if the other side has nothing left.
            return if (attackers & board.colored(!side)).is_nonempty() {
                result ^ 1 == 1
            } else {
                result == 1
            };
        }
        swap = value(kind) - swap;
        if swap < result {
            break;
        }
        let piece_sq = (ours & board.pieces(kind)).lsb();
        occ ^= piece_sq;
        if matches!(kind, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Queen) {
            attackers |= bishop_attacks(to, occ) & diagonal;
        }
        if matches!(kind, PieceKind::Rook | PieceKind::Queen) {
            attackers |= rook_attacks(to, occ) & orthogonal;
        }
        attackers &= occ;
        side = !side;
    }
    result == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(fen: &str, uci: &str, threshold: i32, expected: bool) {
        let board = Board::from_fen(fen).unwrap();
        let m = board.parse_uci_move(uci, true).unwrap();
        assert_eq!(
            see_ge(&board, m, threshold),
            expected,
            "{fen} {uci} >= {threshold}"
        );
    }

    #[test]
    fn exchanges() {
        // Pawn takes an undefended knight.
        check("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 300, true);
        check("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 301, false);
        // Queen takes a pawn defended by a pawn: loses the queen.
        check("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", "d2d5", 0, false);
        check("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", "d2d5", -800, true);
        // Rook takes a rook defended by a rook, with our second rook behind (x-ray).
        check("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7", 0, true);
        // A quiet move to an attacked square.
        check("4k3/8/8/4p3/8/8/8/3RK3 w - - 0 1", "d1d4", 0, false);
        check("4k3/8/8/4p3/8/8/8/3RK3 w - - 0 1", "d1d3", 0, true);
    }
}
