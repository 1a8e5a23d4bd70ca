//! Reading a commit's tree whole, as bytes, however it was built: every file entry with its
//! path and mode, read from a list of folders rather than the call stack, and bounded in
//! entries and path bytes, since a small push can name billions of paths. Two trees are
//! compared where they differ only, so that reading a long history costs what each commit
//! changed.

use super::GitError;
use super::tree_bytes::{Entries, Raw, git_order, name_git_writes};
pub use super::tree_bytes::{FOLDER, Mode, Trees};
use git2::{ObjectType, Oid, Repository, Tree};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::rc::Rc;

/// git's mode of a symbolic link.
pub const LINK: Mode = 0o120_000;
/// git's mode of a submodule (a gitlink).
pub const SUBMODULE: Mode = 0o160_000;

/// Whether a path's last part is a game file's name, as `verify FOLDER` finds one in a folder:
/// `*.yaml` or `*.yml`, in any case.
#[must_use]
pub fn game_file_name(path: &[u8]) -> bool {
    let name = path.rsplit(|&b| b == b'/').next().unwrap_or(path);
    let lower = name.to_ascii_lowercase();
    lower.ends_with(b".yaml") || lower.ends_with(b".yml")
}

/// Whether `verify FOLDER` reads a file at this path of a checkout: a game file's name in lower
/// case, and no hidden part.
#[must_use]
pub fn read_by_folder_check(path: &[u8]) -> bool {
    let name = path.rsplit(|&b| b == b'/').next().unwrap_or(path);
    (name.ends_with(b".yaml") || name.ends_with(b".yml"))
        && !path
            .split(|&b| b == b'/')
            .any(|part| part.starts_with(b"."))
}

/// More entries (files and folders, counted along every path) than a commit's tree of games
/// holds: git stores a folder once however often a tree names it, so a small push can name
/// billions of paths.
const MAX_ENTRIES: usize = 1_000_000;

/// More bytes, all the paths of the files found together, than a commit's tree of games holds:
/// a few files in a folder nested a hundred thousand deep would otherwise spell out gigabytes.
const MAX_PATH_BYTES: usize = 64 << 20;

/// The `*.yaml` and `*.yml` blobs of a tree, by path, hidden entries and symbolic links passed
/// over as `verify FOLDER` passes them over.
///
/// # Errors
/// As [`files`].
// The audit now reads a folder's files through `changes_in`; the tests keep this as the
// reading that `changes_in` must agree with.
#[cfg(test)]
pub(super) fn yaml_blobs(
    repo: &Repository,
    tree: &Tree<'_>,
) -> Result<BTreeMap<Vec<u8>, Oid>, GitError> {
    Ok(files(repo, tree, &|path| read_by_folder_check(path))?
        .into_iter()
        .filter(|(_, (_, mode))| *mode != LINK && *mode != SUBMODULE)
        .map(|(path, (id, _))| (path, id))
        .collect())
}

/// Every file entry of a tree (files, symbolic links, submodules) whose path `wanted` takes, by
/// path, with its object and mode. The folders still to read are kept on a list, not on the
/// call stack, so that a tree nested however deep (a push can hold one) is read whole.
///
/// # Errors
/// When git cannot read a tree; [`GitError::TooManyEntries`] past [`MAX_ENTRIES`] entries, or
/// past [`MAX_PATH_BYTES`] of paths found.
pub fn files(
    repo: &Repository,
    tree: &Tree<'_>,
    wanted: &dyn Fn(&[u8]) -> bool,
) -> Result<BTreeMap<Vec<u8>, (Oid, Mode)>, GitError> {
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
            if entry.kind() == Some(ObjectType::Tree) {
                unread.push((folders.len(), entry.id()));
                folders.push((Some(folder), name.to_vec()));
                continue;
            }
            let path = path(&folders, folder, name);
            if !wanted(&path) {
                continue;
            }
            spelled += path.len();
            if spelled > MAX_PATH_BYTES {
                return Err(GitError::TooManyEntries { limit: MAX_ENTRIES });
            }
            found.insert(path, (entry.id(), entry.filemode()));
        }
    }
    Ok(found)
}

