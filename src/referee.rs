//! The referee of a shared repository: the judgment a server-side hook passes on a push before
//! git takes it. A game file on a branch may only grow by records that verify; it may not be
//! deleted, rewritten (not even in a pushed commit whose change a later one undoes), or taken
//! away by a force-push; and each document a push adds must be dated within a few minutes of
//! the referee's clock, so that on such a repository the times the clocks are made from are
//! witnessed, not only said (see docs/referee.md).
//!
//! Pure: the versions of a file go in as bytes, with the referee's clock; the judgment comes
//! out. [`crate::git::Receiving`] reads a push's versions from git.

use crate::log::{GameFile, LogError, MAX_FILE_SIZE, Timestamp};
use crate::replay::{AnyReplayer, ReplayError, Summary};

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
    /// On the repository's other branches, by branch: what the referee took before.
    pub elsewhere: &'a [(String, &'a [u8])],
    /// As the push leaves it (`None`: not there).
    pub after: Option<&'a [u8]>,
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
    /// A game file is deleted (or moved, or renamed), by the push or by a commit in it.
    #[error(
        "the game file is deleted{}; a referee keeps every game file where it is (never \
         deleted, moved or renamed)",
        commit.as_ref().map(|c| format!(" in commit {c}")).unwrap_or_default()
    )]
    Deleted {
        /// The pushed commit that deletes it, when it is not the last.
        commit: Option<String>,
    },
    /// The pushed version changes or drops bytes of the branch's version.
    #[error("this push rewrites the game: {0}")]
    Rewritten(LogError),
    /// A pushed commit holds a version that the pushed file does not extend.
    #[error(
        "commit {0} holds a version of the game that the pushed file does not extend (a record \
         changed there and restored later is a rewrite too); push a history that only appends"
    )]
    Between(String),
    /// The pushed version does not verify.
    #[error("{0}")]
    Invalid(ReplayError),
    /// The branch's version does not verify: appending cannot mend it.
    #[error(
        "the version already on the branch does not verify ({0}); records appended to it \
         cannot mend it: start a new game"
    )]
    InvalidBefore(ReplayError),
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
    /// Another branch holds another line of the game.
    #[error(
        "{branch} holds another line of this game, which parts from this one at {}; a game \
         has one line of records in the repository",
        crate::log::place(Some(*document), *line)
    )]
    Forked {
        /// The other branch.
        branch: String,
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

/// What the referee found in a file it accepts.
#[derive(Clone, Debug)]
pub struct Accepted {
    /// The documents the push adds, as numbered in the pushed file (0 is the header).
    pub added: std::ops::Range<usize>,
    /// How the game stands after the push.
    pub summary: Summary,
    /// Where each document of the pushed file ends: a version in a pushed commit must end at
    /// one of them.
    ends: Vec<usize>,
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

/// Judges one game file's versions in a push. What a branch holds already (this one, or
/// another) is taken on the referee's earlier word: its signatures were checked when it came
/// (or when the referee was installed), and its rules are replayed again without them, so that
/// a push costs the checking of the documents it adds. A version on another branch must be
/// the same line of the game, behind or ahead.
///
/// # Errors
/// The first refusal.
pub fn judge_file(versions: &Versions<'_>, terms: Terms) -> Result<Accepted, Refusal> {
    let Some(after) = versions.after else {
        return Err(Refusal::Deleted { commit: None });
    };
    let size = after.len() as u64;
    if size > MAX_FILE_SIZE {
        return Err(Refusal::TooLarge { size, commit: None });
    }
    // A file that was plainly something else before becomes a game file: a new game.
    let before = versions
        .before
        .filter(|b| crate::log::may_be_a_game_file(b));
    let mut taken: Option<(GameFile, AnyReplayer)> = None;
    if let Some(before) = before {
        let (file, replayer) = vouched(before).map_err(Refusal::InvalidBefore)?;
        if !after.starts_with(before) {
            let mut probe = file.clone();
            if let Err(e) = probe.extend(after) {
                return Err(Refusal::Rewritten(e));
            }
        }
        taken = Some((file, replayer));
    }
    // The longest version another branch holds of this line, if longer, is the base.
    let mut elsewhere: Vec<&(String, &[u8])> = versions.elsewhere.iter().collect();
    elsewhere.sort_by_key(|(_, other)| std::cmp::Reverse(other.len()));
    for (branch, other) in elsewhere {
        if after.starts_with(other) {
            let longer = taken
                .as_ref()
                .is_none_or(|(f, _)| f.text().len() < other.len());
            if longer && let Ok(found) = vouched(other) {
                taken = Some(found);
            }
        } else if !other.starts_with(after) && crate::log::may_be_a_game_file(other) {
            return Err(forked(branch, other, after));
        }
    }
    let (mut file, replayer, base) = match taken {
        Some((file, replayer)) => {
            let base = file.documents();
            (file, replayer, base)
        }
        None => {
            let file = GameFile::parse(after).map_err(|e| Refusal::Invalid(e.into()))?;
            let replayer = AnyReplayer::start(&file).map_err(Refusal::Invalid)?;
            (file, replayer, 0)
        }
    };
    if base > 0 {
        file.extend(after).map_err(Refusal::Rewritten)?;
    }
    let replayer = replayer.advance(&file).map_err(Refusal::Invalid)?;
    check_times(&file, base, terms)?;
    Ok(Accepted {
        added: base..file.documents(),
        summary: replayer.summary(),
        ends: (0..file.documents()).map(|d| file.span(d).end).collect(),
    })
}

/// Judges a file's version in a pushed commit other than the last: it must be one the pushed
/// file passed through (its bytes up to a document's end), or not there when no parent of the
/// commit held it either (a commit from before the game began).
///
/// # Errors
/// The refusal, naming the commit.
pub fn judge_between(
    accepted: &Accepted,
    after: &[u8],
    commit: &str,
    version: Option<&[u8]>,
    parent_held: bool,
) -> Result<(), Refusal> {
    match version {
        None if parent_held => Err(Refusal::Deleted {
            commit: Some(commit.to_owned()),
        }),
        None => Ok(()),
        Some(version) if after.starts_with(version) && accepted.ends.contains(&version.len()) => {
            Ok(())
        }
        Some(_) => Err(Refusal::Between(commit.to_owned())),
    }
}

/// A version the referee took before, replayed without its signatures (see [`judge_file`]).
fn vouched(bytes: &[u8]) -> Result<(GameFile, AnyReplayer), ReplayError> {
    let file = GameFile::parse(bytes)?;
    let replayer = AnyReplayer::start(&file)?.advance_vouched(&file, 1, file.documents())?;
    Ok((file, replayer))
}

/// Where another branch's line of a game parts from the pushed one.
fn forked(branch: &str, other: &[u8], after: &[u8]) -> Refusal {
    let first = other
        .iter()
        .zip(after)
        .position(|(a, b)| a != b)
        .unwrap_or(other.len().min(after.len()));
    let (document, line) = match GameFile::parse(after) {
        Ok(file) => {
            let document = (0..file.documents())
                .find(|&d| file.span(d).end > first)
                .unwrap_or(0);
            (document, file.line(document))
        }
        Err(_) => (0, 1),
    };
    Refusal::Forked {
        branch: branch.to_owned(),
        document,
        line,
    }
}

/// Each document from `from` on must be dated within the skew of the referee's clock.
fn check_times(file: &GameFile, from: usize, terms: Terms) -> Result<(), Refusal> {
    for document in from..file.documents() {
        let time = match document {
            0 => &file.header().created,
            n => &file.records()[n - 1].time,
        };
        if time.to_unix().abs_diff(terms.now) > terms.max_skew {
            return Err(Refusal::Skew {
                document,
                line: file.line(document),
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
