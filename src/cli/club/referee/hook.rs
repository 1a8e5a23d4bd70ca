//! `correspond referee hook`: the `pre-receive` hook. It takes the referee's lock, brings the
//! index up to the branches where it is not, judges each branch update of the push against the
//! repository as it will be (the index, with what the push's earlier updates bring), and says
//! on git's `remote:` lines what it took and what it refused.

use super::lock::{self, Push};
use super::{CliError, open, read_updates, short, shown, shown_ref};
use crate::cli::Out;
use crate::cli::shared::error::ExitStatus;
use correspond::digest::Digest;
use correspond::git::{Attributes, Blob, FileUpdate, GitError, Oid, Receiving};
use correspond::log::{Refereed, Timestamp};
use correspond::referee::{
    Accepted, Entry, Index, Place, Pushed, Refusal, Taken, Terms, Versions, converting, dropped,
    judge_between, judge_branch, judge_claim, judge_file, judge_tournament,
};
use correspond::tournament::event::Event;
use correspond::tournament::file::TOURNAMENT_FILE_NAME;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

/// The most branches one push may update: each costs a walk of the branches it may grow from.
const MAX_BRANCHES: usize = 100;

/// The most lines the hook shows: the rest are counted.
const MAX_LINES: usize = 200;

/// The repository setting that pins the referee's clock, for tests.
const PINNED_CLOCK: &str = "correspond.refereeTime";

/// What the referee took of a file: a game's records, or a tournament file's.
enum Judged {
    Game(Accepted),
    Tournament(Accepted<Event>),
}

/// A push's judgement so far: the game lines its updates taken so far bring (over the index's),
/// and what each update will have the index take.
struct Judging<'a> {
    receiving: &'a Receiving,
    index: &'a Index,
    branches: Vec<(Vec<u8>, Oid)>,
    terms: Terms,
    brought: BTreeMap<Digest, Entry>,
    taken: Vec<Taken>,
}

pub(super) fn run(max_skew: u32, wait: u32, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    // git runs the hook in the repository, and names it (and the push's quarantined objects).
    let git_dir = std::env::var_os("GIT_DIR").map_or_else(|| PathBuf::from("."), PathBuf::from);
    let quarantine = std::env::var_os("GIT_QUARANTINE_PATH").map(PathBuf::from);
    let receiving = open(&git_dir, quarantine.as_deref())?;
    let now = clock(&receiving, out)?;
    let terms = Terms {
        now,
        max_skew: u64::from(max_skew) * 60,
    };
    let updates = read_updates(&mut std::io::stdin().lock())?;
    let updates: Vec<_> = updates
        .into_iter()
        .filter(|(_, _, name)| name.starts_with(b"refs/heads/"))
        .collect();
    if updates.is_empty() {
        return Ok(ExitStatus::Success);
    }
    if updates.len() > MAX_BRANCHES {
        writeln!(
            out,
            "correspond referee: refused: this push updates {} branches; the referee judges at \
             most {MAX_BRANCHES} in one push: push them in parts",
            updates.len()
        )?;
        return Ok(ExitStatus::Rejected);
    }
    let index = Index::of(receiving.path());
    // Run by git for a push (which quarantines what it brings), the lock is kept until git has
    // made the push's updates; run by hand, it is released when the judgement is done.
    let push = Push::this().filter(|_| quarantine.is_some());
    let holder = push.unwrap_or_else(Push::me);
    let lock = lock::take(
        &index,
        holder,
        Duration::from_secs(u64::from(wait)),
        &|branch, new| {
            let tip = receiving
                .branches()
                .ok()
                .and_then(|b| b.into_iter().find(|(name, _)| name == branch));
            tip.map(|(_, commit)| commit.to_string()).as_deref() == new
        },
        out,
    )?;
    // What the judgement says is kept until the lock is left: a client that reads slowly, or
    // not at all, must not hold the club's pushes up.
    let mut said = Vec::new();
    let (refused, taken) = judge(
        &receiving,
        &index,
        terms,
        &updates,
        &mut Out::new(&mut said, false),
    )?;
    if refused == 0 && push.is_some() {
        lock.keep(taken)?;
    } else {
        drop(lock);
    }
    let lines: Vec<&[u8]> = said
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    for line in lines.iter().take(MAX_LINES) {
        out.write_all(line)?;
        out.write_all(b"\n")?;
    }
    if lines.len() > MAX_LINES {
        writeln!(
            out,
            "correspond referee: ... and {} lines more",
            lines.len() - MAX_LINES
        )?;
    }
    if refused == 0 {
        return Ok(ExitStatus::Success);
    }
    writeln!(
        out,
        "correspond referee: push refused ({refused} {}); nothing was changed",
        if refused == 1 { "problem" } else { "problems" }
    )?;
    Ok(ExitStatus::Rejected)
}

