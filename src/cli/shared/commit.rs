//! Committing a game file to git after it changed, for the commands that write: the checks
//! before anything is written, the commit made while the file's lock is held, and the records
//! an interrupted command wrote but did not commit.

use crate::cli::CliError;
use correspond::git::{GitError, Tracked};
use correspond::log::GameFile;
use std::path::Path;

/// The git work tree holding `path`, checked before anything is written.
pub(crate) fn find(path: &Path) -> Result<Option<Tracked>, CliError> {
    Tracked::find(path).map_err(|e| not_ready(e, "nothing was written"))
}

/// Checks the repository again once a key is unlocked (asking for its passphrase may take a
/// while): an operation git started, or a lock taken, meanwhile would leave the record written
/// but not committed.
pub(crate) fn ready(tracked: &Tracked) -> Result<(), CliError> {
    tracked
        .ready()
        .map_err(|e| not_ready(e, "nothing was signed"))
}

/// What stops a commit before anything is written, with what to do.
fn not_ready(e: GitError, nothing: &str) -> CliError {
    let error = CliError::usage(format!("{e}; {nothing}"));
    match e {
        GitError::Identity => error.hint(
            "set them with `git config user.name ...` and `git config user.email ...`, or pass \
             --no-commit",
        ),
        GitError::Locked(_) => error.hint(
            "wait for the other git command to finish, or remove the lock file if none is running",
        ),
        GitError::InProgress(operation) => {
            let (finish, give_up) = operation.ways_out();
            error.hint(format!(
                "finish it ({finish}) or give it up ({give_up}), then run the command again: a \
                 commit now would be taken into it"
            ))
        }
        GitError::Detached => error.hint(
            "check out the game's branch (git switch BRANCH), or pass --no-commit to write the \
             file without committing it",
        ),
        _ => error.hint("pass --no-commit to write the file without committing it"),
    }
}

/// [`find`], for a game file about to be created at `path`: refused when `HEAD` holds a file
/// there that the work tree has lost (a new game would be committed over it). Otherwise the
/// commit will be made only where `HEAD` still holds none.
pub(crate) fn find_for_new(path: &Path) -> Result<Option<Tracked>, CliError> {
    let Some(tracked) = find(path)? else {
        return Ok(None);
    };
    let committed = tracked
        .committed()
        .map_err(|e| CliError::usage(format!("git: {e}; nothing was written")))?;
    if committed.is_some() {
        let spec = pasteable(&tracked);
        return Err(CliError::usage(format!(
            "{} is not in the work tree, but HEAD holds a file there: a new game in its place \
             would be committed over it",
            correspond::text::path(tracked.given())
        ))
        .hint(format!(
            "bring it back (git checkout -- {spec}), or choose another name; nothing was written"
        )));
    }
    Ok(Some(tracked))
}

/// Commits `contents`, which the caller has just written to the file and holds the lock of,
/// and returns the line that says so (printed after everything else the command says). The
/// message is `what` after the file's path in the work tree, so that a repository of many
/// games reads game by game in `git log`: `games/ab.yaml: chess, white plays Nf3 (record 4)`.
pub(crate) fn commit(tracked: &Tracked, what: &str, contents: &[u8]) -> Result<String, CliError> {
    let message = format!("{}: {what}", correspond::text::path(tracked.relative()));
    let spec = pasteable(tracked);
    let when = crate::cli::shared::keys::commit_time()?;
    let id = tracked
        .commit(&message, contents, when)
        .map_err(|e| match e {
            GitError::Moved(_) => CliError::usage(format!(
                "the file was written, but not committed: {e}"
            ))
            .hint(format!(
                "the file holds the new record on top of the version this command read; to set \
                 it beside git's: git show HEAD:{spec} > committed.yaml && correspond compare \
                 {spec} committed.yaml"
            )),
            GitError::IndexAfterCommit { .. } => {
                CliError::usage(format!("the file was written and {e}")).hint(format!(
                    "once no other git command runs, stage it again: git add {spec}"
                ))
            }
            _ => CliError::usage(format!("the file was written, but the commit failed: {e}")).hint(
                format!(
                    "the next command that signs commits it, or commit it yourself: git add {spec} \
                 && git commit"
                ),
            ),
        })?;
    Ok(format!("committed {}: {message}", &id.to_string()[..10]))
}

