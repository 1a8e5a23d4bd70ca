//! The audit of a game file's git history, as a report: every commit on the branch's
//! first-parent line checked as an append ([`Auditor`]), what merges lost of their other
//! parents, steps off the line, branches moved backwards in the reflogs, the working copy, and
//! what a shallow clone or a graft hides. [`crate::git`] reads the history; this module judges
//! it and says what it found in a [`Report`] that the command line renders as text or JSON.

use super::{Auditor, Departure, Finding, Violation, departure};
use crate::git::{self, Boundary, Cut, GitError, History, Oid, Rewind, Version};
use crate::log::{Action, GameFile};
use crate::replay::Summary;
use serde::Serialize;
use std::collections::HashSet;
use std::ops::Range;

/// Why there is no report.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// The history could not be read (an object missing from a partial clone among others).
    #[error("{0}")]
    Git(#[from] GitError),
    /// No commit on the branch ever held the file.
    #[error("no commit on {} has ever held this file", crate::text::escape(.branch))]
    NeverHeld {
        /// The branch.
        branch: String,
    },
}

/// What the audit of a history found.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The branch followed.
    pub branch: String,
    /// Each commit on its first-parent line that changed the file, oldest first.
    pub commits: Vec<Commit>,
    /// Branches moved backwards, losing records.
    pub rewinds: Vec<Rewound>,
    /// Other violations: side branches merged in, the working copy.
    pub others: Vec<Other>,
    /// How many violations in all.
    pub violations: usize,
    /// Whether the whole history could be checked.
    pub complete: bool,
    /// What a shallow edge or a graft keeps the audit from seeing.
    pub incomplete: Vec<String>,
    /// How the game stands in the last version.
    pub now: String,
}

/// One commit's line of the report.
#[derive(Clone, Debug, Serialize)]
pub struct Commit {
    /// The commit id.
    pub commit: String,
    /// Its author, as git records it.
    pub author: String,
    /// The author's email.
    pub email: String,
    /// The author time in the author's zone, RFC 3339: `2026-01-02T10:04:05+01:00`, or with
    /// `Z` for UTC.
    pub time: String,
    /// The same, as `git log` shows it: `2026-01-02 10:04:05 +0100`.
    #[serde(skip)]
    pub git_time: String,
    /// The first line of its message.
    pub summary: String,
    /// The documents it added (0 is the header).
    #[serde(serialize_with = "pair")]
    pub added: Range<usize>,
    /// Those records, as `alice e2e4`.
    pub records: Vec<String>,
    /// What is wrong with it.
    pub violation: Option<Found>,
    /// What it lost, as a merge, of its other parents' versions.
    pub merge_violations: Vec<String>,
    /// The documents it dropped as void by the crossing rule.
    #[serde(serialize_with = "pair")]
    pub voided: Range<usize>,
}

/// A violation: its kind (`changed`, `shortened`, `deleted`, `invalid`) and what it says.
#[derive(Clone, Debug, Serialize)]
pub struct Found {
    /// The kind.
    pub kind: &'static str,
    /// In words.
    pub message: String,
}

/// A branch moved backwards.
#[derive(Clone, Debug, Serialize)]
pub struct Rewound {
    /// The reference moved.
    pub reference: String,
    /// The commit it pointed to.
    pub from: String,
    /// The commit it points to after.
    pub to: String,
    /// The reflog's message.
    pub reflog: String,
    /// What the move lost, in words.
    pub violation: String,
}

/// A violation off the first-parent line.
#[derive(Clone, Debug, Serialize)]
pub struct Other {
    /// `side-branch` or `working-copy`.
    pub kind: &'static str,
    /// In words.
    pub message: String,
}

fn pair<S: serde::Serializer>(range: &Range<usize>, s: S) -> Result<S::Ok, S::Error> {
    [range.start, range.end].serialize(s)
}

