//! A file's history along the current branch: its versions, the commits merged in from side
//! branches, the branch moves the reflogs remember, and where a shallow clone or a graft hides
//! the rest.

use super::{GitError, file_at, locate};
use git2::{Oid, Repository};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

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

/// What a version holds, against the version before it along the branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Content<'a> {
    /// The file is not there.
    Deleted,
    /// The version before, with these bytes appended (possibly none).
    Appended(&'a [u8]),
    /// The whole file, which does not extend the version before (or there is none).
    Whole(&'a [u8]),
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
    source: Source,
    /// The branch `HEAD` names (or `HEAD` when detached).
    pub branch: String,
    /// The commits that changed the file.
    pub versions: Vec<Version>,
}

/// Where a history's other parts (side steps, rewinds, boundaries) are read from.
enum Source {
    /// The file was read alone ([`History::of`]): each part walks the repository for it.
    Alone {
        repo: Repository,
        relative: PathBuf,
        /// The commits of the first-parent line.
        line: HashSet<Oid>,
    },
    /// The file is one of a folder's ([`super::Histories`]): each part was read once for all.
    Folder(Box<dyn FolderPart>),
}

/// One file's share of what a folder's walk read once for all its files (see
/// [`super::Histories`]): each answers as [`History`]'s method of the same name.
pub(super) trait FolderPart {
    /// The repository walked.
    fn repo(&self) -> &Repository;
    /// As [`History::side_steps`].
    fn side_steps(&self) -> Result<Vec<Step>, GitError>;
    /// As [`History::rewinds`].
    fn rewinds(&self) -> Result<Vec<Rewind>, GitError>;
    /// As [`History::boundaries`].
    fn boundaries(&self) -> Result<Vec<Boundary>, GitError>;
    /// As [`History::writer`].
    fn writer(&self, tip: Oid, prefix: &[u8]) -> Result<Option<Oid>, GitError>;
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
        let (branch, walk) = first_parent_line(&repo)?;
        let mut versions = Vec::new();
        let mut previous = None;
        let mut line = HashSet::new();
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
            source: Source::Alone {
                repo,
                relative,
                line,
            },
            branch,
            versions,
        })
    }

    /// One of a folder's files, read with the others by [`super::Histories`].
    pub(super) fn part(
        part: Box<dyn FolderPart>,
        branch: String,
        versions: Vec<Version>,
    ) -> History {
        History {
            source: Source::Folder(part),
            branch,
            versions,
        }
    }

    fn repo(&self) -> &Repository {
        match &self.source {
            Source::Alone { repo, .. } => repo,
            Source::Folder(part) => part.repo(),
        }
    }

    /// The commits that merges brought onto the branch (off its first-parent line), each with
    /// each parent, where the file differs between the two: every such step must append too.
    ///
    /// # Errors
    /// When git fails.
    pub fn side_steps(&self) -> Result<Vec<Step>, GitError> {
        let (repo, relative, line) = match &self.source {
            Source::Alone {
                repo,
                relative,
                line,
            } => (repo, relative, line),
            Source::Folder(part) => return part.side_steps(),
        };
        let mut walk = repo.revwalk()?;
        walk.push_head()?;
        walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::REVERSE)?;
        let mut steps = Vec::new();
        for id in walk {
            let id = id?;
            if line.contains(&id) {
                continue;
            }
            let commit = repo.find_commit(id)?;
            let blob = file_at(&commit, relative)?;
            for parent in commit.parents() {
                let before = file_at(&parent, relative)?;
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
        match &self.source {
            Source::Alone { repo, relative, .. } => {
                let mut found = None;
                let mut commit = Some(repo.find_commit(tip)?);
                while let Some(c) = commit {
                    let holds = match file_at(&c, relative)? {
                        Some(blob) => repo.find_blob(blob)?.content().starts_with(prefix),
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
            Source::Folder(part) => part.writer(tip, prefix),
        }
    }

    /// The moves of the branch and of its upstream that were not fast-forwards and changed
    /// the file, oldest first, from the reflogs (which only this clone keeps: a force-push is
    /// seen in the clones that had fetched what it dropped).
    ///
    /// # Errors
    /// When git fails.
    pub fn rewinds(&self) -> Result<Vec<Rewind>, GitError> {
        let (repo, relative) = match &self.source {
            Source::Alone { repo, relative, .. } => (repo, relative),
            Source::Folder(part) => return part.rewinds(),
        };
        let mut rewinds = Vec::new();
        for (reference, moves) in moves(repo) {
            for Move { from, to, message } in moves {
                let (Ok(old), Ok(new)) = (repo.find_commit(from), repo.find_commit(to)) else {
                    continue;
                };
                let Some(from_blob) = file_at(&old, relative)? else {
                    continue;
                };
                let to_blob = file_at(&new, relative)?;
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

    /// The commits whose parents this clone does not truly have: the edges of a shallow clone
    /// that `HEAD` reaches, and every grafted commit (a graft can hide the very commits that
    /// would reach it). Beyond them the history cannot be checked, so an audit that meets one
    /// cannot pass.
    ///
    /// # Errors
    /// When git fails.
    pub fn boundaries(&self) -> Result<Vec<Boundary>, GitError> {
        let (repo, relative) = match &self.source {
            Source::Alone { repo, relative, .. } => (repo, relative),
            Source::Folder(part) => return part.boundaries(),
        };
        let mut found = Vec::new();
        for (commit, cut, met) in cuts(repo)? {
            let blob = match repo.find_commit(commit) {
                Ok(c) => file_at(&c, relative)?,
                Err(e) if met => return Err(e.into()),
                Err(_) => None,
            };
            found.push(Boundary { commit, cut, blob });
        }
        Ok(found)
    }

    /// A blob's bytes.
    ///
    /// # Errors
    /// When git cannot read it.
    pub fn blob(&self, id: Oid) -> Result<Vec<u8>, GitError> {
        Ok(self.repo().find_blob(id)?.content().to_vec())
    }

    /// Calls `f` with each version, oldest first, and what it holds against the version before
    /// it (see [`Content`]). Each blob is read once and compared in place with the version
    /// before, which is kept by appending what each version adds: a long history's blobs are
    /// never copied whole, and only one is held at a time. `f` may stop the walk with an error.
    ///
    /// # Errors
    /// When git cannot read a blob, or `f` fails.
    pub fn each_content<E: From<GitError>>(
        &self,
        mut f: impl FnMut(&Version, Content<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        // The version before, when there is one.
        let mut before: Option<Vec<u8>> = None;
        for version in &self.versions {
            let Some(id) = version.blob else {
                before = None;
                f(version, Content::Deleted)?;
                continue;
            };
            let blob = self.repo().find_blob(id).map_err(GitError::from)?;
            let now = blob.content();
            match &mut before {
                Some(then) if now.starts_with(then) => {
                    let tail = &now[then.len()..];
                    then.extend_from_slice(tail);
                    f(version, Content::Appended(tail))?;
                }
                _ => {
                    before = Some(now.to_vec());
                    f(version, Content::Whole(now))?;
                }
            }
        }
        Ok(())
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
            Some(id) => Ok(f(Some(self.repo().find_blob(id)?.content()))),
            None => Ok(f(None)),
        }
    }
}

/// A move of a reference that was not a fast-forward, between two commits this clone holds.
pub(super) struct Move {
    pub(super) from: Oid,
    pub(super) to: Oid,
    pub(super) message: String,
}

/// The moves of the branch and of its upstream (and of `HEAD` when detached) that were not
/// fast-forwards, oldest first, by reference, from the reflogs (which only this clone keeps: a
/// force-push is seen in the clones that had fetched what it dropped).
pub(super) fn moves(repo: &Repository) -> Vec<(String, Vec<Move>)> {
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
    let mut found = Vec::new();
    for reference in references {
        let Ok(reflog) = repo.reflog(&reference) else {
            continue;
        };
        let mut moves = Vec::new();
        // The reflog lists the newest entry first.
        for entry in reflog.iter().collect::<Vec<_>>().into_iter().rev() {
            let (from, to) = (entry.id_old(), entry.id_new());
            let message =
                String::from_utf8_lossy(entry.message_bytes().unwrap_or_default()).into_owned();
            // HEAD's own log also records switching branches, which moves nothing.
            if from.is_zero() || to.is_zero() || from == to || message.starts_with("checkout:") {
                continue;
            }
            if repo.graph_descendant_of(to, from).unwrap_or(false) {
                continue;
            }
            moves.push(Move { from, to, message });
        }
        found.push((reference, moves));
    }
    found
}

/// The commits whose parents this clone does not truly have, and why, and whether the walk
/// from `HEAD` met each: the edges of a shallow clone that `HEAD` reaches, in the walk's order,
/// then every grafted commit it did not meet, by id (a graft can hide the very commits that
/// would reach it).
///
/// # Errors
/// When git fails.
pub(super) fn cuts(repo: &Repository) -> Result<Vec<(Oid, Cut, bool)>, GitError> {
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
        if let Some(cut) = cuts.remove(&id) {
            found.push((id, cut, true));
        }
    }
    // A graft the walk did not meet may still be why it did not: one that makes a cycle or
    // gives a commit itself as a parent hides the commits around it. Every graft counts, met
    // or not.
    let mut unmet: Vec<(Oid, Cut)> = cuts
        .into_iter()
        .filter(|(_, cut)| *cut == Cut::Graft)
        .collect();
    unmet.sort_by_key(|(id, _)| *id);
    found.extend(unmet.into_iter().map(|(id, cut)| (id, cut, false)));
    Ok(found)
}

/// The branch `HEAD` names (`HEAD` when it is detached), and a walk of its first-parent line,
/// oldest first: the line whose versions an audit reads.
///
/// # Errors
/// [`GitError::NoCommits`] when `HEAD` names no commit; when git cannot walk the line.
pub(super) fn first_parent_line(
    repo: &Repository,
) -> Result<(String, git2::Revwalk<'_>), GitError> {
    let branch = {
        let head = repo.head().map_err(|_| GitError::NoCommits)?;
        head.shorthand().unwrap_or("HEAD").to_owned()
    };
    let mut walk = repo.revwalk()?;
    walk.push_head()?;
    walk.simplify_first_parent()?;
    walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::REVERSE)?;
    Ok((branch, walk))
}
