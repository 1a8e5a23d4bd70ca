//! Auditing a game file's history: every version of the file must be the version before it
//! with records appended, and must verify. A removed record (a move taken back), a changed byte
//! or a deleted file is a violation, named with the version that wrote what was lost.
//!
//! Pure: versions go in as bytes, oldest first, from wherever they were kept (git, backups,
//! mail); findings come out. Each version costs the comparison of its bytes with the version
//! before and the checking of its new records only: the game is never replayed from the start
//! again, unless a violation forces a fresh start.

mod history;

pub use history::{Commit, Found, HistoryError, Other, Report, Rewound, audit as audit_history};

use crate::games::AnyReplayer;
use crate::log::{GameFile, LogErrorKind};
use crate::replay::Summary;
use std::ops::Range;

/// What is wrong with one version of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// A byte of the earlier version was changed.
    Changed {
        /// The earlier version's document that changed (0: the header).
        document: usize,
        /// Its line, in the earlier version.
        line: usize,
        /// The version that wrote that document.
        written_in: usize,
    },
    /// The version is shorter: documents of the earlier version are gone.
    Shortened {
        /// The first document dropped or cut.
        dropped: usize,
        /// The version that wrote it.
        written_in: usize,
    },
    /// The file was deleted.
    Deleted,
    /// The version does not verify (or, after a deletion or a version that did not, is not a
    /// game file).
    Invalid(String),
}

/// What one version did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The documents this version added, as numbered in it (0 is the header). Empty when it
    /// added none, or when it did not verify.
    pub added: Range<usize>,
    /// What is wrong with it, if anything.
    pub violation: Option<Violation>,
    /// The documents of the version before that this one drops as void by the crossing rule
    /// (records of the player the game did not await, which crossed the awaited player's; see
    /// [`crate::fork::settles`]): a settlement, not a violation. Empty when it drops none.
    pub voided: Range<usize>,
}

/// The file as the audit follows it.
struct Tracked {
    file: GameFile,
    replayer: AnyReplayer,
    /// For each document, the version that wrote it.
    origin: Vec<usize>,
}

/// Follows a file through its versions, oldest first.
#[derive(Default)]
pub struct Auditor {
    versions: usize,
    /// The last version, when it verified.
    tracked: Option<Tracked>,
    /// When the last version did not verify or the file was deleted: the last version that
    /// verified, with the version that wrote each of its documents. Later versions must still
    /// extend it, so that a deletion or a broken version cannot launder a rewrite.
    good: Option<(GameFile, Vec<usize>)>,
}

impl Auditor {
    /// An audit before any version.
    #[must_use]
    pub fn new() -> Auditor {
        Auditor::default()
    }

    /// Checks the next version: its bytes, or `None` where the file was deleted.
    pub fn version(&mut self, bytes: Option<&[u8]>) -> Finding {
        self.version_after(bytes, None)
    }

    /// Checks the next version, `bytes`, which its reader has found to be the version before
    /// (`before` bytes long) with bytes appended: only those are read, as the earlier ones were
    /// compared already.
    pub fn appended(&mut self, bytes: &[u8], before: usize) -> Finding {
        self.version_after(Some(bytes), Some(before))
    }

    /// [`Auditor::version`], told how long the version before was when `bytes` is known to
    /// extend it.
    fn version_after(&mut self, bytes: Option<&[u8]>, extends: Option<usize>) -> Finding {
        let index = self.versions;
        self.versions += 1;
        let Some(bytes) = bytes else {
            if let Some(t) = self.tracked.take() {
                self.good = Some((t.file, t.origin));
            }
            return Finding {
                added: 0..0,
                violation: Some(Violation::Deleted),
                voided: 0..0,
            };
        };
        let violation = match self.tracked.take() {
            Some(tracked) => match self.append(tracked, index, bytes, extends) {
                Ok(finding) => return finding,
                Err(violation) => Some(violation),
            },
            None => self
                .good
                .as_ref()
                .and_then(|(file, origin)| departs(file.clone(), origin, bytes)),
        };
        // A first version, or a fresh start after a violation: read the whole version.
        match read(bytes, index) {
            Ok(mut tracked) => {
                // Continuing the last good version, what it had keeps its writers; after a
                // violation, nothing in the version counts as added.
                let base = match (&violation, self.good.take()) {
                    (None, Some((file, origin))) => {
                        tracked.origin[..origin.len()].copy_from_slice(&origin);
                        file.documents()
                    }
                    _ => 0,
                };
                let added = if violation.is_some() {
                    0..0
                } else {
                    base..tracked.file.documents()
                };
                self.tracked = Some(tracked);
                Finding {
                    added,
                    violation,
                    voided: 0..0,
                }
            }
            Err(error) => Finding {
                added: 0..0,
                violation: violation.or(Some(Violation::Invalid(error))),
                voided: 0..0,
            },
        }
    }