/// Audits the history of the game file at `path` on its repository's current branch; `work` is
/// the file as it is in the working copy, if it is there.
///
/// # Errors
/// When the history cannot be read, or never held the file.
pub fn audit(history: &History, work: Option<&[u8]>) -> Result<Report, HistoryError> {
    let (checked, summary, merge_violations) = check_versions(history)?;
    let mut commits: Vec<Commit> = Vec::with_capacity(history.versions.len());
    let mut findings = Vec::with_capacity(history.versions.len());
    for ((version, (finding, records)), merges) in
        history.versions.iter().zip(checked).zip(merge_violations)
    {
        commits.push(commit(version, &finding, records, merges));
        findings.push(finding);
    }
    // A violation names the commit that wrote what was lost: known once all are listed.
    let ids: Vec<String> = commits.iter().map(|c| c.commit[..10].to_owned()).collect();
    for (row, finding) in commits.iter_mut().zip(&findings) {
        row.violation = finding.violation.as_ref().map(|v| Found {
            kind: kind(v),
            message: message(v, &ids),
        });
    }
    let others = others(history, work)?;
    let mut rewinds = Vec::new();
    for rewind in history.rewinds()? {
        if let Some(what) = lost(history, rewind.from, rewind.from_blob, rewind.to_blob)? {
            rewinds.push(rewound(&rewind, &what));
        }
    }
    let incomplete: Vec<String> = history
        .boundaries()?
        .iter()
        .map(|b| cut_message(history, b))
        .collect();
    if commits.is_empty() && others.is_empty() && rewinds.is_empty() && incomplete.is_empty() {
        return Err(HistoryError::NeverHeld {
            branch: history.branch.clone(),
        });
    }
    let violations = commits
        .iter()
        .map(|c| usize::from(c.violation.is_some()) + c.merge_violations.len())
        .sum::<usize>()
        + rewinds.len()
        + others.len();
    let gone = history.versions.last().is_none_or(|v| v.blob.is_none());
    let now = match summary {
        Some(s) => s
            .result
            .unwrap_or_else(|| format!("in progress, {}", s.status)),
        None if gone => "the file is not there".to_owned(),
        None => "the last version does not verify".to_owned(),
    };
    Ok(Report {
        branch: history.branch.clone(),
        commits,
        rewinds,
        others,
        violations,
        complete: incomplete.is_empty(),
        incomplete,
        now,
    })
}

/// A version on its way from git to the auditor: what it appends to the version before, or
/// the whole file.
enum Content {
    Deleted,
    Appended(Vec<u8>),
    Whole(Vec<u8>),
}

/// Every version checked, with the records it added described; the last version summed up if
/// it verifies; and what each merge lost.
///
/// Two threads: this one reads the versions from git and compares each with the one before in
/// place, where git holds them both; a helper checks what each adds (signatures and the
/// replay), receiving only the appended bytes. Reading a version costs its whole length, and a
/// long history's versions are long, so this keeps that work beside the checking rather than
/// before it.
type Checked = (
    Vec<(Finding, Vec<String>)>,
    Option<Summary>,
    Vec<Vec<String>>,
);

