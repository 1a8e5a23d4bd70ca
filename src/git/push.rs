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
    /// Each game file whose bytes the update changes in any pushed commit, by path.
    pub files: Vec<FileUpdate>,
}

/// A game file in a commit: its path, as git stores it, and its bytes.
pub type GameFileAt = (Vec<u8>, Vec<u8>);

/// One game file's versions in an update.
#[derive(Clone, Debug)]
pub struct FileUpdate {
    /// Its path in the tree, as git stores it.
    pub path: Vec<u8>,
    /// The file in the old commit (`None`: not there).
    pub before: Option<Vec<u8>>,
    /// The file in the new commit (`None`: not there).
    pub after: Option<Vec<u8>>,
    /// The other pushed commits whose version differs from both, oldest first, with that
    /// version (`None`: not there).
    pub between: Vec<(Oid, Option<Vec<u8>>)>,
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

    /// What updating a reference from `old` to `new` does to its game files (`None`: the
    /// reference is made, or deleted).
    ///
    /// # Errors
    /// When git cannot read a commit or a blob.
    /// A branch made (`old` absent) is compared with where it leaves the repository's
    /// history: the newest commit it shares with the branch `HEAD` names (or, failing that,
    /// with another), whose games the referee has judged already.
    pub fn update(&self, old: Option<Oid>, new: Option<Oid>) -> Result<Update, GitError> {
        let held_before = match old {
            Some(id) => self.candidates(&self.repo.find_commit(id)?.tree()?)?,
            None => BTreeMap::new(),
        };
        let base = match (old, new) {
            (None, Some(new)) => self.base_of(new)?,
            _ => old,
        };
        let before = match base {
            Some(id) => self.candidates(&self.repo.find_commit(id)?.tree()?)?,
            None => BTreeMap::new(),
        };
        let after = match new {
            Some(id) => self.candidates(&self.repo.find_commit(id)?.tree()?)?,
            None => BTreeMap::new(),
        };
        let fast_forward = match (old, new) {
            (Some(old), Some(new)) => old == new || self.repo.graph_descendant_of(new, old)?,
            _ => true,
        };
        let mut between: Vec<(Oid, BTreeMap<Vec<u8>, Oid>)> = Vec::new();
        if let Some(new) = new {
            let mut walk = self.repo.revwalk()?;
            walk.set_sorting(Sort::TOPOLOGICAL | Sort::REVERSE)?;
            walk.push(new)?;
            if let Some(base) = base {
                walk.hide(base)?;
            }
            for id in walk {
                let id = id?;
                if id != new {
                    let tree = self.repo.find_commit(id)?.tree()?;
                    between.push((id, self.candidates(&tree)?));
                }
            }
        }
        let mut paths: Vec<&Vec<u8>> = before.keys().chain(after.keys()).collect();
        paths.extend(between.iter().flat_map(|(_, files)| files.keys()));
        paths.sort();
        paths.dedup();
        let mut files = Vec::new();
        let mut held = 0;
        for path in paths {
            let (was, is) = (before.get(path).copied(), after.get(path).copied());
            let others: Vec<(Oid, Option<Oid>)> = between
                .iter()
                .map(|(commit, files)| (*commit, files.get(path).copied()))
                .filter(|(_, blob)| *blob != was && *blob != is)
                .collect();
            let update = FileUpdate {
                path: path.clone(),
                before: was.map(|b| self.blob(b)).transpose()?,
                after: is.map(|b| self.blob(b)).transpose()?,
                between: others
                    .iter()
                    .map(|(commit, blob)| Ok((*commit, blob.map(|b| self.blob(b)).transpose()?)))
                    .collect::<Result<_, GitError>>()?,
            };
            let versions = [&update.before, &update.after]
                .into_iter()
                .chain(update.between.iter().map(|(_, v)| v));
            let game = versions
                .flatten()
                .any(|bytes| crate::log::may_be_a_game_file(bytes));
            if !game {
                continue;
            }
            if held_before.contains_key(path)
                && update
                    .before
                    .as_deref()
                    .is_some_and(crate::log::may_be_a_game_file)
            {
                held += 1;
            }
            if was != is || !update.between.is_empty() {
                files.push(update);
            }
        }
        Ok(Update {
            fast_forward,
            held,
            files,
        })
    }

    /// Where a new branch leaves the history the repository holds: the newest commit it
    /// shares with the branch `HEAD` names, else with the first other branch that shares one.
    fn base_of(&self, new: Oid) -> Result<Option<Oid>, GitError> {
        let head = self
            .repo
            .find_reference("HEAD")
            .ok()
            .and_then(|h| h.resolve().ok())
            .and_then(|r| r.target());
        let tips = head
            .into_iter()
            .chain(self.branches()?.into_iter().map(|(_, id)| id));
        for tip in tips {
            match self.repo.merge_base(new, tip) {
                Ok(base) => return Ok(Some(base)),
                Err(e) if e.code() == git2::ErrorCode::NotFound => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(None)
    }

    /// The game files a commit holds, by path.
    ///
    /// # Errors
    /// When git cannot read the commit or a blob.
    pub fn game_files(&self, commit: Oid) -> Result<Vec<GameFileAt>, GitError> {
        let tree = self.repo.find_commit(commit)?.tree()?;
        let mut files = Vec::new();
        for (path, blob) in self.candidates(&tree)? {
            let bytes = self.blob(blob)?;
            if crate::log::may_be_a_game_file(&bytes) {
                files.push((path, bytes));
            }
        }
        Ok(files)
    }

    fn candidates(&self, tree: &Tree<'_>) -> Result<BTreeMap<Vec<u8>, Oid>, GitError> {
        yaml_blobs(&self.repo, tree)
    }

    /// A blob's bytes, up to one more than a game file may hold: a larger file is refused as
    /// such without being read whole.
    fn blob(&self, id: Oid) -> Result<Vec<u8>, GitError> {
        let blob = self.repo.find_blob(id)?;
        let limit = usize::try_from(crate::log::MAX_FILE_SIZE).unwrap_or(usize::MAX);
        let content = blob.content();
        Ok(content[..content.len().min(limit.saturating_add(1))].to_vec())
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
