//! What a push brings, read as a server-side hook reads it before git takes it: for a branch's
//! update, whether it is a fast-forward, and every game file it touches in each of its versions
//! (before, after, and in each pushed commit between). [`crate::referee`] judges them; this
//! module only reads git.
//!
//! Files are found as `correspond verify FOLDER` finds them in a checkout: `*.yaml` and `*.yml`
//! blobs, hidden entries and symbolic links passed over, and only those that may be game files
//! (see [`crate::log::may_be_a_game_file`]) in some version. Paths are kept as git's bytes, so
//! that a name that is not UTF-8 is a file like any other, not one a check could miss.

use super::GitError;
use git2::{ObjectType, Oid, Repository, Sort, Tree};
use std::collections::BTreeMap;
use std::path::Path;

/// A repository receiving a push.
pub struct Receiving {
    repo: Repository,
}

/// What an update of one reference does to the game files.
#[derive(Clone, Debug)]
pub struct Update {
    /// Whether the new commit descends from the old one (also when either is absent: a branch
    /// made or deleted).
    pub fast_forward: bool,
    /// The game files the old commit holds: what a deletion or a force-push would take away.
    pub held: usize,
    /// Each game file the update may change, by path: those whose version at the new commit,
    /// or in a pushed commit, no branch holds yet, and those it deletes.
    pub files: Vec<FileUpdate>,
}

/// One game file's versions in an update, as blobs, read with [`Receiving::read`].
#[derive(Clone, Debug)]
pub struct FileUpdate {
    /// Its path in the tree, as git stores it.
    pub path: Vec<u8>,
    /// The file at the branch's old commit (`None`: not there, or a branch made).
    pub before: Option<Oid>,
    /// The file at the new commit (`None`: not there).
    pub after: Option<Oid>,
    /// The file at the tips of the repository's other branches, by branch, where it is there
    /// and differs from `after`.
    pub elsewhere: Vec<(String, Oid)>,
    /// The pushed commits that no branch holds yet, other than the new one, oldest first, where
    /// the file differs from both `before` and `after`.
    pub between: Vec<Between>,
}

/// A pushed commit's version of a file.
#[derive(Clone, Copy, Debug)]
pub struct Between {
    /// The commit.
    pub commit: Oid,
    /// The file in it (`None`: not there).
    pub blob: Option<Oid>,
    /// Whether one of its parents holds the file: then its absence is a deletion.
    pub parent_held: bool,
}

/// A game file in a commit: its path, as git stores it, and its bytes (none when it is too
/// large to read).
pub type GameFileAt = (Vec<u8>, Vec<u8>);

/// A blob as read for the referee.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Blob {
    /// Its bytes.
    Bytes(Vec<u8>),
    /// Larger than a game file may be: this many bytes, not read.
    TooLarge(u64),
}

impl Receiving {
    /// Opens the repository a hook runs in, `git_dir`, with the objects a push brought: until
    /// the hook accepts them, git keeps them apart in a quarantine folder
    /// (`GIT_QUARANTINE_PATH`), which libgit2 is given as an alternate object store here.
    ///
    /// # Errors
    /// When git cannot open the repository.
    pub fn open(git_dir: &Path, quarantine: Option<&Path>) -> Result<Receiving, GitError> {
        let repo = match Repository::open(git_dir) {
            Ok(repo) if repo.is_bare() => repo,
            Ok(_) => return Err(GitError::NotBare(git_dir.to_owned())),
            Err(_) => return Err(GitError::NoRepository(git_dir.to_owned())),
        };
        if let Some(folder) = quarantine {
            let folder = folder
                .to_str()
                .ok_or_else(|| GitError::NoRepository(folder.to_owned()))?;
            repo.odb()?.add_disk_alternate(folder)?;
        }
        Ok(Receiving { repo })
    }

    /// The repository's folder.
    #[must_use]
    pub fn path(&self) -> &Path {
        self.repo.path()
    }

    /// A setting as git finds it for the repository (its own, the user's, the system's).
    #[must_use]
    pub fn setting(&self, name: &str) -> Option<String> {
        self.repo.config().ok()?.get_string(name).ok()
    }

    /// A setting of the repository's own configuration (not the user's or the system's).
    #[must_use]
    pub fn local_setting(&self, name: &str) -> Option<String> {
        let config = self.repo.config().ok()?;
        let local = config.open_level(git2::ConfigLevel::Local).ok()?;
        local.get_string(name).ok()
    }

