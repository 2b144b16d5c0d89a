//! A harness for driving the `hoeven` binary over pipes, shared by the
//! integration tests in `tests/`.
//!
//! Standard output is read on a thread of its own and handed over through a
//! channel, so every read has a timeout and a silent or stuck engine fails
//! the test instead of hanging the suite. The child is killed when the
//! [`EngineProcess`] is dropped, which also happens while a failed test unwinds.
//! Failures print the tail of the conversation and the engine's stderr.

use crate::workspace_root;
use movegen::{Board, Move};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// A generous limit for anything that should come back "soon" (commands,
/// short searches) on a loaded two-core machine.
pub const SOON: Duration = Duration::from_secs(20);

/// The binary under test: `$HOEVEN_BIN`, else `<workspace>/target/release/hoeven`
/// (under `$CARGO_TARGET_DIR` instead when that is set), built once with
/// cargo if it is missing.
pub fn binary() -> PathBuf {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY
        .get_or_init(|| {
            if let Some(path) = std::env::var_os("HOEVEN_BIN") {
                let path = PathBuf::from(path);
                assert!(
                    path.is_file(),
                    "HOEVEN_BIN={} is not a file",
                    path.display()
                );
                return path;
            }
            let root = workspace_root();
            // Where cargo builds: $CARGO_TARGET_DIR if set, else target/.
            let target = std::env::var_os("CARGO_TARGET_DIR")
                .map_or_else(|| root.join("target"), |dir| root.join(dir));
            let path = target
                .join("release")
                .join(format!("hoeven{}", std::env::consts::EXE_SUFFIX));
            if !path.is_file() {
                let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
                let status = Command::new(&cargo)
                    .args(["build", "--release", "-p", "hoeven", "--bin", "hoeven"])
                    .current_dir(root)
                    .status()
                    .unwrap_or_else(|e| panic!("could not run {cargo} to build hoeven: {e}"));
                assert!(status.success(), "building hoeven failed: {status}");
            }
            assert!(path.is_file(), "no hoeven binary at {}", path.display());
            path
        })
        .clone()
}

/// What one read from the engine gave.
pub enum Recv {
    /// A line, and when the reader thread read it.
    Line(String, Instant),
    Timeout,
    /// Standard output closed: the engine exited.
    Closed,
}

/// A running engine.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(String, Instant)>,
    stderr: Arc<Mutex<String>>,
    transcript: Vec<String>,
    /// What the engine answered the opening `uci` and `isready` with.
    greeting: Vec<String>,
}

impl EngineProcess {
    /// Starts the engine in UCI mode and opens the conversation as a GUI
    /// does: `uci`, then `isready` (see [`greeting`](Self::greeting)).
    pub fn start() -> EngineProcess {
        EngineProcess::start_binary(&binary())
    }

    /// Starts another build of the engine, opened as [`start`](Self::start) opens it.
    #[track_caller]
    pub fn start_binary(path: &Path) -> EngineProcess {
        EngineProcess::spawn(Command::new(path)).opened()
    }

    /// Starts the engine with `dir` as its working directory, opened as
    /// [`start`](Self::start) opens it.
    #[track_caller]
    pub fn start_in(dir: &Path) -> EngineProcess {
        let mut command = Command::new(binary());
        command.current_dir(dir);
        EngineProcess::spawn(command).opened()
    }

    /// Starts the engine and sends it nothing.
    pub fn start_unopened() -> EngineProcess {
        EngineProcess::spawn(Command::new(binary()))
    }

    #[track_caller]
    fn opened(mut self) -> EngineProcess {
        let mut greeting = self.handshake();
        greeting.extend(self.sync());
        self.greeting = greeting;
        self
    }

    /// The lines that answered the opening: everything up to `uciok`, then
    /// what came before the first `readyok`.
    pub fn greeting(&self) -> &[String] {
        &self.greeting
    }

