//! Standard Algebraic Notation, written and read. Castling is `O-O` (towards
//! the h-file) and `O-O-O` (towards the a-file) in every variant.

use crate::{Board, Move, PieceKind, Square};
use std::fmt;

/// Why a SAN string was not accepted.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SanError {
    Syntax(String),
    Illegal(String),
    Ambiguous(String),
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Syntax(s) => write!(f, "'{s}' is not a move in SAN"),
            SanError::Illegal(s) => write!(f, "'{s}' is not a legal move in this position"),
            SanError::Ambiguous(s) => write!(f, "'{s}' is ambiguous in this position"),
        }
    }
}

impl std::error::Error for SanError {}

impl Board {
    /// The move in SAN, with `+` or `#` when it checks or mates.
    pub fn san(&self, m: Move) -> String {
        let mut san = self.san_without_suffix(m);
        let mut after = self.clone();
        after.make_move(m);
        if after.in_check() {
            san.push(if after.has_legal_move() { '+' } else { '#' });
        }
        san
    }

    fn san_without_suffix(&self, m: Move) -> String {
        if m.is_castle() {
            return if m.to().file() > m.from().file() {
                "O-O"
            } else {
                "O-O-O"
            }
            .to_string();
        }
        let Some(piece) = self.piece_on(m.from()) else {
            return m.to_uci(true);
        };
        let capture = self.piece_on(m.to()).is_some() || m.is_en_passant();
        let mut san = String::new();
        if piece.kind() == PieceKind::Pawn {
            if capture {
                san.push(m.from().file().to_char());
                san.push('x');
            }
            san.push_str(&m.to().to_string());
            if let Some(p) = m.promotion_piece() {
                san.push('=');
                san.push(p.letter().to_ascii_uppercase());
            }
            return san;
        }
        san.push(piece.kind().letter().to_ascii_uppercase());
        let rivals: Vec<Square> = self
            .legal_moves()
            .iter()
            .filter(|o| {
                !o.is_castle()
                    && o.to() == m.to()
                    && o.from() != m.from()
                    && self.piece_on(o.from()) == Some(piece)
            })
            .map(|o| o.from())
            .collect();
        if !rivals.is_empty() {
            let same_file = rivals.iter().any(|s| s.file() == m.from().file());
            let same_rank = rivals.iter().any(|s| s.rank() == m.from().rank());
            if !same_file {
                san.push(m.from().file().to_char());
            } else if !same_rank {
                san.push(m.from().rank().to_char());
            } else {
                san.push_str(&m.from().to_string());
            }
        }
        if capture {
            san.push('x');
        }
        san.push_str(&m.to().to_string());
        san
    }

    /// Reads a move in SAN. Accepts `0-0` for `O-O`, trailing `+`, `#`, `!`
    /// and `?`, a missing `=` before a promotion piece, and over-specified
    /// origins (`Ng1f3`).
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        let s = text.trim_end_matches(['+', '#', '!', '?']);
        if s.is_empty() || !s.is_ascii() {
            return Err(SanError::Syntax(text.to_string()));
        }
        let moves = self.legal_moves();
        let castle = match s {
            "O-O" | "0-0" => Some(true),
            "O-O-O" | "0-0-0" => Some(false),
            _ => None,
        };
        if let Some(king_side) = castle {
            return moves
                .iter()
                .copied()
                .find(|m| m.is_castle() && (m.to().file() > m.from().file()) == king_side)
                .ok_or_else(|| SanError::Illegal(text.to_string()));
        }

