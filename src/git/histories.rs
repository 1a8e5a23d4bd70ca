//! The histories of every game file under a folder, read in one walk of the branch.
//!
//! Auditing a folder file by file, with [`History::of`] for each, walks the whole history once
//! per file: a club's history of N games costs N times its N games' commits. Here the
//! first-parent line is walked once, each commit compared with the one before where their trees
//! differ ([`changes_in`]), and each path keeps its own versions; the steps off the line, the
//! branch moves in the reflogs and the commits a shallow clone or a graft cuts are read once,
//! at the first file that asks, and shared. Each file then gets a [`History`] that reports what
//! [`History::of`] would.

use super::history::{FolderPart, Move, cuts, first_parent_line, moves};
use super::tree::{Change, Trees, changes_in, regular};
use super::{Boundary, Cut, GitError, History, Rewind, Step, Version, file_at, locate};
use git2::{Oid, Repository};
use std::cell::{OnceCell, RefCell};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// What the walk of a branch read once, for every file under the folder.
struct Shared {
    repo: Repository,
    /// The branch `HEAD` names (or `HEAD` when detached).
    branch: String,
    /// The repository's folder, as [`Histories::history`] compares another with it.
    git_dir: Option<PathBuf>,
    /// The folder's path in the tree followed by `/` (empty for the root).
    prefix: Vec<u8>,
    /// Each commit of the first-parent line from `HEAD` and its place on it, oldest first.
    place: HashMap<Oid, usize>,
    /// Whether a commit of the line has more than one parent: without one, no commit is off
    /// the line.
    merges: bool,
    // Read at the first file whose audit asks, so that an error comes where it came when each
    // file was read alone.
    steps: OnceCell<BTreeMap<Vec<u8>, Vec<Step>>>,
    rewinds: OnceCell<BTreeMap<Vec<u8>, Vec<Rewind>>>,
    boundaries: OnceCell<Vec<Cutting>>,
}

/// A commit the clone cannot see beyond, why, and what the folder holds there, by path.
type Cutting = (Oid, Cut, BTreeMap<Vec<u8>, Change>);

/// What the line did to one path.
#[derive(Default)]
struct Log {
    versions: Vec<Version>,
    /// Each version's place on the line.
    places: Vec<usize>,
    /// What the path holds at the last commit walked.
    now: Option<Oid>,
    /// The regular files it held on the line: whether it may be a game file.
    blobs: BTreeSet<Oid>,
}

/// A game file a folder's history holds or held.
#[derive(Clone, Debug)]
pub struct Held {
    /// As the command line shows it: under the folder as it was named.
    pub path: PathBuf,
    /// Its path in the tree.
    key: Vec<u8>,
}

/// The histories of every game file under a folder, read in one walk of the branch.
pub struct Histories {
    shared: Rc<Shared>,
    logs: BTreeMap<Vec<u8>, Log>,
    held: Vec<Held>,
    /// Where each folder of the working copy asked about lies in the tree ([`Histories::placed`]).
    folders: RefCell<HashMap<PathBuf, Option<PathBuf>>>,
}

/// One file's share of a folder's [`Histories`]: what [`History`] asks of it.
struct Part {
    shared: Rc<Shared>,
    key: Vec<u8>,
    /// Each version's place on the line.
    places: Vec<usize>,
    /// Each version's blob, in the same order.
    blobs: Vec<(Oid, Option<Oid>)>,
}

impl Histories {
    /// Every game file that the first-parent line from `HEAD` holds or ever held under
    /// `folder` (a folder of a work tree), found as `correspond verify FOLDER` finds them in a
    /// checkout, in any commit of the line, so that a game deleted since is audited too; and
    /// each one's history, as [`History::of`] reads it, all in one walk. Turns libgit2's cache
    /// of objects off for the process, as a walk that reads each object once needs no cache.
    ///
    /// # Errors
    /// When no repository holds the folder, it has no commits, or git fails.
    pub fn of_folder(folder: &Path) -> Result<Histories, GitError> {
        let no_repository = || GitError::NoRepository(folder.to_owned());
        let absolute = std::fs::canonicalize(folder).map_err(|_| no_repository())?;
        let repo = Repository::discover(&absolute).map_err(|_| no_repository())?;
        let workdir = repo
            .workdir()
            .and_then(|w| w.canonicalize().ok())
            .ok_or_else(no_repository)?;
        let within = absolute
            .strip_prefix(&workdir)
            .map_err(|_| GitError::Outside(folder.to_owned()))?;
        let mut prefix = within.as_os_str().as_bytes().to_vec();
        if !prefix.is_empty() {
            prefix.push(b'/');
        }
        let mut histories = Histories::read(repo, prefix)?;
        let shared = &histories.shared;
        let mut held = Vec::new();
        for (key, log) in &histories.logs {
            let mut game = false;
            for blob in &log.blobs {
                if crate::log::may_be_a_game_file(shared.repo.find_blob(*blob)?.content()) {
                    game = true;
                    break;
                }
            }
            if game {
                let relative = OsStr::from_bytes(&key[shared.prefix.len()..]);
                let path = if folder == Path::new(".") {
                    PathBuf::from(relative)
                } else {
                    folder.join(relative)
                };
                held.push(Held {
                    path,
                    key: key.clone(),
                });
            }
        }
        histories.held = held;
        Ok(histories)
    }