    fn spawn(mut command: Command) -> EngineProcess {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("could not start {command:?}: {e}"));
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf)
                            .trim_end_matches(['\n', '\r'])
                            .to_string();
                        if tx.send((line, Instant::now())).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut err_pipe = child.stderr.take().expect("piped stderr");
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err_pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                if let Ok(mut s) = sink.lock() {
                    s.push_str(&String::from_utf8_lossy(&buf[..n]));
                }
            }
        });
        let stdin = child.stdin.take();
        EngineProcess {
            child,
            stdin,
            lines: rx,
            stderr,
            transcript: Vec::new(),
            greeting: Vec::new(),
        }
    }

    /// Fails the test with `message`, the end of the conversation and stderr.
    #[track_caller]
    pub fn fail(&mut self, message: &str) -> ! {
        let _ = self.child.kill();
        let tail: Vec<&String> = self.transcript.iter().rev().take(80).collect();
        let tail: Vec<&str> = tail.into_iter().rev().map(String::as_str).collect();
        let stderr = self.stderr.lock().map(|s| s.clone()).unwrap_or_default();
        panic!(
            "{message}\n--- last lines of the conversation (> sent, < received) ---\n{}\n--- stderr ---\n{}",
            tail.join("\n"),
            clip(&stderr, 4000)
        );
    }

    /// Asserts `cond`, failing with the conversation otherwise.
    #[track_caller]
    pub fn check(&mut self, cond: bool, message: impl FnOnce() -> String) {
        if !cond {
            let m = message();
            self.fail(&m);
        }
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Adds to the conversation kept for failure messages; only the most
    /// recent part is kept, so that long stress runs stay small.
    fn note(&mut self, entry: String) {
        const KEEP: usize = 4000;
        if self.transcript.len() >= 2 * KEEP {
            self.transcript.drain(..KEEP);
        }
        self.transcript.push(entry);
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Sends raw bytes, which need not be UTF-8 or end in a newline.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.note(format!(
            "> {}",
            clip(&String::from_utf8_lossy(bytes), 200).trim_end()
        ));
        let result = match self.stdin.as_mut() {
            Some(stdin) => stdin.write_all(bytes).and_then(|_| stdin.flush()),
            None => Err(std::io::Error::other("stdin already closed")),
        };
        if let Err(e) = result {
            self.fail(&format!("writing to the engine failed: {e}"));
        }
    }

    /// Closes the engine's standard input (end of file).
    pub fn close_stdin(&mut self) {
        self.note("> <end of input>".to_string());
        self.stdin = None;
    }

    /// The next line within `timeout`.
    pub fn recv(&mut self, timeout: Duration) -> Recv {
        match self.lines.recv_timeout(timeout) {
            Ok((line, at)) => {
                self.note(format!("< {}", clip(&line, 300)));
                Recv::Line(line, at)
            }
            Err(RecvTimeoutError::Timeout) => Recv::Timeout,
            Err(RecvTimeoutError::Disconnected) => Recv::Closed,
        }
    }

    /// Reads until a line satisfies `pred` and returns every line read,
    /// the matching one last, and when that one arrived. Fails on timeout
    /// or if the engine exits.
    #[track_caller]
    pub fn read_until_at(
        &mut self,
        what: &str,
        timeout: Duration,
        pred: impl Fn(&str) -> bool,
    ) -> (Vec<String>, Instant) {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Recv::Line(line, at) => {
                    let done = pred(&line);
                    lines.push(line);
                    if done {
                        return (lines, at);
                    }
                }
                Recv::Timeout => {
                    self.fail(&format!("timed out after {timeout:?} waiting for {what}"))
                }
                Recv::Closed => self.fail(&format!("the engine exited while we waited for {what}")),
            }
        }
    }

    #[track_caller]
    pub fn read_until(
        &mut self,
        what: &str,
        timeout: Duration,
        pred: impl Fn(&str) -> bool,
    ) -> Vec<String> {
        self.read_until_at(what, timeout, pred).0
    }

    /// Waits for a line satisfying `pred`, skipping others; returns it.
    #[track_caller]
    pub fn expect(&mut self, what: &str, timeout: Duration, pred: impl Fn(&str) -> bool) -> String {
        let mut lines = self.read_until(what, timeout, pred);
        lines.pop().unwrap_or_default()
    }

    /// Collects whatever arrives during `duration`.
    pub fn lines_for(&mut self, duration: Duration) -> Vec<String> {
        let deadline = Instant::now() + duration;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return lines;
            }
            match self.recv(left) {
                Recv::Line(line, _) => lines.push(line),
                Recv::Timeout | Recv::Closed => return lines,
            }
        }
    }

    /// Fails if a `bestmove` (or anything matching `forbidden`) arrives within `duration`.
    #[track_caller]
    pub fn assert_no_bestmove_for(&mut self, duration: Duration, why: &str) {
        let lines = self.lines_for(duration);
        if let Some(l) = lines.iter().find(|l| is_bestmove(l)) {
            let l = l.clone();
            self.fail(&format!("'{l}' arrived within {duration:?}, but {why}"));
        }
    }

    /// Sends `isready` and returns the lines that came before `readyok`.
    #[track_caller]
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until("readyok", SOON, |l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends a command that does not search, and returns its output (every
    /// line before the `readyok` of an `isready` sent right after it).
    #[track_caller]
    pub fn command(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.sync()
    }

    /// Like [`command`](Self::command), and fails if the command printed anything.
    #[track_caller]
    pub fn quiet_command(&mut self, line: &str) {
        let out = self.command(line);
        self.check(out.is_empty(), || {
            format!("'{line}' should print nothing, printed {out:?}")
        });
    }

    /// `setoption name <name> value <value>`; fails if it prints anything.
    #[track_caller]
    pub fn set_option(&mut self, name: &str, value: &str) {
        self.quiet_command(&format!("setoption name {name} value {value}"));
    }

    /// `uci` up to `uciok`; returns all lines.
    #[track_caller]
    pub fn handshake(&mut self) -> Vec<String> {
        self.send("uci");
        self.read_until("uciok", SOON, |l| l == "uciok")
    }

    /// The current position's FEN (X-FEN) and Shredder-FEN as `d` shows them.
    #[track_caller]
    pub fn fens(&mut self) -> (String, String) {
        let out = self.command("d");
        let find = |prefix: &str| {
            out.iter()
                .find_map(|l| l.strip_prefix(prefix))
                .map(str::to_string)
        };
        match (find("Fen: "), find("Shredder-FEN: ")) {
            (Some(f), Some(s)) => (f, s),
            _ => self.fail(&format!("'d' printed no Fen:/Shredder-FEN: line: {out:?}")),
        }
    }

    /// The current position's FEN as `d` shows it.
    #[track_caller]
    pub fn fen(&mut self) -> String {
        self.fens().0
    }

    /// The `d` output line starting with `prefix`, without the prefix.
    #[track_caller]
    pub fn d_field(&mut self, prefix: &str) -> String {
        let out = self.command("d");
        match out.iter().find_map(|l| l.strip_prefix(prefix)) {
            Some(v) => v.to_string(),
            None => self.fail(&format!("'d' printed no '{prefix}' line: {out:?}")),
        }
    }

    /// Sends `go <args>`, waits for its `bestmove` and checks that nothing
    /// follows it (the next line after an `isready` is `readyok`).
    #[track_caller]
    pub fn go(&mut self, args: &str, timeout: Duration) -> Search {
        let sent = Instant::now();
        self.send(&format!("go {args}"));
        let search = self.finish_search(sent, timeout);
        self.assert_idle();
        search
    }

    /// Reads up to the `bestmove` of a search already started at `sent`.
    #[track_caller]
    pub fn finish_search(&mut self, sent: Instant, timeout: Duration) -> Search {
        let (lines, at) = self.read_until_at("bestmove", timeout, is_bestmove);
        match Search::parse(lines, at.saturating_duration_since(sent)) {
            Ok(s) => s,
            Err(e) => self.fail(&e),
        }
    }

    /// Waits for a search's first `info depth` line: it is running.
    #[track_caller]
    pub fn wait_for_first_info(&mut self) {
        self.expect("the search's first info line", SOON, |l| {
            l.starts_with("info depth")
        });
    }

    /// Checks that the engine has nothing more to say: after `isready` the
    /// very next line is `readyok` (no stray bestmove or info).
    #[track_caller]
    pub fn assert_idle(&mut self) {
        let extra = self.sync();
        self.check(extra.is_empty(), || {
            format!("the engine printed {extra:?} after its bestmove")
        });
    }

    /// Sends `quit` (or closes input) and waits for the process to exit.
    #[track_caller]
    pub fn quit(mut self, timeout: Duration) -> std::process::ExitStatus {
        self.send("quit");
        self.wait_exit(timeout)
    }

    /// Waits for the process to exit on its own.
    #[track_caller]
    pub fn wait_exit(&mut self, timeout: Duration) -> std::process::ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return status,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                Ok(None) => self.fail(&format!("the engine did not exit within {timeout:?}")),
                Err(e) => self.fail(&format!("waiting for the engine failed: {e}")),
            }
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Shortens `s` to at most `max` characters for messages.
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let head: String = s.chars().take(max).collect();
        format!("{head}... ({} bytes)", s.len())
    }
}

