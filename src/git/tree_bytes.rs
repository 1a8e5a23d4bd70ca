//! Trees read as git stores them, `MODE NAME\0ID` one after another, for comparing the trees of a
//! long history. libgit2 parses a tree whole into entries before it can be compared; a commit
//! that changed one game changes one entry of each folder on its path, so here the bytes of two
//! versions of a folder are walked side by side, an entry the same on both sides passed over
//! without being parsed, and the walk stops where the rest of both is the same bytes. Walking a
//! club's history then costs little more per commit for a folder of a hundred games than for
//! one of ten.

use super::GitError;
use git2::{ObjectType, Odb, Oid, Repository};
use std::cmp::Ordering;
use std::collections::HashMap;
use std::rc::Rc;

/// A file entry's mode as git stores it: a regular file (`0o100644`, `0o100755`), a symbolic
/// link (`0o120000`) or a submodule (`0o160000`).
pub type Mode = i32;

/// git's mode of a folder.
pub const FOLDER: Mode = 0o040_000;

/// The trees of a run of comparisons in which each one's new side is the next one's old (a
/// history walked commit by commit): the trees one comparison read are kept for the next, so
/// that each is read from git once.
pub struct Trees<'r> {
    repo: &'r Repository,
    odb: Option<Odb<'r>>,
    /// What the comparison before read.
    last: HashMap<Oid, Rc<[u8]>>,
    /// What this comparison has read.
    now: HashMap<Oid, Rc<[u8]>>,
}

impl<'r> Trees<'r> {
    /// Nothing read yet.
    #[must_use]
    pub fn new(repo: &'r Repository) -> Self {
        Trees {
            repo,
            odb: None,
            last: HashMap::new(),
            now: HashMap::new(),
        }
    }

    /// Lets go of what the comparison before this one read and this one did not: call it
    /// between two comparisons.
    pub fn turn(&mut self) {
        self.last = std::mem::take(&mut self.now);
    }

    /// The bytes of the tree `id`.
    pub(super) fn get(&mut self, id: Oid) -> Result<Rc<[u8]>, GitError> {
        if let Some(tree) = self.now.get(&id) {
            return Ok(Rc::clone(tree));
        }
        let tree = match self.last.remove(&id) {
            Some(tree) => tree,
            None => self.read(id)?,
        };
        self.now.insert(id, Rc::clone(&tree));
        Ok(tree)
    }

    fn read(&mut self, id: Oid) -> Result<Rc<[u8]>, GitError> {
        let odb = match &self.odb {
            Some(odb) => odb,
            None => self.odb.insert(self.repo.odb()?),
        };
        let object = odb.read(id)?;
        if object.kind() != ObjectType::Tree {
            let message = format!("object {id} is a {}, not a tree", object.kind());
            return Err(git2::Error::from_str(&message).into());
        }
        Ok(Rc::from(object.data()))
    }

    /// The folder `name` of the tree `tree`, if it is one: the first entry of that name, as a
    /// tree in git's order holds one.
    pub(super) fn folder_in(
        &mut self,
        tree: Option<Oid>,
        name: &[u8],
    ) -> Result<Option<Oid>, GitError> {
        let Some(tree) = tree else { return Ok(None) };
        let bytes = self.get(tree)?;
        for entry in Entries::of(tree, &bytes) {
            let entry = entry?;
            if entry.name == name {
                return Ok((entry.mode == FOLDER).then_some(entry.id));
            }
        }
        Ok(None)
    }
}

/// One entry of a tree.
#[derive(Clone, Copy)]
pub(super) struct Raw<'t> {
    pub name: &'t [u8],
    /// The mode as libgit2 gives it (`git_tree_entry_filemode`): a folder, a link, a
    /// submodule, or a file executable or not, whatever other bits the stored mode has.
    pub mode: Mode,
    pub id: Oid,
}

/// The entries of a tree's bytes, in the order stored.
pub(super) struct Entries<'t> {
    tree: Oid,
    rest: &'t [u8],
}

impl<'t> Entries<'t> {
    pub(super) fn of(tree: Oid, bytes: &'t [u8]) -> Self {
        Entries { tree, rest: bytes }
    }

    /// What is left to read, the next entry first.
    pub(super) fn rest(&self) -> &'t [u8] {
        self.rest
    }

    fn damaged(&self, what: &str) -> GitError {
        let message = format!("failed to parse tree {}: {what}", self.tree);
        git2::Error::from_str(&message).into()
    }
}

impl<'t> Entries<'t> {
    /// The next entry's bytes, not yet parsed: up to the NUL that ends its name (a mode and a
    /// name hold none) and the 20 bytes of its id.
    pub(super) fn next_bytes(&mut self) -> Option<Result<&'t [u8], GitError>> {
        let bytes = self.rest;
        if bytes.is_empty() {
            return None;
        }
        let end = memchr::memchr(0, bytes).map(|nul| nul + 21);
        let Some(end) = end.filter(|&end| end <= bytes.len()) else {
            self.rest = &[];
            return Some(Err(self.damaged("can't parse OID")));
        };
        self.rest = &bytes[end..];
        Some(Ok(&bytes[..end]))
    }

    /// An entry's bytes ([`Entries::next_bytes`]) read as libgit2 reads them
    /// (`git_tree__parse_raw`): an octal mode of at most 16 bits, a space, a name of at least
    /// one byte, and an id.
    pub(super) fn parse(&self, bytes: &'t [u8]) -> Result<Raw<'t>, GitError> {
        // Up to the NUL: the mode, a space and the name.
        let head = &bytes[..bytes.len() - 21];
        let space =
            memchr::memchr(b' ', head).ok_or_else(|| self.damaged("can't parse filemode"))?;
        let mode = octal(&head[..space]).ok_or_else(|| self.damaged("can't parse filemode"))?;
        let name = &head[space + 1..];
        if name.is_empty() {
            return Err(self.damaged("can't parse filename"));
        }
        let id = Oid::from_bytes(&bytes[bytes.len() - 20..])?;
        Ok(Raw {
            name,
            mode: normalized(mode),
            id,
        })
    }
}

