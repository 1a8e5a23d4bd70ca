//! The referee of a shared repository: the judgment a server-side hook passes on a push before
//! git takes it. A game file on a branch may only grow by records that verify; it may not be
//! deleted, rewritten (not even in a pushed commit whose change a later one undoes), or taken
//! away by a force-push; and each document a push adds must be dated within a few minutes of
//! the referee's clock, so that on such a repository the times the clocks are made from are
//! witnessed, not only said (see docs/referee.md). A tournament file is held to the same
//! discipline, its records checked as the event's ([`judge_tournament`]); and a new game that
//! names an event must be that event's game of a pairing, beside its tournament file, and the
//! only one of that pairing there ([`judge_claim`]).
//!
//! Pure: the versions of a file go in as bytes, with the referee's clock; the judgment comes
//! out. [`crate::git::Receiving`] reads a push's versions from git.

mod attributes;
pub mod index;
mod tournament;

pub use attributes::{Converting, converting, dropped, keeping};
pub use index::{Conflict, Entry, Index, IndexError, Place, Taken};
pub use tournament::{judge_claim, judge_tournament};

use crate::digest::Digest;
use crate::games::AnyReplayer;
use crate::log::{Action, GameFile, LogError, MAX_FILE_SIZE, Refereed, Timestamp};
use crate::replay::{ReplayError, Summary};
use crate::tournament::event::EventError;

/// What the referee holds pushed documents to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terms {
    /// The referee's clock, seconds since the Unix epoch.
    pub now: u64,
    /// How far, in seconds, a pushed document's time may be from `now`, either way.
    pub max_skew: u64,
}

/// One game file's versions in a push.
#[derive(Clone, Copy, Debug)]
pub struct Versions<'a> {
    /// On the branch before the push (`None`: not there, or a branch made).
    pub before: Option<&'a [u8]>,
    /// The game's line of records in the index (any branch, any path), when the repository
    /// holds the game already.
    pub known: Option<&'a Entry>,
    /// As the push leaves it (`None`: not there).
    pub after: Option<&'a Pushed>,
}

/// A pushed version of a game file, read once: its bytes, and its documents with their digests
/// when it reads as a game file (the reason it does not is given where [`judge_file`] comes to
/// it, after the checks against the branch's version).
#[derive(Clone, Debug)]
pub struct Pushed {
    bytes: Vec<u8>,
    read: Result<(GameFile, Vec<Digest>), LogError>,
}

impl Pushed {
    /// Reads a pushed version.
    #[must_use]
    pub fn read(bytes: Vec<u8>) -> Pushed {
        let read = GameFile::parse(&bytes).map(|file| {
            let digests = digests_of(&file);
            (file, digests)
        });
        Pushed { bytes, read }
    }

    /// Its bytes.
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The digests of its documents, in order (the first is the game id); none when it does
    /// not read as a game file.
    #[must_use]
    pub fn digests(&self) -> &[Digest] {
        self.read.as_ref().map_or(&[], |(_, digests)| digests)
    }

    /// The game file, when it reads as one.
    #[must_use]
    pub fn file(&self) -> Option<&GameFile> {
        self.read.as_ref().ok().map(|(file, _)| file)
    }
}

