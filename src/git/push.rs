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

/// More entries (files and folders, counted along every path) than a commit's tree of games
/// holds: git stores a folder once however often a tree names it, so a small push can name
/// billions of paths.
const MAX_ENTRIES: usize = 1_000_000;

/// More bytes, all the paths of the files found together, than a commit's tree of games holds:
/// a few files in a folder nested a hundred thousand deep would otherwise spell out gigabytes.
const MAX_PATH_BYTES: usize = 64 << 20;

/// The `*.yaml` and `*.yml` blobs of a tree, by path, hidden entries and symbolic links passed
/// over as `verify FOLDER` passes them over. The folders still to read are kept on a list, not
/// on the call stack, so that a tree nested however deep (a push can hold one) is read whole.
///
/// # Errors
/// When git cannot read a tree; [`GitError::TooManyEntries`] past [`MAX_ENTRIES`] entries, or
/// past [`MAX_PATH_BYTES`] of paths found.
pub(super) fn yaml_blobs(
    repo: &Repository,
    tree: &Tree<'_>,
) -> Result<BTreeMap<Vec<u8>, Oid>, GitError> {
    let mut found = BTreeMap::new();
    // Each folder read as its parent's index here and its name: a path is spelled out only for
    // a file found, so that a deep folder's path is not copied at every level.
    let mut folders: Vec<(Option<usize>, Vec<u8>)> = vec![(None, Vec::new())];
    let mut unread: Vec<(usize, Oid)> = vec![(0, tree.id())];
    let (mut entries, mut spelled) = (0usize, 0usize);
    while let Some((folder, id)) = unread.pop() {
        for entry in &repo.find_tree(id)? {
            entries += 1;
            if entries > MAX_ENTRIES {
                return Err(GitError::TooManyEntries { limit: MAX_ENTRIES });
            }
            let name = entry.name_bytes();
            if name.starts_with(b".") {
                continue;
            }
            match entry.kind() {
                Some(ObjectType::Tree) => {
                    unread.push((folders.len(), entry.id()));
                    folders.push((Some(folder), name.to_vec()));
                }
                // 0o120000 is a symbolic link, which is stored as a blob too.
                Some(ObjectType::Blob)
                    if entry.filemode() != 0o120_000
                        && (name.ends_with(b".yaml") || name.ends_with(b".yml")) =>
                {
                    let path = path(&folders, folder, name);
                    spelled += path.len();
                    if spelled > MAX_PATH_BYTES {
                        return Err(GitError::TooManyEntries { limit: MAX_ENTRIES });
                    }
                    found.insert(path, entry.id());
                }
                _ => {}
            }
        }
    }
    Ok(found)
}

/// The path of the file `name` in folder `folder` of `folders` (see [`yaml_blobs`]).
fn path(folders: &[(Option<usize>, Vec<u8>)], folder: usize, name: &[u8]) -> Vec<u8> {
    let mut parts = vec![name];
    let mut at = Some(folder);
    while let Some((parent, name)) = at.map(|i| &folders[i]) {
        if parent.is_some() {
            parts.push(name);
        }
        at = *parent;
    }
    parts.reverse();
    let mut path = Vec::with_capacity(parts.iter().map(|p| p.len() + 1).sum());
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            path.push(b'/');
        }
        path.extend_from_slice(part);
    }
    path
}

/// A pushed commit: its candidate files and its parents'.
struct Pushed {
    commit: Oid,
    files: BTreeMap<Vec<u8>, Oid>,
    parents: Vec<BTreeMap<Vec<u8>, Oid>>,
}

#[cfg(test)]
mod tests {
    use super::{GitError, MAX_ENTRIES, yaml_blobs};
    use git2::{Oid, Repository};

    /// A new bare repository, in a folder removed when dropped, holding a blob of a game.
    fn repository() -> (tempfile::TempDir, Repository, Oid) {
        let dir = tempfile::tempdir().expect("temp dir");
        let repo = Repository::init_bare(dir.path()).expect("a repository");
        let game = repo.blob(b"a game\n").expect("a blob");
        (dir, repo, game)
    }

    /// A tree holding `entries`, each (name, object, mode).
    fn tree(repo: &Repository, entries: &[(&str, Oid, i32)]) -> Oid {
        let mut builder = repo.treebuilder(None).expect("a tree builder");
        for (name, id, mode) in entries {
            builder.insert(name, *id, *mode).expect("an entry");
        }
        builder.write().expect("a tree")
    }

    #[test]
    fn a_tree_nested_far_deeper_than_a_stack_is_read_whole() {
        // 20,000 levels, read on a thread of 256 KiB of stack: a walk that recursed into each
        // folder would need many times that.
        let (dir, repo, game) = repository();
        let mut id = tree(&repo, &[("game.yaml", game, 0o100_644)]);
        for _ in 0..20_000 {
            id = tree(&repo, &[("d", id, 0o040_000)]);
        }
        let top = tree(&repo, &[("d", id, 0o040_000), ("top.yml", game, 0o100_644)]);
        let path = dir.path().to_owned();
        let found = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                let repo = Repository::open_bare(path).expect("the repository");
                let tree = repo.find_tree(top).expect("the tree");
                yaml_blobs(&repo, &tree).expect("read")
            })
            .expect("a thread")
            .join()
            .expect("no overflow");
        let deep = format!("{}game.yaml", "d/".repeat(20_001));
        assert_eq!(
            found.into_iter().collect::<Vec<_>>(),
            [(deep.into_bytes(), game), (b"top.yml".to_vec(), game)]
        );
    }

    #[test]
    fn files_whose_paths_spell_out_more_than_the_limit_are_not_read() {
        // 20,000 files at the bottom of 2,000 folders: 80 MB of paths from a few objects.
        let (_dir, repo, game) = repository();
        let names: Vec<String> = (0..20_000).map(|n| format!("{n}.yaml")).collect();
        let files: Vec<(&str, Oid, i32)> = names
            .iter()
            .map(|n| (n.as_str(), game, 0o100_644))
            .collect();
        let mut id = tree(&repo, &files);
        for _ in 0..2_000 {
            id = tree(&repo, &[("d", id, 0o040_000)]);
        }
        let read = yaml_blobs(&repo, &repo.find_tree(id).expect("the tree"));
        assert!(
            matches!(read, Err(GitError::TooManyEntries { .. })),
            "{read:?}"
        );
    }

    #[test]
    fn a_tree_that_names_one_folder_over_and_over_is_read_no_further_than_the_limit() {
        // 30 levels, each naming the level below twice: a billion paths in 31 trees.
        let (_dir, repo, game) = repository();
        let mut id = tree(&repo, &[("game.yaml", game, 0o100_644)]);
        for _ in 0..30 {
            id = tree(&repo, &[("a", id, 0o040_000), ("b", id, 0o040_000)]);
        }
        let read = yaml_blobs(&repo, &repo.find_tree(id).expect("the tree"));
        assert!(
            matches!(read, Err(GitError::TooManyEntries { limit: MAX_ENTRIES })),
            "{read:?}"
        );
    }
}
