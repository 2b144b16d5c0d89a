//! Random games from random start positions. The move choice is biased
//! towards castling, en passant and captures (rook captures most of all) so
//! that castling rights get lost in every way and the rare cases come up
//! often in a few thousand positions.

use chess::chess960::{self, BadStartNumber};
use chess::{Board, Move, PieceKind};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Where a random game begins.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Start {
    Classical,
    /// A Chess960 start by Scharnagl number.
    Chess960(u32),
    /// Double Fischer Random: each side's back rank from its own number.
    Dfrc {
        white: u32,
        black: u32,
    },
}

impl Start {
    /// Mostly Chess960 and DFRC, with some classical games.
    pub fn random(rng: &mut impl Rng) -> Start {
        match rng.gen_range(0..6) {
            0 => Start::Classical,
            1..=3 => Start::Chess960(rng.gen_range(0..960)),
            _ => Start::Dfrc {
                white: rng.gen_range(0..960),
                black: rng.gen_range(0..960),
            },
        }
    }

    pub fn board(self) -> Result<Board, BadStartNumber> {
        match self {
            Start::Classical => Ok(Board::startpos()),
            Start::Chess960(n) => chess960::start_position(n),
            Start::Dfrc { white, black } => chess960::double_start_position(white, black),
        }
    }
}

/// How much more likely than a quiet move `m` is to be played.
fn weight(board: &Board, m: Move) -> u32 {
    if m.is_castle() {
        return 12;
    }
    if m.is_en_passant() {
        return 12;
    }
    let Some(victim) = board.piece_on(m.to()) else {
        let double_step = m.from().index().abs_diff(m.to().index()) == 16
            && board
                .piece_on(m.from())
                .is_some_and(|p| p.kind() == PieceKind::Pawn);
        // Double steps make en-passant captures possible.
        return if m.is_promotion() || double_step {
            4
        } else {
            1
        };
    };
    let rights = board.castling_rights();
    if victim.kind() == PieceKind::Rook && rights.iter().any(|(_, _, sq)| sq == m.to()) {
        30
    } else {
        6
    }
}

/// A random legal move by `weight`, or `None` at mate or stalemate.
pub fn random_move(rng: &mut impl Rng, board: &Board) -> Option<Move> {
    let moves = board.legal_moves();
    let total: u32 = moves.iter().map(|&m| weight(board, m)).sum();
    if total == 0 {
        return None;
    }
    let mut pick = rng.gen_range(0..total);
    for &m in moves.iter() {
        let w = weight(board, m);
        if pick < w {
            return Some(m);
        }
        pick -= w;
    }
    None
}

/// A position reached in a random game, with the move that led to it
/// (`None` for the start), so that a test can work out the en-passant target
/// itself instead of trusting the board's.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Played {
    pub board: Board,
    pub last_move: Option<Move>,
}

/// The positions of one random game of at most `plies` moves from `start`,
/// `start` first; it ends early at mate or stalemate.
pub fn random_game(rng: &mut impl Rng, start: Board, plies: usize) -> Vec<Played> {
    let mut game = vec![Played {
        board: start,
        last_move: None,
    }];
    for _ in 0..plies {
        let Some(last) = game.last() else {
            break;
        };
        let Some(m) = random_move(rng, &last.board) else {
            break;
        };
        let mut board = last.board.clone();
        board.make_move(m);
        game.push(Played {
            board,
            last_move: Some(m),
        });
    }
    game
}

/// The positions of random games of up to `plies` moves from random starts,
/// at least `count` of them, reproducibly from `seed`.
pub fn random_positions(seed: u64, count: usize, plies: usize) -> Vec<Played> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut positions = Vec::with_capacity(count + plies);
    while positions.len() < count {
        let start = Start::random(&mut rng);
        // Start::random only draws numbers below 960.
        let Ok(board) = start.board() else { continue };
        positions.extend(random_game(&mut rng, board, plies));
    }
    positions
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_reproducible_and_follow_their_moves() {
        let a = random_positions(7, 300, 80);
        let b = random_positions(7, 300, 80);
        assert!(a.len() >= 300);
        assert_eq!(a, b);
        for pair in a.windows(2) {
            let Some(m) = pair[1].last_move else {
                assert_eq!(pair[1].board.fullmove_number(), 1);
                continue;
            };
            assert!(pair[0].board.legal_moves().contains(m));
            let mut after = pair[0].board.clone();
            after.make_move(m);
            assert_eq!(after, pair[1].board);
        }
    }

    #[test]
    fn the_bias_loses_castling_rights_to_rook_captures() {
        let positions = random_positions(11, 3000, 120);
        let lost_by_capture = positions.windows(2).any(|pair| {
            let (before, after) = (&pair[0].board, &pair[1].board);
            pair[1].last_move.is_some()
                && before.castling_rights().iter().any(|(color, side, sq)| {
                    color != before.side_to_move()
                        && after.piece_on(sq).map(|p| p.color()) == Some(before.side_to_move())
                        && after.castling_rights().rook_square(color, side).is_none()
                })
        });
        assert!(lost_by_capture);
    }
}
