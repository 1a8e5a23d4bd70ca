//! git, through libgit2: commit a game file after a record is appended, read a file's history
//! along the current branch (and where a shallow clone or a graft hides the rest of it), and
//! read a repository's configuration.
//!
//! A commit made here contains the game file and nothing else, whatever else is staged: the
//! tree is the current `HEAD` tree with that one file replaced. The index entry of the file is
//! then refreshed so that `git status` shows it clean, and other staged changes stay staged.

pub use git2::Oid;
use git2::{Repository, Signature, Tree};
use std::path::{Path, PathBuf};

/// Why a commit could not be made.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// git has no name or email to record as the committer.
    #[error("git does not know who you are (user.name and user.email are not set)")]
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
    /// The repository has no commit yet.
    #[error("the repository has no commits yet")]
    NoCommits,
    /// Another git command holds the index (or left its lock behind).
    #[error(
        "git's index is locked ({0} exists: another git command is running, or one was cut short)"
    )]
    IndexLocked(PathBuf),
    /// The commit was made, but git's index could not be brought up to date with it.
    #[error("committed {id}, but git's index could not be updated: {error}")]
    IndexAfterCommit {
        /// The commit.
        id: Oid,
        /// Why.
        error: git2::Error,
    },
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
/// read from the repository git names in the environment it gives the driver.
#[must_use]
pub fn rebase_onto() -> Option<String> {
    let repo = Repository::open_from_env().ok()?;
    ["rebase-merge/onto", "rebase-apply/onto"]
        .iter()
        .find_map(|f| std::fs::read_to_string(repo.path().join(f)).ok())
        .map(|id| id.trim().to_owned())
}

/// A game file inside a git work tree, ready to be committed.
pub struct Tracked {
    repo: Repository,
    relative: PathBuf,
    signature: Signature<'static>,
}

/// The git configuration that applies at `path`: its repository's, or the user's global one.
#[must_use]
pub fn config_near(path: &Path) -> Option<git2::Config> {
    let dir = existing_dir(path);
    match Repository::discover(&dir) {
        Ok(repo) => repo.config().ok(),
        Err(_) => git2::Config::open_default().ok(),
    }
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

impl Tracked {
    /// The repository whose work tree holds `path`, if there is one, with the committer
    /// identity checked now, before anything is written.
    ///
    /// # Errors
    /// [`GitError::Identity`] when git has no committer identity; other git failures.
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
        // Checked now, before anything is written, and again when committing.
        index_unlocked(&repo)?;
        Ok(Some(Tracked {
            repo,
            relative,
            signature,
        }))
    }

    /// The file's path relative to the work tree.
    #[must_use]
    pub fn relative(&self) -> &Path {
        &self.relative
    }

    /// Commits the file as it now is on disk, alone, on top of `HEAD`, and stages it in git's
    /// index so that `git status` agrees.
    ///
    /// # Errors
    /// When the file cannot be read or git fails; [`GitError::IndexLocked`] (nothing committed)
    /// when another git command holds the index; [`GitError::IndexAfterCommit`] when the commit
    /// was made but the index could not be updated.
    pub fn commit(&self, message: &str) -> Result<Oid, GitError> {
        let repo = &self.repo;
        index_unlocked(repo)?;
        let workdir = repo
            .workdir()
            .expect("a tracked repository has a work tree");
        let contents = std::fs::read(workdir.join(&self.relative)).map_err(|e| {
            git2::Error::from_str(&format!(
                "cannot read {}: {e}",
                crate::text::path(&self.relative)
            ))
        })?;
        let blob = repo.blob(&contents)?;
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
        let id = repo.commit(
            Some("HEAD"),
            &self.signature,
            &self.signature,
            message,
            &tree,
            &parents,
        )?;
        let staged = repo.index().and_then(|mut index| {
            index.add_path(&self.relative)?;
            index.write()
        });
        staged.map_err(|error| GitError::IndexAfterCommit { id, error })?;
        Ok(id)
    }
}

