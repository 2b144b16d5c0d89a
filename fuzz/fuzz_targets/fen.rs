//! Arbitrary bytes into `testkit::fuzz::fen` (see there for what it checks).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| testkit::fuzz::fen(data));
