//! Training checkpoints: the float parameters, the optimiser's moments and
//! the epoch reached, enough to resume a run where it stopped (each epoch's
//! shuffle depends on the seed and the epoch alone).
//!
//! Layout, little-endian: magic `HVTRAIN3`, H (u32), output buckets (u32),
//! the input layout (u32, `eval::nnue::Inputs::code`), epoch (u32),
//! optimiser steps (u64), then the parameters, m and v (f32 each, the
//! network's flat order). `HVTRAIN2`, the same without the input layout,
//! reads as plain inputs.

use crate::adamw::AdamW;
use crate::network::{FloatNetwork, Shape};
use eval::nnue::Inputs;
use std::fmt;
use std::path::Path;

const MAGIC: &[u8; 8] = b"HVTRAIN3";
const HEADER: usize = 32;
/// The format before the input layout, all of whose nets have plain inputs.
const MAGIC_2: &[u8; 8] = b"HVTRAIN2";
const HEADER_2: usize = 28;

pub struct Checkpoint {
    pub net: FloatNetwork,
    pub optimiser: AdamW,
    pub epoch: usize,
}

#[derive(Debug)]
pub enum CheckpointError {
    Io(std::io::Error),
    Magic,
    /// The sizes are out of range or the length does not match them.
    Shape {
        hidden: u32,
        buckets: u32,
        len: usize,
    },
    /// An input layout the engine does not know.
    Inputs(u32),
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Io(e) => write!(f, "{e}"),
            CheckpointError::Magic => write!(f, "not a checkpoint: no HVTRAIN3 or HVTRAIN2 magic"),
            CheckpointError::Inputs(code) => write!(f, "unknown input layout {code}"),
            CheckpointError::Shape {
                hidden,
                buckets,
                len,
            } => write!(
                f,
                "checkpoint of {len} bytes does not hold a net with {hidden} hidden neurons \
                 and {buckets} output buckets"
            ),
        }
    }
}

impl std::error::Error for CheckpointError {}

impl Checkpoint {
    pub fn to_bytes(&self) -> Vec<u8> {
        let params = self.net.params();
        let mut bytes = Vec::with_capacity(HEADER + 12 * params.len());
        bytes.extend_from_slice(MAGIC);
        let shape = self.net.shape();
        bytes.extend_from_slice(&(shape.hidden as u32).to_le_bytes());
        bytes.extend_from_slice(&(shape.buckets as u32).to_le_bytes());
        bytes.extend_from_slice(&shape.inputs.code().to_le_bytes());
        bytes.extend_from_slice(&(self.epoch as u32).to_le_bytes());
        bytes.extend_from_slice(&self.optimiser.steps.to_le_bytes());
        for x in params
            .iter()
            .chain(&self.optimiser.m)
            .chain(&self.optimiser.v)
        {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
        bytes
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, CheckpointError> {
        let header = match bytes.get(..8) {
            Some(m) if m == MAGIC && bytes.len() >= HEADER => HEADER,
            Some(m) if m == MAGIC_2 && bytes.len() >= HEADER_2 => HEADER_2,
            _ => return Err(CheckpointError::Magic),
        };
        let u32_at = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let (hidden, buckets) = (u32_at(8), u32_at(12));
        // Format 3 has the input layout where format 2 starts the epoch.
        let inputs = match header {
            HEADER => {
                let code = u32_at(16);
                Inputs::from_code(code).ok_or(CheckpointError::Inputs(code))?
            }
            _ => Inputs::Plain,
        };
        let epoch = u32_at(header - 12) as usize;
        let mut steps = [0u8; 8];
        steps.copy_from_slice(&bytes[header - 8..header]);
        let error = CheckpointError::Shape {
            hidden,
            buckets,
            len: bytes.len(),
        };
        let shape = Shape {
            hidden: hidden as usize,
            buckets: buckets as usize,
            inputs,
        };
        if !shape.is_valid() {
            return Err(error);
        }
        let n = FloatNetwork::param_count(shape);
        if bytes.len() != header + 12 * n {
            return Err(error);
        }
        let mut floats = bytes[header..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let params = floats.by_ref().take(n).collect();
        let m = floats.by_ref().take(n).collect();
        let v = floats.collect();
        let net = FloatNetwork::from_params(shape, params).ok_or(error)?;
        Ok(Checkpoint {
            net,
            optimiser: AdamW {
                m,
                v,
                steps: u64::from_le_bytes(steps),
            },
            epoch,
        })
    }

    pub fn load(path: &Path) -> Result<Checkpoint, CheckpointError> {
        Checkpoint::from_bytes(&std::fs::read(path).map_err(CheckpointError::Io)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_reads_back_and_bad_ones_are_refused() {
        let net = FloatNetwork::random(
            Shape {
                hidden: 8,
                buckets: 3,
                inputs: Inputs::Plain,
            },
            3,
        );
        let mut optimiser = AdamW::new(net.params().len());
        optimiser.m[5] = 0.25;
        optimiser.v[7] = 0.5;
        optimiser.steps = 1234;
        let c = Checkpoint {
            net,
            optimiser,
            epoch: 17,
        };
        let bytes = c.to_bytes();
        let back = Checkpoint::from_bytes(&bytes).unwrap();
        assert_eq!(back.net, c.net);
        assert_eq!(back.optimiser, c.optimiser);
        assert_eq!(back.epoch, 17);
        assert!(matches!(
            Checkpoint::from_bytes(&bytes[..bytes.len() - 4]),
            Err(CheckpointError::Shape {
                hidden: 8,
                buckets: 3,
                ..
            })
        ));
        // Format 2: no input layout, plain inputs.
        let two = [b"HVTRAIN2", &bytes[8..16], &bytes[20..]].concat();
        let back = Checkpoint::from_bytes(&two).unwrap();
        assert_eq!((back.net, back.epoch), (c.net.clone(), 17));
        let mut layout = bytes.clone();
        layout[16..20].copy_from_slice(&7u32.to_le_bytes());
        assert!(matches!(
            Checkpoint::from_bytes(&layout),
            Err(CheckpointError::Inputs(7))
        ));
        let mirrored = Checkpoint {
            net: c.net.clone().with_inputs(Inputs::MirroredByKing).unwrap(),
            optimiser: c.optimiser.clone(),
            epoch: 3,
        };
        let back = Checkpoint::from_bytes(&mirrored.to_bytes()).unwrap();
        assert_eq!(back.net.shape().inputs, Inputs::MirroredByKing);
        assert!(matches!(
            Checkpoint::from_bytes(b"HVNNUE01"),
            Err(CheckpointError::Magic)
        ));
        let mut zero = bytes.clone();
        zero[8..12].copy_from_slice(&0u32.to_le_bytes());
        assert!(matches!(
            Checkpoint::from_bytes(&zero),
            Err(CheckpointError::Shape { hidden: 0, .. })
        ));
        let mut many = bytes.clone();
        many[12..16].copy_from_slice(&1000u32.to_le_bytes());
        assert!(matches!(
            Checkpoint::from_bytes(&many),
            Err(CheckpointError::Shape { buckets: 1000, .. })
        ));
    }
}
