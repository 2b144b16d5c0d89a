//! Arbitrary bytes into `testkit::fuzz::san` (see there for what it checks).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| testkit::fuzz::san(data));
