//! Random networks in the engine's file format, for tests and for
//! measuring the speed of inference before a trained network exists.

use eval::nnue::network::{Inputs, NetError, Network};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A network of `hidden` neurons and `buckets` output buckets with random
/// weights in the ranges a trained one has (the trainer clips every weight
/// to +/-1.98): first-layer weights up to +/-0.2, biases that leave most
/// neurons active, output weights up to +/-1. Hidden sizes above 256 may be
/// refused for output weights that could overflow.
pub fn random_network(hidden: usize, buckets: usize, seed: u64) -> Result<Network, NetError> {
    random_network_with(Inputs::Plain, hidden, buckets, seed)
}

/// [`random_network`] with the input layout `inputs`.
pub fn random_network_with(
    inputs: Inputs,
    hidden: usize,
    buckets: usize,
    seed: u64,
) -> Result<Network, NetError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut draw = |n: usize, lo: i16, hi: i16| -> Vec<i16> {
        (0..n).map(|_| rng.gen_range(lo..=hi)).collect()
    };
    let w1 = draw(inputs.features() * hidden, -51, 51);
    let b1 = draw(hidden, 0, 128);
    let w2 = draw(buckets * 2 * hidden, -64, 64);
    let b2 = draw(buckets, -2000, 2000)
        .into_iter()
        .map(i32::from)
        .collect();
    Network::new(inputs, w1, b1, w2, b2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_networks_are_reproducible_and_valid_files() {
        let a = random_network(32, 8, 9).unwrap();
        assert_eq!(a, random_network(32, 8, 9).unwrap());
        assert_ne!(a, random_network(32, 8, 10).unwrap());
        assert_eq!(a.buckets(), 8);
        assert_eq!(Network::from_bytes(&a.to_bytes()).unwrap(), a);
    }
}