pub fn is_bestmove(line: &str) -> bool {
    line.split_whitespace().next() == Some("bestmove")
}

/// A UCI score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i64),
    Mate(i64),
}

/// An `info` line, read strictly: every keyword must be known and every
/// numeric field an integer.
#[derive(Clone, Debug, Default)]
pub struct Info {
    pub raw: String,
    pub depth: Option<i64>,
    pub seldepth: Option<i64>,
    pub multipv: Option<i64>,
    pub score: Option<Score>,
    /// `lowerbound` or `upperbound`.
    pub bound: Option<String>,
    pub wdl: Option<[i64; 3]>,
    pub nodes: Option<i64>,
    pub nps: Option<i64>,
    pub time: Option<i64>,
    pub hashfull: Option<i64>,
    pub tbhits: Option<i64>,
    pub currmove: Option<String>,
    pub currmovenumber: Option<i64>,
    pub pv: Vec<String>,
    pub string: Option<String>,
}

/// Whether `s` looks like a UCI move (`e2e4`, `e7e8q`).
pub fn looks_like_move(s: &str) -> bool {
    let b = s.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    (b.len() == 4 || (b.len() == 5 && b"qrbn".contains(&b[4])))
        && square(b[0], b[1])
        && square(b[2], b[3])
}

impl Info {
    pub fn parse(line: &str) -> Result<Info, String> {
        let err = |what: &str| Err(format!("bad info line ({what}): '{line}'"));
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"info") {
            return err("does not start with 'info'");
        }
        let mut info = Info {
            raw: line.to_string(),
            ..Info::default()
        };
        let int = |i: usize| -> Result<i64, String> {
            words
                .get(i)
                .and_then(|w| w.parse::<i64>().ok())
                .ok_or_else(|| {
                    format!(
                        "bad info line (field '{}' needs an integer): '{line}'",
                        words[i - 1]
                    )
                })
        };
        let mut i = 1;
        while i < words.len() {
            let key = words[i];
            match key {
                "depth" | "seldepth" | "multipv" | "nodes" | "nps" | "time" | "hashfull"
                | "tbhits" | "currmovenumber" => {
                    let v = int(i + 1)?;
                    if v < 0 {
                        return err("negative count");
                    }
                    let slot = match key {
                        "depth" => &mut info.depth,
                        "seldepth" => &mut info.seldepth,
                        "multipv" => &mut info.multipv,
                        "nodes" => &mut info.nodes,
                        "nps" => &mut info.nps,
                        "time" => &mut info.time,
                        "hashfull" => &mut info.hashfull,
                        "tbhits" => &mut info.tbhits,
                        _ => &mut info.currmovenumber,
                    };
                    if slot.replace(v).is_some() {
                        return err("repeated field");
                    }
                    i += 2;
                }
                "score" => {
                    let v = int(i + 2)?;
                    info.score = Some(match words.get(i + 1) {
                        Some(&"cp") => Score::Cp(v),
                        Some(&"mate") => Score::Mate(v),
                        _ => return err("score is neither cp nor mate"),
                    });
                    i += 3;
                    if let Some(&b @ ("lowerbound" | "upperbound")) = words.get(i) {
                        info.bound = Some(b.to_string());
                        i += 1;
                    }
                }
                "wdl" => {
                    info.wdl = Some([int(i + 1)?, int(i + 2)?, int(i + 3)?]);
                    i += 4;
                }
                "currmove" => {
                    match words.get(i + 1) {
                        Some(m) if looks_like_move(m) => info.currmove = Some(m.to_string()),
                        _ => return err("currmove is not a move"),
                    }
                    i += 2;
                }
                "pv" => {
                    info.pv = words[i + 1..].iter().map(|s| s.to_string()).collect();
                    if info.pv.is_empty() || !info.pv.iter().all(|m| looks_like_move(m)) {
                        return err("pv is empty or holds a non-move");
                    }
                    i = words.len();
                }
                "string" => {
                    info.string = Some(words[i + 1..].join(" "));
                    i = words.len();
                }
                _ => return err(&format!("unknown keyword '{key}'")),
            }
        }
        Ok(info)
    }
}

