//! The output layer: SCReLU of both accumulators, dotted with the output
//! weights, scaled to centipawns.

use super::network::{Network, MAX_OUTPUT_WEIGHT};
use super::{QA, QB, SCALE};
use wide::{i16x32, i32x16};

/// `out = b2 + sum screlu(us) * W2[..H] + sum screlu(them) * W2[H..]` with
/// the output layer of `bucket`, in centipawns from the side to move's
/// point of view.
#[inline]
pub(crate) fn evaluate(net: &Network, bucket: usize, us: &[i16], them: &[i16]) -> i32 {
    let layer = net.output_layer(bucket);
    let sum = shifted_dot(us, layer.us) + shifted_dot(them, layer.them) + layer.shift;
    let out = sum / i64::from(QA) + i64::from(layer.bias);
    (out * i64::from(SCALE) / i64::from(QA * QB)) as i32
}

/// What [`shifted_dot`] takes from each activation's square: the square
/// (at most `QA^2` = 65025) less this fits a signed 16-bit lane.
pub(crate) const SQUARE_SHIFT: i64 = 1 << 15;

/// Chunks of 32 activations that a 32-bit lane sums without overflow: it
/// takes two products a chunk, each at most `SQUARE_SHIFT *
/// MAX_OUTPUT_WEIGHT` in magnitude.
const CHUNKS_PER_BLOCK: usize = 8;
const _: () = assert!(
    2 * CHUNKS_PER_BLOCK as i64 * SQUARE_SHIFT * MAX_OUTPUT_WEIGHT as i64 <= i32::MAX as i64
);

/// `sum (clamp(a, 0, QA)^2 - SQUARE_SHIFT) * w`, exactly; the reference for
/// the vectorised sum.
fn shifted_dot_scalar(acc: &[i16], weights: &[i16]) -> i64 {
    acc.iter()
        .zip(weights)
        .map(|(&a, &w)| {
            let a = i64::from(a.clamp(0, QA as i16));
            (a * a - SQUARE_SHIFT) * i64::from(w)
        })
        .sum()
}

/// The same sum 32 lanes at a time, in one 16-bit multiply and one
/// multiply-add of 16-bit pairs (`wide` gives one AVX-512 register or two
/// AVX2 ones): the square of a clipped activation wraps in 16 bits, and
/// flipping its top bit takes [`SQUARE_SHIFT`] off it exactly. The caller
/// adds back `SQUARE_SHIFT * sum w` (the layer's `shift`), which makes the
/// total exactly `sum clamp(a)^2 * w`. Each lane's sum goes to 64 bits
/// after every block of [`CHUNKS_PER_BLOCK`] chunks.
fn shifted_dot(acc: &[i16], weights: &[i16]) -> i64 {
    const LANES: usize = 32;
    const BLOCK: usize = LANES * CHUNKS_PER_BLOCK;
    let zero = i16x32::ZERO;
    let qa = i16x32::splat(QA as i16);
    let top_bit = i16x32::splat(i16::MIN);
    let lanes = |s: &[i16]| {
        let mut v = [0i16; LANES];
        v.copy_from_slice(s);
        i16x32::new(v)
    };
    let whole = acc.len() / LANES * LANES;
    let mut total = 0i64;
    for (a_block, w_block) in acc[..whole]
        .chunks(BLOCK)
        .zip(weights[..whole].chunks(BLOCK))
    {
        let mut sum = i32x16::ZERO;
        for (a, w) in a_block.chunks_exact(LANES).zip(w_block.chunks_exact(LANES)) {
            let a = lanes(a).max(zero).min(qa);
            sum += ((a * a) ^ top_bit).dot(lanes(w));
        }
        total += sum.to_array().iter().map(|&s| i64::from(s)).sum::<i64>();
    }
    total + shifted_dot_scalar(&acc[whole..], &weights[whole..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exact(acc: &[i16], weights: &[i16]) -> i64 {
        acc.iter()
            .zip(weights)
            .map(|(&a, &w)| {
                let a = i64::from(a.clamp(0, 255));
                a * a * i64::from(w)
            })
            .sum()
    }

    fn shift(weights: &[i16]) -> i64 {
        SQUARE_SHIFT * weights.iter().map(|&w| i64::from(w)).sum::<i64>()
    }

    #[test]
    fn the_vectorised_sum_is_the_exact_one() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: i32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % (2 * n as u64 + 1)) as i32 - n
        };
        for len in [16, 37, 256, 1000] {
            let acc: Vec<i16> = (0..len).map(|_| next(400) as i16).collect();
            let weights: Vec<i16> = (0..len).map(|_| next(4064) as i16).collect();
            let exact = exact(&acc, &weights);
            assert_eq!(shifted_dot(&acc, &weights) + shift(&weights), exact);
            assert_eq!(shifted_dot_scalar(&acc, &weights) + shift(&weights), exact);
        }
    }

    #[test]
    fn the_largest_weights_on_the_widest_layer_do_not_overflow() {
        let len = super::super::network::MAX_HIDDEN;
        for (a, w) in [
            (255, MAX_OUTPUT_WEIGHT),
            (255, -MAX_OUTPUT_WEIGHT),
            (0, MAX_OUTPUT_WEIGHT),
        ] {
            let acc = vec![a; len];
            let weights = vec![w; len];
            assert_eq!(
                shifted_dot(&acc, &weights) + shift(&weights),
                exact(&acc, &weights)
            );
        }
    }
}