fn check_versions(history: &History) -> Result<Checked, HistoryError> {
    let (send, receive) = std::sync::mpsc::sync_channel::<Content>(256);
    let mut merge_violations = Vec::with_capacity(history.versions.len());
    let colour = crate::parallel::stack_colour();
    std::thread::scope(|scope| {
        let checker = scope.spawn(move || {
            crate::parallel::coloured(colour, move || {
                let mut auditor = Auditor::new();
                // The last version, rebuilt from what arrives, for a fresh start after a violation.
                let mut last = Vec::new();
                let mut checked = Vec::new();
                for content in receive {
                    let finding = match content {
                        Content::Deleted => auditor.version(None),
                        Content::Whole(bytes) => {
                            last = bytes;
                            auditor.version(Some(&last))
                        }
                        Content::Appended(tail) => {
                            let before = last.len();
                            last.extend_from_slice(&tail);
                            auditor.appended(&last, before)
                        }
                    };
                    let records = auditor
                        .file()
                        .map(|file| {
                            finding
                                .added
                                .clone()
                                .filter_map(|d| describe(file, d))
                                .collect()
                        })
                        .unwrap_or_default();
                    checked.push((finding, records));
                }
                (checked, auditor.summary())
            })
        });
        let read = history.each_content(|version, content| {
            merge_violations.push(merges(history, version)?);
            let owned = match content {
                git::Content::Deleted => Content::Deleted,
                git::Content::Appended(tail) => Content::Appended(tail.to_vec()),
                git::Content::Whole(bytes) => Content::Whole(bytes.to_vec()),
            };
            // The checker stops only by panicking, which the join below passes on.
            let _ = send.send(owned);
            Ok::<(), HistoryError>(())
        });
        drop(send);
        let (checked, summary) = checker
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        read.map(|()| (checked, summary, merge_violations))
    })
}

fn commit(
    version: &Version,
    finding: &Finding,
    records: Vec<String>,
    merges: Vec<String>,
) -> Commit {
    Commit {
        commit: version.commit.to_string(),
        author: version.author.clone(),
        email: version.email.clone(),
        // As git's strict ISO format writes it: `Z` for UTC.
        time: match version.offset_minutes {
            0 => author_time(version, "%Y-%m-%dT%H:%M:%SZ"),
            _ => author_time(version, "%Y-%m-%dT%H:%M:%S%:z"),
        },
        git_time: author_time(version, "%Y-%m-%d %H:%M:%S %z"),
        summary: version.summary.clone(),
        added: finding.added.clone(),
        records,
        violation: None,
        merge_violations: merges,
        voided: finding.voided.clone(),
    }
}

/// A commit's author time in its author's zone, formatted; a time or zone no calendar holds
/// (git records whatever a commit says) is shown as git stores it, `@SECONDS ±HHMM`, never as
/// some other moment.
fn author_time(version: &Version, format: &str) -> String {
    let zone = jiff::tz::Offset::from_seconds(version.offset_minutes.saturating_mul(60)).ok();
    let moment = jiff::Timestamp::from_second(version.time).ok();
    match (moment, zone) {
        (Some(moment), Some(zone)) => moment
            .to_zoned(jiff::tz::TimeZone::fixed(zone))
            .strftime(format)
            .to_string(),
        _ => {
            let sign = if version.offset_minutes < 0 { '-' } else { '+' };
            let offset = version.offset_minutes.unsigned_abs();
            format!(
                "@{} {sign}{:02}{:02}",
                version.time,
                offset / 60,
                offset % 60
            )
        }
    }
}

/// What a merge lost of its other parents' versions of the file.
fn merges(history: &History, version: &Version) -> Result<Vec<String>, GitError> {
    let mut lost = Vec::new();
    for (parent, blob) in &version.merged {
        let theirs = history.blob(*blob)?;
        let departed_from =
            history.with_content(version, |ours| departure(&theirs, ours.unwrap_or_default()))?;
        if let Some(d) = departed_from {
            lost.push(format!(
                "the merge {} of its other parent {}: a merge must keep both sides' records",
                departed(&d),
                &parent.to_string()[..10]
            ));
        }
    }
    Ok(lost)
}

