//! The PGN and data files. Each finished game's text is built in memory and
//! appended with one write, so that a crash or Ctrl-C loses at most the
//! games still being played and never damages what is already written.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub struct GameFile {
    file: File,
    path: PathBuf,
    /// Bytes this run has appended.
    pub written: u64,
}

impl GameFile {
    /// Opens `path` for appending, creating it if needed: a later run adds
    /// its games after the earlier ones.
    pub fn append(path: &Path) -> io::Result<GameFile> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(GameFile {
            file,
            path: path.to_path_buf(),
            written: 0,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one game's text; an unbuffered file, so it is in the
    /// operating system's hands on return.
    pub fn write(&mut self, text: &str) -> io::Result<()> {
        self.file.write_all(text.as_bytes())?;
        self.written += text.len() as u64;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_appended_after_earlier_runs() {
        let path = std::env::temp_dir().join(format!("hoeven-gamefile-{}.txt", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let mut first = GameFile::append(&path).unwrap();
        first.write("one\n").unwrap();
        drop(first);
        let mut second = GameFile::append(&path).unwrap();
        second.write("two\n").unwrap();
        assert_eq!(second.written, 4);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one\ntwo\n");
        let _ = std::fs::remove_file(&path);
        assert!(GameFile::append(Path::new("/nonexistent-dir/x.pgn")).is_err());
    }
}