impl<'t> Iterator for Entries<'t> {
    type Item = Result<Raw<'t>, GitError>;

    fn next(&mut self) -> Option<Self::Item> {
        let bytes = self.next_bytes()?;
        Some(bytes.and_then(|bytes| self.parse(bytes)))
    }
}

/// A mode as libgit2 reads it (`git__strntol32`, base 8): a sign, then octal digits, to a value
/// from 0 to 0xFFFF.
fn octal(text: &[u8]) -> Option<u32> {
    let (negative, digits) = match text.first() {
        Some(b'+') => (false, &text[1..]),
        Some(b'-') => (true, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || digits.len() > 11 {
        return None;
    }
    let mut value: u64 = 0;
    for &d in digits {
        if !(b'0'..=b'7').contains(&d) {
            return None;
        }
        value = value * 8 + u64::from(d - b'0');
    }
    let value = u32::try_from(value).ok().filter(|v| *v <= 0xFFFF)?;
    (!negative || value == 0).then_some(value)
}

/// A mode as git checks the entry out (`create_ce_mode`): by its type first, a folder, a link
/// or a submodule; anything else a regular file, executable where the owner's execute bit is
/// set. libgit2's `normalize_filemode` looks at the execute bit first, and so would take
/// `120755`, which git checks out as a symbolic link, for an executable file.
fn normalized(mode: u32) -> Mode {
    let mode = match mode & 0o170_000 {
        0o040_000 => 0o040_000,
        0o120_000 => 0o120_000,
        0o160_000 => 0o160_000,
        _ if mode & 0o100 != 0 => 0o100_755,
        _ => 0o100_644,
    };
    Mode::try_from(mode).unwrap_or(0o100_644)
}

/// Whether git writes an entry of this name: one part of a path, and not `.`, `..` or `.git`.
pub(super) fn name_git_writes(name: &[u8]) -> bool {
    !name.contains(&b'/') && name != b"." && name != b".." && !name.eq_ignore_ascii_case(b".git")
}

/// git's order of a tree's entries: by name, a folder's as if it ended in `/`.
pub(super) fn git_order(a: &Raw<'_>, b: &Raw<'_>) -> Ordering {
    let (x, y) = (a.name, b.name);
    let n = x.len().min(y.len());
    let end = |e: &Raw<'_>, name: &[u8]| {
        name.get(n)
            .copied()
            .unwrap_or(if e.mode == FOLDER { b'/' } else { 0 })
    };
    x[..n].cmp(&y[..n]).then_with(|| end(a, x).cmp(&end(b, y)))
}

#[cfg(test)]
mod tests {
    use super::{Entries, Trees, octal};
    use git2::Repository;

    #[test]
    fn entries_are_read_as_libgit2_reads_them() {
        let dir = tempfile::tempdir().expect("temp dir");
        let repo = Repository::init_bare(dir.path()).expect("a repository");
        let blob = repo.blob(b"x\n").expect("a blob");
        let mut builder = repo.treebuilder(None).expect("a builder");
        builder.insert("a.yaml", blob, 0o100_644).expect("an entry");
        builder.insert("b", blob, 0o100_755).expect("an entry");
        let empty = repo
            .treebuilder(None)
            .and_then(|b| b.write())
            .expect("a tree");
        builder.insert("d", empty, 0o040_000).expect("an entry");
        builder.insert("l", blob, 0o120_000).expect("an entry");
        let id = builder.write().expect("a tree");
        let tree = repo.find_tree(id).expect("the tree");
        let mut trees = Trees::new(&repo);
        let bytes = trees.get(id).expect("its bytes");
        let ours: Vec<(Vec<u8>, i32, git2::Oid)> = Entries::of(id, &bytes)
            .map(|e| {
                e.map(|e| (e.name.to_vec(), e.mode, e.id))
                    .expect("an entry")
            })
            .collect();
        let theirs: Vec<(Vec<u8>, i32, git2::Oid)> = tree
            .iter()
            .map(|e| (e.name_bytes().to_vec(), e.filemode(), e.id()))
            .collect();
        assert_eq!(ours, theirs);
        assert!(trees.get(blob).is_err(), "a blob is no tree");
        let damaged = [
            b"100644 a".as_slice(),
            b"10x644 a\0",
            b"100644 \0",
            b"100644 a\0short",
        ];
        for bytes in damaged {
            assert!(Entries::of(id, bytes).any(|e| e.is_err()), "{bytes:?}");
        }
    }

    #[test]
    fn modes_are_octal_numbers_of_sixteen_bits() {
        assert_eq!(octal(b"100644"), Some(0o100_644));
        assert_eq!(octal(b"40000"), Some(0o40_000));
        assert_eq!(octal(b"+644"), Some(0o644));
        assert_eq!(octal(b"-0"), Some(0));
        // As git checks it out: a link whatever its permission bits.
        assert_eq!(super::normalized(0o120_755), 0o120_000);
        assert_eq!(super::normalized(0o100_664), 0o100_644);
        for bad in [&b""[..], b"8", b"-1", b"200000", b"1 2", b"+"] {
            assert_eq!(octal(bad), None, "{bad:?}");
        }
    }
}
