//! git, through libgit2: commit a game file after a record is appended, read a file's history
//! along the current branch (and where a shallow clone or a graft hides the rest of it), and
//! read a repository's configuration.
//!
//! A commit made here contains the game file and nothing else, whatever else is staged: the
//! tree is the current `HEAD` tree with that one file replaced. The index entry of the file is
//! then refreshed so that `git status` shows it clean, and other staged changes stay staged.

mod commit;
mod histories;
mod history;
mod push;
mod tree;
mod tree_bytes;

pub use commit::Tracked;
pub use push::{Attributes, Between, Blob, FileUpdate, Link, Receiving, Update};
pub use tree::{game_file_name, read_by_folder_check};

/// When a commit is made: seconds since the Unix epoch, and the committer's zone in minutes
/// east of UTC. Given by the caller: the library reads no clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct When {
    /// Seconds since 1970-01-01T00:00:00Z.
    pub seconds: i64,
    /// The zone, minutes east of UTC.
    pub offset_minutes: i32,
}
pub use git2::Oid;
pub use histories::{Held, Histories, game_files_held};
pub use history::{Boundary, Content, Cut, History, Rewind, Step, Version};

use git2::Repository;
use std::path::{Path, PathBuf};

/// Why a commit could not be made.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// git has no name or email to record as the committer.
    #[error(
        "git does not know who you are (user.name and user.email are not set, or hold a newline, \
         `<` or `>`)"
    )]
    Identity,
    /// libgit2 failed.
    #[error("git: {0}")]
    Git(#[from] git2::Error),
    /// The file is not inside the repository's work tree.
    #[error("{0} is not inside the repository's work tree")]
    Outside(PathBuf),
    /// No git repository holds the file.
    #[error("{0} is not in a git repository")]
    NoRepository(PathBuf),
    /// A repository with a work tree, where a bare one is needed.
    #[error("{} is a repository with a work tree, not a bare one", crate::text::path(.0))]
    NotBare(PathBuf),
    /// The repository has no commit yet.
    #[error("the repository has no commits yet")]
    NoCommits,
    /// git is in the middle of an operation (a merge, a rebase...): a commit now would be
    /// taken into it, or clear a conflict it left for the user.
    #[error("git is in the middle of {}", .0.what())]
    InProgress(Operation),
    /// `HEAD` names no branch: a commit there is on no branch, lost at the next checkout.
    #[error("HEAD is detached: a commit would be on no branch")]
    Detached,
    /// A lock file of git's stays: another git command is running, or one was cut short.
    #[error(
        "git's lock {} exists: another git command is running, or one was killed and left it",
        crate::text::path(.0)
    )]
    Locked(PathBuf),
    /// Another correspond command keeps the repository's commit turn (it may be suspended).
    #[error(
        "another correspond command has been committing in this repository for ten seconds (is \
         one suspended?)"
    )]
    Busy,
    /// A commit's tree names more files and folders, or longer paths, than any repository of
    /// games holds.
    #[error(
        "a commit's tree names more than {limit} files and folders (counted along every path), \
         or paths longer in all than 64 MiB, which no repository of games does"
    )]
    TooManyEntries {
        /// How many are read at most.
        limit: usize,
    },
    /// A tree names one entry twice, or lists its entries out of git's order, which git never
    /// writes.
    #[error(
        "a tree names {} twice, or out of git's order, which git never writes (git fsck calls \
         it duplicateEntries or treeNotSorted)",
        crate::text::bytes(.0)
    )]
    NamedTwice(Vec<u8>),
    /// A tree entry's name is one git never writes: with a `/`, or `.`, `..` or `.git`, which a
    /// checkout reads as a path of several parts or refuses.
    #[error(
        "a tree holds an entry named {}, which git never writes (git fsck calls it fullPathname, \
         hasDot, hasDotdot or hasDotgit)",
        crate::text::bytes(.0)
    )]
    BadName(Vec<u8>),
    /// `HEAD` holds another version of the file than the one the command read: another
    /// program committed it meanwhile (a `git pull --autostash`), and a commit on top would
    /// take back what that one brought.
    #[error(
        "HEAD holds another version of {} than the one this command read: another program \
         committed it meanwhile",
        crate::text::path(.0)
    )]
    Moved(PathBuf),
    /// The commit was made, but git's index could not be brought up to date with it.
    #[error("committed {id}, but git's index could not be updated: {error}")]
    IndexAfterCommit {
        /// The commit.
        id: Oid,
        /// Why.
        error: git2::Error,
    },
}

