//! The lock that keeps the timed tests of a binary from sharing the cores.

/// Tests that time the engine (the 100 ms answers to `isready` and `stop`,
/// short clocks) take this lock exclusively, and the other tests of their
/// binary take it shared, so that no other engine of the same test binary
/// competes for the two CPU cores while a timing is measured.
static TIMING: std::sync::RwLock<()> = std::sync::RwLock::new(());

/// Held by a test that measures response times: no other test of the binary runs.
pub fn timing_exclusive() -> std::sync::RwLockWriteGuard<'static, ()> {
    TIMING
        .write()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Held by every other test of a binary that has timing tests.
pub fn timing_shared() -> std::sync::RwLockReadGuard<'static, ()> {
    TIMING
        .read()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
