//! Committing a game file to git after it changed, for the commands that write.

use super::CliError;
use crate::git::{GitError, Tracked};
use std::io::Write;
use std::path::Path;

/// The git work tree holding `path`, checked before anything is written.
pub(crate) fn find(path: &Path) -> Result<Option<Tracked>, CliError> {
    Tracked::find(path).map_err(|e| {
        let error = CliError::usage(format!("{e}; nothing was written"));
        match e {
            GitError::Identity => error.hint(
                "set them with `git config user.name ...` and `git config user.email ...`, or \
                 pass --no-commit",
            ),
            GitError::IndexLocked(_) => error.hint(
                "wait for the other git command to finish, or remove the lock file if none is \
                 running",
            ),
            _ => error.hint("pass --no-commit to write the file without committing it"),
        }
    })
}

/// Commits the file and says so.
pub(crate) fn commit(
    tracked: &Tracked,
    message: &str,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let file = crate::text::path(tracked.relative());
    let id = tracked.commit(message).map_err(|e| match e {
        GitError::IndexAfterCommit { .. } => {
            CliError::usage(format!("the file was written and {e}")).hint(format!(
                "once no other git command runs, stage it again: git add {file}"
            ))
        }
        _ => CliError::usage(format!("the file was written, but the commit failed: {e}"))
            .hint(format!("commit it yourself: git add {file} && git commit")),
    })?;
    let short = id.to_string();
    writeln!(out, "committed {}: {message}", &short[..10])?;
    Ok(())
}
