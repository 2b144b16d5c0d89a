//! Random openings, shared by `genfens` and self-play: start positions of a
//! variant and random legal plies.

use crate::{chess960, Board, Move};
use rand::Rng;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Chess960,
    Dfrc,
    Classical,
}

impl Variant {
    pub fn parse(name: &str) -> Option<Variant> {
        match name.to_ascii_lowercase().as_str() {
            "chess960" | "960" | "frc" => Some(Variant::Chess960),
            "dfrc" => Some(Variant::Dfrc),
            "classical" | "standard" => Some(Variant::Classical),
            _ => None,
        }
    }

    /// A start position of this variant drawn from `rng`: one of the 960
    /// Chess960 arrays, a Double Fischer Random pair, or the classical start.
    pub fn random_start(self, rng: &mut impl Rng) -> Board {
        let start = match self {
            Variant::Chess960 => chess960::start_position(rng.gen_range(0..960)),
            Variant::Dfrc => {
                chess960::double_start_position(rng.gen_range(0..960), rng.gen_range(0..960))
            }
            Variant::Classical => Ok(Board::startpos()),
        };
        // Numbers drawn from 0..960 are always valid start numbers.
        start.unwrap_or_else(|_| Board::startpos())
    }
}

/// `plies` uniformly random legal moves from `board`; `None` when the game
/// ends on the way or right after them.
pub fn random_plies(board: &Board, plies: u32, rng: &mut impl Rng) -> Option<Vec<Move>> {
    let mut board = board.clone();
    let mut moves = Vec::with_capacity(plies as usize);
    for _ in 0..plies {
        let legal = board.legal_moves();
        if legal.is_empty() {
            return None;
        }
        let m = legal.as_slice()[rng.gen_range(0..legal.len())];
        board.make_move(m);
        moves.push(m);
    }
    board.has_legal_move().then_some(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn random_starts_are_start_positions_of_their_variant() {
        let mut rng = StdRng::seed_from_u64(1);
        let mut numbers = std::collections::HashSet::new();
        for _ in 0..50 {
            numbers.insert(Variant::Chess960.random_start(&mut rng).chess960_number());
            let d = Variant::Dfrc.random_start(&mut rng);
            assert!(d.double_chess960_numbers().is_some());
        }
        assert!(
            numbers.len() > 40 && !numbers.contains(&None),
            "{numbers:?}"
        );
        let c = Variant::Classical.random_start(&mut rng);
        assert_eq!(c.key(), Board::startpos().key());
    }

    #[test]
    fn random_plies_are_legal_and_repeat_with_the_seed() {
        let start = Board::startpos();
        let a = random_plies(&start, 8, &mut StdRng::seed_from_u64(7)).unwrap();
        let b = random_plies(&start, 8, &mut StdRng::seed_from_u64(7)).unwrap();
        assert_eq!(a, b);
        let mut board = start;
        for m in a {
            assert!(board.is_legal(m));
            board.make_move(m);
        }
        assert_eq!(board.fullmove_number(), 5);
        // Fool's mate: White is mated, no ply can follow.
        let mated =
            Board::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
                .unwrap();
        assert!(random_plies(&mated, 0, &mut StdRng::seed_from_u64(0)).is_none());
    }
}