/// Fails when another git command holds the index (`.git/index.lock` exists).
fn index_unlocked(repo: &Repository) -> Result<(), GitError> {
    let lock = repo.path().join("index.lock");
    if !lock.exists() {
        return Ok(());
    }
    let shown = repo
        .workdir()
        .and_then(|w| lock.strip_prefix(w).ok())
        .map_or_else(|| lock.clone(), Path::to_path_buf);
    Err(GitError::IndexLocked(shown))
}

/// The repository whose work tree holds `path` (which need not exist: a deleted file has a
/// history too), and the path relative to the work tree.
fn locate(path: &Path) -> Result<Option<(Repository, PathBuf)>, GitError> {
    // Through a symbolic link, the file is its target (which is what gets written).
    let resolved = std::fs::canonicalize(path).ok();
    let path = resolved.as_deref().unwrap_or(path);
    let dir = existing_dir(path);
    let Ok(repo) = Repository::discover(&dir) else {
        return Ok(None);
    };
    let Some(workdir) = repo.workdir() else {
        return Ok(None);
    };
    let outside = || GitError::Outside(path.to_owned());
    let workdir = workdir.canonicalize().map_err(|_| outside())?;
    let dir = dir.canonicalize().map_err(|_| outside())?;
    let name = path.file_name().ok_or_else(outside)?;
    let relative = dir
        .strip_prefix(&workdir)
        .map_err(|_| outside())?
        .join(name);
    Ok(Some((repo, relative)))
}

/// A commit that changed a file, as git records it.
#[derive(Clone, Debug)]
pub struct Version {
    /// The commit.
    pub commit: Oid,
    /// Its author's name.
    pub author: String,
    /// Its author's email.
    pub email: String,
    /// Its author time, seconds since the Unix epoch.
    pub time: i64,
    /// The author's time zone, minutes east of UTC.
    pub offset_minutes: i32,
    /// The first line of its message.
    pub summary: String,
    /// The file as the commit left it; `None` where the commit deleted it.
    pub blob: Option<Oid>,
    /// For a merge: its other parents whose file differs from the merge's, with that file.
    pub merged: Vec<(Oid, Oid)>,
}

/// A commit off the branch's first-parent line and one of its parents, where the file differs.
#[derive(Clone, Debug)]
pub struct Step {
    /// The parent.
    pub parent: Oid,
    /// The commit.
    pub child: Oid,
    /// The file in the parent.
    pub before: Oid,
    /// The file in the commit (`None`: deleted).
    pub after: Option<Oid>,
}

/// A move of a branch that was not a fast-forward (a reset, a rebase, a force-push), as the
/// repository's reflog remembers it, where the file differs between the two commits.
#[derive(Clone, Debug)]
pub struct Rewind {
    /// The reference that moved: the branch, or its upstream.
    pub reference: String,
    /// Where it was.
    pub from: Oid,
    /// Where it went.
    pub to: Oid,
    /// The reflog's message (`reset: moving to HEAD~1`, `fetch: forced-update`).
    pub message: String,
    /// The file at `from`.
    pub from_blob: Oid,
    /// The file at `to` (`None`: not there).
    pub to_blob: Option<Oid>,
}

/// Why a commit's parents are not the real ones in this clone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// The edge of a shallow clone (`git clone --depth`): its parents were not fetched.
    Shallow,
    /// A graft (`.git/info/grafts`) replaces its parents.
    Graft,
}

/// A commit of the history beyond which this clone cannot see, or not truly.
#[derive(Clone, Debug)]
pub struct Boundary {
    /// The commit.
    pub commit: Oid,
    /// Why.
    pub cut: Cut,
    /// The file as the commit holds it (`None`: not there).
    pub blob: Option<Oid>,
}

/// A file's history along the current branch: the commits on the first-parent line from
/// `HEAD` that changed it, oldest first. A merge counts as one change, of everything it
/// brought in.
pub struct History {
    repo: Repository,
    relative: PathBuf,
    /// The commits of the first-parent line.
    line: std::collections::HashSet<Oid>,
    /// The branch `HEAD` names (or `HEAD` when detached).
    pub branch: String,
    /// The commits that changed the file.
    pub versions: Vec<Version>,
}

