//! Running the python-chess clients under `tests/python/` and `scripts/`.

use super::*;
use crate::workspace_root;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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
