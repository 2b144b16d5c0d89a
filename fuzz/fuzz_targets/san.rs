//! Arbitrary bytes into `hoeven_suite::fuzz::san` (see there for what it checks).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hoeven_suite::fuzz::san(data));
