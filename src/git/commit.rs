//! Committing a game file: the file's new bytes, alone, on top of `HEAD`, after checking
//! the locks git will need.

use super::{GitError, When, locate};
use git2::{Oid, Repository, Signature, Tree};
use std::path::{Path, PathBuf};

/// A game file inside a git work tree, ready to be committed.
pub struct Tracked {
    repo: Repository,
    relative: PathBuf,
    /// The path as the command was given it, for commands shown to the user to run where they
    /// are.
    given: PathBuf,
    signature: Signature<'static>,
    /// The file's blob in `HEAD` (`None`: not there) when this command last read it there
    /// ([`Tracked::committed`]) or committed it; unset until then. A commit is made only on top
    /// of that version.
    seen: std::cell::Cell<Option<Option<Oid>>>,
}

/// How many times to look again for a git lock that another git command holds for a moment
/// (`git status` refreshing the index, a `git gc`), and how long to wait between looks: two
/// seconds in all. A lock still there after that was left by a command that was killed.
const LOCK_ATTEMPTS: u32 = 40;
const LOCK_PAUSE: std::time::Duration = std::time::Duration::from_millis(50);
/// How many times to look again for the repository's commit turn: ten seconds in all.
const TURN_ATTEMPTS: u32 = 200;

/// git's index lock (`index.lock`), taken by this command as git takes it: created only if it
/// is not there. Removed when dropped (the index is in place by then, or unchanged).
struct IndexLock {
    path: PathBuf,
}

impl IndexLock {
    /// Takes the lock; `None` when another command holds it.
    fn take(repo: &Repository) -> Result<Option<IndexLock>, GitError> {
        let path = repo.path().join("index.lock");
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(_) => Ok(Some(IndexLock { path })),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(None),
            Err(e) => Err(GitError::Git(git2::Error::from_str(&format!(
                "cannot take git's index lock: {e}"
            )))),
        }
    }
}

/// git's index lock, and the critical section it was taken in: the lock goes first (fields
/// drop in order), so that a signal waiting for the section never finds it left behind.
struct Held {
    lock: IndexLock,
    _critical: std::sync::MutexGuard<'static, ()>,
}

