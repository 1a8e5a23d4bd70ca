//! What a push brings, read as a server-side hook reads it before git takes it: for a branch's
//! update, whether it is a fast-forward, and every file it changes that the referee holds to a
//! rule, in each of its versions (before, after, and in each pushed commit between): game files
//! and tournament files, symbolic links and submodules under a game file's name or in a game's
//! place, and `.gitattributes` files. [`crate::referee`] judges them; this module only reads git.
//!
//! Only what the update changes is read: the tree of the new commit is compared with the
//! branch's old one (or, for a branch made, with another branch's tip it descends from), and
//! each pushed commit with its parents, so that the cost of a push is what it brings, not what
//! the repository holds. What a game file or a tournament file is, is decided by its content
//! wherever it lies (see [`crate::log::refereed_as`]). Paths and branch names are kept as git's
//! bytes, so that one that is not UTF-8 is a file or a branch like any other, not one a check
//! could miss.

use super::GitError;
use super::tree::{
    LINK, Mode, SUBMODULE, changes, files, game_file_name, read_by_folder_check, regular,
};
use crate::log::Refereed;
use git2::{Oid, Repository, Sort, Tree};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A repository receiving a push.
pub struct Receiving {
    repo: Repository,
    /// How a blob is held to the rules (as a game, a tournament file, or not), by blob and
    /// whether its path is one `verify FOLDER` reads: each blob is read once however many paths
    /// and commits name it.
    held: std::cell::RefCell<std::collections::HashMap<(Oid, bool), Option<Refereed>>>,
}

/// What an update of one branch does, read for the referee.
#[derive(Clone, Debug, Default)]
pub struct Update {
    /// Whether the new commit descends from the old one (also when either is absent: a branch
    /// made or deleted).
    pub fast_forward: bool,
    /// Each game or tournament file the update may change, by path.
    pub files: Vec<FileUpdate>,
    /// Each symbolic link or submodule it brings under a game file's name or in a game's place.
    pub links: Vec<Link>,
    /// Each version of a `.gitattributes` file it brings.
    pub attributes: Vec<Attributes>,
}

/// One game or tournament file's versions in an update, as blobs, read with
/// [`Receiving::read`].
#[derive(Clone, Debug)]
pub struct FileUpdate {
    /// Its path in the tree, as git stores it.
    pub path: Vec<u8>,
    /// What it is held to: what the branch's old commit held there (for a branch made, the
    /// branch it grows from), else what the new commit holds, else what a pushed commit held.
    pub kind: Refereed,
    /// The file at the branch's old commit, when it is held to the rules there (`None`: not
    /// there, not held there, or a branch made).
    pub before: Option<Oid>,
    /// The file at the new commit (`None`: not there as a file).
    pub after: Option<Oid>,
    /// The pushed commits that no branch holds yet, other than the new one, oldest first, where
    /// the file differs from both `before` and `after`.
    pub between: Vec<Between>,
}

/// A pushed commit's version of a file.
#[derive(Clone, Copy, Debug)]
pub struct Between {
    /// The commit.
    pub commit: Oid,
    /// The file in it (`None`: not there as a file).
    pub blob: Option<Oid>,
    /// Whether one of its parents holds the file: then its absence is a deletion.
    pub parent_held: bool,
}

/// A symbolic link or a submodule that an update brings where a game file could be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// Its path.
    pub path: Vec<u8>,
    /// The pushed commit that holds it, when it is not the new one.
    pub commit: Option<Oid>,
    /// A submodule, not a symbolic link.
    pub submodule: bool,
    /// It takes the place of a game file (else it has a game file's name).
    pub replaces: bool,
}

/// A version of a `.gitattributes` file that an update brings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attributes {
    /// Its path.
    pub path: Vec<u8>,
    /// The pushed commit that holds it, when it is not the new one.
    pub commit: Option<Oid>,
    /// The file there (`None`: none: deleted, or a link or submodule, as `link` says).
    pub blob: Option<Oid>,
    /// A symbolic link or a submodule there, not a file.
    pub link: bool,
    /// The branch's version before the update, whose lines that keep bytes must stay.
    pub before: Option<Oid>,
}

/// A file held to the rules in a commit: its path, as git stores it, its bytes (none when it is
/// too large to read), and what it is held to.
pub type RefereedAt = (Vec<u8>, Vec<u8>, Refereed);