/// Why the referee refuses a push, for a game file or for the branch.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// The branch is deleted, and it holds game files.
    #[error(
        "this deletes a branch that holds {}; a referee keeps every game",
        game_files(*.0)
    )]
    BranchDeleted(usize),
    /// The branch is moved to a commit that does not descend from where it was.
    #[error(
        "this is a force-push to a branch that holds {}, which could take records away; put \
         your commits on top of the branch (git pull) and push again",
        game_files(*.0)
    )]
    ForcePush(usize),
    /// A game or tournament file is deleted (or moved, or renamed), by the push or by a commit
    /// in it.
    #[error(
        "the {} is deleted{}; a referee keeps every {} where it is (never deleted, moved or \
         renamed)",
        file_noun(*.file),
        commit.as_ref().map(|c| format!(" in commit {c}")).unwrap_or_default(),
        file_noun(*.file)
    )]
    Deleted {
        /// What the file is.
        file: Refereed,
        /// The pushed commit that deletes it, when it is not the last.
        commit: Option<String>,
    },
    /// The pushed version changes or drops bytes of the branch's version.
    #[error("this push rewrites the {}: {}", what(*.0), .1)]
    Rewritten(Refereed, LogError),
    /// A pushed commit holds a version that the pushed file does not extend.
    #[error(
        "commit {} holds a version of the {} that the pushed file does not extend (a record \
         changed there and restored later is a rewrite too); push a history that only appends",
        .1,
        what(*.0)
    )]
    Between(Refereed, String),
    /// The pushed version does not verify.
    #[error("{0}")]
    Invalid(ReplayError),
    /// The branch's version does not verify: appending cannot mend it.
    #[error(
        "the version already on the branch does not verify ({0}); records appended to it \
         cannot mend it: start a new game"
    )]
    InvalidBefore(ReplayError),
    /// A pushed tournament file is not a valid event.
    #[error("{0}")]
    EventInvalid(EventError),
    /// The branch's version of a tournament file is not a valid event: appending cannot mend
    /// it.
    #[error(
        "the version already on the branch is not a valid event ({0}); records appended to it \
         cannot mend it: start a new event"
    )]
    EventInvalidBefore(EventError),
    /// A new game that names an event (its `Tournament` tag) but is not its game there: no
    /// tournament file of that event beside it, not exactly the game of the pairing it names,
    /// or a second game for one pairing. The words say which, and what to do.
    #[error("{0}")]
    Pairing(String),
    /// The file is larger than a game file may be.
    #[error(
        "{} bytes{}, larger than the {} bytes a game file may hold",
        .size,
        .commit.as_ref().map(|c| format!(" in commit {c}")).unwrap_or_default(),
        MAX_FILE_SIZE
    )]
    TooLarge {
        /// Its size.
        size: u64,
        /// The pushed commit that holds it, when it is not the last.
        commit: Option<String>,
    },
    /// Another copy of the game (on any branch, at any path) holds another line of it.
    #[error(
        "{at} holds another line of this game, which parts from this one at {}; a game has \
         one line of records in the repository, whatever its copies are called and wherever \
         they lie",
        crate::log::place(Some(*document), *line)
    )]
    Forked {
        /// The other copy, as shown: its path and branch.
        at: String,
        /// The first document where the two differ.
        document: usize,
        /// Its line in the pushed file.
        line: usize,
    },
    /// A pushed document is dated too far from the referee's clock.
    #[error(
        "{}: dated {}, {} {} the referee's clock ({}); a document pushed here must be dated \
         within {} of it",
        crate::log::place(Some(*document), *line),
        time.as_str(),
        minutes(time.to_unix().abs_diff(now.to_unix())),
        if time > now { "ahead of" } else { "behind" },
        now.as_str(),
        minutes(*max_skew)
    )]
    Skew {
        /// The document (0: the header).
        document: usize,
        /// Its line.
        line: usize,
        /// Its time.
        time: Timestamp,
        /// The referee's clock.
        now: Timestamp,
        /// The skew allowed, in seconds.
        max_skew: u64,
    },
    /// A symbolic link or a submodule under a game file's name, or in place of a game file:
    /// `correspond verify NAME` would read what it points at, which no referee judged.
    #[error(
        "{} {}{}; a referee takes a game file only as a file (a link or a submodule under a \
         name ending in .yaml or .yml, or in place of a game, could show another file)",
        if *.submodule { "a submodule" } else { "a symbolic link" },
        if *.replaces { "in place of a game file" } else { "under a game file's name" },
        commit.as_ref().map(|c| format!(" in commit {c}")).unwrap_or_default()
    )]
    Link {
        /// A submodule (a gitlink), not a symbolic link.
        submodule: bool,
        /// Whether it replaces a game file (else it has a game file's name).
        replaces: bool,
        /// The pushed commit that holds it, when it is not the last.
        commit: Option<String>,
    },
    /// A `.gitattributes` line that would change the bytes of files on checkout.
    #[error(
        "line {} (`{}`) sets `{}`, which would make git check files out with other bytes than \
         the ones signed{}; only unsetting text, crlf, eol, filter, ident and \
         working-tree-encoding (`-text`, as `correspond setup-git` writes) is taken here",
        .found.line,
        crate::text::shown(&.found.text),
        crate::text::shown(&.found.attribute),
        commit.as_ref().map(|c| format!(" (commit {c})")).unwrap_or_default()
    )]
    Attributes {
        /// The line.
        found: Converting,
        /// The pushed commit that holds it, when it is not the last.
        commit: Option<String>,
    },
    /// A `.gitattributes` line that keeps files' bytes on checkout is dropped (or the file
    /// deleted): each user's `core.autocrlf` would then decide.
    #[error(
        "drops line {line} (`{}`){}, which keeps files' bytes as they are on checkout; without \
         it, a clone made with core.autocrlf converts them",
        crate::text::shown(.text),
        commit.as_ref().map(|c| format!(" in commit {c}")).unwrap_or_default()
    )]
    AttributesDropped {
        /// The line's number in the branch's version.
        line: usize,
        /// The line.
        text: String,
        /// The pushed commit that drops it, when it is not the last.
        commit: Option<String>,
    },
    /// A `.gitattributes` that is not a plain file the referee can read: a symbolic link or a
    /// submodule (git reads what a link points at), or one too large to read.
    #[error(
        "{}{}; a .gitattributes must be a file of at most {} bytes, which the referee reads",
        .what,
        commit.as_ref().map(|c| format!(" in commit {c}")).unwrap_or_default(),
        MAX_FILE_SIZE
    )]
    AttributesUnread {
        /// What it is.
        what: String,
        /// The pushed commit that holds it, when it is not the last.
        commit: Option<String>,
    },
}

