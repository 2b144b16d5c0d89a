//! Hoeven's board and move generator: bitboards with magic sliders, fully
//! legal generation with every Chess960 and Double Fischer Random castling
//! case, Zobrist keys, FEN in all its castling dialects, Scharnagl start
//! numbers and random openings (a variant's random start, random plies), UCI
//! and SAN move notation, perft, and the game position with its history
//! (repetition, the fifty-move rule, the game's verdict).
//!
//! Castling is always encoded as the king capturing its own rook; only the
//! UCI text changes with the mode.

pub mod attacks;
mod bitboard;
mod board;
mod castling;
pub mod chess960;
mod color;
mod fen;
mod legality;
mod magic;
mod movegen;
mod moves;
mod notation;
pub mod openings;
pub mod perft;
mod piece;
mod position;
mod san;
mod square;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use castling::{CastleSide, CastlingRights};
pub use color::Color;
pub use fen::{write_placement, CastlingNotation, DroppedCastlingRight, FenError, STARTPOS};
pub use moves::{Move, MoveKind, MoveList, MAX_MOVES};
pub use notation::MoveParseError;
pub use piece::{Piece, PieceKind};
pub use position::{Position, Verdict};
pub use san::SanError;
pub use square::{File, Rank, Square};
