//! Arbitrary bytes into `uci::fuzz::session` (see there for what it checks).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| uci::fuzz::session(data));