    /// The walk of the first-parent line from `HEAD`: every path under `prefix` that any of
    /// its commits changed, with the versions [`History::of`] would find for it.
    fn read(repo: Repository, prefix: Vec<u8>) -> Result<Histories, GitError> {
        // As History::of: the audit checks every byte it reads against the signatures.
        git2::opts::strict_hash_verification(false);
        // The walk reads each tree once and keeps what the next commit needs (`Trees`), and
        // each file's versions are read once: libgit2's cache of objects would only hold the
        // whole history's trees, at 10,000 games five times the memory and a tenth more time.
        git2::opts::enable_caching(false);
        let (branch, walk) = first_parent_line(&repo)?;
        let mut logs: BTreeMap<Vec<u8>, Log> = BTreeMap::new();
        let mut place = HashMap::new();
        // The tree of the commit walked before (not its first parent: a graft may differ).
        let mut previous: Option<Oid> = None;
        let mut trees = Trees::new(&repo);
        let mut merges = false;
        for id in walk {
            let id = id?;
            let at = place.len();
            place.insert(id, at);
            let commit = repo.find_commit(id)?;
            let tree = commit.tree_id();
            // Each path the commit changed, and for a merge what its other parents held there.
            let mut touched: BTreeMap<Vec<u8>, Vec<(Oid, Oid)>> = BTreeMap::new();
            for (path, (before, after)) in changes_in(&mut trees, previous, Some(tree), &prefix)? {
                let log = logs.entry(path.clone()).or_default();
                if let Some((blob, mode)) = after
                    && regular(mode)
                {
                    log.blobs.insert(blob);
                }
                log.now = after.map(|(id, _)| id);
                // A change of mode alone is not a version.
                if before.map(|(id, _)| id) != log.now {
                    touched.entry(path).or_default();
                }
            }
            for parent in commit.parents().skip(1) {
                merges = true;
                let theirs = changes_in(&mut trees, Some(parent.tree_id()), Some(tree), &prefix)?;
                for (path, (theirs, ours)) in theirs {
                    if let Some((theirs, _)) = theirs
                        && Some(theirs) != ours.map(|(id, _)| id)
                    {
                        touched.entry(path).or_default().push((parent.id(), theirs));
                    }
                }
            }
            if !touched.is_empty() {
                record(&commit, at, touched, &mut logs);
            }
            previous = Some(tree);
            trees.turn();
        }
        drop(trees);
        let shared = Shared {
            git_dir: repo.path().canonicalize().ok(),
            repo,
            branch,
            prefix,
            place,
            merges,
            steps: OnceCell::new(),
            rewinds: OnceCell::new(),
            boundaries: OnceCell::new(),
        };
        Ok(Histories {
            shared: Rc::new(shared),
            logs,
            held: Vec::new(),
            folders: RefCell::new(HashMap::new()),
        })
    }

    /// The game files, sorted by their paths' bytes.
    #[must_use]
    pub fn held(&self) -> &[Held] {
        &self.held
    }

    /// `held`'s history; `None` when [`History::of`] would read another file or repository
    /// for its path (a symbolic link in the working copy on the way, another repository in the
    /// folder), which the caller then reads alone.
    ///
    /// # Errors
    /// When git cannot read the repository that holds the file.
    pub fn history(&self, held: &Held) -> Result<Option<History>, GitError> {
        let placed = self.placed(&held.path)?;
        if placed.is_none_or(|relative| relative.as_os_str().as_bytes() != held.key.as_slice()) {
            return Ok(None);
        }
        let log = self.logs.get(&held.key);
        let versions = log.map(|l| l.versions.clone()).unwrap_or_default();
        let part = Part {
            shared: Rc::clone(&self.shared),
            key: held.key.clone(),
            places: log.map(|l| l.places.clone()).unwrap_or_default(),
            blobs: versions.iter().map(|v| (v.commit, v.blob)).collect(),
        };
        let branch = self.shared.branch.clone();
        Ok(Some(History::part(Box::new(part), branch, versions)))
    }
}