/// An operation git can be in the middle of, which a commit must not be taken into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    /// `git merge` (or a `git pull` that merges).
    Merge,
    /// `git rebase` (or a `git pull` that rebases).
    Rebase,
    /// `git cherry-pick`.
    CherryPick,
    /// `git revert`.
    Revert,
    /// `git bisect`.
    Bisect,
    /// `git am`.
    ApplyMailbox,
}

impl Operation {
    /// The operation git is in the middle of in `repo`, if any.
    fn of(repo: &Repository) -> Option<Operation> {
        use git2::RepositoryState as S;
        match repo.state() {
            S::Clean => None,
            S::Merge => Some(Operation::Merge),
            S::Revert | S::RevertSequence => Some(Operation::Revert),
            S::CherryPick | S::CherryPickSequence => Some(Operation::CherryPick),
            S::Bisect => Some(Operation::Bisect),
            S::Rebase | S::RebaseInteractive | S::RebaseMerge | S::ApplyMailboxOrRebase => {
                Some(Operation::Rebase)
            }
            S::ApplyMailbox => Some(Operation::ApplyMailbox),
        }
    }

    /// `a merge`, as a sentence says it.
    #[must_use]
    pub fn what(self) -> &'static str {
        match self {
            Operation::Merge => "a merge",
            Operation::Rebase => "a rebase",
            Operation::CherryPick => "a cherry-pick",
            Operation::Revert => "a revert",
            Operation::Bisect => "a bisect",
            Operation::ApplyMailbox => "applying patches (git am)",
        }
    }

    /// The git commands that finish it and that give it up.
    #[must_use]
    pub fn ways_out(self) -> (&'static str, &'static str) {
        match self {
            Operation::Merge => ("git commit", "git merge --abort"),
            Operation::Rebase => ("git rebase --continue", "git rebase --abort"),
            Operation::CherryPick => ("git cherry-pick --continue", "git cherry-pick --abort"),
            Operation::Revert => ("git revert --continue", "git revert --abort"),
            Operation::Bisect => ("git bisect reset", "git bisect reset"),
            Operation::ApplyMailbox => ("git am --continue", "git am --abort"),
        }
    }
}

impl GitError {
    /// Whether git could not find an object: in a partial clone (`--filter`), file contents
    /// left on the server, which libgit2 does not fetch.
    #[must_use]
    pub fn is_missing_object(&self) -> bool {
        matches!(self, GitError::Git(e) if e.code() == git2::ErrorCode::NotFound)
    }
}

/// What [`setup`] found and did in a clone's configuration.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The root of the work tree.
    pub workdir: PathBuf,
    /// How the user had told `git pull` to reconcile diverged histories (`pull.rebase` or
    /// `pull.ff`, with its value), which is then left alone; `None` when setup chose merging.
    pub pull: Option<(String, String)>,
}

