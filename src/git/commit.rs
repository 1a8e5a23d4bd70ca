//! Committing a game file: the file's new bytes, alone, on top of `HEAD`, after checking
//! the locks git will need.

use super::{GitError, locate};
use git2::{Oid, Repository, Signature, Tree};
use std::path::{Path, PathBuf};

/// A game file inside a git work tree, ready to be committed.
pub struct Tracked {
    repo: Repository,
    relative: PathBuf,
    signature: Signature<'static>,
}

/// How many times to look again for a git lock that another git command holds for a moment
/// (`git status` refreshing the index, a `git gc`), and how long to wait between looks: two
/// seconds in all. A lock still there after that was left by a command that was killed.
const LOCK_ATTEMPTS: u32 = 40;
const LOCK_PAUSE: std::time::Duration = std::time::Duration::from_millis(50);

impl Tracked {
    /// The repository whose work tree holds `path`, if there is one, with what the commit will
    /// need checked now, before anything is written: the committer identity, and that none of
    /// the locks the commit takes (the index, `HEAD`, the branch) is held for longer than a
    /// moment.
    ///
    /// # Errors
    /// [`GitError::Identity`] when git has no usable committer identity; [`GitError::Locked`]
    /// for a lock that stays; other git failures.
    pub fn find(path: &Path) -> Result<Option<Tracked>, GitError> {
        let Some((repo, relative)) = locate(path)? else {
            return Ok(None);
        };
        // A file the repository ignores, and does not track already, is the user's to keep out
        // of it.
        let tracked = repo
            .index()
            .is_ok_and(|index| index.get_path(&relative, 0).is_some());
        if !tracked && repo.is_path_ignored(&relative).unwrap_or(false) {
            return Ok(None);
        }
        let signature = repo.signature().map_err(|_| GitError::Identity)?.to_owned();
        // git refuses these in a commit's author line; libgit2 finds out only when committing.
        let usable = |text: Option<&str>| {
            text.is_some_and(|t| !t.is_empty() && !t.contains(['<', '>', '\n', '\0']))
        };
        if !usable(signature.name().ok()) || !usable(signature.email().ok()) {
            return Err(GitError::Identity);
        }
        let tracked = Tracked {
            repo,
            relative,
            signature,
        };
        tracked.wait_for_locks()?;
        Ok(Some(tracked))
    }

    /// The file's path relative to the work tree.
    #[must_use]
    pub fn relative(&self) -> &Path {
        &self.relative
    }

    /// The file as `HEAD` holds it; `None` when it is not there (or there is no commit yet).
    ///
    /// # Errors
    /// When git fails.
    pub fn committed(&self) -> Result<Option<Vec<u8>>, GitError> {
        let Ok(head) = self.repo.head() else {
            return Ok(None);
        };
        let commit = head.peel_to_commit()?;
        match super::file_at(&commit, &self.relative)? {
            Some(blob) => Ok(Some(self.repo.find_blob(blob)?.content().to_vec())),
            None => Ok(None),
        }
    }

    /// The lock files a commit takes: the index, `HEAD`, and the branch `HEAD` names.
    fn locks(&self) -> Vec<PathBuf> {
        let repo = &self.repo;
        let mut locks = vec![
            repo.path().join("index.lock"),
            repo.path().join("HEAD.lock"),
        ];
        if let Ok(head) = repo.find_reference("HEAD")
            && let Some(branch) = head.symbolic_target().ok().flatten()
        {
            locks.push(repo.commondir().join(format!("{branch}.lock")));
        }
        locks
    }

    /// Waits a moment for the locks a commit takes to be free; fails naming one that stays.
    fn wait_for_locks(&self) -> Result<(), GitError> {
        for attempt in 0..=LOCK_ATTEMPTS {
            let Some(held) = self.locks().into_iter().find(|l| l.exists()) else {
                return Ok(());
            };
            if attempt == LOCK_ATTEMPTS {
                let shown = self
                    .repo
                    .workdir()
                    .and_then(|w| held.strip_prefix(w).ok())
                    .map_or_else(|| held.clone(), Path::to_path_buf);
                return Err(GitError::Locked(shown));
            }
            std::thread::sleep(LOCK_PAUSE);
        }
        Ok(())
    }

