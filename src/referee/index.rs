//! The referee's index: what it must know of every game in the repository to hold each to one
//! line of records across every branch and path, read in a time that does not grow with the
//! number of games. For each game id, the digests of the documents of the longest version any
//! branch holds, and where its copies lie (branch, path, and how many documents each held when
//! it landed); for the repository, the commit each branch stood at when the index last took it.
//!
//! It lives in the repository's own folder (`correspond-referee/`), one small file a game, and
//! changes only inside the referee's serialized step (see docs/referee.md). It is a cache of what
//! the branches hold: rebuilt from them when it is lost, damaged, or out of step with them (a
//! branch moved by something other than a push), and never believed over the objects where the
//! two disagree: a line it names is read again from its copies before a push is refused for it.

use crate::digest::Digest;
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The first line of each file of the index.
const MAGIC: &str = "correspond referee index 1";

/// The index's folder, in the repository's.
pub const FOLDER: &str = "correspond-referee";

/// Why the index cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// A file of the index cannot be read or written.
    #[error("{}: {error}", crate::text::path(.path))]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// A file of the index is not as the referee writes it (cut short, changed by hand).
    #[error("{} is damaged", crate::text::path(.0))]
    Damaged(PathBuf),
}

/// A branch and a path in it: where a copy of a game lies. Both as git's bytes.
pub type Place = (Vec<u8>, Vec<u8>);

/// One game's line of records, as the index holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The digests of the longest version's documents, in order; the first is the game id.
    pub digests: Vec<Digest>,
    /// Each copy, and how many documents it held when it last landed.
    pub copies: BTreeMap<Place, usize>,
}

impl Entry {
    /// A game seen for the first time, at `place`.
    #[must_use]
    pub fn new(digests: &[Digest], place: Place) -> Entry {
        Entry {
            digests: digests.to_vec(),
            copies: BTreeMap::from([(place, digests.len())]),
        }
    }

    /// The first document at which a version of the game parts from this line (`None`: one is
    /// the other with documents appended). Each document names the digest of the one before
    /// it, so two versions that agree at a place agree at every place before it; every place is
    /// compared all the same, so that a damaged line is never read as agreeing.
    #[must_use]
    pub fn parts(&self, digests: &[Digest]) -> Option<usize> {
        self.digests.iter().zip(digests).position(|(a, b)| a != b)
    }

    /// How many of a version's documents the line holds already (they landed before).
    #[must_use]
    pub fn known(&self, digests: &[Digest]) -> usize {
        match self.parts(digests) {
            None => self.digests.len().min(digests.len()),
            Some(at) => at,
        }
    }

    /// Takes a version that landed at `place`: the line grows to it when it is longer.
    pub fn take(&mut self, digests: &[Digest], place: Place) {
        if digests.len() > self.digests.len() {
            self.digests = digests.to_vec();
        }
        let held = self.copies.entry(place).or_insert(0);
        *held = (*held).max(digests.len());
    }

    /// The copy that holds the most documents (the first such, in order).
    #[must_use]
    pub fn longest(&self) -> Option<&Place> {
        let most = self.copies.values().max()?;
        self.copies.iter().find(|(_, n)| *n == most).map(|(p, _)| p)
    }

    fn write(&self) -> String {
        let mut text = format!("{MAGIC}\n");
        for digest in &self.digests {
            text.push_str(&format!("document {digest}\n"));
        }
        for ((branch, path), held) in &self.copies {
            text.push_str(&format!("copy {held} {} {}\n", hex(branch), hex(path)));
        }
        text + "end\n"
    }

    fn read(text: &str) -> Option<Entry> {
        let mut entry = Entry {
            digests: Vec::new(),
            copies: BTreeMap::new(),
        };
        for line in body(text)? {
            let mut words = line.split(' ');
            match (words.next()?, words.next()?, words.next(), words.next()) {
                ("document", digest, None, None) => entry.digests.push(Digest::parse(digest)?),
                ("copy", held, Some(branch), Some(path)) if words.next().is_none() => {
                    entry
                        .copies
                        .insert((unhex(branch)?, unhex(path)?), held.parse().ok()?);
                }
                _ => return None,
            }
        }
        (!entry.digests.is_empty()).then_some(entry)
    }
}