/// Steps off the first-parent line that lost records or do not verify, and a working copy
/// that is not the last commit's file with records appended.
fn others(history: &History, work: Option<&[u8]>) -> Result<Vec<Other>, GitError> {
    let mut others = Vec::new();
    let mut verified = HashSet::new();
    for step in history.side_steps()? {
        let child = &step.child.to_string()[..10];
        if let Some(what) = lost(history, step.parent, step.before, step.after)? {
            others.push(Other {
                kind: "side-branch",
                message: format!(
                    "commit {child}, merged in from a side branch, {what}: a commit may only \
                     append records"
                ),
            });
        }
        // Each version merged in must verify, as on the branch itself.
        if let Some(after) = step.after.filter(|b| verified.insert(*b)) {
            let bytes = history.blob(after)?;
            if let Err(e) = crate::games::verify(&bytes) {
                others.push(Other {
                    kind: "side-branch",
                    message: format!(
                        "commit {child}, merged in from a side branch, does not verify: {e}"
                    ),
                });
            }
        }
    }
    if let (Some(last), Some(work)) = (history.versions.last().filter(|v| v.blob.is_some()), work) {
        let changed = history.with_content(last, |committed| {
            departure(committed.unwrap_or_default(), work)
        })?;
        if let Some(d) = changed {
            others.push(Other {
                kind: "working-copy",
                message: format!(
                    "the working copy, not committed, {}: it is not the last commit's version \
                     with records appended",
                    departed(&d)
                ),
            });
        }
    }
    Ok(others)
}

/// What a shallow edge or a graft keeps the audit from seeing.
fn cut_message(history: &History, b: &Boundary) -> String {
    let commit = &b.commit.to_string()[..10];
    let why = match b.cut {
        Cut::Shallow => {
            format!("commit {commit} is the edge of a shallow clone: its parents were not fetched")
        }
        Cut::Graft => {
            format!("commit {commit} is grafted: .git/info/grafts gives it other parents")
        }
    };
    let documents = b
        .blob
        .and_then(|blob| history.blob(blob).ok())
        .and_then(|bytes| GameFile::parse(&bytes).ok())
        .map(|file| file.documents());
    match (b.blob, documents) {
        (Some(_), Some(n)) => format!(
            "{why}, and the file is there already, with {}: which commits wrote them, and \
             whether any record was removed or changed before, cannot be checked",
            if n == 1 {
                "its header".to_owned()
            } else {
                format!("its header and records 1-{}", n - 1)
            }
        ),
        (Some(_), None) => {
            format!("{why}, and the file is there already: what came before cannot be checked")
        }
        (None, _) => {
            format!("{why}: an earlier version of the file, removed before it, cannot be ruled out")
        }
    }
}

/// A record as the audit lists it: `alice e2e4`, `bob accept` (`None` for the header).
fn describe(file: &GameFile, document: usize) -> Option<String> {
    let record = file.records().get(document.checked_sub(1)?)?;
    // A move as `alice e2e4`: the audit's lists are mostly moves.
    Some(match &record.action {
        Action::Move(mv) => format!("{} {mv}", record.signer),
        other => format!("{} {other}", record.signer),
    })
}

fn kind(v: &Violation) -> &'static str {
    match v {
        Violation::Changed { .. } => "changed",
        Violation::Shortened { .. } => "shortened",
        Violation::Deleted => "deleted",
        Violation::Invalid(_) => "invalid",
    }
}

/// A violation in words, naming commits by the first ten digits of their ids.
fn message(v: &Violation, ids: &[String]) -> String {
    let commit = |i: &usize| ids.get(*i).map_or("?", String::as_str).to_owned();
    let document = |d: &usize| match d {
        0 => "the header".to_owned(),
        d => format!("record {d}"),
    };
    match v {
        Violation::Changed {
            document: d,
            line,
            written_in,
        } => format!(
            "rewrites {} (line {line}), written in commit {}: a commit may only append records",
            document(d),
            commit(written_in)
        ),
        Violation::Shortened {
            dropped,
            written_in,
        } => format!(
            "removes {} and what follows, written in commit {}: a commit may only append records",
            document(dropped),
            commit(written_in)
        ),
        Violation::Deleted => "deletes the game file".into(),
        Violation::Invalid(e) => format!("this version does not verify: {e}"),
    }
}

