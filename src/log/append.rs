//! Writing game files safely: a new file appears whole or not at all, and an append happens
//! under an exclusive lock, on the file's latest contents, by writing a complete new copy and
//! renaming it into place. A crash leaves either the old file or the new one, never half a
//! record; two writers at once are serialised, and the second sees the first's record.
//!
//! The lock is held by a [`Locked`] guard for as long as the caller needs it, across the
//! rename: the new copy is locked before it replaces the old one, so that what follows the
//! write (a git commit) is made before any other command may write. Nothing here blocks on a
//! file that is not a regular one: a pipe put in a game file's place is refused, not waited on.
//! Temporary copies are made with `tempfile` beside the file, each written and renamed inside
//! [`crate::interrupt::critical`]; those a killed command left are removed under the lock.

use std::fs::{self, File, TryLockError};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The largest game file read: far more than any game needs (a few kilobytes for a hundred
/// moves), small enough that a hostile "game" cannot exhaust memory.
pub const MAX_FILE_SIZE: u64 = 64 * 1024 * 1024;

/// Room kept after a game file's bytes when it is read under its lock, to be appended to: more
/// than one record takes, so that appending one copies nothing.
const APPEND_ROOM: usize = 16 * 1024;

/// The suffix of the temporary copies written beside a game file.
const TEMPORARY_SUFFIX: &str = ".correspond-tmp";

/// Reads a game file: a regular file (links followed) of at most [`MAX_FILE_SIZE`] bytes, so
/// that a device, a pipe or a huge file is refused instead of read forever.
///
/// # Errors
/// An I/O error, [`io::ErrorKind::InvalidInput`] for something that is not a regular file or is
/// too large.
pub fn read_limited(path: &Path) -> io::Result<Vec<u8>> {
    read_open(&crate::files::open_regular(path)?, 0)
}

/// Reads an open game file whole into a buffer sized once, with `room` bytes to spare for what
/// will be appended to it.
fn read_open(file: &File, room: usize) -> io::Result<Vec<u8>> {
    let meta = file.metadata()?;
    if meta.len() > MAX_FILE_SIZE {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "larger than {} MiB, which no game file is",
                MAX_FILE_SIZE >> 20
            ),
        ));
    }
    // Sized once: no copy of the file is made while it is read, or (with room) grown.
    let capacity = usize::try_from(meta.len())
        .unwrap_or(0)
        .saturating_add(room);
    let mut bytes = Vec::with_capacity(capacity);
    file.take(MAX_FILE_SIZE + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_SIZE {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "it grew while being read",
        ));
    }
    Ok(bytes)
}

/// Why an append or a creation did not happen.
#[derive(Debug, thiserror::Error)]
pub enum AppendError<E> {
    /// The file could not be read, locked or written.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The caller refused the file's current contents.
    #[error("{0}")]
    Rejected(E),
}

/// A new file with `contents`, written beside `path` and not yet in its place: the temporary
/// copy, known to the signal handler until it is persisted or dropped (and so removed).
struct Temporary {
    file: Option<tempfile::NamedTempFile>,
}

impl Temporary {
    fn write(
        path: &Path,
        contents: &[u8],
        permissions: Option<fs::Permissions>,
    ) -> io::Result<Self> {
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let name = path
            .file_name()
            .map_or_else(|| "game".into(), |n| n.to_string_lossy().into_owned());
        let file = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(TEMPORARY_SUFFIX)
            .tempfile_in(dir)
            .map_err(|e| {
                // tempfile names its random file, which the user never sees: the folder is
                // what to name.
                let shown = crate::text::path(dir);
                if e.kind() == io::ErrorKind::NotFound {
                    return io::Error::new(e.kind(), format!("the folder {shown} does not exist"));
                }
                io::Error::new(
                    e.kind(),
                    format!("cannot write a copy into the folder {shown}: {}", e.kind()),
                )
            })?;
        crate::interrupt::register(file.path());
        let temporary = Temporary { file: Some(file) };
        let mut handle = temporary.handle();
        handle.write_all(contents)?;
        if let Some(p) = permissions {
            handle.set_permissions(p)?;
        }
        handle.sync_all()?;
        Ok(temporary)
    }

    fn handle(&self) -> &File {
        self.file
            .as_ref()
            .expect("a temporary file is there until persisted")
            .as_file()
    }

