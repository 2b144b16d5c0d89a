//! The output layer: SCReLU of both accumulators, dotted with the output
//! weights, scaled to centipawns.

use super::network::{Network, FINE_STEPS};
use super::{QA, QB, SCALE};
use wide::{i16x32, i32x16};

/// `out = b2 + sum screlu(us) * W2[..H] + sum screlu(them) * W2[H..]` with
/// the output layer of `bucket`, in centipawns from the side to move's
/// point of view.
#[inline]
pub(crate) fn evaluate(net: &Network, bucket: usize, us: &[i16], them: &[i16]) -> i32 {
    let layer = net.output_layer(bucket);
    let sum = screlu_dot(us, layer.us) + screlu_dot(them, layer.them);
    let out = sum / i64::from(QA) + i64::from(layer.bias);
    (out * i64::from(SCALE) / i64::from(QA * QB)) as i32
}

/// `sum clamp(a, 0, QA)^2 * w` for the weights `w = coarse * FINE_STEPS +
/// fine`, exactly; the reference for the vectorised sum.
fn screlu_dot_scalar(acc: &[i16], (coarse, fine): (&[i16], &[i16])) -> i64 {
    acc.iter()
        .zip(coarse.iter().zip(fine))
        .map(|(&a, (&c, &f))| {
            let a = i64::from(a.clamp(0, QA as i16));
            a * a * (i64::from(c) * i64::from(FINE_STEPS) + i64::from(f))
        })
        .sum()
}

/// The same sum 32 lanes at a time, which `wide` turns into multiply-adds
/// of 16-bit pairs (one AVX-512 register, or two AVX2 ones):
/// `clamp(a) * coarse` and `clamp(a) * fine` fit in 16 bits, and each
/// part's sum in 32 (both checked when the network is read). Sixteen lanes
/// measured 2.2 times as fast as the scalar loop auto-vectorised for
/// x86-64-v2, and 1.4 times for the native AVX2 build (H = 128, one part);
/// 32 lanes were faster again where AVX-512 is there (docs/elo-log.md).
fn screlu_dot(acc: &[i16], (coarse, fine): (&[i16], &[i16])) -> i64 {
    const LANES: usize = 32;
    let zero = i16x32::ZERO;
    let qa = i16x32::splat(QA as i16);
    let lanes = |s: &[i16]| {
        let mut v = [0i16; LANES];
        v.copy_from_slice(s);
        i16x32::new(v)
    };
    let whole = acc.len() / LANES * LANES;
    let (mut coarse_sum, mut fine_sum) = (i32x16::ZERO, i32x16::ZERO);
    for ((a, c), f) in acc[..whole]
        .chunks_exact(LANES)
        .zip(coarse.chunks_exact(LANES))
        .zip(fine.chunks_exact(LANES))
    {
        let a = lanes(a).max(zero).min(qa);
        coarse_sum += (a * lanes(c)).dot(a);
        fine_sum += (a * lanes(f)).dot(a);
    }
    let tail = screlu_dot_scalar(&acc[whole..], (&coarse[whole..], &fine[whole..]));
    i64::from(coarse_sum.reduce_add()) * i64::from(FINE_STEPS)
        + i64::from(fine_sum.reduce_add())
        + tail
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vectorised_sum_is_the_exact_one() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: i32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % (2 * n as u64 + 1)) as i32 - n
        };
        for len in [16, 37, 256] {
            let acc: Vec<i16> = (0..len).map(|_| next(400) as i16).collect();
            let coarse: Vec<i16> = (0..len).map(|_| next(127) as i16).collect();
            let fine: Vec<i16> = (0..len).map(|_| (next(16) as i16).min(15)).collect();
            let exact: i64 = acc
                .iter()
                .zip(coarse.iter().zip(&fine))
                .map(|(&a, (&c, &f))| {
                    let a = i64::from(a.clamp(0, 255));
                    a * a * (i64::from(c) * 32 + i64::from(f))
                })
                .sum();
            assert_eq!(screlu_dot(&acc, (&coarse, &fine)), exact);
            assert_eq!(screlu_dot_scalar(&acc, (&coarse, &fine)), exact);
        }
    }
}
