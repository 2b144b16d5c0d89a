//! `FILE.partial`: the positions scored so far, one line each as they
//! finish, under a line naming the settings that scored them. A run that
//! finds one with its own settings skips what it holds; one made with
//! other settings is refused rather than mixed in.

use crate::starts::StartId;
use crate::Scored;
use std::collections::HashSet;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// How every header begins, whatever the settings.
const HEADER: &str = "# hoeven book";

#[derive(Debug)]
pub enum PartialError {
    Read(PathBuf, io::Error),
    Write(PathBuf, io::Error),
    OtherSettings {
        path: PathBuf,
        found: String,
        expected: String,
    },
    Corrupt {
        path: PathBuf,
        line: usize,
        text: String,
    },
}

impl fmt::Display for PartialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PartialError::Read(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            PartialError::Write(path, e) => write!(f, "cannot write {}: {e}", path.display()),
            PartialError::OtherSettings {
                path,
                found,
                expected,
            } => write!(
                f,
                "{} was made with other settings:\n  it has  {found}\n  this is {expected}\n\
                 run again with its settings, or remove it to start afresh",
                path.display()
            ),
            PartialError::Corrupt { path, line, text } => write!(
                f,
                "{} line {line} is not a scored position: {text:?}; remove the file to start afresh",
                path.display()
            ),
        }
    }
}

impl std::error::Error for PartialError {}