/// The output of one search, up to and including its `bestmove`.
#[derive(Clone, Debug)]
pub struct Search {
    pub lines: Vec<String>,
    /// Every `info` line other than `info string`, parsed.
    pub infos: Vec<Info>,
    pub bestmove: String,
    pub ponder: Option<String>,
    /// From sending `go` (or whatever the caller timed from) to the `bestmove`.
    pub elapsed: Duration,
}

impl Search {
    fn parse(lines: Vec<String>, elapsed: Duration) -> Result<Search, String> {
        let mut infos = Vec::new();
        let (last, before) = lines.split_last().ok_or("no lines")?;
        for l in before {
            if l.starts_with("info string") {
                continue;
            }
            if is_bestmove(l) {
                return Err(format!("two bestmoves in one search: {lines:?}"));
            }
            if !l.starts_with("info ") {
                return Err(format!("unexpected line during a search: '{l}'"));
            }
            infos.push(Info::parse(l)?);
        }
        let words: Vec<&str> = last.split_whitespace().collect();
        let (bestmove, ponder) = match words.as_slice() {
            ["bestmove", b] => (b.to_string(), None),
            ["bestmove", b, "ponder", p] => (b.to_string(), Some(p.to_string())),
            _ => return Err(format!("malformed bestmove line '{last}'")),
        };
        if bestmove != "(none)" && !looks_like_move(&bestmove) {
            return Err(format!("bestmove '{bestmove}' is not a move"));
        }
        if ponder.as_deref().is_some_and(|p| !looks_like_move(p)) {
            return Err(format!("ponder move in '{last}' is not a move"));
        }
        Ok(Search {
            lines,
            infos,
            bestmove,
            ponder,
            elapsed,
        })
    }

