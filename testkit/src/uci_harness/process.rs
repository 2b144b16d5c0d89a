//! Starting the `hoeven` binary, talking to it line by line with a timeout
//! on every read, and the conversation kept for failure messages.

use super::*;
use crate::workspace_root;
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