/// Judges a push's branch updates under the lock: how many problems, and what the index is to
/// take of each update once git makes it.
fn judge(
    receiving: &Receiving,
    index: &Index,
    terms: Terms,
    updates: &[super::BranchUpdate],
    out: &mut Out<'_>,
) -> Result<(usize, Vec<Taken>), CliError> {
    let branches = receiving.branches().map_err(unreadable)?;
    super::bring_up_to_date(receiving, index, &branches, out)?;
    let mut judging = Judging {
        receiving,
        index,
        branches,
        terms,
        brought: BTreeMap::new(),
        taken: Vec::new(),
    };
    let mut refused = 0;
    for (old, new, branch) in updates {
        refused += judging.update(branch, (*old, *new), out)?;
    }
    Ok((refused, judging.taken))
}

/// The referee's clock: the system's, or the one pinned for tests, which the first line says.
fn clock(receiving: &Receiving, out: &mut Out<'_>) -> Result<u64, CliError> {
    let Some(pinned) = receiving.local_setting(PINNED_CLOCK) else {
        return Ok(std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()));
    };
    let time = Timestamp::parse(&pinned).ok_or_else(|| {
        CliError::usage(format!(
            "{PINNED_CLOCK} is `{}`, not a time like 2026-01-31T18:05:00Z",
            correspond::text::shown(&pinned)
        ))
    })?;
    writeln!(
        out,
        "correspond referee: the clock is pinned to {} by {PINNED_CLOCK}, which is for tests \
         only",
        time.as_str()
    )?;
    Ok(time.to_unix())
}