impl Histories {
    /// Where `path` lies in the walked repository's tree, as [`History::of`] would find it
    /// (through a symbolic link, at its target); `None` in another repository or none.
    /// Finding the repository costs a discovery, so a folder's answer serves the files in it
    /// that are not links: they lie where it lies.
    fn placed(&self, path: &Path) -> Result<Option<PathBuf>, GitError> {
        let link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
        let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
        let (Some(folder), Some(name), false) = (folder, path.file_name(), link) else {
            return self.locate(path);
        };
        if !folder.is_dir() {
            return self.locate(path);
        }
        if let Some(found) = self.folders.borrow().get(folder) {
            return Ok(found.as_ref().map(|f| f.join(name)));
        }
        let found = self.locate(path)?;
        let there = found.as_ref().and_then(|f| f.parent()).map(Path::to_owned);
        self.folders.borrow_mut().insert(folder.to_owned(), there);
        Ok(found)
    }

    /// [`locate`], when it finds the walked repository.
    fn locate(&self, path: &Path) -> Result<Option<PathBuf>, GitError> {
        let Some((repo, relative)) = locate(path)? else {
            return Ok(None);
        };
        let ours =
            self.shared.git_dir.is_some() && repo.path().canonicalize().ok() == self.shared.git_dir;
        Ok(ours.then_some(relative))
    }
}

/// Adds a version made by `commit`, at `at` on the line, to the log of each path it touched,
/// with what the merge's other parents held there.
fn record(
    commit: &git2::Commit<'_>,
    at: usize,
    touched: BTreeMap<Vec<u8>, Vec<(Oid, Oid)>>,
    logs: &mut BTreeMap<Vec<u8>, Log>,
) {
    let author = commit.author();
    let lossy = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let (name, email) = (lossy(author.name_bytes()), lossy(author.email_bytes()));
    let summary = lossy(commit.summary_bytes().unwrap_or_default());
    for (path, merged) in touched {
        let log = logs.entry(path).or_default();
        log.versions.push(Version {
            commit: commit.id(),
            author: name.clone(),
            email: email.clone(),
            time: author.when().seconds(),
            offset_minutes: author.when().offset_minutes(),
            summary: summary.clone(),
            blob: log.now,
            merged,
        });
        log.places.push(at);
    }
}

/// Every game file that the first-parent line from `HEAD` holds or ever held under `folder`,
/// as paths under it, sorted: [`Histories::of_folder`]'s files.
///
/// # Errors
/// As [`Histories::of_folder`].
pub fn game_files_held(folder: &Path) -> Result<Vec<PathBuf>, GitError> {
    Ok(Histories::of_folder(folder)?
        .held
        .into_iter()
        .map(|h| h.path)
        .collect())
}

impl FolderPart for Part {
    fn repo(&self) -> &Repository {
        &self.shared.repo
    }

    /// As [`History::side_steps`].
    fn side_steps(&self) -> Result<Vec<Step>, GitError> {
        Ok(self
            .shared
            .steps()?
            .get(&self.key)
            .cloned()
            .unwrap_or_default())
    }

    /// As [`History::rewinds`].
    fn rewinds(&self) -> Result<Vec<Rewind>, GitError> {
        Ok(self
            .shared
            .rewinds()?
            .get(&self.key)
            .cloned()
            .unwrap_or_default())
    }

    /// As [`History::boundaries`].
    fn boundaries(&self) -> Result<Vec<Boundary>, GitError> {
        Ok(self
            .shared
            .boundaries()?
            .iter()
            .map(|(commit, cut, files)| Boundary {
                commit: *commit,
                cut: *cut,
                blob: files
                    .get(&self.key)
                    .and_then(|(_, now)| *now)
                    .map(|(id, _)| id),
            })
            .collect())
    }