/// The lines between the first line and the last, when the text is whole.
fn body(text: &str) -> Option<std::str::Lines<'_>> {
    let inner = text
        .strip_prefix(MAGIC)?
        .strip_prefix('\n')?
        .strip_suffix("end\n")?;
    Some(inner.lines())
}

/// Bytes as lower-case hex, so that a name that is not UTF-8, or holds a space, is one word.
#[must_use]
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// A branch update the index takes once git has made it: the branch, its commit before and
/// after (`None`: made, or deleted), and each game version the update brings, by path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Taken {
    /// The branch, as git's bytes.
    pub branch: Vec<u8>,
    /// Its commit before, in hex.
    pub old: Option<String>,
    /// Its commit after, in hex.
    pub new: Option<String>,
    /// The game versions it lands: a path, and the digests of the version's documents.
    pub games: Vec<(Vec<u8>, Vec<Digest>)>,
}

impl Taken {
    /// Branch updates as the referee keeps them between judging a push and git making it.
    #[must_use]
    pub fn write_all(taken: &[Taken]) -> String {
        let mut text = String::new();
        let commit = |c: &Option<String>| c.clone().unwrap_or_else(|| "-".to_owned());
        for t in taken {
            text.push_str(&format!(
                "update {} {} {}\n",
                commit(&t.old),
                commit(&t.new),
                hex(&t.branch)
            ));
            for (path, digests) in &t.games {
                let digests: Vec<String> = digests.iter().map(ToString::to_string).collect();
                text.push_str(&format!("game {} {}\n", hex(path), digests.join(",")));
            }
        }
        text
    }

    /// Reads what [`Taken::write_all`] wrote (`None`: anything else).
    #[must_use]
    pub fn read_all(text: &str) -> Option<Vec<Taken>> {
        let commit = |c: &str| {
            let hexadecimal = !c.is_empty() && c.bytes().all(|b| b.is_ascii_hexdigit());
            match c {
                "-" => Some(None),
                c if hexadecimal => Some(Some(c.to_owned())),
                _ => None,
            }
        };
        let mut taken: Vec<Taken> = Vec::new();
        for line in text.lines() {
            let words: Vec<&str> = line.split(' ').collect();
            match words.as_slice() {
                ["update", old, new, branch] => taken.push(Taken {
                    branch: unhex(branch)?,
                    old: commit(old)?,
                    new: commit(new)?,
                    games: Vec::new(),
                }),
                ["game", path, digests] => {
                    let digests = digests
                        .split(',')
                        .map(Digest::parse)
                        .collect::<Option<Vec<Digest>>>()?;
                    taken.last_mut()?.games.push((unhex(path)?, digests));
                }
                _ => return None,
            }
        }
        Some(taken)
    }
}

/// Two copies of one game that hold different lines of it, found when the index was built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The copy taken first (in the order of branches, then paths).
    pub kept: Place,
    /// The copy whose line parts from it.
    pub other: Place,
    /// The first document where they part.
    pub document: usize,
}

/// The index in a repository's folder.
#[derive(Clone, Debug)]
pub struct Index {
    dir: PathBuf,
}

impl Index {
    /// The index of the repository whose folder is `git_dir` (it may not exist yet).
    #[must_use]
    pub fn of(git_dir: &Path) -> Index {
        Index {
            dir: git_dir.join(FOLDER),
        }
    }