/// A kind of file as a refusal names it.
fn file_noun(kind: Refereed) -> &'static str {
    match kind {
        Refereed::Game => "game file",
        Refereed::Tournament => "tournament file",
    }
}

/// What a refusal says is rewritten.
fn what(kind: Refereed) -> &'static str {
    match kind {
        Refereed::Game => "game",
        Refereed::Tournament => "tournament file",
    }
}

fn game_files(n: usize) -> String {
    match n {
        1 => "1 game file".to_owned(),
        n => format!("{n} game files"),
    }
}

/// `12 minutes`, rounded up: a skew refused is never shown as the skew allowed.
fn minutes(seconds: u64) -> String {
    match seconds.div_ceil(60) {
        1 => "1 minute".to_owned(),
        n => format!("{n} minutes"),
    }
}

/// What the referee found in a file it accepts: a game file ([`Summary`]) or a tournament file
/// ([`Event`]).
#[derive(Clone, Debug)]
pub struct Accepted<S = Summary> {
    /// The documents the push adds, as numbered in the pushed file (0 is the header).
    pub added: std::ops::Range<usize>,
    /// How the game (or the event) stands after the push.
    pub summary: S,
    /// What the file is.
    kind: Refereed,
    /// Where each document of the pushed file ends: a version in a pushed commit must end at
    /// one of them.
    ends: Vec<usize>,
    /// The digests of the pushed file's documents: what the index takes once it lands (a
    /// game's).
    pub digests: Vec<Digest>,
}

/// Whether a branch update may be made at all: not a deletion or a force-push of a branch that
/// holds games (`held`: how many the old commit holds).
///
/// # Errors
/// The refusal.
pub fn judge_branch(deleted: bool, fast_forward: bool, held: usize) -> Result<(), Refusal> {
    match (held, deleted, fast_forward) {
        (0, _, _) => Ok(()),
        (held, true, _) => Err(Refusal::BranchDeleted(held)),
        (held, false, false) => Err(Refusal::ForcePush(held)),
        (_, false, true) => Ok(()),
    }
}