    /// As [`History::writer`], stepping from version to version on the line rather than
    /// from commit to commit.
    fn writer(&self, tip: Oid, prefix: &[u8]) -> Result<Option<Oid>, GitError> {
        let repo = &self.shared.repo;
        let holds = |blob: Option<Oid>| -> Result<bool, GitError> {
            Ok(match blob {
                Some(b) => repo.find_blob(b)?.content().starts_with(prefix),
                None => false,
            })
        };
        let relative = Path::new(OsStr::from_bytes(&self.key));
        let mut found = None;
        let mut commit = Some(repo.find_commit(tip)?);
        while let Some(c) = commit {
            if let Some(&at) = self.shared.place.get(&c.id()) {
                // On the line the file changes only at its versions: between two, it holds
                // the older's.
                let mut i = self.places.partition_point(|&p| p <= at);
                while i > 0 && holds(self.blobs[i - 1].1)? {
                    found = Some(self.blobs[i - 1].0);
                    i -= 1;
                }
                return Ok(found);
            }
            // Off the line (a rewound tip, a side branch): commit by commit, as alone.
            if !holds(file_at(&c, relative)?)? {
                break;
            }
            found = Some(c.id());
            commit = c.parents().next();
        }
        Ok(found)
    }
}
impl Shared {
    // `OnceCell::get_or_try_init` is unstable: each computes, then stores. An error stores
    // nothing, and it ends the command anyway.

    /// Every step off the line, by path: [`History::side_steps`] for all files at once.
    fn steps(&self) -> Result<&BTreeMap<Vec<u8>, Vec<Step>>, GitError> {
        if let Some(steps) = self.steps.get() {
            return Ok(steps);
        }
        let repo = &self.repo;
        let mut steps: BTreeMap<Vec<u8>, Vec<Step>> = BTreeMap::new();
        if !self.merges {
            return Ok(self.steps.get_or_init(|| steps));
        }
        let mut walk = repo.revwalk()?;
        walk.push_head()?;
        walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::REVERSE)?;
        for id in walk {
            let id = id?;
            if self.place.contains_key(&id) {
                continue;
            }
            let commit = repo.find_commit(id)?;
            for parent in commit.parents() {
                let changes = changes_in(
                    &mut Trees::new(repo),
                    Some(parent.tree_id()),
                    Some(commit.tree_id()),
                    &self.prefix,
                )?;
                for (path, (before, after)) in changes {
                    let (Some((before, _)), after) = (before, after.map(|(id, _)| id)) else {
                        continue;
                    };
                    if after != Some(before) {
                        steps.entry(path).or_default().push(Step {
                            parent: parent.id(),
                            child: id,
                            before,
                            after,
                        });
                    }
                }
            }
        }
        Ok(self.steps.get_or_init(|| steps))
    }

    /// Every rewind, by path: [`History::rewinds`] for all files at once.
    fn rewinds(&self) -> Result<&BTreeMap<Vec<u8>, Vec<Rewind>>, GitError> {
        if let Some(rewinds) = self.rewinds.get() {
            return Ok(rewinds);
        }
        let repo = &self.repo;
        let mut found: BTreeMap<Vec<u8>, Vec<Rewind>> = BTreeMap::new();
        for (reference, moves) in moves(repo) {
            for Move { from, to, message } in moves {
                let (Ok(old), Ok(new)) = (repo.find_commit(from), repo.find_commit(to)) else {
                    continue;
                };
                let changes = changes_in(
                    &mut Trees::new(repo),
                    Some(old.tree_id()),
                    Some(new.tree_id()),
                    &self.prefix,
                )?;
                for (path, (before, after)) in changes {
                    let Some((from_blob, _)) = before else {
                        continue;
                    };
                    let to_blob = after.map(|(id, _)| id);
                    if to_blob != Some(from_blob) {
                        found.entry(path).or_default().push(Rewind {
                            reference: reference.clone(),
                            from,
                            to,
                            message: message.clone(),
                            from_blob,
                            to_blob,
                        });
                    }
                }
            }
        }
        Ok(self.rewinds.get_or_init(|| found))
    }

    /// Every cut, with what the folder holds there: [`History::boundaries`] for all files.
    fn boundaries(&self) -> Result<&[Cutting], GitError> {
        if let Some(boundaries) = self.boundaries.get() {
            return Ok(boundaries);
        }
        let repo = &self.repo;
        let mut found = Vec::new();
        for (commit, cut, met) in cuts(repo)? {
            let files = match repo.find_commit(commit) {
                Ok(c) => changes_in(&mut Trees::new(repo), None, Some(c.tree_id()), &self.prefix)?,
                Err(e) if met => return Err(e.into()),
                Err(_) => BTreeMap::new(),
            };
            found.push((commit, cut, files));
        }
        Ok(self.boundaries.get_or_init(|| found))
    }
}