impl Drop for IndexLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

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
            given: path.to_owned(),
            signature,
            seen: std::cell::Cell::new(None),
        };
        tracked.ready()?;
        Ok(Some(tracked))
    }

    /// Checks again what [`Tracked::find`] checked of the repository, for a command that has
    /// waited since (for a passphrase): git is in the middle of no operation (a merge, a
    /// rebase...), `HEAD` names a branch, and no lock a commit takes stays held.
    ///
    /// # Errors
    /// [`GitError::InProgress`], [`GitError::Detached`], [`GitError::Locked`].
    pub fn ready(&self) -> Result<(), GitError> {
        if let Some(operation) = super::Operation::of(&self.repo) {
            return Err(GitError::InProgress(operation));
        }
        if self.repo.head_detached().unwrap_or(false) {
            return Err(GitError::Detached);
        }
        self.wait_for_locks()
    }

    /// The file's path relative to the work tree.
    #[must_use]
    pub fn relative(&self) -> &Path {
        &self.relative
    }

    /// The file's path as the command was given it.
    #[must_use]
    pub fn given(&self) -> &Path {
        &self.given
    }

    /// The file as `HEAD` holds it; `None` when it is not there (or there is no commit yet).
    ///
    /// # Errors
    /// When git fails.
    pub fn committed(&self) -> Result<Option<Vec<u8>>, GitError> {
        let blob = self.in_head()?;
        self.seen.set(Some(blob));
        match blob {
            Some(blob) => Ok(Some(self.repo.find_blob(blob)?.content().to_vec())),
            None => Ok(None),
        }
    }

    /// The file's blob in `HEAD` as it is now; `None` when it is not there.
    fn in_head(&self) -> Result<Option<Oid>, GitError> {
        let Ok(head) = self.repo.head() else {
            return Ok(None);
        };
        Ok(super::file_at(&head.peel_to_commit()?, &self.relative)?)
    }

    /// Stages `contents` as the file in git's index when the index holds another version of
    /// it (a command killed between its commit and its index write left the index behind
    /// `HEAD`: a later `git commit` would commit that older version). Returns whether it did.
    ///
    /// # Errors
    /// When a lock stays, or git fails.
    pub fn restage(&self, contents: &[u8]) -> Result<bool, GitError> {
        // As it is on disk now: the repository's cached index is as old as this `Tracked`,
        // and other commands may have committed since.
        let mut index = self.repo.index()?;
        index.read(true)?;
        let wanted = Oid::hash_object(git2::ObjectType::Blob, contents)?;
        if index
            .get_path(&self.relative, 0)
            .is_some_and(|entry| entry.id == wanted)
        {
            return Ok(false);
        }
        // Only a file git tracks is staged again: an untracked one is the commit's to add.
        if index.get_path(&self.relative, 0).is_none() {
            return Ok(false);
        }
        let _turn = self.repository_turn()?;
        let held = self.take_index_lock()?;
        self.stage(&held.lock)?;
        Ok(true)
    }

    /// git's index lock, taken once the locks a commit needs are free, in a critical section
    /// (a signal lets the step that follows finish); another git command taking it between the
    /// look and the take is waited for too.
    fn take_index_lock(&self) -> Result<Held, GitError> {
        for _ in 0..=LOCK_ATTEMPTS {
            self.wait_for_locks()?;
            let critical = crate::interrupt::critical();
            if let Some(lock) = IndexLock::take(&self.repo)? {
                return Ok(Held {
                    lock,
                    _critical: critical,
                });
            }
            drop(critical);
            std::thread::sleep(LOCK_PAUSE);
        }
        Err(GitError::Locked(PathBuf::from(".git/index.lock")))
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
    /// file on disk is `contents`. As git does, the index lock is held from before `HEAD` moves
    /// until the index is written: no `git commit` at the same moment can commit the index's
    /// older copy of the file on top. git's short-lived locks are waited for, and the commit
    /// made again on the `HEAD` another command left; an interruption lets the whole step
    /// finish.
    ///
    /// # Errors
    /// [`GitError::Locked`] or [`GitError::Busy`] (nothing committed) when a lock stays;
    /// [`GitError::Moved`] (nothing committed) when `HEAD` holds another version of the file
    /// than the one this command read or committed last; git failures;
    /// [`GitError::IndexAfterCommit`] when the commit was made but the index could not be
    /// updated.
    pub fn commit(&self, message: &str, contents: &[u8], when: When) -> Result<Oid, GitError> {
        // correspond commands committing other game files of this repository at the same moment
        // take turns: each reads HEAD and the index after the last one wrote them.
        let _turn = self.repository_turn()?;
        let wanted = Oid::hash_object(git2::ObjectType::Blob, contents)?;
        let mut attempt = 0;
        loop {
            let held = self.take_index_lock()?;
            match self.commit_once(message, contents, wanted, when) {
                Ok(None) => return Err(GitError::Moved(self.relative.clone())),
                Ok(Some(id)) => {
                    self.seen.set(Some(Some(wanted)));
                    self.stage(&held.lock)
                        .map_err(|error| GitError::IndexAfterCommit { id, error })?;
                    return Ok(id);
                }
                Err(e) if attempt < LOCK_ATTEMPTS && transient(&e) => {
                    drop(held);
                    attempt += 1;
                    std::thread::sleep(LOCK_PAUSE);
                }
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// Stages the file in git's index while `_lock` keeps other git commands off it: the index
    /// is read afresh, the file's entry updated, the whole written beside it, and renamed into
    /// its place (libgit2 would take the lock this command already holds).
    fn stage(&self, _lock: &IndexLock) -> Result<(), git2::Error> {
        let mut index = self.repo.index()?;
        index.read(true)?;
        index.add_path(&self.relative)?;
        // Under git's index lock no other command is here: what a killed one left goes.
        let side = self.repo.path().join("correspond-index");
        let _ = std::fs::remove_file(&side);
        let _ = std::fs::remove_file(self.repo.path().join("correspond-index.lock"));
        let mut out = git2::Index::open(&side)?;
        for entry in index.iter() {
            out.add(&entry)?;
        }
        out.write()?;
        std::fs::rename(&side, self.repo.path().join("index"))
            .map_err(|e| git2::Error::from_str(&format!("cannot replace git's index: {e}")))
    }

    /// The file's mode in a commit: executable when the file on disk is, as git records it.
    fn mode(&self) -> i32 {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let executable = self.repo.workdir().is_some_and(|w| {
                std::fs::metadata(w.join(&self.relative))
                    .is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
            });
            if executable {
                return 0o100_755;
            }
        }
        0o100_644
    }

    /// This repository's turn to commit, among correspond commands: an exclusive lock on a file
    /// of its own in the git folder, held while the guard lives (the operating system lets it
    /// go if the process dies, so it is never left behind). Held for a moment by each command;
    /// one that keeps it longer (a command suspended in its commit) is waited for ten seconds.
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
        for _ in 0..TURN_ATTEMPTS {
            match file.try_lock() {
                Ok(()) => return Ok(file),
                Err(std::fs::TryLockError::WouldBlock) => std::thread::sleep(LOCK_PAUSE),
                Err(std::fs::TryLockError::Error(e)) => return Err(io(e)),
            }
        }
        Err(GitError::Busy)
    }

    /// One attempt of [`Tracked::commit`]; `None` when the `HEAD` it would commit on holds
    /// another version of the file than the one seen (see [`Tracked::commit`]'s `Moved`).
    fn commit_once(
        &self,
        message: &str,
        contents: &[u8],
        wanted: Oid,
        when: When,
    ) -> Result<Option<Oid>, git2::Error> {
        let repo = &self.repo;
        // The identity is git's; the time is the caller's (the library reads no clock).
        let signature = git2::Signature::new(
            self.signature.name().unwrap_or_default(),
            self.signature.email().unwrap_or_default(),
            &git2::Time::new(when.seconds, when.offset_minutes),
        )?;
        let blob = repo.blob(contents)?;
        let parent = match repo.head() {
            Ok(head) => Some(head.peel_to_commit()?),
            Err(_) => None,
        };
        // Judged on the very commit the new one goes on top of. It may hold `contents` already
        // (a `git commit -a` took the file as written).
        if let Some(seen) = self.seen.get() {
            let now = match &parent {
                Some(commit) => super::file_at(commit, &self.relative)?,
                None => None,
            };
            if now != seen && now != Some(wanted) {
                return Ok(None);
            }
        }
        let base = parent.as_ref().map(git2::Commit::tree).transpose()?;
        let components: Vec<String> = self
            .relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let tree_id = replace_in_tree(repo, base.as_ref(), &components, blob, self.mode())?;
        let tree = repo.find_tree(tree_id)?;
        let parents: Vec<&git2::Commit<'_>> = parent.iter().collect();
        repo.commit(
            Some("HEAD"),
            &signature,
            &signature,
            message,
            &tree,
            &parents,
        )
        .map(Some)
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
    mode: i32,
) -> Result<Oid, git2::Error> {
    let mut builder = repo.treebuilder(base)?;
    match path {
        [] => Err(git2::Error::from_str("empty path")),
        [name] => {
            builder.insert(name, blob, mode)?;
            builder.write()
        }
        [dir, rest @ ..] => {
            let sub = match base.and_then(|t| t.get_name(dir)) {
                Some(entry) => Some(entry.to_object(repo)?.peel_to_tree()?),
                None => None,
            };
            let sub_id = replace_in_tree(repo, sub.as_ref(), rest, blob, mode)?;
            builder.insert(dir, sub_id, 0o040_000)?;
            builder.write()
        }
    }
}
