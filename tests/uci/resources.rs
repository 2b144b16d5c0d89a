//! Resources: many threads on few cores, memory with the default table, a
//! table too large for the machine, start-up time and leaving quickly.
//! The timed checks hold the binary's timing lock, so no other engine of
//! this binary competes for the cores while they are measured.

use testkit::uci_harness as harness;

use chess::Board;
use harness::{EngineProcess, SOON};
use std::time::{Duration, Instant};

const MIDDLEGAME: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn two_hundred_fifty_six_threads_search_and_quit_within_a_second() {
    let _timing = harness::timing_exclusive();
    let mut e = EngineProcess::start();
    e.set_option("Threads", "256");
    e.send(&format!("position fen {MIDDLEGAME}"));
    let board = Board::from_fen(MIDDLEGAME).unwrap();
    for go in [
        "movetime 300",
        "depth 6",
        "wtime 2000 btime 2000 winc 20 binc 20",
    ] {
        let search = e.go(go, SOON);
        e.check_search(&board, false, &search);
    }
    e.send("go infinite");
    e.wait_for_first_info();
    std::thread::sleep(Duration::from_millis(200));
    let sent = Instant::now();
    e.send("quit");
    let status = e.wait_exit(SOON);
    let took = sent.elapsed();
    eprintln!("quit with 256 threads searching: {took:?}");
    assert!(status.success(), "exit status {status}");
    assert!(
        took < Duration::from_secs(1),
        "quit with 256 threads searching took {took:?}"
    );
}

#[test]
fn start_up_to_uciok_takes_under_50_ms() {
    let _timing = harness::timing_exclusive();
    // The best of several starts: the time the engine needs, not the
    // scheduler's worst moment on a shared machine.
    let best = (0..7)
        .map(|_| {
            let started = Instant::now();
            let mut e = EngineProcess::start_unopened();
            e.send("uci");
            e.expect("uciok", SOON, |l| l == "uciok");
            let took = started.elapsed();
            e.quit(SOON);
            took
        })
        .min()
        .unwrap();
    eprintln!("start-up to uciok, best of 7: {best:?}");
    assert!(
        best < Duration::from_millis(50),
        "start-up to uciok: {best:?}"
    );
}

/// Peak resident memory (VmHWM) of a process, in bytes.
#[cfg(target_os = "linux")]
fn peak_memory(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    let kb: u64 = line[6..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .unwrap();
    kb * 1024
}

#[cfg(target_os = "linux")]
#[test]
fn default_settings_use_under_64_mb() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    e.handshake();
    e.send(&format!("position fen {MIDDLEGAME}"));
    let board = Board::from_fen(MIDDLEGAME).unwrap();
    let search = e.go("depth 12", SOON);
    e.check_search(&board, false, &search);
    let peak = peak_memory(e.pid());
    eprintln!("peak resident memory after depth 12: {} kB", peak >> 10);
    // The 16 MB table is written when it is made, so it is all resident.
    assert!(peak > 16 << 20, "peak {} MB: not measured?", peak >> 20);
    assert!(peak < 64 << 20, "peak resident memory {} MB", peak >> 20);
    e.quit(SOON);
}

#[test]
fn a_hash_larger_than_the_machine_keeps_the_old_table() {
    let _timing = harness::timing_shared();
    let mut e = EngineProcess::start();
    e.set_option("Hash", "32");
    let out = e.command("setoption name Hash value 1048576");
    e.check(
        out.len() == 1
            && out[0].starts_with("info string error:")
            && out[0].contains("keeping 32 MB"),
        || format!("expected one error keeping 32 MB, got {out:?}"),
    );
    e.send("position startpos");
    let search = e.go("depth 8", SOON);
    e.check_search(&Board::startpos(), false, &search);
}