    /// The branches (`refs/heads/...`) and the commits they point at, sorted by name.
    ///
    /// # Errors
    /// When git fails.
    pub fn branches(&self) -> Result<Vec<(String, Oid)>, GitError> {
        let mut branches = Vec::new();
        for reference in self.repo.references_glob("refs/heads/*")? {
            let reference = reference?;
            if let (Ok(name), Ok(commit)) = (reference.name(), reference.peel_to_commit()) {
                branches.push((name.to_owned(), commit.id()));
            }
        }
        branches.sort();
        Ok(branches)
    }

    /// What updating `reference` from `old` to `new` does to its game files (`None`: the
    /// reference is made, or deleted). The commits judged are those the push brings that no
    /// branch holds yet; the versions on the other branches are what the referee took before.
    ///
    /// # Errors
    /// When git cannot read a commit or a blob.
    pub fn update(
        &self,
        reference: &str,
        old: Option<Oid>,
        new: Option<Oid>,
    ) -> Result<Update, GitError> {
        let (before, after) = (self.files_at(old)?, self.files_at(new)?);
        let fast_forward = match (old, new) {
            (Some(old), Some(new)) => old == new || self.repo.graph_descendant_of(new, old)?,
            _ => true,
        };
        let others: Vec<(String, Oid)> = self
            .branches()?
            .into_iter()
            .filter(|(name, _)| name != reference)
            .collect();
        let mut elsewhere = Vec::new();
        for (name, tip) in &others {
            elsewhere.push((name.clone(), self.files_at(Some(*tip))?));
        }
        let pushed = match new {
            Some(new) => self.pushed(new, old, &others)?,
            None => Vec::new(),
        };
        let mut paths: Vec<&Vec<u8>> = before.keys().chain(after.keys()).collect();
        paths.extend(pushed.iter().flat_map(|p| p.files.keys()));
        paths.sort();
        paths.dedup();
        let (mut files, mut held) = (Vec::new(), 0);
        for path in paths {
            let (was, is) = (before.get(path).copied(), after.get(path).copied());
            let between: Vec<Between> = pushed
                .iter()
                .map(|p| Between {
                    commit: p.commit,
                    blob: p.files.get(path).copied(),
                    parent_held: p.parents.iter().any(|files| files.contains_key(path)),
                })
                .filter(|b| b.blob != was && b.blob != is && (b.blob.is_some() || b.parent_held))
                .collect();
            let mut blobs: Vec<Oid> = [was, is].into_iter().flatten().collect();
            blobs.extend(between.iter().filter_map(|b| b.blob));
            if !self.any_game(&blobs)? {
                continue;
            }
            if was.is_some() {
                held += 1;
            }
            // A version that this branch or another holds already was judged when it came.
            let known = was == is
                || is.is_some_and(|is| elsewhere.iter().any(|(_, f)| f.get(path) == Some(&is)));
            if known && between.is_empty() {
                continue;
            }
            files.push(FileUpdate {
                path: path.clone(),
                before: was,
                after: is,
                elsewhere: elsewhere
                    .iter()
                    .filter_map(|(name, files)| Some((name.clone(), *files.get(path)?)))
                    .filter(|(_, blob)| Some(*blob) != is)
                    .collect(),
                between,
            });
        }
        Ok(Update {
            fast_forward,
            held,
            files,
        })
    }

    /// The `*.yaml` and `*.yml` blobs of a commit's tree (none without a commit).
    fn files_at(&self, commit: Option<Oid>) -> Result<BTreeMap<Vec<u8>, Oid>, GitError> {
        match commit {
            Some(id) => self.candidates(&self.repo.find_commit(id)?.tree()?),
            None => Ok(BTreeMap::new()),
        }
    }