    /// Commits `contents` as the file, alone, on top of `HEAD` as it is now, and stages it in
    /// git's index so that `git status` agrees. The caller holds the game file's lock, so the
    /// file on disk is `contents`. git's own short-lived locks (another command committing in
    /// the same repository at the same moment) are waited for, and the commit made again on
    /// the `HEAD` that command left.
    ///
    /// # Errors
    /// [`GitError::Locked`] (nothing committed) when a lock stays; git failures;
    /// [`GitError::IndexAfterCommit`] when the commit was made but the index could not be
    /// updated.
    pub fn commit(&self, message: &str, contents: &[u8]) -> Result<Oid, GitError> {
        // correspond commands committing other game files of this repository at the same moment
        // take turns: each reads HEAD and the index after the last one wrote them. (git's own
        // commands are kept apart by git's locks, which are waited for.)
        let turn = self.repository_turn()?;
        let mut attempt = 0;
        let id = loop {
            self.wait_for_locks()?;
            match self.commit_once(message, contents) {
                Ok(id) => break id,
                Err(e) if attempt < LOCK_ATTEMPTS && transient(&e) => {
                    attempt += 1;
                    std::thread::sleep(LOCK_PAUSE);
                }
                Err(e) => return Err(e.into()),
            }
        };
        let mut attempt = 0;
        loop {
            let staged = self.repo.index().and_then(|mut index| {
                // Read again: another command may have written it since this one opened it.
                index.read(true)?;
                index.add_path(&self.relative)?;
                index.write()
            });
            match staged {
                Ok(()) => {
                    drop(turn);
                    return Ok(id);
                }
                Err(e) if attempt < LOCK_ATTEMPTS && transient(&e) => {
                    attempt += 1;
                    std::thread::sleep(LOCK_PAUSE);
                }
                Err(error) => return Err(GitError::IndexAfterCommit { id, error }),
            }
        }
    }

    /// This repository's turn to commit, among correspond commands: an exclusive lock on a file
    /// of its own in the git folder, held while the guard lives (the operating system lets it
    /// go if the process dies, so it is never left behind).
    fn repository_turn(&self) -> Result<std::fs::File, GitError> {
        let path = self.repo.commondir().join("correspond-commit");
        let io = |e: std::io::Error| {
            GitError::Git(git2::Error::from_str(&format!(
                "cannot take {}: {e}",
                crate::text::path(&path)
            )))
        };
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(io)?;
        file.lock().map_err(io)?;
        Ok(file)
    }

    fn commit_once(&self, message: &str, contents: &[u8]) -> Result<Oid, git2::Error> {
        let repo = &self.repo;
        let blob = repo.blob(contents)?;
        let parent = match repo.head() {
            Ok(head) => Some(head.peel_to_commit()?),
            Err(_) => None,
        };
        let base = parent.as_ref().map(git2::Commit::tree).transpose()?;
        let components: Vec<String> = self
            .relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let tree_id = replace_in_tree(repo, base.as_ref(), &components, blob)?;
        let tree = repo.find_tree(tree_id)?;
        let parents: Vec<&git2::Commit<'_>> = parent.iter().collect();
        repo.commit(
            Some("HEAD"),
            &self.signature,
            &self.signature,
            message,
            &tree,
            &parents,
        )
    }
}

/// Whether a git failure is another command's lock or move of `HEAD` at the same moment.
fn transient(e: &git2::Error) -> bool {
    matches!(
        e.code(),
        git2::ErrorCode::Locked | git2::ErrorCode::Modified | git2::ErrorCode::Exists
    ) || e.message().contains("lock")
}

/// The id of `base` with the file at `path` (split into components) set to `blob`.
fn replace_in_tree(
    repo: &Repository,
    base: Option<&Tree<'_>>,
    path: &[String],
    blob: Oid,
) -> Result<Oid, git2::Error> {
    let mut builder = repo.treebuilder(base)?;
    match path {
        [] => Err(git2::Error::from_str("empty path")),
        [name] => {
            builder.insert(name, blob, 0o100_644)?;
            builder.write()
        }
        [dir, rest @ ..] => {
            let sub = match base.and_then(|t| t.get_name(dir)) {
                Some(entry) => Some(entry.to_object(repo)?.peel_to_tree()?),
                None => None,
            };
            let sub_id = replace_in_tree(repo, sub.as_ref(), rest, blob)?;
            builder.insert(dir, sub_id, 0o040_000)?;
            builder.write()
        }
    }
}