    /// Its folder.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn game_path(&self, game: &Digest) -> PathBuf {
        let id = game.to_string();
        self.dir.join("games").join(&id[..2]).join(&id[2..])
    }

    /// What the index holds of one game (`None`: a game it has not seen).
    ///
    /// # Errors
    /// When its file cannot be read, or is damaged.
    pub fn entry(&self, game: &Digest) -> Result<Option<Entry>, IndexError> {
        let path = self.game_path(game);
        match std::fs::read_to_string(&path) {
            Ok(text) => match Entry::read(&text) {
                Some(entry) if entry.digests.first() == Some(game) => Ok(Some(entry)),
                _ => Err(IndexError::Damaged(path)),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => Err(IndexError::Damaged(path)),
            Err(error) => Err(IndexError::Io { path, error }),
        }
    }

    /// Writes one game's entry, whole or not at all.
    ///
    /// # Errors
    /// When it cannot be written.
    pub fn put(&self, entry: &Entry) -> Result<(), IndexError> {
        let Some(game) = entry.digests.first() else {
            return Ok(());
        };
        write_whole(&self.game_path(game), &entry.write(), Sync::Now)
    }

    /// The commit each branch stood at when the index last took it, in hex (`None`: the index
    /// is not whole: never built, lost, or cut short while being built).
    ///
    /// # Errors
    /// When the file cannot be read, or is damaged.
    pub fn branches(&self) -> Result<Option<BTreeMap<Vec<u8>, String>>, IndexError> {
        let path = self.dir.join("branches");
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                return Err(IndexError::Damaged(path));
            }
            Err(error) => return Err(IndexError::Io { path, error }),
        };
        let damaged = || IndexError::Damaged(path.clone());
        let mut branches = BTreeMap::new();
        for line in body(&text).ok_or_else(damaged)? {
            let (commit, branch) = line.split_once(' ').ok_or_else(damaged)?;
            let hexadecimal = !commit.is_empty() && commit.bytes().all(|b| b.is_ascii_hexdigit());
            if !hexadecimal {
                return Err(damaged());
            }
            branches.insert(unhex(branch).ok_or_else(damaged)?, commit.to_owned());
        }
        Ok(Some(branches))
    }

    /// Writes where the branches stand, which marks the index whole.
    ///
    /// # Errors
    /// When it cannot be written.
    pub fn put_branches(&self, branches: &BTreeMap<Vec<u8>, String>) -> Result<(), IndexError> {
        let mut text = format!("{MAGIC}\n");
        for (branch, commit) in branches {
            text.push_str(&format!("{commit} {}\n", hex(branch)));
        }
        write_whole(&self.dir.join("branches"), &(text + "end\n"), Sync::Now)
    }

    /// Takes a branch update that git made: each game version it brought joins its line, and
    /// the branch's commit is the new one.
    ///
    /// # Errors
    /// When the index cannot be read or written.
    pub fn take(&self, taken: &Taken) -> Result<(), IndexError> {
        for (path, digests) in &taken.games {
            let Some(game) = digests.first() else {
                continue;
            };
            let place = (taken.branch.clone(), path.clone());
            let entry = match self.entry(game)? {
                Some(mut entry) => {
                    entry.take(digests, place);
                    entry
                }
                None => Entry::new(digests, place),
            };
            self.put(&entry)?;
        }
        let mut branches = self.branches()?.unwrap_or_default();
        match &taken.new {
            Some(new) => branches.insert(taken.branch.clone(), new.clone()),
            None => branches.remove(&taken.branch),
        };
        self.put_branches(&branches)
    }

    /// Builds the index again from what the branches hold: each game copy (its branch, path
    /// and documents' digests, in the order of branches, then paths), and where each branch
    /// stands. A copy whose line parts from the copies taken before it is not taken, and is
    /// returned, so that it can be named.
    ///
    /// # Errors
    /// When the index cannot be written.
    pub fn rebuild(
        &self,
        copies: &[(Place, Vec<Digest>)],
        branches: &BTreeMap<Vec<u8>, String>,
    ) -> Result<Vec<Conflict>, IndexError> {
        self.clear()?;
        let mut entries: BTreeMap<Digest, Entry> = BTreeMap::new();
        let mut conflicts = Vec::new();
        for (place, digests) in copies {
            let Some(game) = digests.first() else {
                continue;
            };
            match entries.get_mut(game) {
                None => {
                    entries.insert(*game, Entry::new(digests, place.clone()));
                }
                Some(entry) => match entry.parts(digests) {
                    None => entry.take(digests, place.clone()),
                    Some(document) => conflicts.push(Conflict {
                        kept: entry.longest().cloned().unwrap_or_default(),
                        other: place.clone(),
                        document,
                    }),
                },
            }
        }
        // Thousands of entries each synced would make a rebuild wait on the disk thousands of
        // times: they are written, and the branches file, which marks the index whole, is
        // synced last. An entry lost with the power all the same is a game the branches hold
        // and the index lacks, for which the hook builds the index again.
        for entry in entries.values() {
            if let Some(game) = entry.digests.first() {
                write_whole(&self.game_path(game), &entry.write(), Sync::Later)?;
            }
        }
        self.put_branches(branches)?;
        Ok(conflicts)
    }

    /// Starts the index again from nothing: every entry removed, and the index marked not
    /// whole until [`Index::put_branches`] is called once the branches are taken again.
    ///
    /// # Errors
    /// When the folder cannot be cleared.
    pub fn clear(&self) -> Result<(), IndexError> {
        let io = |path: &Path| {
            let path = path.to_owned();
            move |error| IndexError::Io { path, error }
        };
        let branches = self.dir.join("branches");
        match std::fs::remove_file(&branches) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(&branches)(e)),
            _ => {}
        }
        let games = self.dir.join("games");
        match std::fs::remove_dir_all(&games) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io(&games)(e)),
            _ => Ok(()),
        }
    }
}

