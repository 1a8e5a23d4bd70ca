//! Writing game files safely: a new file appears whole or not at all, and an append happens
//! under an exclusive lock, on the file's latest contents, by writing a complete new copy and
//! renaming it into place. A crash leaves either the old file or the new one, never half a
//! record; two writers at once are serialised, and the second sees the first's record.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The largest game file read: far more than any game needs (a few kilobytes for a hundred
/// moves), small enough that a hostile "game" cannot exhaust memory.
pub const MAX_FILE_SIZE: u64 = 64 * 1024 * 1024;

/// Reads a game file: a regular file (links followed) of at most [`MAX_FILE_SIZE`] bytes, so
/// that a device, a pipe or a huge file is refused instead of read forever.
///
/// # Errors
/// An I/O error, [`io::ErrorKind::InvalidInput`] for something that is not a regular file or is
/// too large.
pub fn read_limited(path: &Path) -> io::Result<Vec<u8>> {
    // Looked at before opening: opening a pipe would wait for a writer.
    if !fs::metadata(path)?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let file = File::open(path)?;
    read_open(&file)
}

fn read_open(file: &File) -> io::Result<Vec<u8>> {
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    if meta.len() > MAX_FILE_SIZE {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "larger than {} MiB, which no game file is",
                MAX_FILE_SIZE >> 20
            ),
        ));
    }
    let mut bytes = Vec::new();
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

/// Creates `path` holding `contents`, failing if it already exists. The file appears with all
/// its contents at once.
///
/// # Errors
/// An I/O error, [`io::ErrorKind::AlreadyExists`] if the path exists.
pub fn create_new(path: &Path, contents: &[u8]) -> io::Result<()> {
    let temp = temp_path(path);
    write_synced(&temp, contents, None)?;
    let linked = fs::hard_link(&temp, path);
    let _ = fs::remove_file(&temp);
    linked?;
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
    let temp = temp_path(path);
    write_synced(&temp, contents, Some(permissions))?;
    if let Err(e) = fs::rename(&temp, path) {
        let _ = fs::remove_file(&temp);
        return Err(e);
    }
    sync_parent(path);
    Ok(())
}

/// Appends to `path` under an exclusive lock. `extend` receives the file's current bytes (read
/// after the lock is held) and returns the bytes to add, or refuses. Returns the file's new
/// contents.
///
/// # Errors
/// [`AppendError::Rejected`] with `extend`'s refusal; [`AppendError::Io`] when the file cannot be
/// read, locked or replaced (the file is then unchanged).
pub fn append_locked<E>(
    path: &Path,
    extend: impl FnOnce(&[u8]) -> Result<Vec<u8>, E>,
) -> Result<Vec<u8>, AppendError<E>> {
    // Through a symbolic link, the file to grow is its target: the link stays a link.
    let path = &fs::canonicalize(path)?;
    let mut extend = Some(extend);
    loop {
        let file = OpenOptions::new().read(true).open(path)?;
        file.lock()?;
        // Another writer may have replaced the file while we waited for the lock: then this
        // handle is the old file, and we start again on the new one.
        if !same_file(&file.metadata()?, &fs::metadata(path)?) {
            continue;
        }
        let mut bytes = read_open(&file)?;
        let extend = extend
            .take()
            .expect("extend runs once: the loop returns after it");
        let addition = extend(&bytes).map_err(AppendError::Rejected)?;
        bytes.extend_from_slice(&addition);
        let temp = temp_path(path);
        write_synced(&temp, &bytes, Some(file.metadata()?.permissions()))?;
        if let Err(e) = fs::rename(&temp, path) {
            let _ = fs::remove_file(&temp);
            return Err(e.into());
        }
        sync_parent(path);
        drop(file);
        return Ok(bytes);
    }
}

fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "game".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{}.correspond-tmp", std::process::id()))
}

fn write_synced(
    path: &Path,
    contents: &[u8],
    permissions: Option<fs::Permissions>,
) -> io::Result<()> {
    let mut file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(path)?;
    let written = file.write_all(contents).and_then(|()| {
        if let Some(p) = permissions {
            file.set_permissions(p)?;
        }
        file.sync_all()
    });
    if written.is_err() {
        let _ = fs::remove_file(path);
    }
    written
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
mod tests {
    use super::*;

    #[test]
    fn create_new_refuses_an_existing_file_and_leaves_it_alone() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("g.yaml");
        create_new(&path, b"one").expect("create");
        let err = create_new(&path, b"two").expect_err("exists");
        assert_eq!(err.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(fs::read(&path).expect("read"), b"one");
        assert_eq!(
            fs::read_dir(dir.path()).expect("list").count(),
            1,
            "no temporary file left"
        );
    }

    #[test]
    fn append_sees_the_latest_contents_and_a_refusal_changes_nothing() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("g.yaml");
        create_new(&path, b"a\n").expect("create");
        let after = append_locked(&path, |old| {
            Ok::<_, ()>([old, b"b\n"].concat()[old.len()..].to_vec())
        })
        .expect("append");
        assert_eq!(after, b"a\nb\n");
        let refused = append_locked(&path, |_| Err::<Vec<u8>, _>("no"));
        assert!(matches!(refused, Err(AppendError::Rejected("no"))));
        assert_eq!(fs::read(&path).expect("read"), b"a\nb\n");
        assert_eq!(
            fs::read_dir(dir.path()).expect("list").count(),
            1,
            "no temporary file left"
        );
    }

    #[test]
    fn concurrent_appends_are_serialised() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("g.yaml");
        create_new(&path, b"").expect("create");
        std::thread::scope(|s| {
            for i in 0..8u8 {
                let path = &path;
                s.spawn(move || {
                    append_locked(path, |_| Ok::<_, ()>(vec![b'0' + i, b'\n'])).expect("append");
                });
            }
        });
        let mut lines: Vec<u8> = fs::read(&path)
            .expect("read")
            .into_iter()
            .filter(|b| *b != b'\n')
            .collect();
        lines.sort_unstable();
        assert_eq!(lines, b"01234567");
    }
}