/// The paths of the files (and links and submodules) that differ between two trees, every file
/// of `to` when there is no `from`, hidden ones too. A folder whose tree is the same object on
/// both sides is not read, so that the cost is what changed, not what the trees hold. A tree
/// that names an entry twice, or out of git's order, is refused: git never writes one, and
/// which of the two a checkout takes is not the referee's to guess.
///
/// # Errors
/// When git cannot read a tree; [`GitError::NamedTwice`] for a tree git would not write;
/// [`GitError::TooManyEntries`] past [`MAX_ENTRIES`] entries read, or past [`MAX_PATH_BYTES`]
/// of paths spelled out.
pub fn changes(
    repo: &Repository,
    from: Option<Oid>,
    to: Option<Oid>,
) -> Result<BTreeSet<Vec<u8>>, GitError> {
    let mut changed = BTreeSet::new();
    let walk = Walk {
        hidden: true,
        strict: true,
    };
    walk.differences(&mut Trees::new(repo), (from, to), Vec::new(), &mut |path,
                                                                          (
        before,
        after,
    )| {
        let file = |e: Option<Entry>| e.is_some_and(|(_, m)| m != FOLDER);
        if file(before) || file(after) {
            changed.insert(path.to_vec());
        }
    })?;
    Ok(changed)
}

/// How [`Walk::differences`] reads two trees.
struct Walk {
    /// Whether hidden entries (and what hidden folders hold) are read.
    hidden: bool,
    /// Whether a tree that names an entry twice, or out of git's order, is refused.
    strict: bool,
}

impl Walk {
    /// Calls `visit` with each path under `dir` (its path followed by `/`, or empty) whose
    /// entry differs between the two trees (the mode counting as the object does), with both
    /// sides, folders included; goes into a folder only where its tree differs. Folders still
    /// to read are kept on a list, not on the call stack.
    fn differences(
        &self,
        trees: &mut Trees<'_>,
        (old, new): (Option<Oid>, Option<Oid>),
        dir: Vec<u8>,
        visit: &mut dyn FnMut(&[u8], Change),
    ) -> Result<(), GitError> {
        let mut unread = vec![(dir, old, new)];
        let (mut entries, mut spelled) = (0usize, 0usize);
        while let Some((dir, old, new)) = unread.pop() {
            if old == new {
                continue;
            }
            let bytes = |id: Option<Oid>, trees: &mut Trees<'_>| {
                id.map(|id| Ok::<_, GitError>((id, trees.get(id)?)))
                    .transpose()
            };
            let (a, b) = (bytes(old, trees)?, bytes(new, trees)?);
            let (mut a, mut b) = (Side::new(entries_of(&a))?, Side::new(entries_of(&b))?);
            loop {
                let (x, y) = match (a.now, b.now) {
                    (None, None) => break,
                    // The same entry on both sides: nothing to parse or compare.
                    (Some(x), Some(y)) if x == y => {
                        a.advance(self.strict, &dir)?;
                        b.advance(self.strict, &dir)?;
                        continue;
                    }
                    (x, y) => (a.parsed(x)?, b.parsed(y)?),
                };
                let order = match (&x, &y) {
                    (Some(x), Some(y)) => git_order(x, y),
                    (_, None) => Ordering::Less,
                    (None, _) => Ordering::Greater,
                };
                let (x, y) = (x.filter(|_| order.is_le()), y.filter(|_| order.is_ge()));
                let name = x.or(y).map_or(&[][..], |e| e.name);
                let (before, after) = (x.map(|e| (e.id, e.mode)), y.map(|e| (e.id, e.mode)));
                if order.is_le() {
                    a.advance(self.strict, &dir)?;
                }
                if order.is_ge() {
                    b.advance(self.strict, &dir)?;
                }
                if before == after || (!self.hidden && name.starts_with(b".")) {
                    continue;
                }
                let mut path = dir.clone();
                path.extend_from_slice(name);
                spelled += path.len();
                if spelled > MAX_PATH_BYTES {
                    return Err(GitError::TooManyEntries { limit: MAX_ENTRIES });
                }
                visit(&path, (before, after));
                let inner = |e: Option<Entry>| e.filter(|(_, m)| *m == FOLDER).map(|(id, _)| id);
                if inner(before).is_some() || inner(after).is_some() {
                    path.push(b'/');
                    unread.push((path, inner(before), inner(after)));
                }
                // Past the last difference both sides hold the same bytes; a strict reading
                // goes on to check their order.
                if !self.strict && a.rest() == b.rest() {
                    break;
                }
            }
            entries += a.read + b.read;
            if entries > MAX_ENTRIES {
                return Err(GitError::TooManyEntries { limit: MAX_ENTRIES });
            }
        }
        Ok(())
    }
}

/// The entries of a tree read, none of none.
fn entries_of(tree: &Option<(Oid, Rc<[u8]>)>) -> Entries<'_> {
    match tree {
        Some((id, bytes)) => Entries::of(*id, bytes),
        None => Entries::of(Oid::ZERO_SHA1, &[]),
    }
}

