//! Opening the files a user names (game files, keys, PGN, messages, mailboxes, the journal's)
//! so that no command waits for ever or reads without end: nothing blocks on opening a pipe,
//! devices are refused, and reads stop at a limit.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, what.to_owned())
}

/// Opens without blocking: opening a pipe for reading waits for a writer; with `O_NONBLOCK`
/// it does not.
fn open_nonblocking(options: &mut OpenOptions, path: &Path) -> io::Result<File> {
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(options, libc::O_NONBLOCK);
    options.open(path)
}

/// Opens a regular file for reading (a link is followed); anything else is refused as soon as
/// it is opened.
///
/// # Errors
/// An I/O error; [`io::ErrorKind::InvalidInput`] for what is not a regular file.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let file = open_nonblocking(OpenOptions::new().read(true), path)?;
    if !file.metadata()?.is_file() {
        return Err(invalid("not a regular file"));
    }
    Ok(file)
}

/// Opens a regular file for reading and appending, created if missing (for the journal).
///
/// # Errors
/// An I/O error; [`io::ErrorKind::InvalidInput`] for what is not a regular file.
pub fn open_appending(path: &Path, options: &mut OpenOptions) -> io::Result<File> {
    let file = open_nonblocking(options.read(true).append(true).create(true), path)?;
    if !file.metadata()?.is_file() {
        return Err(invalid("not a regular file"));
    }
    Ok(file)
}

/// Reads a regular file whole, refusing it when it is larger than `limit` bytes.
///
/// # Errors
/// An I/O error; [`io::ErrorKind::InvalidInput`] for what is not a regular file or is larger
/// than the limit.
pub fn read_regular(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    read_limited(&open_regular(path)?, limit)
}

/// Reads at most `limit` bytes of an open file, refusing a larger one. The buffer is sized
/// from the file's length once, not grown as it fills: a grown buffer is copied each time it
/// doubles, and every copy touches memory the process had not used.
///
/// # Errors
/// An I/O error; [`io::ErrorKind::InvalidInput`] when there is more.
pub fn read_limited(file: &File, limit: u64) -> io::Result<Vec<u8>> {
    let length = file.metadata()?.len().min(limit.saturating_add(1));
    let mut bytes = Vec::with_capacity(usize::try_from(length).unwrap_or(0).saturating_add(1));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(invalid(&format!(
            "larger than {}, which is more than it can be",
            size(limit)
        )));
    }
    Ok(bytes)
}

fn size(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}

/// Opens a file or a pipe to read a stream from (a message, a mailbox): a regular file, or a
/// pipe (`<(...)`, a named pipe) read as far as its writers write; a pipe nobody writes to
/// reads as empty instead of waiting. Devices and sockets are refused.
///
/// # Errors
/// An I/O error; [`io::ErrorKind::InvalidInput`] for a device, a socket or a folder.
pub fn open_stream(path: &Path) -> io::Result<Stream> {
    let file = open_nonblocking(OpenOptions::new().read(true), path)?;
    let kind = file.metadata()?.file_type();
    #[cfg(unix)]
    let pipe = std::os::unix::fs::FileTypeExt::is_fifo(&kind);
    #[cfg(not(unix))]
    let pipe = false;
    if kind.is_file() || pipe {
        Ok(Stream(file))
    } else {
        Err(invalid("neither a file nor a pipe"))
    }
}

/// A file or pipe opened without blocking, read as if it blocked: a read with no data yet
/// (a pipe whose writer is still writing) waits a moment and tries again; a pipe with no
/// writer left ends.
pub struct Stream(File);

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.0.read(buf) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                other => return other,
            }
        }
    }
}
