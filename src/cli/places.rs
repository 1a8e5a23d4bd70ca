//! Where a command writes, and what stands in its way: a new game file's folder that does not
//! exist, a game file that another program changed while the command held it.

use super::CliError;
use correspond::log;
use std::path::Path;

/// A game file that could not be written (`done`: what that left undone), as the user hears
/// it; one that another program changed since it was read is read anew by the same command run
/// again.
pub(crate) fn not_written(path: &Path, e: &std::io::Error, done: &str) -> CliError {
    let error = CliError::io(path, e);
    if e.get_ref().is_some_and(|inner| inner.is::<log::Changed>()) {
        error.hint(format!(
            "{done}; run the command again: it reads the file as it is now"
        ))
    } else {
        error.hint(done)
    }
}

/// Refuses to sign after a game file at `path` that another program wrote since `locked` read
/// it: asked once a key is unlocked, since asking for its passphrase may take a while (during
/// a `git pull`, say).
pub(crate) fn still_as_read(locked: &log::Locked, path: &Path) -> Result<(), CliError> {
    locked
        .unchanged()
        .map_err(|e| not_written(path, &e, "nothing was signed"))
}

/// Refuses a new game file's `path` whose folder does not exist, before anything is signed.
pub(crate) fn in_a_folder(path: &Path) -> Result<(), CliError> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if dir.is_dir() {
        return Ok(());
    }
    let shown = correspond::text::path(dir).to_string();
    Err(CliError::usage(format!(
        "{}: the folder {shown} does not exist",
        correspond::text::path(path)
    ))
    .hint(format!(
        "make it first (mkdir -p {}), or give another path; nothing was signed",
        correspond::text::shell_word(&shown)
    )))
}