    /// Puts the file in `path`'s place (only if nothing is there, with `new`), returning its
    /// handle.
    fn persist(mut self, path: &Path, new: bool) -> io::Result<File> {
        let file = self
            .file
            .take()
            .expect("a temporary file is there until persisted");
        let temporary_path = file.path().to_owned();
        let persisted = if new {
            file.persist_noclobber(path)
        } else {
            file.persist(path)
        };
        // Off the list only once renamed (or removed with the error): an interruption before
        // that removes it.
        crate::interrupt::forget(&temporary_path);
        persisted.map_err(|e| e.error)
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if let Some(file) = &self.file {
            crate::interrupt::forget(file.path());
        }
    }
}

/// Creates `path` holding `contents`, failing if it already exists. The file appears with all
/// its contents at once.
///
/// # Errors
/// An I/O error, [`io::ErrorKind::AlreadyExists`] if the path exists.
pub fn create_new(path: &Path, contents: &[u8]) -> io::Result<()> {
    let _critical = crate::interrupt::critical();
    Temporary::write(path, contents, None)?.persist(path, true)?;
    sync_parent(path);
    Ok(())
}

/// Replaces the contents of `path` all at once (a new file renamed over it, with the old one's
/// permissions): a reader sees the old contents or the new, never a mix.
///
/// # Errors
/// An I/O error; the file is then unchanged.
pub fn replace(path: &Path, contents: &[u8]) -> io::Result<()> {
    let permissions = fs::metadata(path)?.permissions();
    let _critical = crate::interrupt::critical();
    Temporary::write(path, contents, Some(permissions))?.persist(path, false)?;
    sync_parent(path);
    Ok(())
}

/// A game file under its exclusive lock, with its bytes as they were when the lock was taken
/// (and as this guard has grown them). The lock is released when the guard is dropped.
#[derive(Debug)]
pub struct Locked {
    file: File,
    path: PathBuf,
    bytes: Vec<u8>,
    /// The file as this command last read or wrote it.
    stamp: Stamp,
}

/// What changes when any program writes a file: its length, its modification time, and (on
/// Unix) its status-change time, which no program can set back as `touch -r` or `cp -p` set
/// the modification time. (Only correspond commands take the lock; `git pull`, a sync tool or
/// an editor write without it.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
    changed: (i64, i64),
}

impl Stamp {
    fn of(meta: &fs::Metadata) -> Stamp {
        #[cfg(unix)]
        let changed = {
            use std::os::unix::fs::MetadataExt;
            (meta.ctime(), meta.ctime_nsec())
        };
        #[cfg(not(unix))]
        let changed = (0, 0);
        Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
            changed,
        }
    }
}

/// Why a locked game file cannot be written: another program wrote it since this command read
/// it.
#[derive(Debug, thiserror::Error)]
#[error(
    "it changed after this command read it: another program wrote it (a `git pull`, a sync tool, \
     an editor)"
)]
pub struct Changed;

