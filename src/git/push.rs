//! What a push brings, read as a server-side hook reads it before git takes it: for a branch's
//! update, whether it is a fast-forward, and every file it changes that the referee holds to a
//! rule, in each of its versions (before, after, and in each pushed commit between): game files,
//! symbolic links and submodules under a game file's name or in a game's place, and
//! `.gitattributes` files. [`crate::referee`] judges them; this module only reads git.
//!
//! Only what the update changes is read: the tree of the new commit is compared with the
//! branch's old one (or, for a branch made, with another branch's tip it descends from), and
//! each pushed commit with its parents, so that the cost of a push is what it brings, not what
//! the repository holds. What a game file is, is decided by its content wherever it lies (see
//! [`crate::log::held_as_a_game`]). Paths and branch names are kept as git's bytes, so that one
//! that is not UTF-8 is a file or a branch like any other, not one a check could miss.

use super::GitError;
use super::tree::{LINK, Mode, SUBMODULE, changes, files, game_file_name, read_by_folder_check};
use git2::{Oid, Repository, Sort, Tree};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A repository receiving a push.
pub struct Receiving {
    repo: Repository,
    /// Whether a blob is held as a game, by blob and whether its path is one `verify FOLDER`
    /// reads: each blob is read once however many paths and commits name it.
    games: std::cell::RefCell<std::collections::HashMap<(Oid, bool), bool>>,
}

/// What an update of one branch does, read for the referee.
#[derive(Clone, Debug, Default)]
pub struct Update {
    /// Whether the new commit descends from the old one (also when either is absent: a branch
    /// made or deleted).
    pub fast_forward: bool,
    /// Each game file the update may change, by path.
    pub files: Vec<FileUpdate>,
    /// Each symbolic link or submodule it brings under a game file's name or in a game's place.
    pub links: Vec<Link>,
    /// Each version of a `.gitattributes` file it brings.
    pub attributes: Vec<Attributes>,
}

/// One game file's versions in an update, as blobs, read with [`Receiving::read`].
#[derive(Clone, Debug)]
pub struct FileUpdate {
    /// Its path in the tree, as git stores it.
    pub path: Vec<u8>,
    /// The file at the branch's old commit, when it is a game there (`None`: not there, not a
    /// game there, or a branch made).
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
            games: std::cell::RefCell::default(),
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
        let was_game = self.game(path, was_file)?;
        let held_game = self.game(path, file(held))?;
        // Links first: one under a game file's name, or in the place of a game.
        let mut versions: Vec<(Option<Oid>, Entry, bool)> = vec![(None, is, held_game)];
        for (commit, version, parents) in between {
            let mut replaces = false;
            for parent in parents {
                replaces |= self.game(path, file(*parent))?;
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
        let mut game = was_game || self.game(path, is_file)?;
        for b in &between {
            game = game || self.game(path, b.blob)?;
        }
        // A branch made without a game that the branch it grows from holds takes it away.
        let dropped = held_game && is_file.is_none();
        if (game && (was_file != is_file || !between.is_empty())) || dropped {
            update.files.push(FileUpdate {
                path: path.to_vec(),
                before: was_file.filter(|_| was_game),
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

    /// Whether a blob at `path` is held to the rules as a game (one too large to read is).
    fn game(&self, path: &[u8], blob: Option<Oid>) -> Result<bool, GitError> {
        let Some(blob) = blob else {
            return Ok(false);
        };
        let key = (blob, read_by_folder_check(path));
        if let Some(known) = self.games.borrow().get(&key) {
            return Ok(*known);
        }
        let game = self.read_game(path, blob)?;
        self.games.borrow_mut().insert(key, game);
        Ok(game)
    }

    fn read_game(&self, path: &[u8], blob: Oid) -> Result<bool, GitError> {
        Ok(match self.read(blob)? {
            // Too large to be read as a game: held as one only under a game file's name.
            Blob::TooLarge(_) => read_by_folder_check(path),
            Blob::Bytes(bytes) => crate::log::held_as_a_game(read_by_folder_check(path), &bytes),
        })
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

    /// The game files a commit holds, by path: every file held to the rules as a game, wherever
    /// it lies (see [`crate::log::held_as_a_game`]). This reads every file of the commit.
    ///
    /// # Errors
    /// When git cannot read the commit or a blob.
    pub fn game_files(&self, commit: Oid) -> Result<Vec<GameFileAt>, GitError> {
        let tree = self.repo.find_commit(commit)?.tree()?;
        let mut found = Vec::new();
        for (path, (blob, mode)) in files(&self.repo, &tree, &|_| true)? {
            if matches!(mode, LINK | SUBMODULE) {
                continue;
            }
            match self.read(blob)? {
                Blob::Bytes(bytes)
                    if crate::log::held_as_a_game(read_by_folder_check(&path), &bytes) =>
                {
                    found.push((path, bytes));
                }
                Blob::Bytes(_) => {}
                // Too large to be read as a game, and so not a valid one.
                Blob::TooLarge(_) if read_by_folder_check(&path) => found.push((path, Vec::new())),
                Blob::TooLarge(_) => {}
            }
        }
        Ok(found)
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
