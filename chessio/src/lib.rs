//! Hoeven's chess data formats, one home each, shared by the engine's
//! writers and every tool that reads them: PGN games and the training
//! record.

pub mod castling;
pub mod epd;
pub mod pgn;
pub mod record;

pub use record::{
    is_training_position, GameResult, PackedRecord, Record, RecordError, RECORD_BYTES,
};
