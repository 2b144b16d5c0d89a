//! Reading moves in UCI notation, in either castling convention.

use crate::{Board, CastleSide, Move};
use std::fmt;

/// Why a move string was not accepted.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveParseError {
    /// Not of the form `<from><to>[promotion]` (or `O-O`, `O-O-O`).
    Syntax(String),
    /// Well-formed, but no legal move in this position matches.
    Illegal(String),
    /// The string could mean more than one legal move.
    Ambiguous(String),
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Syntax(s) => write!(f, "'{s}' is not a move in UCI notation"),
            MoveParseError::Illegal(s) => write!(f, "'{s}' is not a legal move in this position"),
            MoveParseError::Ambiguous(s) => write!(f, "'{s}' is ambiguous in this position"),
        }
    }
}

impl std::error::Error for MoveParseError {}

impl Board {
    /// Reads a UCI move string. Castling is accepted as king-captures-rook
    /// (`e1h1`) and as the king's destination (`e1g1`) in either mode, and as
    /// `O-O`/`O-O-O`; when a string fits both a castling and a plain king move,
    /// the notation of the current mode (`chess960`) decides.
    pub fn parse_uci_move(&self, s: &str, chess960: bool) -> Result<Move, MoveParseError> {
        let castle_side = match s {
            "O-O" | "0-0" => Some(CastleSide::King),
            "O-O-O" | "0-0-0" => Some(CastleSide::Queen),
            _ => None,
        };
        let moves = self.legal_moves();
        if let Some(side) = castle_side {
            return moves
                .iter()
                .copied()
                .find(|m| {
                    m.is_castle() && (m.to().file() > m.from().file()) == (side == CastleSide::King)
                })
                .ok_or_else(|| MoveParseError::Illegal(s.to_string()));
        }
        let well_formed = matches!(s.len(), 4 | 5)
            && s.is_ascii()
            && crate::Square::parse(&s[0..2]).is_some()
            && crate::Square::parse(&s[2..4]).is_some()
            && (s.len() == 4 || matches!(&s[4..], "q" | "r" | "b" | "n"));
        if !well_formed {
            return Err(MoveParseError::Syntax(s.to_string()));
        }
        let in_mode: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| m.to_uci(chess960) == s)
            .collect();
        let chosen = match in_mode.as_slice() {
            [m] => Some(*m),
            [] => {
                let other: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| m.to_uci(!chess960) == s)
                    .collect();
                match other.as_slice() {
                    [m] => Some(*m),
                    [] => None,
                    _ => return Err(MoveParseError::Ambiguous(s.to_string())),
                }
            }
            // A king step and a castling that read alike (king on f1, rook on
            // h1, "f1g1" in standard notation): the plain step is meant.
            several => several.iter().copied().find(|m| !m.is_castle()),
        };
        chosen.ok_or_else(|| MoveParseError::Illegal(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_castling_notations_are_read() {
        let board = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        for (s, mode) in [
            ("e1g1", false),
            ("e1h1", false),
            ("e1g1", true),
            ("e1h1", true),
            ("O-O", true),
        ] {
            let m = board.parse_uci_move(s, mode).unwrap();
            assert!(m.is_castle(), "{s}");
            assert_eq!(m.to_uci(true), "e1h1");
        }
        assert!(board.parse_uci_move("e1c1", true).unwrap().is_castle());
        assert!(matches!(
            board.parse_uci_move("e1e3", true),
            Err(MoveParseError::Illegal(_))
        ));
        assert!(matches!(
            board.parse_uci_move("e1", true),
            Err(MoveParseError::Syntax(_))
        ));
        assert!(matches!(
            board.parse_uci_move("e7e8x", true),
            Err(MoveParseError::Syntax(_))
        ));
    }

    #[test]
    fn king_step_wins_over_castling_that_reads_alike() {
        // King f1, rook h1: "f1g1" is the king step in standard notation; the
        // castling is "f1h1".
        let board = Board::from_fen("4k3/8/8/8/8/8/8/5K1R w H - 0 1").unwrap();
        let step = board.parse_uci_move("f1g1", false).unwrap();
        assert!(!step.is_castle());
        assert!(board.parse_uci_move("f1h1", false).unwrap().is_castle());
    }
}
