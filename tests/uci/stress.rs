//! Protocol stress: the binary driven through long random (seeded)
//! interleavings of `position`, every kind of `go`, `stop`, `isready`,
//! `ponderhit`, `setoption`, `ucinewgame`, `uci` and junk, with short random
//! pauses. The test keeps its own model of what the engine must believe
//! (the position, the castling notation, the searches not yet answered)
//! and checks that:
//! - every `go` gets exactly one `bestmove`, legal in the position it was
//!   given and written in the notation of the mode;
//! - every `isready` gets its `readyok`;
//! - one `stop` ends every search asked for before it;
//! - no search output (`info` other than `info string`, `bestmove`) comes
//!   when every `go` has been answered;
//! - the process never dies, and exits cleanly on `quit`.
//!
//! `make test` runs a short form; `make stress` the long one. Environment:
//! `HOEVEN_STRESS_COMMANDS` (commands per run, default 2500) and
//! `HOEVEN_STRESS_SEEDS` (runs, default 1; each with its own seed).

use testkit::uci_harness as harness;

use chess::{chess960, Board, CastlingNotation};
use harness::{check_line, EngineProcess, Recv, SOON};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

const FENS: [&str; 10] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "nrk2rbq/pp4pp/4p3/b1p1Pp2/2pP4/5N2/PPB2nPP/RRK1N1BQ w Bfb f6 0 10",
    "1r1k2r1/8/8/8/8/8/8/1R1K2R1 w GBgb - 0 1",
    "2rkr3/8/8/8/8/8/8/1R1K2R1 b BGce - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    // Checkmated and stalemated: the answer is `bestmove (none)`.
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "8/8/8/8/8/5k2/3q4/5K2 w - - 0 1",
];

/// A search the engine owes a `bestmove` for.
struct Pending {
    board: Board,
    chess960: bool,
}

struct Driver {
    engine: EngineProcess,
    rng: StdRng,
    /// What the engine must hold once it has run every command sent so far.
    board: Board,
    chess960: bool,
    searches: VecDeque<Pending>,
    readies: usize,
    ucis: usize,
    gos: usize,
    bestmoves: usize,
}

impl Driver {
    fn new(seed: u64) -> Driver {
        Driver {
            engine: EngineProcess::start(),
            rng: StdRng::seed_from_u64(seed),
            board: Board::startpos(),
            chess960: false,
            searches: VecDeque::new(),
            readies: 0,
            ucis: 0,
            gos: 0,
            bestmoves: 0,
        }
    }

    fn send(&mut self, line: &str) {
        self.engine.send(line);
    }

    /// Reads whatever has arrived (waiting up to `wait` for the first line)
    /// and checks each line against the model.
    fn read(&mut self, wait: Duration) {
        let mut timeout = wait;
        loop {
            match self.engine.recv(timeout) {
                Recv::Line(line, _) => self.on_line(&line),
                Recv::Timeout => return,
                Recv::Closed => self.engine.fail("the engine died"),
            }
            timeout = Duration::ZERO;
        }
    }

