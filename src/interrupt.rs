//! What an interruption (SIGINT, SIGTERM, SIGHUP) must not cut short, and what it must tidy.
//!
//! A few steps leave something half-done if the process ends in their middle: a temporary copy
//! of a game file written but not yet renamed into place, git's index lock taken but the index
//! not yet written. Each runs inside [`critical`]; the command line's signal handler calls
//! [`before_exit`], which waits for the step under way to finish, then removes the temporary
//! files still listed, before it ends the process. (SIGKILL cannot be caught: the next command
//! tidies what it leaves.)

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

static CRITICAL: Mutex<()> = Mutex::new(());
static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// A step that an interruption must let finish, for as long as the guard lives. Never taken
/// inside another.
pub fn critical() -> MutexGuard<'static, ()> {
    CRITICAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Lists a temporary file for removal if the process is interrupted.
pub(crate) fn register(path: &Path) {
    if let Ok(mut paths) = TEMPORARY.lock() {
        paths.push(path.to_owned());
    }
}

/// Takes a temporary file off the list: it is in its place, or removed.
pub(crate) fn forget(path: &Path) {
    if let Ok(mut paths) = TEMPORARY.lock() {
        paths.retain(|p| p != path);
    }
}

/// For a signal handler, before it ends the process: waits for the critical step under way,
/// then removes the temporary files still listed. The critical section stays taken, so that no
/// other step starts before the process ends.
pub fn before_exit() -> MutexGuard<'static, ()> {
    let guard = critical();
    let paths = TEMPORARY
        .lock()
        .map(|mut paths| std::mem::take(&mut *paths))
        .unwrap_or_default();
    for path in paths {
        let _ = std::fs::remove_file(path);
    }
    guard
}