impl History {
    /// Walks the history of the file at `path`.
    ///
    /// # Errors
    /// When no repository holds the file, it has no commits, or git fails.
    pub fn of(path: &Path) -> Result<History, GitError> {
        // Reading every version of a growing file, libgit2 would hash each in full to check
        // it against its id: the SHA-1 of the whole history, which grows with its square. The
        // audit checks every byte it reads against the players' signatures instead.
        git2::opts::strict_hash_verification(false);
        let (repo, relative) =
            locate(path)?.ok_or_else(|| GitError::NoRepository(path.to_owned()))?;
        let branch = {
            let head = repo.head().map_err(|_| GitError::NoCommits)?;
            head.shorthand().unwrap_or("HEAD").to_owned()
        };
        let mut walk = repo.revwalk()?;
        walk.push_head()?;
        walk.simplify_first_parent()?;
        walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::REVERSE)?;
        let mut versions = Vec::new();
        let mut previous = None;
        let mut line = std::collections::HashSet::new();
        for id in walk {
            let id = id?;
            line.insert(id);
            let commit = repo.find_commit(id)?;
            let blob = file_at(&commit, &relative)?;
            let mut merged = Vec::new();
            for parent in commit.parents().skip(1) {
                if let Some(theirs) = file_at(&parent, &relative)?.filter(|b| Some(*b) != blob) {
                    merged.push((parent.id(), theirs));
                }
            }
            if blob != previous || !merged.is_empty() {
                let author = commit.author();
                versions.push(Version {
                    commit: commit.id(),
                    author: String::from_utf8_lossy(author.name_bytes()).into_owned(),
                    email: String::from_utf8_lossy(author.email_bytes()).into_owned(),
                    time: author.when().seconds(),
                    offset_minutes: author.when().offset_minutes(),
                    summary: String::from_utf8_lossy(commit.summary_bytes().unwrap_or_default())
                        .into_owned(),
                    blob,
                    merged,
                });
            }
            previous = blob;
        }
        Ok(History {
            repo,
            relative,
            line,
            branch,
            versions,
        })
    }

    /// The commits that merges brought onto the branch (off its first-parent line), each with
    /// each parent, where the file differs between the two: every such step must append too.
    ///
    /// # Errors
    /// When git fails.
    pub fn side_steps(&self) -> Result<Vec<Step>, GitError> {
        let repo = &self.repo;
        let mut walk = repo.revwalk()?;
        walk.push_head()?;
        walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::REVERSE)?;
        let mut steps = Vec::new();
        for id in walk {
            let id = id?;
            if self.line.contains(&id) {
                continue;
            }
            let commit = repo.find_commit(id)?;
            let blob = file_at(&commit, &self.relative)?;
            for parent in commit.parents() {
                let before = file_at(&parent, &self.relative)?;
                if let Some(before) = before.filter(|b| Some(*b) != blob) {
                    steps.push(Step {
                        parent: parent.id(),
                        child: id,
                        before,
                        after: blob,
                    });
                }
            }
        }
        Ok(steps)
    }

    /// The oldest commit, on the first-parent line back from `tip`, from which on the file
    /// starts with `prefix` without a break: the commit that wrote the end of `prefix`.
    ///
    /// # Errors
    /// When git fails.
    pub fn writer(&self, tip: Oid, prefix: &[u8]) -> Result<Option<Oid>, GitError> {
        let mut found = None;
        let mut commit = Some(self.repo.find_commit(tip)?);
        while let Some(c) = commit {
            let holds = match file_at(&c, &self.relative)? {
                Some(blob) => self.repo.find_blob(blob)?.content().starts_with(prefix),
                None => false,
            };
            if !holds {
                break;
            }
            found = Some(c.id());
            commit = c.parents().next();
        }
        Ok(found)
    }

    /// The moves of the branch and of its upstream that were not fast-forwards and changed
    /// the file, oldest first, from the reflogs (which only this clone keeps: a force-push is
    /// seen in the clones that had fetched what it dropped).
    ///
    /// # Errors
    /// When git fails.
    pub fn rewinds(&self) -> Result<Vec<Rewind>, GitError> {
        let repo = &self.repo;
        let mut references = Vec::new();
        if repo.head_detached().unwrap_or(false) {
            references.push("HEAD".to_owned());
        }
        if let Ok(head) = repo.head()
            && let Some(name) = head.name().ok().filter(|_| head.is_branch())
        {
            references.push(name.to_owned());
            if let Ok(upstream) = repo.branch_upstream_name(name)
                && let Ok(upstream) = upstream.as_str()
            {
                references.push(upstream.to_owned());
            }
        }
        let mut rewinds = Vec::new();
        for reference in references {
            let Ok(reflog) = repo.reflog(&reference) else {
                continue;
            };
            // The reflog lists the newest entry first.
            for entry in reflog.iter().collect::<Vec<_>>().into_iter().rev() {
                let (from, to) = (entry.id_old(), entry.id_new());
                let message =
                    String::from_utf8_lossy(entry.message_bytes().unwrap_or_default()).into_owned();
                // HEAD's own log also records switching branches, which moves nothing.
                if from.is_zero() || to.is_zero() || from == to || message.starts_with("checkout:")
                {
                    continue;
                }
                if repo.graph_descendant_of(to, from).unwrap_or(false) {
                    continue;
                }
                let (Ok(old), Ok(new)) = (repo.find_commit(from), repo.find_commit(to)) else {
                    continue;
                };
                let Some(from_blob) = file_at(&old, &self.relative)? else {
                    continue;
                };
                let to_blob = file_at(&new, &self.relative)?;
                if to_blob != Some(from_blob) {
                    rewinds.push(Rewind {
                        reference: reference.clone(),
                        from,
                        to,
                        message,
                        from_blob,
                        to_blob,
                    });
                }
            }
        }
        Ok(rewinds)
    }

    /// The commits reachable from `HEAD` whose parents this clone does not truly have: the
    /// edges of a shallow clone, and grafted commits. Beyond them the history cannot be
    /// checked, so an audit that meets one cannot pass.
    ///
    /// # Errors
    /// When git fails.
    pub fn boundaries(&self) -> Result<Vec<Boundary>, GitError> {
        let repo = &self.repo;
        let mut cuts = std::collections::HashMap::new();
        let common = repo.commondir();
        for (file, cut) in [("shallow", Cut::Shallow), ("info/grafts", Cut::Graft)] {
            let Ok(text) = std::fs::read_to_string(common.join(file)) else {
                continue;
            };
            for id in text.lines().filter_map(|l| l.split_whitespace().next()) {
                if let Ok(id) = Oid::from_str(id) {
                    cuts.entry(id).or_insert(cut);
                }
            }
        }
        if cuts.is_empty() {
            return Ok(Vec::new());
        }
        let mut walk = repo.revwalk()?;
        walk.push_head()?;
        walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::REVERSE)?;
        let mut found = Vec::new();
        for id in walk {
            let id = id?;
            if let Some(cut) = cuts.get(&id) {
                let blob = file_at(&repo.find_commit(id)?, &self.relative)?;
                found.push(Boundary {
                    commit: id,
                    cut: *cut,
                    blob,
                });
            }
        }
        Ok(found)
    }

    /// A blob's bytes.
    ///
    /// # Errors
    /// When git cannot read it.
    pub fn blob(&self, id: Oid) -> Result<Vec<u8>, GitError> {
        Ok(self.repo.find_blob(id)?.content().to_vec())
    }

    /// Calls `f` with the file's bytes as a version left them (`None`: deleted), without
    /// copying them.
    ///
    /// # Errors
    /// When git cannot read the blob.
    pub fn with_content<T>(
        &self,
        version: &Version,
        f: impl FnOnce(Option<&[u8]>) -> T,
    ) -> Result<T, GitError> {
        match version.blob {
            Some(id) => Ok(f(Some(self.repo.find_blob(id)?.content()))),
            None => Ok(f(None)),
        }
    }
}

/// The file's blob in a commit's tree, if it is there.
fn file_at(commit: &git2::Commit<'_>, relative: &Path) -> Result<Option<Oid>, GitError> {
    match commit.tree()?.get_path(relative) {
        Ok(entry) => Ok(Some(entry.id())),
        Err(e) if e.code() == git2::ErrorCode::NotFound => Ok(None),
        Err(e) => Err(e.into()),
    }
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