/// One tree of two being compared, read an entry at a time.
struct Side<'t> {
    /// The names read, in a strict reading: a file and a folder of one name are not
    /// neighbours in git's order, and a checkout keeps one of them.
    names: HashSet<&'t [u8]>,
    entries: Entries<'t>,
    /// The entry read and not yet compared, as stored, with what was left before it.
    now: Option<&'t [u8]>,
    from: &'t [u8],
    /// The entry before it, in a strict reading.
    last: Option<Raw<'t>>,
    /// How many entries were read.
    read: usize,
}

impl<'t> Side<'t> {
    fn new(mut entries: Entries<'t>) -> Result<Self, GitError> {
        let from = entries.rest();
        let now = entries.next_bytes().transpose()?;
        let read = usize::from(now.is_some());
        Ok(Side {
            names: HashSet::new(),
            entries,
            now,
            from,
            last: None,
            read,
        })
    }

    fn parsed(&self, bytes: Option<&'t [u8]>) -> Result<Option<Raw<'t>>, GitError> {
        bytes.map(|b| self.entries.parse(b)).transpose()
    }

    /// Reads the next entry; `strict`: refuses one that does not come after the one before in
    /// git's order, a name twice (a file and a folder too), and a name git never writes.
    fn advance(&mut self, strict: bool, dir: &[u8]) -> Result<(), GitError> {
        if strict {
            let now = self.parsed(self.now)?;
            if let Some(now) = now {
                if !name_git_writes(now.name) {
                    return Err(GitError::BadName([dir, now.name].concat()));
                }
                let ordered = self.last.is_none_or(|last| git_order(&last, &now).is_lt());
                if !ordered || !self.names.insert(now.name) {
                    return Err(GitError::NamedTwice([dir, now.name].concat()));
                }
            }
            self.last = now;
        }
        self.from = self.entries.rest();
        self.now = self.entries.next_bytes().transpose()?;
        self.read += usize::from(self.now.is_some());
        Ok(())
    }

    /// The bytes of the entries not yet compared.
    fn rest(&self) -> &'t [u8] {
        self.from
    }
}

/// A tree entry as [`changes_in`] compares it: its object and its mode.
pub type Entry = (Oid, Mode);

/// What two trees hold at one path: the old tree's entry and the new one's (`None`: nothing).
pub type Change = (Option<Entry>, Option<Entry>);

/// Whether a mode is a regular file's (not a folder, a link or a submodule).
#[must_use]
pub fn regular(mode: Mode) -> bool {
    mode & 0o170_000 == 0o100_000
}

/// What differs between the trees `old` and `new` (`None`: the empty tree) under the folder
/// `prefix` (its path in the tree followed by `/`, or empty for the root), at the paths
/// [`read_by_folder_check`] takes, whatever entry is there (a file, a link, a folder so named),
/// by path with both sides. As [`changes`], a folder is read only where its object differs,
/// so that a commit that changed one game costs the folders on that game's path (libgit2's
/// `git_diff_tree_to_tree` flattens both trees and visits every entry); unlike it, the folders
/// on the way to `prefix` are found by name, hidden entries are passed over as `verify FOLDER`
/// passes them over, and trees are read as the audit always read them, in git's order or not.
///
/// # Errors
/// When git cannot read a tree; [`GitError::TooManyEntries`] past [`MAX_ENTRIES`] entries
/// read, or past [`MAX_PATH_BYTES`] of paths spelled out.
pub fn changes_in(
    trees: &mut Trees<'_>,
    old: Option<Oid>,
    new: Option<Oid>,
    prefix: &[u8],
) -> Result<BTreeMap<Vec<u8>, Change>, GitError> {
    let mut found: BTreeMap<Vec<u8>, Change> = BTreeMap::new();
    let (mut old, mut new) = (old, new);
    for name in prefix.split(|&b| b == b'/').filter(|p| !p.is_empty()) {
        // `verify FOLDER` passes over a hidden folder, and so over everything in it.
        if old == new || name.starts_with(b".") {
            return Ok(found);
        }
        old = trees.folder_in(old, name)?;
        new = trees.folder_in(new, name)?;
    }
    let walk = Walk {
        hidden: false,
        strict: false,
    };
    walk.differences(trees, (old, new), prefix.to_vec(), &mut |path,
                                                               (
        before,
        after,
    )| {
        if read_by_folder_check(path) {
            // A name that is a folder on one side and a file on the other sorts apart (`x/`
            // after `x`): its two halves meet here.
            let slot = found.entry(path.to_vec()).or_default();
            slot.0 = slot.0.or(before);
            slot.1 = slot.1.or(after);
        }
    })?;
    found.retain(|_, (a, b)| a != b);
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

#[cfg(test)]
mod tests;
