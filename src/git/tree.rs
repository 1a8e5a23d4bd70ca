//! Reading a commit's tree whole, as bytes, however it was built: every file entry with its
//! path and mode, read from a list of folders rather than the call stack, and bounded in
//! entries and path bytes, since a small push can name billions of paths.

use super::GitError;
use git2::{ObjectType, Oid, Repository, Tree};
use std::collections::{BTreeMap, BTreeSet};

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
/// of `to` when there is no `from`. A folder whose tree is the same object on both sides is not
/// read, so that the cost is what changed, not what the trees hold; nested folders are kept on
/// a list, not on the call stack.
///
/// # Errors
/// When git cannot read a tree; [`GitError::TooManyEntries`] past [`MAX_ENTRIES`] entries.
pub fn changes(
    repo: &Repository,
    from: Option<Oid>,
    to: Option<Oid>,
) -> Result<BTreeSet<Vec<u8>>, GitError> {
    let mut changed = BTreeSet::new();
    let mut unread: Vec<(Vec<u8>, Option<Oid>, Option<Oid>)> = vec![(Vec::new(), from, to)];
    let mut entries = 0usize;
    while let Some((folder, from, to)) = unread.pop() {
        if from == to {
            continue;
        }
        let mut sides: BTreeMap<Vec<u8>, [Option<(Oid, bool)>; 2]> = BTreeMap::new();
        for (side, tree) in [from, to].into_iter().enumerate() {
            let Some(tree) = tree else { continue };
            for entry in &repo.find_tree(tree)? {
                entries += 1;
                if entries > MAX_ENTRIES {
                    return Err(GitError::TooManyEntries { limit: MAX_ENTRIES });
                }
                let folder = entry.kind() == Some(ObjectType::Tree);
                sides.entry(entry.name_bytes().to_vec()).or_default()[side] =
                    Some((entry.id(), folder));
            }
        }
        for (name, [old, new]) in sides {
            if old == new {
                continue;
            }
            let mut path = folder.clone();
            if !path.is_empty() {
                path.push(b'/');
            }
            path.extend_from_slice(&name);
            let tree = |side: Option<(Oid, bool)>| side.filter(|(_, f)| *f).map(|(id, _)| id);
            let file = |side: Option<(Oid, bool)>| side.is_some_and(|(_, f)| !f);
            if file(old) || file(new) {
                changed.insert(path.clone());
            }
            if tree(old).is_some() || tree(new).is_some() {
                unread.push((path, tree(old), tree(new)));
            }
        }
    }
    Ok(changed)
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