impl Locked {
    /// Takes the exclusive lock of the game file at `path` (through a symbolic link, of its
    /// target) and reads it. While another process holds the lock, `wait` is called with the
    /// number of the attempt (from 0) before each new one, and decides how long to wait (it may
    /// sleep) or gives up by returning `false`.
    ///
    /// # Errors
    /// An I/O error; [`io::ErrorKind::InvalidInput`] for something that is not a regular file
    /// or is too large; [`io::ErrorKind::TimedOut`] when `wait` gave up.
    pub fn open(path: &Path, wait: &mut dyn FnMut(u32) -> bool) -> io::Result<Locked> {
        let path = fs::canonicalize(path)?;
        let mut attempt = 0;
        loop {
            let file = crate::files::open_regular(&path)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    if !wait(attempt) {
                        return Err(io::Error::new(
                            io::ErrorKind::TimedOut,
                            "another command holds its lock",
                        ));
                    }
                    attempt += 1;
                    continue;
                }
                Err(TryLockError::Error(e)) => return Err(e),
            }
            // Another writer may have replaced the file while we waited: then this handle is
            // the old file, and we start again on the new one.
            if !same_file(&file.metadata()?, &fs::symlink_metadata(&path)?) {
                continue;
            }
            let stamp = Stamp::of(&file.metadata()?);
            let bytes = read_open(&file, APPEND_ROOM)?;
            return Ok(Locked {
                file,
                path,
                bytes,
                stamp,
            });
        }
    }

    /// The file's bytes.
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The file's path (its target, through a symbolic link).
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the file is still as this command read it (or last wrote it): the same file
    /// in its place, of the same length and modification time. A command that waited (for a
    /// passphrase, say) asks before it signs, and every write asks before it replaces the file,
    /// so that what another program wrote meanwhile is not overwritten.
    ///
    /// # Errors
    /// An I/O error; [`Changed`] (as an [`io::ErrorKind::Other`] error) when the file changed.
    pub fn unchanged(&self) -> io::Result<()> {
        let now = fs::symlink_metadata(&self.path)?;
        if same_file(&self.file.metadata()?, &now) && Stamp::of(&now) == self.stamp {
            Ok(())
        } else {
            Err(io::Error::other(Changed))
        }
    }

    /// Appends `addition`, all at once: a new copy, locked before it takes the old one's place,
    /// so that the lock is held throughout.
    ///
    /// # Errors
    /// An I/O error; the file is then unchanged.
    pub fn append(&mut self, addition: &[u8]) -> io::Result<()> {
        let before = self.bytes.len();
        // In place: the room `read_open` left takes a record without copying the file.
        self.bytes.extend_from_slice(addition);
        let written = self.replace_with_bytes();
        if written.is_err() {
            self.bytes.truncate(before);
        }
        written
    }

    /// Replaces the file's contents all at once, as [`Locked::append`] does, the lock held
    /// throughout: for a settlement that drops records void by the crossing rule.
    ///
    /// # Errors
    /// An I/O error; the file is then unchanged.
    pub fn rewrite(&mut self, bytes: Vec<u8>) -> io::Result<()> {
        let old = std::mem::replace(&mut self.bytes, bytes);
        let written = self.replace_with_bytes();
        if written.is_err() {
            self.bytes = old;
        }
        written
    }

    /// Puts a new copy holding `self.bytes` in the file's place, locked before it takes the
    /// old one's place.
    fn replace_with_bytes(&mut self) -> io::Result<()> {
        let _critical = crate::interrupt::critical();
        let temporary = Temporary::write(
            &self.path,
            &self.bytes,
            Some(self.file.metadata()?.permissions()),
        )?;
        temporary.handle().lock()?;
        // As late as can be: a write between this look and the rename is not seen.
        self.unchanged()?;
        let file = temporary.persist(&self.path, false)?;
        sync_parent(&self.path);
        self.stamp = Stamp::of(&file.metadata()?);
        // The old copy's handle, and with it its lock, goes: whoever waited on it finds the
        // new copy locked by this guard.
        self.file = file;
        Ok(())
    }

    /// Removes the temporary copies that killed commands left beside the file. Only a command
    /// holding the lock writes one, so under the lock every one is a leftover. Returns their
    /// names.
    ///
    /// # Errors
    /// When the folder cannot be read or a leftover removed.
    pub fn remove_leftovers(&self) -> io::Result<Vec<String>> {
        let Some(name) = self
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
        else {
            return Ok(Vec::new());
        };
        let prefix = format!(".{name}.");
        let dir = self.path.parent().unwrap_or(Path::new("."));
        let mut removed = Vec::new();
        for entry in fs::read_dir(dir)? {
            let entry = entry?;
            let found = entry.file_name().to_string_lossy().into_owned();
            if found.starts_with(&prefix) && found.ends_with(TEMPORARY_SUFFIX) {
                fs::remove_file(entry.path())?;
                removed.push(found);
            }
        }
        removed.sort();
        Ok(removed)
    }
}

/// Appends to `path` under an exclusive lock, waiting for it as long as another command holds
/// it. `extend` receives the file's current bytes (read after the lock is held) and returns
/// the bytes to add, or refuses. Returns the file's new contents.
///
/// # Errors
/// [`AppendError::Rejected`] with `extend`'s refusal; [`AppendError::Io`] when the file cannot be
/// read, locked or replaced (the file is then unchanged).
pub fn append_locked<E>(
    path: &Path,
    extend: impl FnOnce(&[u8]) -> Result<Vec<u8>, E>,
) -> Result<Vec<u8>, AppendError<E>> {
    let mut locked = Locked::open(path, &mut |_| {
        std::thread::sleep(std::time::Duration::from_millis(10));
        true
    })?;
    let addition = extend(locked.bytes()).map_err(AppendError::Rejected)?;
    locked.append(&addition)?;
    Ok(locked.bytes)
}

/// Makes a rename durable where the platform allows syncing a directory; best effort.
fn sync_parent(path: &Path) {
    if let Some(parent) = path.parent() {
        let dir = if parent.as_os_str().is_empty() {
            Path::new(".")
        } else {
            parent
        };
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
}

#[cfg(unix)]
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    a.len() == b.len() && a.modified().ok() == b.modified().ok()
}

#[cfg(test)]
mod tests;
