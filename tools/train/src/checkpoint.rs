//! Training checkpoints: the float parameters, the optimiser's moments and
//! the epoch reached, enough to resume a run where it stopped (each epoch's
//! shuffle depends on the seed and the epoch alone).
//!
//! Layout, little-endian: magic `HVTRAIN2`, H (u32), output buckets (u32),
//! epoch (u32), optimiser steps (u64), then the parameters, m and v (f32
//! each, the network's flat order).

use crate::adamw::AdamW;
use crate::network::{Network, Shape};
use std::fmt;
use std::path::Path;

const MAGIC: &[u8; 8] = b"HVTRAIN2";
const HEADER: usize = 28;

pub struct Checkpoint {
    pub net: Network,
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
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Io(e) => write!(f, "{e}"),
            CheckpointError::Magic => write!(f, "not a checkpoint: no HVTRAIN2 magic"),
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
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(CheckpointError::Magic);
        }
        let u32_at = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let (hidden, buckets) = (u32_at(8), u32_at(12));
        let epoch = u32_at(16) as usize;
        let mut steps = [0u8; 8];
        steps.copy_from_slice(&bytes[20..28]);
        let error = CheckpointError::Shape {
            hidden,
            buckets,
            len: bytes.len(),
        };
        let shape = Shape {
            hidden: hidden as usize,
            buckets: buckets as usize,
        };
        if !shape.is_valid() {
            return Err(error);
        }
        let n = Network::param_count(shape);
        if bytes.len() != HEADER + 12 * n {
            return Err(error);
        }
        let mut floats = bytes[HEADER..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let params = floats.by_ref().take(n).collect();
        let m = floats.by_ref().take(n).collect();
        let v = floats.collect();
        let net = Network::from_params(shape, params).ok_or(error)?;
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
        let net = Network::random(
            Shape {
                hidden: 8,
                buckets: 3,
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
