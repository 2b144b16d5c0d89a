//! Hoeven's chess data formats, one home each, shared by the engine's
//! writers and every tool that reads them.

pub mod record;

pub use record::{GameResult, PackedRecord, Record, RecordError, RECORD_BYTES};