    /// The commits reachable from `new` that neither `old` nor any other branch holds, other
    /// than `new` itself, oldest first: each with its candidate files and its parents'.
    fn pushed(
        &self,
        new: Oid,
        old: Option<Oid>,
        others: &[(String, Oid)],
    ) -> Result<Vec<Pushed>, GitError> {
        let mut walk = self.repo.revwalk()?;
        walk.set_sorting(Sort::TOPOLOGICAL | Sort::REVERSE)?;
        walk.push(new)?;
        for tip in old.iter().chain(others.iter().map(|(_, tip)| tip)) {
            walk.hide(*tip)?;
        }
        let mut pushed = Vec::new();
        for id in walk {
            let id = id?;
            if id == new {
                continue;
            }
            let commit = self.repo.find_commit(id)?;
            let parents = commit
                .parents()
                .map(|p| self.candidates(&p.tree()?))
                .collect::<Result<Vec<_>, GitError>>()?;
            pushed.push(Pushed {
                commit: id,
                files: self.candidates(&commit.tree()?)?,
                parents,
            });
        }
        Ok(pushed)
    }

    /// Whether any of these blobs may be a game file (one too large to read may be).
    fn any_game(&self, blobs: &[Oid]) -> Result<bool, GitError> {
        for blob in blobs {
            match self.read(*blob)? {
                Blob::TooLarge(_) => return Ok(true),
                Blob::Bytes(bytes) if crate::log::may_be_a_game_file(&bytes) => return Ok(true),
                Blob::Bytes(_) => {}
            }
        }
        Ok(false)
    }

    /// A blob's bytes, or only its size when it is larger than a game file may be: its header
    /// is read first, so that a huge blob is never inflated.
    ///
    /// # Errors
    /// When git cannot read it.
    pub fn read(&self, blob: Oid) -> Result<Blob, GitError> {
        let (size, _) = self.repo.odb()?.read_header(blob)?;
        let size = size as u64;
        if size > crate::log::MAX_FILE_SIZE {
            return Ok(Blob::TooLarge(size));
        }
        Ok(Blob::Bytes(self.repo.find_blob(blob)?.content().to_vec()))
    }

    /// The game files a commit holds, by path.
    ///
    /// # Errors
    /// When git cannot read the commit or a blob.
    pub fn game_files(&self, commit: Oid) -> Result<Vec<GameFileAt>, GitError> {
        let tree = self.repo.find_commit(commit)?.tree()?;
        let mut files = Vec::new();
        for (path, blob) in self.candidates(&tree)? {
            match self.read(blob)? {
                Blob::Bytes(bytes) if crate::log::may_be_a_game_file(&bytes) => {
                    files.push((path, bytes));
                }
                Blob::Bytes(_) => {}
                // Too large to be read as a game, and so not a valid one.
                Blob::TooLarge(_) => files.push((path, Vec::new())),
            }
        }
        Ok(files)
    }

    fn candidates(&self, tree: &Tree<'_>) -> Result<BTreeMap<Vec<u8>, Oid>, GitError> {
        yaml_blobs(&self.repo, tree)
    }
}

/// The `*.yaml` and `*.yml` blobs of a tree, by path, hidden entries and symbolic links passed
/// over as `verify FOLDER` passes them over.
///
/// # Errors
/// When git cannot read a tree.
pub(super) fn yaml_blobs(
    repo: &Repository,
    tree: &Tree<'_>,
) -> Result<BTreeMap<Vec<u8>, Oid>, GitError> {
    let mut found = BTreeMap::new();
    walk(repo, tree, &mut Vec::new(), &mut found)?;
    Ok(found)
}

fn walk(
    repo: &Repository,
    tree: &Tree<'_>,
    prefix: &mut Vec<u8>,
    found: &mut BTreeMap<Vec<u8>, Oid>,
) -> Result<(), GitError> {
    for entry in tree {
        let name = entry.name_bytes();
        if name.starts_with(b".") {
            continue;
        }
        let start = prefix.len();
        prefix.extend_from_slice(name);
        match entry.kind() {
            Some(ObjectType::Tree) => {
                prefix.push(b'/');
                walk(repo, &repo.find_tree(entry.id())?, prefix, found)?;
            }
            // 0o120000 is a symbolic link, which is stored as a blob too.
            Some(ObjectType::Blob)
                if entry.filemode() != 0o120_000
                    && (name.ends_with(b".yaml") || name.ends_with(b".yml")) =>
            {
                found.insert(prefix.clone(), entry.id());
            }
            _ => {}
        }
        prefix.truncate(start);
    }
    Ok(())
}

/// A pushed commit: its candidate files and its parents'.
struct Pushed {
    commit: Oid,
    files: BTreeMap<Vec<u8>, Oid>,
    parents: Vec<BTreeMap<Vec<u8>, Oid>>,
}
