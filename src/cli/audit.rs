//! `correspond audit`: check a game file's git history, commit by commit.

use super::CliError;
use super::error::ExitStatus;
use correspond::audit::{Auditor, Departure, Finding, Violation, departure};
use correspond::git::{History, Rewind, Version};
use correspond::log::{Action, GameFile, Timestamp};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Check a game file's history on the current branch: every commit that changed the file must
/// have appended records to it (no byte of an earlier version changed, no record removed, the
/// file not deleted), and every version must verify. For each such commit: its id, author and
/// time as git records them, the records it added, and any violation, with the commit that
/// wrote what was changed. Each version costs the check of its new records only.
///
/// Follows the first-parent line from HEAD, so a merge counts as one change. A shallow clone
/// (CI's default) or a graft hides history: the audit says what it cannot see, and does not
/// pass. Exit code: 0 if the history is clean, 1 if there is any violation, 2 if the history
/// cannot be read, 3 if it holds no violation but cannot be checked whole (run
/// `git fetch --unshallow`).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The game file, inside a git work tree (it need not exist any more).
    file: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// One commit's line of the report.
struct Row {
    version: Version,
    finding: Finding,
    records: Vec<String>,
    /// What a merge lost of its other parents' versions.
    merges: Vec<String>,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> Result<ExitStatus, CliError> {
    if args.file.is_dir() {
        return Err(CliError::usage(format!(
            "{} is a folder; audit takes one game file",
            correspond::text::path(&args.file)
        )));
    }
    let history = History::of(&args.file).map_err(|e| {
        CliError::usage(format!("{}: {e}", correspond::text::path(&args.file)))
            .hint("audit reads the file's history from the git repository that holds it")
    })?;
    let mut auditor = Auditor::new();
    let mut rows = Vec::with_capacity(history.versions.len());
    let git_error = |e: correspond::git::GitError| read_error(&args.file, e);
    for version in &history.versions {
        let mut merges = Vec::new();
        for (parent, blob) in &version.merged {
            let theirs = history.blob(*blob).map_err(git_error)?;
            let departed_from = history
                .with_content(version, |ours| departure(&theirs, ours.unwrap_or_default()))
                .map_err(git_error)?;
            if let Some(d) = departed_from {
                merges.push(format!(
                    "the merge {} of its other parent {}: a merge must keep both sides' records",
                    departed(&d),
                    &parent.to_string()[..10]
                ));
            }
        }
        let finding = history
            .with_content(version, |bytes| auditor.version(bytes))
            .map_err(git_error)?;
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
        rows.push(Row {
            version: version.clone(),
            finding,
            records,
            merges,
        });
    }
    // Steps off the first-parent line, moves in the reflogs, and the working copy.
    let mut others: Vec<(&'static str, String)> = Vec::new();
    let mut verified = std::collections::HashSet::new();
    for step in history.side_steps().map_err(git_error)? {
        let child = &step.child.to_string()[..10];
        if let Some(what) = lost(&history, step.parent, step.before, step.after)? {
            others.push((
                "side-branch",
                format!(
                    "commit {child}, merged in from a side branch, {what}: a commit may only append records"
                ),
            ));
        }
        // Each version merged in must verify, as on the branch itself.
        if let Some(after) = step.after.filter(|b| verified.insert(*b)) {
            let bytes = history.blob(after).map_err(git_error)?;
            if let Err(e) = correspond::replay::verify(&bytes) {
                others.push((
                    "side-branch",
                    format!("commit {child}, merged in from a side branch, does not verify: {e}"),
                ));
            }
        }
    }
    let mut moves = Vec::new();
    for rewind in history.rewinds().map_err(git_error)? {
        if let Some(what) = lost(&history, rewind.from, rewind.from_blob, rewind.to_blob)? {
            moves.push((rewind, what));
        }
    }
    if let Some(last) = history.versions.last().filter(|v| v.blob.is_some())
        && let Ok(work) = correspond::log::read_limited(&args.file)
    {
        let changed = history
            .with_content(last, |committed| {
                departure(committed.unwrap_or_default(), &work)
            })
            .map_err(git_error)?;
        if let Some(d) = changed {
            others.push((
                "working-copy",
                format!(
                    "the working copy, not committed, {}: it is not the last commit's version with records appended",
                    departed(&d)
                ),
            ));
        }
    }
    let cuts: Vec<String> = history
        .boundaries()
        .map_err(git_error)?
        .iter()
        .map(|b| cut_message(&history, b))
        .collect();
    if history.versions.is_empty() && others.is_empty() && moves.is_empty() && cuts.is_empty() {
        return Err(CliError::usage(format!(
            "{}: no commit on {} has ever held this file",
            correspond::text::path(&args.file),
            correspond::text::escape(&history.branch)
        )));
    }
    let violations = rows
        .iter()
        .map(|r| usize::from(r.finding.violation.is_some()) + r.merges.len())
        .sum::<usize>()
        + moves.len()
        + others.len();
    let summary = auditor.summary();
    let gone = history.versions.last().is_none_or(|v| v.blob.is_none());
    let now = summary.as_ref().map_or_else(
        || {
            if gone {
                "the file is not there".to_owned()
            } else {
                "the last version does not verify".to_owned()
            }
        },
        |s| {
            s.result
                .clone()
                .unwrap_or_else(|| format!("in progress, {}", s.status))
        },
    );
    if args.json {
        let commits: Vec<serde_json::Value> = rows
            .iter()
            .map(|row| {
                serde_json::json!({
                    "commit": row.version.commit.to_string(),
                    "author": row.version.author,
                    "email": row.version.email,
                    "time": git_time(&row.version),
                    "summary": row.version.summary,
                    "added": [row.finding.added.start, row.finding.added.end],
                    "records": row.records,
                    "violation": row.finding.violation.as_ref().map(|v| serde_json::json!({
                        "kind": kind(v),
                        "message": message(v, &rows),
                    })),
                    "merge_violations": row.merges,
                    "voided": [row.finding.voided.start, row.finding.voided.end],
                })
            })
            .collect();
        let rewinds: Vec<serde_json::Value> = moves
            .iter()
            .map(|(r, what)| {
                serde_json::json!({
                    "reference": r.reference,
                    "from": r.from.to_string(),
                    "to": r.to.to_string(),
                    "reflog": r.message,
                    "violation": rewound(r, what),
                })
            })
            .collect();
        let report = serde_json::json!({
            "file": args.file.to_string_lossy(),
            "branch": history.branch,
            "commits": commits,
            "rewinds": rewinds,
            "others": others.iter().map(|(kind, message)| serde_json::json!({"kind": kind, "message": message})).collect::<Vec<_>>(),
            "violations": violations,
            "complete": cuts.is_empty(),
            "incomplete": cuts,
            "now": now,
        });
        writeln!(
            out,
            "{}",
            correspond::text::json(
                serde_json::to_string_pretty(&report)
                    .map_err(|e| CliError::usage(e.to_string()))?
            )
        )?;
    } else {
        writeln!(
            out,
            "{} on {}: {} changed it",
            correspond::text::path(&args.file),
            correspond::text::escape(&history.branch),
            count(rows.len(), "commit")
        )?;
        for (i, row) in rows.iter().enumerate() {
            let v = &row.version;
            writeln!(
                out,
                "{:>4}  {}  {}  {} <{}>  {}",
                i + 1,
                short(v),
                git_time(v),
                correspond::text::escape(&v.author),
                correspond::text::escape(&v.email),
                correspond::text::shown(&v.summary)
            )?;
            if let Some(violation) = &row.finding.violation {
                writeln!(out, "      VIOLATION: {}", message(violation, &rows))?;
            }
            for merge in &row.merges {
                writeln!(out, "      VIOLATION: {merge}")?;
            }
            let voided = &row.finding.voided;
            if !voided.is_empty() {
                let which = if voided.len() == 1 {
                    format!("record {}", voided.start)
                } else {
                    format!("records {}-{}", voided.start, voided.end - 1)
                };
                writeln!(
                    out,
                    "      {which} void by the crossing rule (it crossed a record of the player \
                     the game awaited), not taken back"
                )?;
            }
            if !row.finding.added.is_empty() {
                writeln!(out, "      {}", added(&row.finding, &row.records))?;
            }
        }
        for (rewind, what) in &moves {
            writeln!(out, "VIOLATION: {}", rewound(rewind, what))?;
        }
        for (_, message) in &others {
            writeln!(out, "VIOLATION: {message}")?;
        }
        for message in &cuts {
            writeln!(out, "INCOMPLETE: {message}")?;
        }
        let seen = if cuts.is_empty() {
            String::new()
        } else {
            " of the history this clone holds (not all of it)".to_owned()
        };
        writeln!(
            out,
            "{} in {}{seen}; at {}: {now}",
            count(violations, "violation"),
            count(rows.len(), "commit"),
            correspond::text::escape(&history.branch)
        )?;
        if !cuts.is_empty() && violations == 0 {
            writeln!(
                out,
                "not passed: the history cannot be checked whole here; fetch all of it \
                 (git fetch --unshallow; a graft is removed from .git/info/grafts) and audit again"
            )?;
        }
    }
    Ok(if violations > 0 {
        ExitStatus::Rejected
    } else if !cuts.is_empty() {
        ExitStatus::Incomplete
    } else {
        ExitStatus::Success
    })
}

/// A failure to read the history. An object missing from the clone (a partial clone made
/// with `--filter`, which libgit2 cannot fetch on demand) means the audit cannot see what it
/// must: it does not pass (exit code 3).
fn read_error(file: &Path, e: correspond::git::GitError) -> CliError {
    if e.is_missing_object() {
        CliError::incomplete(format!(
            "{}: a version of the file is not in this clone ({e}); nothing is passed",
            correspond::text::path(file)
        ))
        .hint(
            "a partial clone (--filter) leaves file contents on the server: clone without \
             --filter, or fetch them all, and audit again",
        )
    } else {
        CliError::usage(format!("{}: {e}", correspond::text::path(file)))
    }
}

/// What a shallow edge or a graft keeps the audit from seeing.
fn cut_message(history: &History, b: &correspond::git::Boundary) -> String {
    let commit = &b.commit.to_string()[..10];
    let why = match b.cut {
        correspond::git::Cut::Shallow => {
            format!("commit {commit} is the edge of a shallow clone: its parents were not fetched")
        }
        correspond::git::Cut::Graft => {
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

/// `records 3-4: alice move c2c3, bob move c6c5`, or `header, record 1: ...`.
fn added(finding: &Finding, records: &[String]) -> String {
    let range = &finding.added;
    let what = match (range.start, range.end - 1) {
        (0, 0) => "header".to_owned(),
        (0, 1) => "header, record 1".to_owned(),
        (0, last) => format!("header, records 1-{last}"),
        (a, b) if a == b => format!("record {a}"),
        (a, b) => format!("records {a}-{b}"),
    };
    let shown: Vec<&str> = records
        .iter()
        .map(String::as_str)
        .filter(|r| !r.is_empty())
        .collect();
    if shown.is_empty() {
        what
    } else {
        format!("{what}: {}", shown.join(", "))
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

fn message(v: &Violation, rows: &[Row]) -> String {
    let commit = |i: &usize| {
        rows.get(*i)
            .map_or_else(|| "?".to_owned(), |r| short(&r.version))
    };
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
/// `None` when the later file extends the earlier.
fn lost(
    history: &History,
    tip: correspond::git::Oid,
    before: correspond::git::Oid,
    after: Option<correspond::git::Oid>,
) -> Result<Option<String>, CliError> {
    let git_error = |e: correspond::git::GitError| read_error(Path::new("."), e);
    let Some(after) = after else {
        return Ok(Some("deletes the game file".to_owned()));
    };
    let old = history.blob(before).map_err(git_error)?;
    let new = history.blob(after).map_err(git_error)?;
    let Some(d) = departure(&old, &new) else {
        return Ok(None);
    };
    let end = d.document.and_then(|doc| {
        correspond::log::GameFile::parse(&old)
            .ok()
            .map(|f| f.span(doc).end)
    });
    let writer = match end {
        Some(end) => history.writer(tip, &old[..end]).map_err(git_error)?,
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
fn rewound(r: &Rewind, what: &str) -> String {
    format!(
        "{} was moved from {} to {}, not a fast-forward (reflog: {}): the move {what}",
        correspond::text::escape(&r.reference),
        &r.from.to_string()[..10],
        &r.to.to_string()[..10],
        if r.message.is_empty() {
            "no message".to_owned()
        } else {
            correspond::text::shown(&r.message)
        }
    )
}

/// `1 commit`, `2 commits`.
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

fn short(v: &Version) -> String {
    v.commit.to_string()[..10].to_owned()
}

/// `2026-01-02 10:04:05 +0100`: the author time in the author's zone, as `git log` shows it.
fn git_time(v: &Version) -> String {
    let local = v.time + i64::from(v.offset_minutes) * 60;
    let stamp = Timestamp::from_unix(u64::try_from(local).unwrap_or(0));
    let (sign, offset) = if v.offset_minutes < 0 {
        ('-', -v.offset_minutes)
    } else {
        ('+', v.offset_minutes)
    };
    format!(
        "{} {sign}{:02}{:02}",
        stamp.as_str().trim_end_matches('Z').replace('T', " "),
        offset / 60,
        offset % 60
    )
}
