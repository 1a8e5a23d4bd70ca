//! Reading a commit's tree whole, as bytes, however it was built: every file entry with its
//! path and mode, read from a list of folders rather than the call stack, and bounded in
//! entries and path bytes, since a small push can name billions of paths. Two trees are
//! compared where they differ only, so that reading a long history costs what each commit
//! changed.

use super::GitError;
pub use super::tree_bytes::Trees;
use super::tree_bytes::{Entries, Raw, git_order, name_git_writes};
use git2::{ObjectType, Oid, Repository, Tree};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::rc::Rc;

/// A file entry's mode as git stores it: a regular file (`0o100644`, `0o100755`), a symbolic
/// link (`0o120000`) or a submodule (`0o160000`).
pub type Mode = i32;

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

/// git's mode of a folder.
pub const FOLDER: Mode = 0o040_000;

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
mod tests {
    use super::{
        GitError, LINK, MAX_ENTRIES, Trees, changes, changes_in, files, read_by_folder_check,
        yaml_blobs,
    };
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

    /// A tree written as raw bytes, which no tree builder would write: each entry its mode, name
    /// and object.
    fn raw_tree(repo: &Repository, entries: &[(&str, &[u8], Oid)]) -> Oid {
        let mut bytes = Vec::new();
        for (mode, name, id) in entries {
            bytes.extend_from_slice(mode.as_bytes());
            bytes.push(b' ');
            bytes.extend_from_slice(name);
            bytes.push(0);
            bytes.extend_from_slice(id.as_bytes());
        }
        let odb = repo.odb().expect("the object database");
        odb.write(git2::ObjectType::Tree, &bytes).expect("a tree")
    }

    #[test]
    fn a_strict_reading_refuses_what_git_never_writes_and_reads_modes_as_git_checks_out() {
        let (_dir, repo, game) = repository();
        let empty = tree(&repo, &[]);
        // A name of two parts, which a push's check of `zz2/` would never see; `.git`.
        for name in [&b"zz2/bad.yaml"[..], b".git", b".", b".."] {
            let t = raw_tree(&repo, &[("100644", name, game)]);
            assert!(
                matches!(changes(&repo, None, Some(t)), Err(GitError::BadName(_))),
                "{name:?}"
            );
        }
        // A file and a folder of one name, in git's order with an entry between them: a
        // checkout keeps one, and the game would vanish from every clone.
        let t = raw_tree(
            &repo,
            &[
                ("100644", b"g.yaml", game),
                ("100644", b"g.yaml-x", game),
                ("40000", b"g.yaml", empty),
            ],
        );
        assert!(matches!(
            changes(&repo, None, Some(t)),
            Err(GitError::NamedTwice(_))
        ));
        // `120755` is checked out as a symbolic link, and read as one.
        let t = raw_tree(&repo, &[("120755", b"k.yaml", game)]);
        let found = changes_in(&mut Trees::new(&repo), None, Some(t), b"").expect("a diff");
        assert_eq!(found.get(&b"k.yaml"[..]), Some(&(None, Some((game, LINK)))));
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

    #[test]
    fn a_diff_reports_what_differs_under_the_folder_and_nothing_else() {
        let (_dir, repo, game) = repository();
        let other = repo.blob(b"another game\n").expect("a blob");
        let (file, link, folder) = (0o100_644, 0o120_000, 0o040_000);
        let inner = tree(&repo, &[("g.yaml", game, file)]);
        let hidden = tree(&repo, &[("h.yaml", game, file)]);
        let old_games = tree(
            &repo,
            &[
                ("a.yaml", game, file),
                ("b.yaml", game, file),
                ("c.yml", game, file),
                ("x.yaml", game, file),
                ("x.yaml-notes.yaml", game, file),
                (".h", hidden, folder),
            ],
        );
        let new_games = tree(
            &repo,
            &[
                ("a.yaml", other, file),
                ("b.yaml", game, link),
                ("c.yml", game, file),
                ("x.yaml", inner, folder),
                ("x.yaml-notes.yaml", game, file),
                (".h", inner, folder),
                ("n.yaml", game, file),
            ],
        );
        let old = tree(
            &repo,
            &[("games", old_games, folder), ("top.yaml", game, file)],
        );
        let new = tree(
            &repo,
            &[("games", new_games, folder), ("top.yaml", other, file)],
        );
        let found =
            changes_in(&mut Trees::new(&repo), Some(old), Some(new), b"games/").expect("a diff");
        let paths: Vec<&[u8]> = found.keys().map(Vec::as_slice).collect();
        assert_eq!(
            paths,
            [
                &b"games/a.yaml"[..],
                b"games/b.yaml",
                b"games/n.yaml",
                b"games/x.yaml",
                b"games/x.yaml/g.yaml",
            ]
        );
        // A file that became a folder of the same name: both halves, met at one path.
        assert_eq!(
            found[&b"games/x.yaml"[..]],
            (Some((game, file)), Some((inner, folder)))
        );
        assert_eq!(
            found[&b"games/b.yaml"[..]],
            (Some((game, file)), Some((game, link)))
        );
        // Against nothing, the folder's every entry; the whole tree's, matching `files`.
        for (side, prefix) in [(new, &b"games/"[..]), (old, b""), (new, b"")] {
            let listed =
                changes_in(&mut Trees::new(&repo), None, Some(side), prefix).expect("a listing");
            let whole = files(&repo, &repo.find_tree(side).expect("a tree"), &|p| {
                p.starts_with(prefix) && read_by_folder_check(p)
            })
            .expect("the files");
            let listed: Vec<_> = listed
                .into_iter()
                .filter(|(_, (_, now))| now.is_some_and(|(_, m)| m != folder))
                .map(|(path, (_, now))| (path, now))
                .collect();
            let whole: Vec<_> = whole.into_iter().map(|(p, e)| (p, Some(e))).collect();
            assert_eq!(listed, whole);
        }
        // A hidden folder on the way is passed over, as `verify FOLDER` passes it over.
        assert!(
            changes_in(&mut Trees::new(&repo), Some(old), Some(new), b"games/.h/")
                .expect("a diff")
                .is_empty()
        );
    }
}