impl Judging<'_> {
    /// Judges one branch's update, saying what was taken and what refused; the number refused.
    fn update(
        &mut self,
        branch: &[u8],
        (old, new): (Option<Oid>, Option<Oid>),
        out: &mut Out<'_>,
    ) -> Result<usize, CliError> {
        let name = shown_ref(branch);
        let unreadable =
            |e: GitError| CliError::usage(format!("cannot read the push to {name}: {e}"));
        let update = self
            .receiving
            .update(branch, (old, new), &self.branches)
            .map_err(unreadable)?;
        if new.is_none() || !update.fast_forward {
            let held = match old {
                Some(old) => self
                    .receiving
                    .refereed_files(old)
                    .map_err(unreadable)?
                    .len(),
                None => 0,
            };
            if let Err(refusal) = judge_branch(new.is_none(), update.fast_forward, held) {
                writeln!(out, "correspond referee: refused {name}: {refusal}")?;
                return Ok(1);
            }
        }
        let mut refused = 0;
        let mut refuse = |out: &mut Out<'_>, path: &[u8], refusal: &Refusal| {
            refused += 1;
            writeln!(
                out,
                "correspond referee: refused {name}: {}: {}",
                shown(path),
                correspond::text::escape(&refusal.to_string())
            )
        };
        for link in &update.links {
            let refusal = Refusal::Link {
                submodule: link.submodule,
                replaces: link.replaces,
                commit: link.commit.map(short),
            };
            refuse(out, &link.path, &refusal)?;
        }
        for attributes in &update.attributes {
            if let Some(refusal) = self.attributes(attributes)? {
                refuse(out, &attributes.path, &refusal)?;
            }
        }
        let mut games = Vec::new();
        for file in &update.files {
            let judged = match file.kind {
                Refereed::Game => self.judge_file(branch, new, file, out)?.map(Judged::Game),
                Refereed::Tournament => self.judge_tournament(file)?.map(Judged::Tournament),
            };
            let (added, status) = match judged {
                Ok(Judged::Game(accepted)) => {
                    let status = accepted.summary.status.clone();
                    games.push((file.path.clone(), accepted.digests));
                    (accepted.added, status)
                }
                Ok(Judged::Tournament(accepted)) => (accepted.added, accepted.summary.stage()),
                Err(refusal) => {
                    refuse(out, &file.path, &refusal)?;
                    continue;
                }
            };
            writeln!(
                out,
                "correspond referee: {name}: {}: {}; {}",
                shown(&file.path),
                taken(file.kind, &added),
                correspond::text::escape(&status)
            )?;
        }
        self.taken.push(Taken {
            branch: branch.to_vec(),
            old: old.map(|o| o.to_string()),
            new: new.map(|n| n.to_string()),
            games,
        });
        Ok(refused)
    }

    /// Judges a version of a `.gitattributes` file: it must be a file the referee can read,
    /// set nothing that changes bytes on checkout, and keep every line of the branch's version
    /// that keeps them.
    fn attributes(&self, found: &Attributes) -> Result<Option<Refusal>, CliError> {
        let commit = found.commit.map(short);
        let unread = |what: String| {
            Some(Refusal::AttributesUnread {
                what,
                commit: commit.clone(),
            })
        };
        if found.link {
            return Ok(unread("a symbolic link or a submodule".to_owned()));
        }
        let read = |blob: Option<Oid>| -> Result<Option<Blob>, CliError> {
            blob.map(|b| self.receiving.read(b))
                .transpose()
                .map_err(unreadable)
        };
        let after = match read(found.blob)? {
            Some(Blob::TooLarge(size)) => return Ok(unread(format!("{size} bytes"))),
            Some(Blob::Bytes(bytes)) => Some(bytes),
            None => None,
        };
        if let Some(converting) = after.as_deref().and_then(converting) {
            return Ok(Some(Refusal::Attributes {
                found: converting,
                commit,
            }));
        }
        let Some(Blob::Bytes(before)) = read(found.before)? else {
            return Ok(None);
        };
        Ok(
            dropped(&before, after.as_deref()).map(|(line, text)| Refusal::AttributesDropped {
                line,
                text,
                commit,
            }),
        )
    }

    /// What the push brings of a game joins its line (`known`, as the file was judged against
    /// it), for the updates judged after.
    fn bring(&mut self, place: Place, digests: &[Digest], known: Option<Entry>) {
        let Some(game) = digests.first() else {
            return;
        };
        let mut entry = known.unwrap_or_else(|| Entry::new(digests, place.clone()));
        entry.take(digests, place);
        self.brought.insert(*game, entry);
    }

    /// The game's line: what this push brought of it, else the index's, read again from its
    /// copies when it parts from `digests` (the index is never believed over the objects). An
    /// index that cannot read the game's entry, or that lacks a game the branch held (`held`),
    /// is built again first.
    fn line(
        &self,
        digests: &[Digest],
        held: bool,
        out: &mut Out<'_>,
    ) -> Result<Option<Entry>, CliError> {
        let Some(game) = digests.first() else {
            return Ok(None);
        };
        if let Some(entry) = self.brought.get(game) {
            return Ok(Some(entry.clone()));
        }
        let why = match self.index.entry(game) {
            Ok(Some(entry)) if entry.parts(digests).is_none() => return Ok(Some(entry)),
            Ok(Some(entry)) => return self.read_again(&entry).map_err(unreadable),
            Ok(None) if !held => return Ok(None),
            Ok(None) => "missing a game that the branch holds",
            Err(_) => "damaged",
        };
        super::rebuild(self.receiving, self.index, &self.branches, why, out)?;
        match self.index.entry(game) {
            Ok(Some(entry)) if entry.parts(digests).is_some() => {
                self.read_again(&entry).map_err(unreadable)
            }
            Ok(entry) => Ok(entry),
            Err(e) => Err(CliError::usage(format!("the referee's index: {e}"))),
        }
    }

    /// A game's line read again from the copies the index names: what they hold is the truth,
    /// and the index is mended to it.
    fn read_again(&self, entry: &Entry) -> Result<Option<Entry>, GitError> {
        let game = entry.digests.first();
        let mut read: Option<Entry> = None;
        for (branch, path) in entry.copies.keys() {
            let Some((_, tip)) = self.branches.iter().find(|(name, _)| name == branch) else {
                continue;
            };
            let Some(blob) = self.receiving.file_at(*tip, path)? else {
                continue;
            };
            let Blob::Bytes(bytes) = self.receiving.read(blob)? else {
                continue;
            };
            let Some(copy) = correspond::referee::digests(&bytes) else {
                continue;
            };
            let place = (branch.clone(), path.clone());
            match &mut read {
                None if copy.first() == game => read = Some(Entry::new(&copy, place)),
                Some(line) if line.parts(&copy).is_none() => line.take(&copy, place),
                _ => {}
            }
        }
        if let Some(line) = &read
            && line != entry
        {
            let _ = self.index.put(line);
        }
        Ok(read)
    }

    /// A file's version as a blob: its bytes (`None`: not there), or the refusal of one too
    /// large to read.
    fn read(&self, blob: Option<Oid>) -> Result<Result<Option<Vec<u8>>, u64>, CliError> {
        match blob.map(|b| self.receiving.read(b)).transpose() {
            Ok(Some(Blob::TooLarge(size))) => Ok(Err(size)),
            Ok(Some(Blob::Bytes(bytes))) => Ok(Ok(Some(bytes))),
            Ok(None) => Ok(Ok(None)),
            Err(e) => Err(unreadable(e)),
        }
    }

    /// Reads one game file's versions and judges them: the new version against the game's line
    /// and the branch's version, then each pushed commit's version against it, one at a time,
    /// and a new game that names an event against the event's folder in the pushed tree
    /// (`new`). What it accepts joins the game's line for the rest of the push.
    fn judge_file(
        &mut self,
        branch: &[u8],
        new: Option<Oid>,
        file: &FileUpdate,
        out: &mut Out<'_>,
    ) -> Result<Result<Accepted, Refusal>, CliError> {
        let after = match self.read(file.after)? {
            Err(size) => return Ok(Err(Refusal::TooLarge { size, commit: None })),
            Ok(bytes) => bytes.map(Pushed::read),
        };
        let before = self.read(file.before)?.unwrap_or_default();
        let digests = after.as_ref().map(Pushed::digests).unwrap_or_default();
        let known = self.line(digests, before.is_some(), out)?;
        let versions = Versions {
            before: before.as_deref(),
            known: known.as_ref(),
            after: after.as_ref(),
        };
        let accepted = match judge_file(&versions, self.terms) {
            Ok(accepted) => accepted,
            Err(refusal) => return Ok(Err(refusal)),
        };
        let pushed = after.as_ref();
        if let Err(refusal) = self.between(&accepted, pushed.map(Pushed::bytes), file)? {
            return Ok(Err(refusal));
        }
        // A game's header never changes: where it first lies, it is held to the event it names.
        if let (None, Some(new), Some(game)) = (file.before, new, pushed.and_then(Pushed::file))
            && let Err(refusal) = self.claim(new, &file.path, game)?
        {
            return Ok(Err(refusal));
        }
        self.bring(
            (branch.to_vec(), file.path.clone()),
            &accepted.digests,
            known,
        );
        Ok(Ok(accepted))
    }

    /// Reads one tournament file's versions and judges them, as a game file's.
    fn judge_tournament(
        &self,
        file: &FileUpdate,
    ) -> Result<Result<Accepted<Event>, Refusal>, CliError> {
        let after = match self.read(file.after)? {
            Err(size) => return Ok(Err(Refusal::TooLarge { size, commit: None })),
            Ok(bytes) => bytes,
        };
        let before = self.read(file.before)?.unwrap_or_default();
        let accepted = match judge_tournament(before.as_deref(), after.as_deref(), self.terms) {
            Ok(accepted) => accepted,
            Err(refusal) => return Ok(Err(refusal)),
        };
        Ok(self
            .between(&accepted, after.as_deref(), file)?
            .map(|()| accepted))
    }

    /// Judges each pushed commit's version of a file against the version accepted (`after`).
    fn between<S>(
        &self,
        accepted: &Accepted<S>,
        after: Option<&[u8]>,
        file: &FileUpdate,
    ) -> Result<Result<(), Refusal>, CliError> {
        for between in &file.between {
            let commit = short(between.commit);
            let version = match self.read(between.blob)? {
                Err(size) => {
                    return Ok(Err(Refusal::TooLarge {
                        size,
                        commit: Some(commit),
                    }));
                }
                Ok(bytes) => bytes,
            };
            let judged = judge_between(
                accepted,
                after.unwrap_or_default(),
                &commit,
                version.as_deref(),
                between.parent_held,
            );
            if judged.is_err() {
                return Ok(judged);
            }
        }
        Ok(Ok(()))
    }

    /// Judges a new game at `path` of the pushed commit `new` that may name an event: read
    /// only when it does, with the tournament file and the other files of its folder.
    fn claim(
        &self,
        new: Oid,
        path: &[u8],
        game: &correspond::log::GameFile,
    ) -> Result<Result<(), Refusal>, CliError> {
        if correspond::tournament::pairing::claimed(game.header()).is_none() {
            return Ok(Ok(()));
        }
        let folder = path
            .iter()
            .rposition(|&b| b == b'/')
            .map_or(&path[..0], |slash| &path[..slash]);
        let tournament_path = match folder {
            [] => TOURNAMENT_FILE_NAME.as_bytes().to_vec(),
            _ => [folder, b"/", TOURNAMENT_FILE_NAME.as_bytes()].concat(),
        };
        let (mut tournament, mut beside) = (None, Vec::new());
        for (at, blob) in self
            .receiving
            .folder_files(new, folder)
            .map_err(unreadable)?
        {
            // One too large to read is no game, and refused on its own.
            let Ok(Some(bytes)) = self.read(Some(blob))? else {
                continue;
            };
            if at == tournament_path {
                tournament = Some(bytes);
            } else if at != path {
                beside.push((at, bytes));
            }
        }
        Ok(judge_claim(
            game.header(),
            game.game_id(),
            tournament.as_deref(),
            &beside,
        ))
    }
}

fn unreadable(e: GitError) -> CliError {
    CliError::usage(format!("cannot read the repository: {e}"))
}

fn taken(kind: Refereed, added: &std::ops::Range<usize>) -> String {
    match (added.start, added.len()) {
        (_, 0) => "nothing added".to_owned(),
        (0, _) if kind == Refereed::Tournament => "a new tournament file, verified".to_owned(),
        (0, _) => "a new game, verified".to_owned(),
        (first, 1) => format!("record {first} taken"),
        (first, _) => format!("records {first} to {} taken", added.end - 1),
    }
}
