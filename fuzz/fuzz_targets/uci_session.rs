//! Arbitrary bytes into `testkit::fuzz::uci_session` (see there for what it checks).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| testkit::fuzz::uci_session(data));