/// The file as the user gave it, as one shell word: for git commands they can paste where they
/// are.
fn pasteable(tracked: &Tracked) -> String {
    correspond::text::shell_word(&correspond::text::path(tracked.given()).to_string())
}

/// Before a command writes: the records the file holds beyond `HEAD`'s version, which a
/// command cut short (or run with `--no-commit`) wrote and did not commit, are committed first,
/// when the file is `HEAD`'s version with records appended and verifies. Returns the line that
/// says so. A file that is behind `HEAD`, or differs from it otherwise, is refused: signing on
/// it would commit a history that drops or changes records.
pub(crate) fn recover(tracked: &Tracked, bytes: &[u8]) -> Result<Option<String>, CliError> {
    let git = |e: GitError| CliError::usage(format!("git: {e}; nothing was written"));
    let Some(committed) = tracked.committed().map_err(git)? else {
        return first_commit(tracked, bytes);
    };
    if committed == bytes {
        // Committed, but the index may hold an older version (a command killed between its
        // commit and its index write): staged again, or a later `git commit` would take back
        // records.
        return Ok(tracked.restage(bytes).map_err(git)?.then(|| {
            format!(
                "staged {} again: git's index held an older version, left by a command that \
                 was cut short",
                correspond::text::path(tracked.relative())
            )
        }));
    }
    let file = correspond::text::path(tracked.relative());
    let spec = pasteable(tracked);
    let refuse = |what: String| {
        CliError::rejected(format!("{file} {what}; nothing was written")).hint(format!(
            "`git diff -- {spec}` shows how; `git checkout -- {spec}` puts back the committed \
             version"
        ))
    };
    let Ok(old) = GameFile::parse(&committed) else {
        return Ok(None);
    };
    if committed.starts_with(bytes) {
        return Err(refuse(format!(
            "is behind its last commit, which holds records up to {}",
            old.documents() - 1
        )));
    }
    let mut grown = old.clone();
    if let Err(e) = grown.extend(bytes) {
        // A crossing settled and not committed (`receive --settle` cut short): the void
        // records dropped for the other player's, and what the settlement signed again.
        if let Some(void) = correspond::fork::settles(&old, bytes) {
            let last = old.documents() - 1;
            let records = if void == last {
                format!("record {void}")
            } else {
                format!("records {void}-{last}")
            };
            let message = format!(
                "{}, {records} void by the crossing rule, settled before but not committed",
                old.header().game
            );
            return commit(tracked, &message, bytes).map(Some);
        }
        return Err(refuse(format!(
            "differs from its last commit other than by appended records ({e})"
        )));
    }
    if let Err(e) = correspond::games::verify(bytes) {
        return Err(refuse(format!(
            "holds uncommitted records that do not verify ({e})"
        )));
    }
    let (first, last) = (old.documents(), grown.documents() - 1);
    let records = if first == last {
        format!("record {first}")
    } else {
        format!("records {first}-{last}")
    };
    let message = format!(
        "{}, {records}, written before but not committed",
        grown.header().game
    );
    commit(tracked, &message, bytes).map(Some)
}

/// A file that no commit holds yet (a game made with `--no-commit`, or whose first commit was
/// cut short): committed on its own first, when it verifies, so that each commit holds what its
/// message says.
fn first_commit(tracked: &Tracked, bytes: &[u8]) -> Result<Option<String>, CliError> {
    let Ok(file) = GameFile::parse(bytes) else {
        return Ok(None);
    };
    if correspond::games::verify(bytes).is_err() {
        return Ok(None);
    }
    let what = match file.documents() {
        1 => "its header".to_owned(),
        2 => "its header and record 1".to_owned(),
        n => format!("its header and records 1-{}", n - 1),
    };
    let message = format!(
        "{}, new game, {what}, written before but not committed",
        file.header().game
    );
    commit(tracked, &message, bytes).map(Some)
}