    fn on_line(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("readyok") => {
                let expected = self.readies > 0;
                self.engine
                    .check(expected, || "readyok without isready".into());
                self.readies -= 1;
            }
            Some("bestmove") => {
                let Some(search) = self.searches.pop_front() else {
                    self.engine.fail("a bestmove nobody asked for");
                };
                self.bestmoves += 1;
                let best = words.next().unwrap_or("").to_string();
                let result = if search.board.legal_moves().is_empty() {
                    (best == "(none)")
                        .then_some(())
                        .ok_or(format!("'{best}' with no legal move"))
                } else {
                    check_line(&search.board, &[best], search.chess960)
                };
                if let Err(e) = result {
                    let fen = search.board.to_fen(CastlingNotation::Shredder);
                    self.engine.fail(&format!("bestmove in {fen}: {e}"));
                }
            }
            Some("info") if line.starts_with("info string") => {}
            Some("info") => {
                let running = !self.searches.is_empty();
                self.engine.check(running, || {
                    format!("search output after the last bestmove: {line}")
                });
            }
            Some("id" | "option") if self.ucis > 0 => {}
            Some("uciok") if self.ucis > 0 => self.ucis -= 1,
            _ => self.engine.fail(&format!("unexpected line '{line}'")),
        }
    }

    /// One random command, as a GUI (or a confused user) might send it.
    fn step(&mut self) {
        let roll = self.rng.gen_range(0..100);
        match roll {
            // A GUI may send `go` before the previous bestmove has been
            // read, but does not pile searches up: at most two are owed.
            0..=24 if self.searches.len() < 2 => self.go(),
            // One `stop` ends every search sent before it, the one still
            // waiting for its turn too.
            0..=24 => {
                self.send("stop");
                let deadline = Instant::now() + SOON;
                while !self.searches.is_empty() && Instant::now() < deadline {
                    self.read(Duration::from_millis(10));
                }
                if !self.searches.is_empty() {
                    self.engine.fail("searches still running long after stop");
                }
                self.go();
            }
            25..=44 => self.position(),
            45..=54 => self.send("stop"),
            55..=64 => {
                self.readies += 1;
                self.send("isready");
            }
            65..=69 => self.send("ponderhit"),
            70..=81 => self.setoption(),
            82..=85 => self.send("ucinewgame"),
            86..=87 => {
                self.ucis += 1;
                self.send("uci");
            }
            _ => self.junk(),
        }
        let pause = match self.rng.gen_range(0..20) {
            0 => self.rng.gen_range(10..40),
            1..=8 => self.rng.gen_range(0..4),
            _ => 0,
        };
        self.read(Duration::from_millis(pause));
    }

    fn go(&mut self) {
        let rng = &mut self.rng;
        let clock = |rng: &mut StdRng| {
            let (w, b) = (rng.gen_range(10..600), rng.gen_range(10..600));
            let (wi, bi) = (rng.gen_range(0..30), rng.gen_range(0..30));
            let mut s = format!("wtime {w} btime {b} winc {wi} binc {bi}");
            if rng.gen_bool(0.3) {
                s += &format!(" movestogo {}", rng.gen_range(1..40));
            }
            s
        };
        let args = match rng.gen_range(0..9) {
            0 => format!("depth {}", rng.gen_range(1..6)),
            1 => format!("nodes {}", rng.gen_range(1..4000)),
            2 => format!("movetime {}", rng.gen_range(1..30)),
            3 => clock(rng),
            4 => format!("mate {} movetime 20", rng.gen_range(1..4)),
            5 => "infinite".to_string(),
            6 => format!("ponder {}", clock(rng)),
            7 => {
                let moves: Vec<String> = self
                    .board
                    .legal_moves()
                    .iter()
                    .filter(|_| rng.gen_bool(0.3))
                    .map(|m| m.to_uci(self.chess960))
                    .collect();
                format!("depth 3 searchmoves {}", moves.join(" "))
            }
            _ => String::new(),
        };
        self.searches.push_back(Pending {
            board: self.board.clone(),
            chess960: self.chess960,
        });
        self.gos += 1;
        self.send(format!("go {args}").trim_end());
    }

    /// A setup and moves, sometimes malformed or with an illegal move; the
    /// model applies the engine's rules: a bad setup changes nothing, and
    /// the moves stop at the first one that does not read as legal.
    fn position(&mut self) {
        let (setup, board) = match self.rng.gen_range(0..10) {
            0 => ("startpos".to_string(), Some(Board::startpos())),
            1 => {
                let n = self.rng.gen_range(0..960);
                (format!("frc {n}"), chess960::start_position(n).ok())
            }
            2 => {
                let (w, b) = (self.rng.gen_range(0..960), self.rng.gen_range(0..960));
                (
                    format!("dfrc {w} {b}"),
                    chess960::double_start_position(w, b).ok(),
                )
            }
            3 => {
                let bad = [
                    "fen",
                    "fen 8/8/8 w - - 0 1",
                    "fen rnbqkbnr/pppppppp w KQkq",
                    "frc 960",
                    "dfrc 1",
                    "sideways",
                ];
                (bad[self.rng.gen_range(0..bad.len())].to_string(), None)
            }
            _ => {
                let fen = FENS[self.rng.gen_range(0..FENS.len())];
                (format!("fen {fen}"), Board::from_fen(fen).ok())
            }
        };
        let Some(mut board) = board else {
            self.send(&format!("position {setup}"));
            return;
        };
        let mut moves = Vec::new();
        for _ in 0..self.rng.gen_range(0..10) {
            let legal = board.legal_moves();
            let text = if legal.is_empty() || self.rng.gen_bool(0.05) {
                ["e2e5", "a1a1", "zz", "e1h1", "e8c8", "h7h8q", "0000"][self.rng.gen_range(0..7)]
                    .to_string()
            } else {
                let m = legal.as_slice()[self.rng.gen_range(0..legal.len())];
                // Now and then in the other castling notation, which the
                // engine reads where it is unambiguous.
                m.to_uci(self.chess960 ^ self.rng.gen_bool(0.1))
            };
            moves.push(text);
        }
        for text in &moves {
            match board.parse_uci_move(text, self.chess960) {
                Ok(m) => board.make_move(m),
                Err(_) => break,
            }
        }
        self.board = board;
        if moves.is_empty() && self.rng.gen_bool(0.5) {
            self.send(&format!("position {setup}"));
        } else {
            self.send(&format!("position {setup} moves {}", moves.join(" ")));
        }
    }

    fn setoption(&mut self) {
        let r = &mut self.rng;
        let line = match r.gen_range(0..9) {
            0 => format!("Hash value {}", [1, 2, 4, 8, 16, 32][r.gen_range(0..6)]),
            1 => format!("Threads value {}", r.gen_range(1..5)),
            2 => format!("MultiPV value {}", r.gen_range(1..4)),
            3 => {
                let on = r.gen_bool(0.5);
                self.chess960 = on;
                format!("UCI_Chess960 value {on}")
            }
            4 => "Clear Hash".to_string(),
            5 => format!("Ponder value {}", r.gen_bool(0.5)),
            6 => format!("Move Overhead value {}", r.gen_range(0..50)),
            7 => format!("UCI_ShowWDL value {}", r.gen_bool(0.5)),
            _ => [
                "Frobnicate value 3",
                "UCI_Chess960 value maybe",
                "Hash value lots",
                "Threads",
            ][r.gen_range(0..4)]
            .to_string(),
        };
        self.send(&format!("setoption name {line}"));
    }

    fn junk(&mut self) {
        let r = &mut self.rng;
        match r.gen_range(0..6) {
            0 => self.send(""),
            1 => self.send("   \t "),
            2 => {
                let bytes: Vec<u8> = (0..r.gen_range(1..60))
                    .map(|_| r.gen_range(1..=255u8))
                    .filter(|&b| b != b'\n')
                    .collect();
                let mut line = bytes;
                line.push(b'\n');
                // A random line can spell a real command (`quit` above
                // all); only lines whose first word is not one are sent.
                let first = String::from_utf8_lossy(&line)
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_string();
                if ![
                    "quit",
                    "stop",
                    "isready",
                    "go",
                    "uci",
                    "ponderhit",
                    "position",
                    "setoption",
                    "ucinewgame",
                    "d",
                    "eval",
                    "bench",
                    "debug",
                    "register",
                ]
                .contains(&first.as_str())
                {
                    self.engine.send_bytes(&line);
                }
            }
            3 => {
                // Bad parameters are reported and the search still runs.
                self.searches.push_back(Pending {
                    board: self.board.clone(),
                    chess960: self.chess960,
                });
                self.gos += 1;
                self.send("go depth x nodes -5 movetime 10 wtime abc");
            }
            4 => self.send("xyzzy plugh"),
            _ => {
                // Words after `isready` are ignored.
                self.readies += 1;
                self.send("isready now please");
            }
        }
    }
}