/// Configures the clone holding `dir` (its own configuration, not the user's) for game files:
/// the merge driver `correspond` running `driver`; reflogs kept for ever, since they are the
/// evidence of a force-push and games last months (gc would expire them after 30 or 90 days);
/// and, unless the user has said how `git pull` reconciles diverged histories, merging, so that
/// the merge driver runs (without a setting, current git stops with "divergent branches").
///
/// # Errors
/// [`GitError::NoRepository`] outside a work tree; when git fails.
pub fn setup(dir: &Path, driver: &str) -> Result<Setup, GitError> {
    let repo = Repository::discover(dir).map_err(|_| GitError::NoRepository(dir.to_owned()))?;
    let workdir = repo
        .workdir()
        .ok_or_else(|| GitError::NoRepository(dir.to_owned()))?
        .to_owned();
    let all = repo.config()?.snapshot()?;
    let pull = ["pull.rebase", "pull.ff"]
        .iter()
        .find_map(|key| all.get_string(key).ok().map(|v| ((*key).to_owned(), v)));
    let mut local = repo.config()?.open_level(git2::ConfigLevel::Local)?;
    local.set_str("merge.correspond.name", "correspond game files")?;
    local.set_str("merge.correspond.driver", driver)?;
    local.set_str("gc.reflogExpire", "never")?;
    local.set_str("gc.reflogExpireUnreachable", "never")?;
    if pull.is_none() {
        local.set_bool("pull.rebase", false)?;
    }
    Ok(Setup { workdir, pull })
}

/// During a merge driver's run, whether git is rebasing, and then the commit it replays onto:
/// read from the repository at `git_dir` (the one git names to the driver, or found from the
/// folder it runs the driver in).
#[must_use]
pub fn rebase_onto(git_dir: &Path) -> Option<String> {
    let repo = Repository::discover(git_dir).ok()?;
    ["rebase-merge/onto", "rebase-apply/onto"]
        .iter()
        .find_map(|f| std::fs::read_to_string(repo.path().join(f)).ok())
        .map(|id| id.trim().to_owned())
}

/// A setting of the git configuration that applies at `path` (its repository's, or the
/// user's global one), as git would find it: `user.email`.
#[must_use]
pub fn config_string(path: &Path, name: &str) -> Option<String> {
    let dir = existing_dir(path);
    let config = match Repository::discover(&dir) {
        Ok(repo) => repo.config().ok(),
        Err(_) => git2::Config::open_default().ok(),
    }?;
    config.get_string(name).ok()
}

fn existing_dir(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    let dir = if absolute.is_dir() {
        absolute.as_path()
    } else {
        absolute.parent().unwrap_or(Path::new("/"))
    };
    dir.to_owned()
}

/// The repository whose work tree holds `path` (which need not exist: a deleted file has a
/// history too), and the path relative to the work tree.
fn locate(path: &Path) -> Result<Option<(Repository, PathBuf)>, GitError> {
    // Through a symbolic link, the file is its target (which is what gets written).
    let resolved = std::fs::canonicalize(path).ok();
    let path = resolved.as_deref().unwrap_or(path);
    let outside = || GitError::Outside(path.to_owned());
    let absolute = std::path::absolute(path).map_err(|_| outside())?;
    // The nearest folder that is there: a file deleted with its folder has a history too.
    let dir = absolute
        .ancestors()
        .skip(1)
        .find(|a| a.is_dir())
        .ok_or_else(outside)?;
    let missing = absolute.strip_prefix(dir).map_err(|_| outside())?;
    let repo = match Repository::discover(dir) {
        Ok(repo) => repo,
        Err(e) if e.code() == git2::ErrorCode::NotFound => return Ok(None),
        // A repository is there, but git cannot read it (damaged grafts, a broken HEAD): saying
        // "not in a repository" would send the user the wrong way.
        Err(e) => return Err(e.into()),
    };
    let Some(workdir) = repo.workdir() else {
        return Ok(None);
    };
    let workdir = workdir.canonicalize().map_err(|_| outside())?;
    let dir = dir.canonicalize().map_err(|_| outside())?;
    let relative = dir
        .strip_prefix(&workdir)
        .map_err(|_| outside())?
        .join(missing);
    Ok(Some((repo, relative)))
}

/// The file's blob in a commit's tree, if it is there.
fn file_at(commit: &git2::Commit<'_>, relative: &Path) -> Result<Option<Oid>, git2::Error> {
    match commit.tree()?.get_path(relative) {
        Ok(entry) => Ok(Some(entry.id())),
        Err(e) if e.code() == git2::ErrorCode::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}