    /// Infos that carry a principal variation.
    pub fn pv_infos(&self) -> Vec<&Info> {
        self.infos.iter().filter(|i| !i.pv.is_empty()).collect()
    }

    /// The last info line before the bestmove.
    pub fn last_info(&self) -> Option<&Info> {
        self.infos.last()
    }

    /// The score of the last info line.
    pub fn final_score(&self) -> Option<Score> {
        self.last_info().and_then(|i| i.score)
    }

    /// The checks every normal search must pass: the last info before the
    /// bestmove has an exact score; the last main line (multipv 1, or no
    /// multipv) starts with the bestmove, and the ponder move, if any, is its
    /// second move when it has one; the lines reported after the main line
    /// (the other MultiPV lines) have exact scores too.
    pub fn check_final_report(&self) -> Result<(), String> {
        let last = self
            .last_info()
            .ok_or_else(|| format!("no info line before the bestmove: {:?}", self.lines))?;
        if last.score.is_none() || last.bound.is_some() {
            return Err(format!(
                "last info before the bestmove must have an exact score: '{}'",
                last.raw
            ));
        }
        let main_at = self
            .infos
            .iter()
            .rposition(|i| !i.pv.is_empty() && matches!(i.multipv, None | Some(1)))
            .ok_or_else(|| format!("no main line before the bestmove: {:?}", self.lines))?;
        let main = &self.infos[main_at];
        for i in &self.infos[main_at..] {
            if i.score.is_none() || i.bound.is_some() || i.pv.is_empty() {
                return Err(format!(
                    "the final lines must have exact scores and pvs: '{}'",
                    i.raw
                ));
            }
        }
        if main.pv.first() != Some(&self.bestmove) {
            return Err(format!(
                "the last main pv should start with the bestmove {}: '{}'",
                self.bestmove, main.raw
            ));
        }
        if let (Some(p), Some(second)) = (&self.ponder, main.pv.get(1)) {
            if p != second {
                return Err(format!(
                    "ponder {p} is not the pv's second move {second}: '{}'",
                    main.raw
                ));
            }
        }
        Ok(())
    }
}