/// A blob as read for the referee.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Blob {
    /// Its bytes.
    Bytes(Vec<u8>),
    /// Larger than a game file may be: this many bytes, not read.
    TooLarge(u64),
}

/// A path's entry in one commit: its object and mode (`None`: not there).
type Entry = Option<(Oid, Mode)>;

/// A pushed commit, and the paths it changes against its parents.
struct PushedCommit {
    commit: Oid,
    changed: BTreeSet<Vec<u8>>,
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
        Ok(Receiving {
            repo,
            held: std::cell::RefCell::default(),
        })
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

    /// The branches (`refs/heads/...`, as git's bytes, whatever they spell) and the commits
    /// they point at, sorted by name.
    ///
    /// # Errors
    /// When git fails.
    pub fn branches(&self) -> Result<Vec<(Vec<u8>, Oid)>, GitError> {
        let mut branches = Vec::new();
        for reference in self.repo.references()? {
            let reference = reference?;
            let name = reference.name_bytes();
            if !name.starts_with(b"refs/heads/") {
                continue;
            }
            if let Ok(commit) = reference.peel_to_commit() {
                branches.push((name.to_vec(), commit.id()));
            }
        }
        branches.sort();
        Ok(branches)
    }

    /// What updating `branch` from `old` to `new` does (`None`: the branch is made, or deleted),
    /// `branches` being where every branch stands now. The commits judged are those the push
    /// brings that no branch holds yet.
    ///
    /// # Errors
    /// When git cannot read a commit, a tree or a blob.
    pub fn update(
        &self,
        branch: &[u8],
        (old, new): (Option<Oid>, Option<Oid>),
        branches: &[(Vec<u8>, Oid)],
    ) -> Result<Update, GitError> {
        let Some(new) = new else {
            return Ok(Update {
                fast_forward: true,
                ..Update::default()
            });
        };
        let others: Vec<Oid> = branches
            .iter()
            .filter(|(name, _)| name != branch)
            .map(|(_, tip)| *tip)
            .collect();
        let fast_forward = match old {
            Some(old) => self.descends(new, old)?,
            None => true,
        };
        // A branch made is compared with a branch it grows from, whose files were judged.
        let base = match old {
            Some(old) => Some(old),
            None => others
                .iter()
                .copied()
                .find(|t| self.descends(new, *t).unwrap_or(false)),
        };
        let tree_of = |commit: Option<Oid>| -> Result<Option<Tree<'_>>, GitError> {
            commit
                .map(|c| Ok(self.repo.find_commit(c)?.tree()?))
                .transpose()
        };
        let (base_tree, new_tree, old_tree) = (tree_of(base)?, tree_of(Some(new))?, tree_of(old)?);
        let id = |tree: &Option<Tree<'_>>| tree.as_ref().map(Tree::id);
        let mut paths = changes(&self.repo, id(&base_tree), id(&new_tree))?;
        let pushed = self.pushed(new, old, &others)?;
        // Each path with the pushed commits that change it: a commit that does not holds its
        // parent's version, which a pushed commit or a branch brought.
        let mut changed_by: BTreeMap<Vec<u8>, Vec<&PushedCommit>> = BTreeMap::new();
        for p in &pushed {
            for path in &p.changed {
                changed_by.entry(path.clone()).or_default().push(p);
            }
        }
        paths.extend(changed_by.keys().cloned());
        let mut update = Update {
            fast_forward,
            ..Update::default()
        };
        for path in paths {
            let was = entry(old_tree.as_ref(), &path)?;
            let is = entry(new_tree.as_ref(), &path)?;
            let mut between = Vec::new();
            for p in changed_by.get(&path).into_iter().flatten() {
                let commit = self.repo.find_commit(p.commit)?;
                let version = entry(Some(&commit.tree()?), &path)?;
                let mut parents = Vec::new();
                for parent in commit.parents() {
                    parents.push(entry(Some(&parent.tree()?), &path)?);
                }
                between.push((p.commit, version, parents));
            }
            // A branch made holds at first what the branch it grows from holds.
            let held = match old {
                Some(_) => was,
                None => entry(base_tree.as_ref(), &path)?,
            };
            self.classify(&path, (was, held, is), &between, &mut update)?;
        }
        Ok(update)
    }

    /// Sorts one changed path's versions into what the referee judges.
    fn classify(
        &self,
        path: &[u8],
        (was, held, is): (Entry, Entry, Entry),
        between: &[(Oid, Entry, Vec<Entry>)],
        update: &mut Update,
    ) -> Result<(), GitError> {
        let file = |e: Entry| {
            e.filter(|(_, mode)| !matches!(*mode, LINK | SUBMODULE))
                .map(|(id, _)| id)
        };
        let link = |e: Entry| {
            e.filter(|(_, mode)| matches!(*mode, LINK | SUBMODULE))
                .map(|(_, m)| m)
        };
        let (was_file, is_file) = (file(was), file(is));
        let was_kind = self.held(path, was_file)?;
        let held_kind = self.held(path, file(held))?;
        // Links first: one under a game file's name, or in the place of a game.
        let mut versions: Vec<(Option<Oid>, Entry, bool)> = vec![(None, is, held_kind.is_some())];
        for (commit, version, parents) in between {
            let mut replaces = false;
            for parent in parents {
                replaces |= self.held(path, file(*parent))?.is_some();
            }
            versions.push((Some(*commit), *version, replaces));
        }
        for (commit, version, replaces) in &versions {
            if let Some(mode) = link(*version)
                && (*replaces || game_file_name(path))
            {
                let found = Link {
                    path: path.to_vec(),
                    commit: *commit,
                    submodule: mode == SUBMODULE,
                    replaces: *replaces,
                };
                if !update.links.contains(&found) {
                    update.links.push(found);
                }
            }
        }
        if path.rsplit(|&b| b == b'/').next() == Some(b".gitattributes".as_slice()) {
            for (commit, version, _) in &versions {
                let found = Attributes {
                    path: path.to_vec(),
                    commit: *commit,
                    blob: file(*version),
                    link: link(*version).is_some(),
                    before: file(held),
                };
                let same = update
                    .attributes
                    .iter()
                    .any(|a| (a.blob, a.link) == (found.blob, found.link));
                if (found.link || found.blob != file(held)) && !same {
                    update.attributes.push(found);
                }
            }
        }
        let between: Vec<Between> = between
            .iter()
            .map(|(commit, version, parents)| Between {
                commit: *commit,
                blob: file(*version),
                parent_held: parents.iter().any(|p| file(*p).is_some()),
            })
            .filter(|b| {
                b.blob != was_file && b.blob != is_file && (b.blob.is_some() || b.parent_held)
            })
            .collect();
        // Judged as what it was held to on the branch (or on the branch a branch made grows
        // from), else as what the push makes it.
        let mut kind = was_kind.or(held_kind).or(self.held(path, is_file)?);
        for b in &between {
            kind = kind.or(self.held(path, b.blob)?);
        }
        // A branch made without a game that the branch it grows from holds takes it away.
        let dropped = held_kind.is_some() && is_file.is_none();
        let changed = was_file != is_file || !between.is_empty();
        if let Some(kind) = kind.filter(|_| changed || dropped) {
            update.files.push(FileUpdate {
                path: path.to_vec(),
                kind,
                before: was_file.filter(|_| was_kind.is_some()),
                after: is_file,
                between,
            });
        }
        Ok(())
    }

    /// Whether `new` is `old` or descends from it.
    fn descends(&self, new: Oid, old: Oid) -> Result<bool, GitError> {
        Ok(new == old || self.repo.graph_descendant_of(new, old)?)
    }

    /// The commits reachable from `new` that neither `old` nor any other branch holds, other
    /// than `new` itself, oldest first, each with the paths it changes against its parents.
    fn pushed(
        &self,
        new: Oid,
        old: Option<Oid>,
        others: &[Oid],
    ) -> Result<Vec<PushedCommit>, GitError> {
        let mut walk = self.repo.revwalk()?;
        walk.set_sorting(Sort::TOPOLOGICAL | Sort::REVERSE)?;
        walk.push(new)?;
        for tip in old.iter().chain(others) {
            walk.hide(*tip)?;
        }
        let mut pushed = Vec::new();
        for id in walk {
            let id = id?;
            if id == new {
                continue;
            }
            let commit = self.repo.find_commit(id)?;
            let tree = Some(commit.tree_id());
            let mut changed = BTreeSet::new();
            if commit.parent_count() == 0 {
                changed = changes(&self.repo, None, tree)?;
            }
            for parent in commit.parents() {
                changed.extend(changes(&self.repo, Some(parent.tree_id()), tree)?);
            }
            pushed.push(PushedCommit {
                commit: id,
                changed,
            });
        }
        Ok(pushed)
    }

    /// How a blob at `path` is held to the rules, if it is (one too large to read is held as a
    /// game under a game file's name).
    fn held(&self, path: &[u8], blob: Option<Oid>) -> Result<Option<Refereed>, GitError> {
        let Some(blob) = blob else {
            return Ok(None);
        };
        let key = (blob, read_by_folder_check(path));
        if let Some(known) = self.held.borrow().get(&key) {
            return Ok(*known);
        }
        let held = refereed(path, &self.read(blob)?);
        self.held.borrow_mut().insert(key, held);
        Ok(held)
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

    /// The file (not a link) at `path` in a commit, when there is one.
    ///
    /// # Errors
    /// When git cannot read the commit or its trees.
    pub fn file_at(&self, commit: Oid, path: &[u8]) -> Result<Option<Oid>, GitError> {
        let tree = self.repo.find_commit(commit)?.tree()?;
        Ok(entry(Some(&tree), path)?
            .filter(|(_, mode)| !matches!(*mode, LINK | SUBMODULE))
            .map(|(id, _)| id))
    }

    /// The files a commit holds to the rules, by path: every game file and tournament file,
    /// wherever it lies (see [`crate::log::refereed_as`]). This reads every file of the commit.
    ///
    /// # Errors
    /// When git cannot read the commit or a blob.
    pub fn refereed_files(&self, commit: Oid) -> Result<Vec<RefereedAt>, GitError> {
        let tree = self.repo.find_commit(commit)?.tree()?;
        let mut found = Vec::new();
        for (path, (blob, mode)) in files(&self.repo, &tree, &|_| true)? {
            if matches!(mode, LINK | SUBMODULE) {
                continue;
            }
            let read = self.read(blob)?;
            if let Some(kind) = refereed(&path, &read) {
                // Too large to be read, and so not a valid one: no bytes.
                let bytes = match read {
                    Blob::Bytes(bytes) => bytes,
                    Blob::TooLarge(_) => Vec::new(),
                };
                found.push((path, bytes, kind));
            }
        }
        Ok(found)
    }

    /// The files (not links, submodules or folders) directly in `folder` (its path, as git
    /// stores it; empty for the root) of a commit, by path.
    ///
    /// # Errors
    /// When git cannot read the commit or its trees.
    pub fn folder_files(
        &self,
        commit: Oid,
        folder: &[u8],
    ) -> Result<Vec<(Vec<u8>, Oid)>, GitError> {
        let root = self.repo.find_commit(commit)?.tree()?;
        let tree = if folder.is_empty() {
            root
        } else {
            let path: &std::ffi::OsStr = std::os::unix::ffi::OsStrExt::from_bytes(folder);
            match root.get_path(Path::new(path)) {
                Ok(found) if found.kind() == Some(git2::ObjectType::Tree) => {
                    self.repo.find_tree(found.id())?
                }
                Ok(_) => return Ok(Vec::new()),
                Err(e) if e.code() == git2::ErrorCode::NotFound => return Ok(Vec::new()),
                Err(e) => return Err(e.into()),
            }
        };
        let mut found = Vec::new();
        for item in &tree {
            if regular(item.filemode()) {
                let path = match folder {
                    [] => item.name_bytes().to_vec(),
                    _ => [folder, b"/", item.name_bytes()].concat(),
                };
                found.push((path, item.id()));
            }
        }
        Ok(found)
    }
}

/// How a blob read at `path` is held to the rules, if it is: one too large to read is held as a
/// game under a game file's name.
fn refereed(path: &[u8], blob: &Blob) -> Option<Refereed> {
    match blob {
        Blob::TooLarge(_) => read_by_folder_check(path).then_some(Refereed::Game),
        Blob::Bytes(bytes) => crate::log::refereed_as(read_by_folder_check(path), bytes),
    }
}

/// A path's entry in a tree: its object and mode, when it is there (a folder is not).
fn entry(tree: Option<&Tree<'_>>, path: &[u8]) -> Result<Entry, GitError> {
    let Some(tree) = tree else {
        return Ok(None);
    };
    let path: &std::ffi::OsStr = std::os::unix::ffi::OsStrExt::from_bytes(path);
    match tree.get_path(Path::new(path)) {
        Ok(found) if found.kind() == Some(git2::ObjectType::Tree) => Ok(None),
        Ok(found) => Ok(Some((found.id(), found.filemode()))),
        Err(e) if e.code() == git2::ErrorCode::NotFound => Ok(None),
        Err(e) => Err(e.into()),
    }
}