/// Whether a file written is synced to the disk before it takes its place.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sync {
    Now,
    Later,
}

/// Writes a file whole or not at all: a copy beside it, renamed over it.
fn write_whole(path: &Path, text: &str, sync: Sync) -> Result<(), IndexError> {
    let io = |error| IndexError::Io {
        path: path.to_owned(),
        error,
    };
    let folder = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(folder).map_err(io)?;
    let mut file = tempfile::NamedTempFile::new_in(folder).map_err(io)?;
    file.write_all(text.as_bytes()).map_err(io)?;
    if sync == Sync::Now {
        file.as_file().sync_all().map_err(io)?;
    }
    file.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Entry, Index, Taken, hex, unhex};
    use crate::digest::Digest;

    fn line(n: u8) -> Vec<Digest> {
        (0..n).map(|i| Digest::of(&[i])).collect()
    }

    #[test]
    fn versions_of_one_line_agree_and_another_line_parts_where_it_does() {
        let mut entry = Entry::new(&line(3), (b"refs/heads/main".to_vec(), b"g.yaml".to_vec()));
        assert_eq!(entry.parts(&line(2)), None);
        assert_eq!(entry.parts(&line(5)), None);
        assert_eq!(entry.known(&line(5)), 3);
        let mut other = line(4);
        other[2] = Digest::of(b"another record 2");
        assert_eq!(entry.parts(&other), Some(2));
        assert_eq!(entry.known(&other), 2);
        entry.take(&line(5), (b"refs/heads/x".to_vec(), b"copy.yaml".to_vec()));
        assert_eq!(entry.digests, line(5));
        assert_eq!(
            entry.longest(),
            Some(&(b"refs/heads/x".to_vec(), b"copy.yaml".to_vec()))
        );
    }

    #[test]
    fn entries_and_branches_are_read_back_as_written_and_damage_is_found() {
        let dir = tempfile::tempdir().expect("temp dir");
        let index = Index::of(dir.path());
        assert_eq!(index.branches().expect("read"), None);
        let branch = b"refs/heads/caf\xe9 au lait".to_vec();
        let taken = Taken {
            branch: branch.clone(),
            old: None,
            new: Some("ab".repeat(20)),
            games: vec![(b"a b/\xffg.yaml".to_vec(), line(3))],
        };
        index.take(&taken).expect("taken");
        let entry = index.entry(&line(1)[0]).expect("read").expect("there");
        assert_eq!(
            entry,
            Entry::new(&line(3), (branch.clone(), b"a b/\xffg.yaml".to_vec()))
        );
        let branches = index.branches().expect("read").expect("whole");
        assert_eq!(branches.get(&branch), Some(&"ab".repeat(20)));
        // Cut short: damaged, never read as a shorter line.
        let file = std::fs::read_dir(dir.path().join("correspond-referee/games"))
            .expect("games")
            .flatten()
            .flat_map(|d| std::fs::read_dir(d.path()).expect("a folder").flatten())
            .next()
            .expect("the entry")
            .path();
        let text = std::fs::read_to_string(&file).expect("read");
        std::fs::write(&file, &text[..text.len() - 4]).expect("write");
        assert!(index.entry(&line(1)[0]).is_err());
        index.clear().expect("cleared");
        assert_eq!(index.entry(&line(1)[0]).expect("read"), None);
        assert_eq!(index.branches().expect("read"), None);
        assert_eq!(unhex(&hex(&branch)), Some(branch));
        assert_eq!(unhex("abc"), None);
    }
}
