//! Hidden conditional lines kept beside the journal: the lines a commitment holds are in no
//! file, so the author's client keeps them here to reveal a reply or disclose them later. The
//! seed of their tree is not kept: it is derived from the author's key again
//! ([`crate::hidden::seed_message`]). One file per commitment, named by it (so that lines
//! refused at a place another commitment holds never replace the lines that one needs), one
//! line of moves to a line of the file, written whole or not at all.

use super::{Journal, JournalError, create_private_dir, io_error};
use crate::digest::Digest;
use crate::log::Conditional;
use std::io::{self, Write};
use std::path::PathBuf;

/// The largest file of kept lines read: 30 lines of 30 moves of 160 bytes, and some.
const LINES_FILE_LIMIT: u64 = 256 * 1024;

impl Journal {
    fn lines_path(&self, commitment: &Digest) -> PathBuf {
        self.dir.join("lines").join(format!("{commitment}.txt"))
    }

    /// Keeps `lines`, the hidden lines whose tree's root is `commitment`.
    ///
    /// # Errors
    /// When the folder or the file cannot be written; nothing is left half-written.
    pub fn keep_lines(&self, commitment: &Digest, lines: &Conditional) -> Result<(), JournalError> {
        let path = self.lines_path(commitment);
        let dir = path.parent().expect("the file is in the lines folder");
        create_private_dir(dir).map_err(io_error(dir))?;
        let io = io_error(&path);
        let mut file = tempfile::NamedTempFile::new_in(dir).map_err(&io)?;
        let mut text = lines.texts().join("\n");
        text.push('\n');
        file.write_all(text.as_bytes()).map_err(&io)?;
        file.as_file().sync_all().map_err(&io)?;
        file.persist(&path).map_err(|e| io(e.error))?;
        Ok(())
    }

    /// The hidden lines kept under `commitment`, if this journal keeps them.
    ///
    /// # Errors
    /// When the file cannot be read, or does not hold lines in their one spelling.
    pub fn kept_lines(&self, commitment: &Digest) -> Result<Option<Conditional>, JournalError> {
        let path = self.lines_path(commitment);
        let bytes = match crate::files::read_regular(&path, LINES_FILE_LIMIT) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io_error(&path)(e)),
        };
        let damaged = |reason: String| JournalError::Damaged {
            path: path.clone(),
            line: 1,
            reason,
        };
        let text = String::from_utf8(bytes).map_err(|_| damaged("not UTF-8".to_owned()))?;
        let lines: Vec<String> = text.lines().map(str::to_owned).collect();
        Conditional::parse(&lines).map(Some).map_err(damaged)
    }
}
