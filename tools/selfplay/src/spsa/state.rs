//! The state file of a tuning run: rewritten whole after every block (to a
//! temporary file, then renamed over the old one, so that a run killed
//! mid-write leaves the last block's state), read back to resume.

use super::schedule::{Schedule, Theta};
use engine::Tunable;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Everything a stopped run needs to go on as if it had not stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub seed: u64,
    pub schedule: Schedule,
    /// Pairs played so far: one SPSA iteration each.
    pub pairs: u64,
    pub theta: Theta,
}

#[derive(Debug)]
pub enum StateError {
    Read(PathBuf, io::Error),
    Write(PathBuf, io::Error),
    /// A line that is not `key value` with a known key and a number.
    Syntax {
        line: usize,
        text: String,
    },
    Missing(&'static str),
    UnknownParam(String),
    /// The file tunes other parameters than the command line asks for.
    Mismatch {
        file: Vec<String>,
        asked: Vec<String>,
    },
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::Read(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            StateError::Write(p, e) => write!(f, "cannot write {}: {e}", p.display()),
            StateError::Syntax { line, text } => {
                write!(f, "state file line {line}: cannot read '{text}'")
            }
            StateError::Missing(key) => write!(f, "state file has no '{key}' line"),
            StateError::UnknownParam(name) => {
                write!(
                    f,
                    "state file tunes '{name}', which this engine does not have"
                )
            }
            StateError::Mismatch { file, asked } => write!(
                f,
                "state file tunes {} but --params asks for {}; use another --state",
                file.join(","),
                asked.join(",")
            ),
        }
    }
}

impl std::error::Error for StateError {}

impl State {
    pub fn write(&self) -> String {
        let s = &self.schedule;
        let mut out = format!(
            "# hoeven spsa state: run `hoeven spsa --state` on this file to resume\n\
             seed {}\niterations {}\na {}\nc {}\nalpha {}\ngamma {}\nr-end {}\npairs {}\n",
            self.seed, s.iterations, s.a, s.c, s.alpha, s.gamma, s.r_end, self.pairs
        );
        for (t, value) in &self.theta.params {
            out += &format!("param {} {value}\n", t.name);
        }
        out
    }

    pub fn read(text: &str) -> Result<State, StateError> {
        let mut numbers = std::collections::HashMap::new();
        let mut params = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let syntax = || StateError::Syntax {
                line: i + 1,
                text: line.to_string(),
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            match words[..] {
                ["param", name, value] => {
                    let (_, t) =
                        engine::tunable(name).map_err(|_| StateError::UnknownParam(name.into()))?;
                    params.push((t, value.parse::<f64>().map_err(|_| syntax())?));
                }
                [key, value] => {
                    let key = [
                        "seed",
                        "iterations",
                        "a",
                        "c",
                        "alpha",
                        "gamma",
                        "r-end",
                        "pairs",
                    ]
                    .into_iter()
                    .find(|&k| k == key)
                    .ok_or_else(syntax)?;
                    numbers.insert(key, value);
                }
                _ => return Err(syntax()),
            }
        }
        let text = |key: &'static str| numbers.get(key).copied().ok_or(StateError::Missing(key));
        let int = |key| {
            text(key)?
                .parse::<u64>()
                .map_err(|_| StateError::Missing(key))
        };
        let float = |key| {
            text(key)?
                .parse::<f64>()
                .map_err(|_| StateError::Missing(key))
        };
        Ok(State {
            seed: int("seed")?,
            schedule: Schedule {
                iterations: int("iterations")?,
                a: float("a")?,
                c: float("c")?,
                alpha: float("alpha")?,
                gamma: float("gamma")?,
                r_end: float("r-end")?,
            },
            pairs: int("pairs")?,
            theta: Theta { params },
        })
    }

    /// Reads the state at `path`, which must tune exactly `asked`.
    pub fn load(path: &Path, asked: &[&'static Tunable]) -> Result<State, StateError> {
        let text =
            std::fs::read_to_string(path).map_err(|e| StateError::Read(path.to_path_buf(), e))?;
        let state = State::read(&text)?;
        let names = |ts: &mut dyn Iterator<Item = &'static Tunable>| {
            let mut names: Vec<String> = ts.map(|t| t.name.to_string()).collect();
            names.sort();
            names
        };
        let file = names(&mut state.theta.params.iter().map(|(t, _)| *t));
        let asked = names(&mut asked.iter().copied());
        if file != asked {
            return Err(StateError::Mismatch { file, asked });
        }
        Ok(state)
    }

    /// Replaces the file at `path` with this state, all at once.
    pub fn save(&self, path: &Path) -> Result<(), StateError> {
        let mut temporary = path.as_os_str().to_owned();
        temporary.push(".tmp");
        let temporary = PathBuf::from(temporary);
        std::fs::write(&temporary, self.write())
            .and_then(|()| std::fs::rename(&temporary, path))
            .map_err(|e| StateError::Write(path.to_path_buf(), e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::TUNABLES;

    fn state() -> State {
        let mut theta = Theta::defaults(&[&TUNABLES[0], &TUNABLES[7]]);
        theta.params[1].1 = 81.123_456_789;
        State {
            seed: 17,
            schedule: Schedule {
                iterations: 500,
                a: 50.0,
                c: 1.5,
                alpha: 0.602,
                gamma: 0.101,
                r_end: 0.002,
            },
            pairs: 42,
            theta,
        }
    }

    #[test]
    fn a_state_survives_the_file() {
        let dir = std::env::temp_dir().join(format!("hoeven-spsa-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state.txt");
        let s = state();
        s.save(&path).unwrap();
        let asked = [&TUNABLES[7], &TUNABLES[0]];
        assert_eq!(State::load(&path, &asked).unwrap(), s);
        assert!(s.write().contains("param RFP_MARGIN 81.123456789\n"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn another_parameter_set_or_a_bad_file_is_refused() {
        let dir = std::env::temp_dir().join(format!("hoeven-spsa-other-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state.txt");
        state().save(&path).unwrap();
        assert!(matches!(
            State::load(&path, &[&TUNABLES[0]]),
            Err(StateError::Mismatch { file, asked })
                if file == ["ASPIRATION_DELTA", "RFP_MARGIN"] && asked == ["ASPIRATION_DELTA"]
        ));
        std::fs::remove_dir_all(&dir).unwrap();
        let text = state().write();
        assert!(matches!(
            State::read(&text.replace("pairs 42\n", "")),
            Err(StateError::Missing("pairs"))
        ));
        assert!(matches!(
            State::read(&text.replace("RFP_MARGIN", "NOPE")),
            Err(StateError::UnknownParam(n)) if n == "NOPE"
        ));
        assert!(matches!(
            State::read(&format!("{text}bogus line here\n")),
            Err(StateError::Syntax { .. })
        ));
    }
}