/// `drops record 4 (line 60)`, `changes record 2 (line 31)`.
fn departed(d: &Departure) -> String {
    let verb = if d.dropped { "drops" } else { "changes" };
    match d.document {
        Some(0) => format!("{verb} the header (line {})", d.line),
        Some(n) => format!("{verb} record {n} (line {})", d.line),
        None => format!("{verb} line {}", d.line),
    }
}

/// What a step from one commit's file to another's lost, with the commit that wrote it:
/// `drops record 4 (line 40), which commit 1a2b3c4d5e wrote`, or `deletes the game file`.
/// `None` when the later file extends the earlier, or drops only records void by the crossing
/// rule for the awaited player's: what a player does on the merge driver's advice when their
/// record, never shared, crossed the one on the shared branch (as `receive --settle` does by
/// mail, which a commit's check reads the same way).
fn lost(
    history: &History,
    tip: Oid,
    before: Oid,
    after: Option<Oid>,
) -> Result<Option<String>, GitError> {
    let Some(after) = after else {
        return Ok(Some("deletes the game file".to_owned()));
    };
    let old = history.blob(before)?;
    let new = history.blob(after)?;
    let Some(d) = departure(&old, &new) else {
        return Ok(None);
    };
    let parsed = GameFile::parse(&old).ok();
    if parsed
        .as_ref()
        .is_some_and(|file| crate::fork::settles(file, &new).is_some())
    {
        return Ok(None);
    }
    let end = d
        .document
        .and_then(|doc| parsed.as_ref().map(|f| f.span(doc).end));
    let writer = match end {
        Some(end) => history.writer(tip, &old[..end])?,
        None => None,
    };
    Ok(Some(match writer {
        Some(commit) => format!(
            "{}, which commit {} wrote",
            departed(&d),
            &commit.to_string()[..10]
        ),
        None => departed(&d),
    }))
}

/// A branch moved backwards, in words.
fn rewound(r: &Rewind, what: &str) -> Rewound {
    let violation = format!(
        "{} was moved from {} to {}, not a fast-forward (reflog: {}): the move {what}",
        crate::text::escape(&r.reference),
        &r.from.to_string()[..10],
        &r.to.to_string()[..10],
        if r.message.is_empty() {
            "no message".to_owned()
        } else {
            crate::text::shown(&r.message)
        }
    );
    Rewound {
        reference: r.reference.clone(),
        from: r.from.to_string(),
        to: r.to.to_string(),
        reflog: r.message.clone(),
        violation,
    }
}

#[cfg(test)]
mod tests {
    use super::{Finding, Version, commit};

    #[test]
    fn a_commits_time_is_shown_in_its_authors_zone_both_ways() {
        let at = |time: i64, offset_minutes: i32| {
            let version = Version {
                commit: crate::git::Oid::ZERO_SHA1,
                author: "alice".into(),
                email: "alice@example.org".into(),
                time,
                offset_minutes,
                summary: String::new(),
                blob: None,
                merged: Vec::new(),
            };
            let finding = Finding {
                added: 0..0,
                violation: None,
                voided: 0..0,
            };
            let row = commit(&version, &finding, Vec::new(), Vec::new());
            (row.time, row.git_time)
        };
        assert_eq!(
            at(0, 90),
            (
                "1970-01-01T01:30:00+01:30".into(),
                "1970-01-01 01:30:00 +0130".into()
            )
        );
        assert_eq!(
            at(1_764_496_800, -300),
            (
                "2025-11-30T05:00:00-05:00".into(),
                "2025-11-30 05:00:00 -0500".into()
            )
        );
        assert_eq!(
            at(1_764_496_800, 0),
            (
                "2025-11-30T10:00:00Z".into(),
                "2025-11-30 10:00:00 +0000".into()
            )
        );
        // What git can record and no calendar holds is shown as git stores it.
        let raw = format!("@{} +0100", i64::MAX);
        assert_eq!(at(i64::MAX, 60), (raw.clone(), raw));
    }
}