/// Ends a run: releases searches waiting for `stop` until every `go` has
/// its `bestmove`, and every `isready` its `readyok`.
fn settle(d: &mut Driver) {
    let deadline = Instant::now() + SOON;
    while !d.searches.is_empty() || d.readies > 0 || d.ucis > 0 {
        if Instant::now() > deadline {
            let (s, r) = (d.searches.len(), d.readies);
            d.engine.fail(&format!(
                "still owed {s} bestmoves and {r} readyoks after {SOON:?}"
            ));
        }
        if !d.searches.is_empty() {
            d.send("stop");
        }
        d.read(Duration::from_millis(50));
    }
    d.readies += 1;
    d.send("isready");
    d.read(Duration::from_millis(200));
    while d.readies > 0 {
        if Instant::now() > deadline {
            d.engine.fail("no readyok at the end");
        }
        d.read(Duration::from_millis(50));
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn random_command_interleavings_keep_the_protocol() {
    let _timing = harness::timing_shared();
    let commands = env_number("HOEVEN_STRESS_COMMANDS", 2500);
    let seeds = env_number("HOEVEN_STRESS_SEEDS", 1);
    for seed in 0..seeds {
        let mut d = Driver::new(0x5EED_0000 + seed);
        for _ in 0..commands {
            d.step();
        }
        settle(&mut d);
        let (gos, bestmoves) = (d.gos, d.bestmoves);
        assert_eq!(gos, bestmoves, "seed {seed}");
        assert!(
            gos as u64 > commands / 8,
            "seed {seed}: only {gos} searches"
        );
        let status = d.engine.quit(SOON);
        assert!(status.success(), "seed {seed}: exit status {status}");
        eprintln!("seed {seed}: {commands} commands, {gos} searches answered");
    }
}