    /// Checks a version against the verified one before it (the last version given: a tracked
    /// file is always the last version). On a violation, the caller starts afresh from the
    /// version's bytes, and the version before becomes the last good one.
    fn append(
        &mut self,
        tracked: Tracked,
        index: usize,
        bytes: &[u8],
        extends: Option<usize>,
    ) -> Result<Finding, Violation> {
        let Tracked {
            mut file,
            replayer,
            mut origin,
        } = tracked;
        let before = file.documents();
        let old = file.text().len();
        let grown = if extends == Some(old) {
            file.append(&bytes[old..])
        } else {
            file.extend(bytes)
        };
        if let Err(e) = grown {
            // Records void by the crossing rule, dropped for the awaited player's: settled.
            if let Some(void) = crate::fork::settles(&file, bytes)
                && let Ok(mut settled) = read(bytes, index)
            {
                settled.origin[..void].copy_from_slice(&origin[..void]);
                let added = void..settled.file.documents();
                self.tracked = Some(settled);
                return Ok(Finding {
                    added,
                    violation: None,
                    voided: void..before,
                });
            }
            let violation = violation_of(&e, &origin);
            self.good = Some((file, origin));
            return Err(violation);
        }
        match replayer.advance(&file) {
            Ok(replayer) => {
                origin.resize(file.documents(), index);
                let added = before..file.documents();
                self.tracked = Some(Tracked {
                    file,
                    replayer,
                    origin,
                });
                Ok(Finding {
                    added,
                    violation: None,
                    voided: 0..0,
                })
            }
            Err(e) => {
                file.truncate(before);
                self.good = Some((file, origin));
                Err(Violation::Invalid(e.to_string()))
            }
        }
    }

    /// The last version, if it verified: where the documents [`Finding::added`] names are.
    #[must_use]
    pub fn file(&self) -> Option<&GameFile> {
        self.tracked.as_ref().map(|t| &t.file)
    }

    /// How the game stands in the last version, if it verified.
    #[must_use]
    pub fn summary(self) -> Option<Summary> {
        self.tracked.map(|t| t.replayer.summary())
    }
}

/// Where one version of a file departs from an earlier one that it does not simply extend: the
/// first document of the earlier version that it changes or drops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Departure {
    /// That document of the earlier version (`None` when the earlier version is not a game
    /// file).
    pub document: Option<usize>,
    /// Its line in the earlier version.
    pub line: usize,
    /// Whether the later version drops it (rather than changing it).
    pub dropped: bool,
}

/// How `new` departs from `old`, or `None` when `new` is `old` with documents appended. For
/// versions that are not in line (the other parent of a merge, a branch before a reset).
#[must_use]
pub fn departure(old: &[u8], new: &[u8]) -> Option<Departure> {
    if new.starts_with(old) {
        return None;
    }
    let dropped = old.starts_with(new);
    let first = old
        .iter()
        .zip(new)
        .position(|(a, b)| a != b)
        .unwrap_or(new.len());
    let line = 1 + old[..first].iter().filter(|&&b| b == b'\n').count();
    let Ok(mut file) = GameFile::parse(old) else {
        return Some(Departure {
            document: None,
            line,
            dropped,
        });
    };
    let error = file
        .extend(new)
        .expect_err("a version that does not start with the earlier one is no append");
    Some(Departure {
        document: error.document,
        line: error.line,
        dropped: matches!(error.kind, LogErrorKind::Shortened { .. }),
    })
}

/// The violation a failed [`GameFile::extend`] stands for.
fn violation_of(e: &crate::log::LogError, origin: &[usize]) -> Violation {
    let document = e.document.unwrap_or(0);
    let writer = |d: usize| origin.get(d).copied().unwrap_or(0);
    match e.kind {
        LogErrorKind::Changed => Violation::Changed {
            document,
            line: e.line,
            written_in: writer(document),
        },
        LogErrorKind::Shortened { dropped } => Violation::Shortened {
            dropped,
            written_in: writer(dropped),
        },
        _ => Violation::Invalid(e.to_string()),
    }
}

/// How `bytes` breaks from the last good version, if it does not extend it.
fn departs(mut good: GameFile, origin: &[usize], bytes: &[u8]) -> Option<Violation> {
    match good.extend(bytes) {
        Err(e)
            if matches!(
                e.kind,
                LogErrorKind::Changed | LogErrorKind::Shortened { .. }
            ) =>
        {
            Some(violation_of(&e, origin))
        }
        _ => None,
    }
}

/// Reads and replays a whole version.
fn read(bytes: &[u8], index: usize) -> Result<Tracked, String> {
    let file = GameFile::parse(bytes).map_err(|e| e.to_string())?;
    let replayer = AnyReplayer::start(&file)
        .and_then(|r| r.advance(&file))
        .map_err(|e| e.to_string())?;
    let origin = vec![index; file.documents()];
    Ok(Tracked {
        file,
        replayer,
        origin,
    })
}

#[cfg(test)]
mod tests;