/// The board after `moves` (UCI strings in the given notation) from `fen`.
pub fn board_after(fen: &str, moves: &[&str], chess960: bool) -> Board {
    let mut board = Board::from_fen(fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e}"));
    for m in moves {
        let mv = find_move(&board, m, chess960)
            .unwrap_or_else(|| panic!("{m} is not legal in {fen} after {moves:?}"));
        board.make_move(mv);
    }
    board
}

/// The legal move written exactly `text` in the given notation.
pub fn find_move(board: &Board, text: &str, chess960: bool) -> Option<Move> {
    board
        .legal_moves()
        .iter()
        .copied()
        .find(|m| m.to_uci(chess960) == text)
}

/// Checks that `line` is a legal sequence of moves from `board`, each in
/// exactly the notation of the mode.
pub fn check_line(board: &Board, line: &[String], chess960: bool) -> Result<(), String> {
    let mut b = board.clone();
    for (i, text) in line.iter().enumerate() {
        match find_move(&b, text, chess960) {
            Some(m) => b.make_move(m),
            None => {
                return Err(format!(
                    "move {} of {line:?}, '{text}', is not a legal move written in {} notation",
                    i + 1,
                    if chess960 { "Chess960" } else { "standard" }
                ))
            }
        }
    }
    Ok(())
}

impl EngineProcess {
    /// Checks a finished search from `board`: the bestmove is legal and in
    /// the notation of the mode, the final report is consistent, and every
    /// PV is a legal line.
    #[track_caller]
    pub fn check_search(&mut self, board: &Board, chess960: bool, search: &Search) {
        let problem = check_line(board, std::slice::from_ref(&search.bestmove), chess960)
            .map_err(|e| format!("bestmove: {e}"))
            .and_then(|_| search.check_final_report())
            .and_then(|_| {
                search
                    .pv_infos()
                    .iter()
                    .try_for_each(|i| check_line(board, &i.pv, chess960))
            })
            .and_then(|_| match &search.ponder {
                Some(p) => check_line(board, &[search.bestmove.clone(), p.clone()], chess960)
                    .map_err(|e| format!("ponder: {e}")),
                None => Ok(()),
            });
        if let Err(e) = problem {
            self.fail(&e);
        }
    }
}

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

/// What a Python test script printed, and how it ended.
pub struct ScriptRun {
    pub status: std::process::ExitStatus,
    pub stdout: String,
    pub stderr: String,
    /// Both streams, clipped, for failure messages.
    pub report: String,
}

/// Runs `tests/python/<script>` with `$PYTHON` (default `python3`) and
/// `args`, killing it past `limit`. Fails the test, saying why, when Python
/// or python-chess is missing or the script does not finish in time.
pub fn run_python(script: &str, args: &[&std::ffi::OsStr], limit: Duration) -> ScriptRun {
    run_python_file(&Path::new("tests/python").join(script), args, limit)
}

/// [`run_python`] for a script elsewhere in the workspace (a helper under
/// `scripts/`), `path` relative to the workspace root.
pub fn run_python_file(path: &Path, args: &[&std::ffi::OsStr], limit: Duration) -> ScriptRun {
    let script = path.display();
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string());
    let probe = Command::new(&python)
        .args(["-c", "import chess, chess.engine"])
        .output();
    match probe {
        Err(e) => panic!("cannot run '{python}' ({e}): this test needs Python 3 with python-chess (pip install chess)"),
        Ok(out) if !out.status.success() => panic!(
            "python-chess is missing for '{python}' (pip install chess): {}",
            String::from_utf8_lossy(&out.stderr)
        ),
        Ok(_) => {}
    }
    let path = workspace_root().join(path);
    let mut child = Command::new(&python)
        .arg(&path)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", path.display()));
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = pipe.read_to_string(&mut s);
            s
        })
    };
    let out_reader = drain(Box::new(child.stdout.take().expect("piped stdout")));
    let err_reader = drain(Box::new(child.stderr.take().expect("piped stderr")));
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() < limit => std::thread::sleep(Duration::from_millis(50)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let stdout = out_reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    let report = format!(
        "--- stdout ---\n{}\n--- stderr ---\n{}",
        clip(&stdout, 8000),
        clip(&stderr, 8000)
    );
    let Some(status) = status else {
        panic!("{script} did not finish within {limit:?}\n{report}");
    };
    ScriptRun {
        status,
        stdout,
        stderr,
        report,
    }
}