/// Judges one game file's versions in a push. What the repository holds already (this
/// branch's version, or the game's line in the index, on any branch and path) is taken on the
/// referee's earlier word: its signatures were checked when it came (or when the referee was
/// installed), and its rules are replayed again without them, so that a push costs the
/// checking of the documents it adds. The version must be the game's one line, behind or
/// ahead: the caller has read a line that parts from it again from its copies.
///
/// # Errors
/// The first refusal.
pub fn judge_file(versions: &Versions<'_>, terms: Terms) -> Result<Accepted, Refusal> {
    let Some(pushed) = versions.after else {
        return Err(Refusal::Deleted {
            file: Refereed::Game,
            commit: None,
        });
    };
    let after = pushed.bytes();
    let size = after.len() as u64;
    if size > MAX_FILE_SIZE {
        return Err(Refusal::TooLarge { size, commit: None });
    }
    // A file that was plainly something else before becomes a game file: a new game.
    let before = versions.before;
    let mut held = 0;
    if let Some(before) = before {
        let file = GameFile::parse(before).map_err(|e| Refusal::InvalidBefore(e.into()))?;
        if !after.starts_with(before) {
            let mut probe = file.clone();
            probe
                .extend(after)
                .map_err(|e| Refusal::Rewritten(Refereed::Game, e))?;
        }
        held = file.documents();
    }
    let (file, digests) = match &pushed.read {
        Ok((file, digests)) => (file, digests),
        Err(e) => return Err(Refusal::Invalid(e.clone().into())),
    };
    let mut base = held;
    if let Some(line) = versions
        .known
        .filter(|l| l.digests.first() == digests.first())
    {
        if let Some(document) = line.parts(digests) {
            return Err(Refusal::Forked {
                at: line.longest().map(shown_place).unwrap_or_default(),
                document,
                line: file.line(document),
            });
        }
        base = base.max(line.known(digests));
    }
    // A defect in what the branch held already cannot be mended by appending: said so apart.
    let replayer = AnyReplayer::start(file)
        .and_then(|r| r.advance_vouched(file, 1, base))
        .map_err(|e| match e.document {
            Some(document) if document < held => Refusal::InvalidBefore(e),
            _ => Refusal::Invalid(e),
        })?;
    // A conditional reply carries the time of the move it answers, which was checked when it
    // came: appended later (by a program that left it out), it is no record dated late.
    let times = (base..file.documents())
        .filter(|&d| d == 0 || !matches!(file.records()[d - 1].action, Action::Applied(_)))
        .map(|d| match d {
            0 => (0, file.line(0), &file.header().created),
            d => (d, file.line(d), &file.records()[d - 1].time),
        });
    check_times(times, terms)?;
    Ok(Accepted {
        added: base..file.documents(),
        summary: replayer.summary(),
        kind: Refereed::Game,
        ends: (0..file.documents()).map(|d| file.span(d).end).collect(),
        digests: digests.clone(),
    })
}

/// The digests of a game file's documents, in order (the first is the game id), when it reads
/// as one.
#[must_use]
pub fn digests(bytes: &[u8]) -> Option<Vec<Digest>> {
    GameFile::parse(bytes).ok().map(|file| digests_of(&file))
}

fn digests_of(file: &GameFile) -> Vec<Digest> {
    (0..file.documents()).map(|d| file.digest(d)).collect()
}

/// A copy's place as a refusal shows it: the path, then the branch, escaped.
#[must_use]
pub fn shown_place((branch, path): &index::Place) -> String {
    format!(
        "{} on {}",
        crate::text::bytes(path),
        crate::text::bytes(branch)
    )
}

/// Judges a file's version in a pushed commit other than the last: it must be one the pushed
/// file passed through (its bytes up to a document's end), or not there when no parent of the
/// commit held it either (a commit from before the game began).
///
/// # Errors
/// The refusal, naming the commit.
pub fn judge_between<S>(
    accepted: &Accepted<S>,
    after: &[u8],
    commit: &str,
    version: Option<&[u8]>,
    parent_held: bool,
) -> Result<(), Refusal> {
    match version {
        None if parent_held => Err(Refusal::Deleted {
            file: accepted.kind,
            commit: Some(commit.to_owned()),
        }),
        None => Ok(()),
        Some(version) if after.starts_with(version) && accepted.ends.contains(&version.len()) => {
            Ok(())
        }
        Some(_) => Err(Refusal::Between(accepted.kind, commit.to_owned())),
    }
}

/// Each document a push adds (its number, line and time) must be dated within the skew of the
/// referee's clock: a game's header by its `created`, a tournament file's too, and each record
/// by its `time`.
fn check_times<'a>(
    documents: impl Iterator<Item = (usize, usize, &'a Timestamp)>,
    terms: Terms,
) -> Result<(), Refusal> {
    for (document, line, time) in documents {
        if time.to_unix().abs_diff(terms.now) > terms.max_skew {
            return Err(Refusal::Skew {
                document,
                line,
                time: time.clone(),
                now: Timestamp::from_unix(terms.now),
                max_skew: terms.max_skew,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