/// The partial file of `out`: `out` with `.partial` added.
pub fn path_of(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// The header line for these settings; everything that changes a score
/// is in it, and nothing that does not (threads, the bound).
pub fn header(settings: &str) -> String {
    format!("{HEADER} {settings}")
}

/// The open partial file, appended to as positions finish.
pub struct Partial {
    path: PathBuf,
    file: File,
}

impl Partial {
    /// Opens the partial file at `path` for a run of `starts` under
    /// `header`, creating it if need be; returns the positions it already
    /// holds. A last line cut short (the run was killed while writing it)
    /// is dropped: that position is scored again.
    pub fn open(
        path: &Path,
        header: &str,
        starts: &[StartId],
    ) -> Result<(Partial, Vec<Scored>), PartialError> {
        let done = match fs::read_to_string(path) {
            Ok(text) => parse(path, &text, header, starts)?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(PartialError::Read(path.to_path_buf(), e)),
        };
        // Written afresh, so that appends never follow a torn line.
        let mut text = format!("{header}\n");
        for scored in &done {
            text.push_str(&line(scored));
        }
        let write = |e| PartialError::Write(path.to_path_buf(), e);
        fs::write(path, text).map_err(write)?;
        let file = OpenOptions::new().append(true).open(path).map_err(write)?;
        let partial = Partial {
            path: path.to_path_buf(),
            file,
        };
        Ok((partial, done))
    }

    /// Records a finished position, at once: a run killed later keeps it.
    pub fn record(&mut self, scored: &Scored) -> Result<(), PartialError> {
        self.file
            .write_all(line(scored).as_bytes())
            .map_err(|e| PartialError::Write(self.path.clone(), e))
    }

    /// Removes the file once the book is written.
    pub fn remove(self) -> Result<(), PartialError> {
        drop(self.file);
        fs::remove_file(&self.path).map_err(|e| PartialError::Write(self.path, e))
    }
}

fn line(s: &Scored) -> String {
    format!("{}\t{}\t{}\n", s.id, s.score, s.depth)
}

/// The positions a partial file holds, each one of `starts` and none twice.
fn parse(
    path: &Path,
    text: &str,
    header: &str,
    starts: &[StartId],
) -> Result<Vec<Scored>, PartialError> {
    let corrupt = |line: usize, text: &str| PartialError::Corrupt {
        path: path.to_path_buf(),
        line,
        text: text.to_string(),
    };
    // Only whole lines: a kill can leave the last one cut short.
    let Some(end) = text.rfind('\n') else {
        // Killed before the header was whole: nothing was scored.
        return if header.starts_with(text) {
            Ok(Vec::new())
        } else {
            Err(corrupt(1, text))
        };
    };
    let mut lines = text[..end].split('\n');
    match lines.next() {
        Some(first) if first == header => {}
        Some(first) if first.starts_with(HEADER) => {
            return Err(PartialError::OtherSettings {
                path: path.to_path_buf(),
                found: first[HEADER.len()..].trim().to_string(),
                expected: header[HEADER.len()..].trim().to_string(),
            })
        }
        first => return Err(corrupt(1, first.unwrap_or_default())),
    }
    let wanted: HashSet<StartId> = starts.iter().copied().collect();
    let mut seen = HashSet::new();
    let mut done = Vec::new();
    for (i, text) in lines.enumerate() {
        let scored = parse_line(text)
            .filter(|s| wanted.contains(&s.id) && seen.insert(s.id))
            .ok_or_else(|| corrupt(i + 2, text))?;
        done.push(scored);
    }
    Ok(done)
}

fn parse_line(text: &str) -> Option<Scored> {
    let mut fields = text.split('\t');
    let scored = Scored {
        id: fields.next()?.parse().ok()?,
        score: fields.next()?.parse().ok()?,
        depth: fields.next()?.parse().ok()?,
    };
    fields.next().is_none().then_some(scored)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "# hoeven book variant=dfrc count=3 seed=0 depth=2 hash=16 net=x";

    fn id(white: u32, black: u32) -> StartId {
        StartId { white, black }
    }

    fn starts() -> Vec<StartId> {
        vec![id(1, 2), id(3, 4), id(5, 6)]
    }

    fn scored(white: u32, black: u32, score: i32) -> Scored {
        Scored {
            id: id(white, black),
            score,
            depth: 2,
        }
    }

    fn read(text: &str) -> Result<Vec<Scored>, PartialError> {
        parse(Path::new("b.partial"), text, HEAD, &starts())
    }

    #[test]
    fn lines_read_back_as_recorded() {
        let text = format!(
            "{HEAD}\n{}{}",
            line(&scored(3, 4, -17)),
            line(&scored(1, 2, 5))
        );
        assert_eq!(text.lines().nth(1), Some("dfrc 3 4\t-17\t2"));
        assert_eq!(
            read(&text).unwrap(),
            vec![scored(3, 4, -17), scored(1, 2, 5)]
        );
        assert_eq!(read(&format!("{HEAD}\n")).unwrap(), vec![]);
    }

    #[test]
    fn a_torn_last_line_or_header_is_dropped() {
        let text = format!("{HEAD}\n{}dfrc 5 6\t1", line(&scored(3, 4, 8)));
        assert_eq!(read(&text).unwrap(), vec![scored(3, 4, 8)]);
        assert_eq!(read("").unwrap(), vec![]);
        assert_eq!(read(&HEAD[..10]).unwrap(), vec![]);
    }

    #[test]
    fn other_settings_are_refused() {
        let other = HEAD.replace("depth=2", "depth=3");
        let e = read(&format!("{other}\ndfrc 1 2\t5\t3\n")).unwrap_err();
        assert!(
            matches!(&e, PartialError::OtherSettings { found, expected, .. }
                if found.contains("depth=3") && expected.contains("depth=2")),
            "{e:?}"
        );
        assert!(e.to_string().contains("other settings"), "{e}");
    }

    #[test]
    fn corrupt_lines_are_refused_with_their_number() {
        for (text, bad_line) in [
            (format!("{HEAD}\ndfrc 1 2\t5\n"), 2),
            (format!("{HEAD}\ndfrc 1 2\t5\t2\nchess960 7\t1\t2\n"), 3),
            (format!("{HEAD}\ndfrc 1 2\t5\t2\ndfrc 1 2\t6\t2\n"), 3),
            (format!("{HEAD}\ndfrc 1 2\tfive\t2\n"), 2),
            (format!("{HEAD}\ndfrc 1 2\t5\t2\t9\n"), 2),
            ("not a partial file\n".to_string(), 1),
        ] {
            match read(&text) {
                Err(PartialError::Corrupt { line, .. }) => assert_eq!(line, bad_line, "{text:?}"),
                other => panic!("{text:?} gave {other:?}"),
            }
        }
    }

    #[test]
    fn a_reopened_file_keeps_its_lines_and_appends() {
        let dir = std::env::temp_dir().join(format!("hoeven-book-partial-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = path_of(&dir.join("b.epd"));
        assert!(path.ends_with("b.epd.partial"));
        fs::write(&path, format!("{HEAD}\n{}dfrc 5", line(&scored(1, 2, 4)))).unwrap();
        let (mut partial, done) = Partial::open(&path, HEAD, &starts()).unwrap();
        assert_eq!(done, vec![scored(1, 2, 4)]);
        partial.record(&scored(5, 6, -3)).unwrap();
        let (partial, done) = Partial::open(&path, HEAD, &starts()).unwrap();
        assert_eq!(done, vec![scored(1, 2, 4), scored(5, 6, -3)]);
        partial.remove().unwrap();
        assert!(!path.exists());
        fs::remove_dir_all(&dir).unwrap();
    }
}
