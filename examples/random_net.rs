//! Writes a network with random weights in the engine's format, to measure
//! the speed of inference before a trained network exists:
//! `cargo run --release --example random_net -- <path> [hidden] [buckets] [seed]`
//! (hidden 128, 1 output bucket and seed 1 by default).

use std::process::ExitCode;
use testkit::nets::random_network;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: random_net <path> [hidden] [buckets] [seed]");
        return ExitCode::from(2);
    };
    let number = |i: usize, default: u64| args.get(i).map_or(Ok(default), |s| s.parse::<u64>());
    let (Ok(hidden), Ok(buckets), Ok(seed)) = (number(1, 128), number(2, 1), number(3, 1)) else {
        eprintln!("random_net: hidden, buckets and seed are numbers");
        return ExitCode::from(2);
    };
    let net = match random_network(hidden as usize, buckets as usize, seed) {
        Ok(net) => net,
        Err(e) => {
            eprintln!("random_net: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = std::fs::write(path, net.to_bytes()) {
        eprintln!("random_net: cannot write {path}: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