        let bytes = s.as_bytes();
        let (kind, rest) = match bytes[0] {
            b'N' | b'B' | b'R' | b'Q' | b'K' => (
                PieceKind::from_letter(bytes[0] as char).unwrap_or(PieceKind::Pawn),
                &s[1..],
            ),
            _ => (PieceKind::Pawn, s),
        };
        let (rest, promotion) = match rest.rfind('=') {
            Some(i) => (&rest[..i], Some(&rest[i + 1..])),
            None => match rest.as_bytes().last() {
                Some(c) if kind == PieceKind::Pawn && b"NBRQ".contains(c) => {
                    (&rest[..rest.len() - 1], Some(&rest[rest.len() - 1..]))
                }
                _ => (rest, None),
            },
        };
        let promotion = match promotion {
            None => None,
            Some(p) if p.len() == 1 => {
                match PieceKind::from_letter(p.chars().next().unwrap_or('x')) {
                    Some(
                        k @ (PieceKind::Knight
                        | PieceKind::Bishop
                        | PieceKind::Rook
                        | PieceKind::Queen),
                    ) => Some(k),
                    _ => return Err(SanError::Syntax(text.to_string())),
                }
            }
            Some(_) => return Err(SanError::Syntax(text.to_string())),
        };
        let body: String = rest.chars().filter(|&c| c != 'x' && c != '-').collect();
        if body.len() < 2 {
            return Err(SanError::Syntax(text.to_string()));
        }
        let to = Square::parse(&body[body.len() - 2..])
            .ok_or_else(|| SanError::Syntax(text.to_string()))?;
        let hint = &body[..body.len() - 2];
        let (hint_file, hint_rank) = match hint.len() {
            0 => (None, None),
            1 => {
                let c = hint.chars().next().unwrap_or(' ');
                match (crate::File::from_char(c), crate::Rank::from_char(c)) {
                    (Some(f), _) => (Some(f), None),
                    (_, Some(r)) => (None, Some(r)),
                    _ => return Err(SanError::Syntax(text.to_string())),
                }
            }
            2 => match Square::parse(hint) {
                Some(sq) => (Some(sq.file()), Some(sq.rank())),
                None => return Err(SanError::Syntax(text.to_string())),
            },
            _ => return Err(SanError::Syntax(text.to_string())),
        };
        let matches: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| {
                !m.is_castle()
                    && m.to() == to
                    && self.piece_on(m.from()).map(|p| p.kind()) == Some(kind)
                    && m.promotion_piece() == promotion
                    && hint_file.is_none_or(|f| m.from().file() == f)
                    && hint_rank.is_none_or(|r| m.from().rank() == r)
            })
            .collect();
        match matches.as_slice() {
            [m] => Ok(*m),
            [] => Err(SanError::Illegal(text.to_string())),
            _ => Err(SanError::Ambiguous(text.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_reads_back_every_move() {
        for fen in [
            crate::fen::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "8/2P5/8/8/8/8/8/k1K4R w - - 0 1",
            "N3k2N/8/8/8/8/8/8/N3K2N w - - 0 1",
        ] {
            let board = Board::from_fen(fen).unwrap();
            for &m in board.legal_moves().iter() {
                let san = board.san(m);
                assert_eq!(board.parse_san(&san), Ok(m), "{fen}: {san}");
            }
        }
    }

    #[test]
    fn chess960_castling_and_disambiguation() {
        let board = Board::from_fen("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1").unwrap();
        let m = board.parse_san("O-O").unwrap();
        assert!(m.is_castle());
        assert_eq!(m.to_uci(true), "g1h1");
        assert_eq!(board.san(m), "O-O");
        let m = board.parse_san("O-O-O").unwrap();
        assert_eq!(m.to_uci(true), "g1b1");
        assert_eq!(m.to_uci(false), "g1c1");
        let board = Board::from_fen("4k3/8/8/8/8/1N6/8/1N2KN2 w - - 0 1").unwrap();
        assert_eq!(board.san(board.parse_san("Nb1d2").unwrap()), "Nb1d2");
        assert_eq!(board.san(board.parse_san("Nf1d2").unwrap()), "Nfd2");
        assert_eq!(board.san(board.parse_san("Nb3-d2").unwrap()), "N3d2");
        assert_eq!(
            board.parse_san("Nd2"),
            Err(SanError::Ambiguous("Nd2".to_string()))
        );
        assert_eq!(
            board.parse_san("Qd4"),
            Err(SanError::Illegal("Qd4".to_string()))
        );
        assert_eq!(board.parse_san("Z"), Err(SanError::Syntax("Z".to_string())));
    }

    #[test]
    fn mate_is_marked() {
        let board = Board::from_fen("k7/8/1K6/8/8/8/8/7R w - - 0 1").unwrap();
        let m = board.parse_san("Rh8").unwrap();
        assert_eq!(board.san(m), "Rh8#");
    }
}
