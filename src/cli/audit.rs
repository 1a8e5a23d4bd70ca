//! `correspond audit`: check a game file's git history, commit by commit.

use super::CliError;
use super::error::ExitStatus;
use crate::cli::Out;
use correspond::audit::{HistoryError, Report, audit_history};
use correspond::git::History;
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

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    if args.file.is_dir() {
        return Err(CliError::usage(format!(
            "{} is a folder; audit takes one game file",
            correspond::text::path(&args.file)
        )));
    }
    let history = History::of(&args.file).map_err(|e| {
        // That error names the file itself.
        let message = if matches!(e, correspond::git::GitError::NoRepository(_)) {
            e.to_string()
        } else {
            format!("{}: {e}", correspond::text::path(&args.file))
        };
        CliError::usage(message)
            .hint("audit reads the file's history from the git repository that holds it")
    })?;
    // The working copy, when the file is there, is checked against the last commit's.
    let work = correspond::log::read_limited(&args.file).ok();
    let report = audit_history(&history, work.as_deref()).map_err(|e| match e {
        HistoryError::Git(e) => read_error(&args.file, &e),
        never @ HistoryError::NeverHeld { .. } => {
            CliError::usage(format!("{}: {never}", correspond::text::path(&args.file)))
        }
    })?;
    if args.json {
        /// The report, after the file it is about.
        #[derive(serde::Serialize)]
        struct Json<'a> {
            file: String,
            #[serde(flatten)]
            report: &'a Report,
        }
        let json = Json {
            file: args.file.to_string_lossy().into_owned(),
            report: &report,
        };
        let text =
            serde_json::to_string_pretty(&json).map_err(|e| CliError::usage(e.to_string()))?;
        writeln!(out, "{}", correspond::text::json(text))?;
    } else {
        render(&args.file, &report, out)?;
    }
    Ok(if report.violations > 0 {
        ExitStatus::Rejected
    } else if !report.complete {
        ExitStatus::Incomplete
    } else {
        ExitStatus::Success
    })
}

/// The report as text, a line per commit.
fn render(file: &Path, report: &Report, out: &mut Out<'_>) -> Result<(), CliError> {
    let branch = correspond::text::escape(&report.branch);
    writeln!(
        out,
        "{} on {branch}: {} changed it",
        correspond::text::path(file),
        count(report.commits.len(), "commit")
    )?;
    for (i, commit) in report.commits.iter().enumerate() {
        writeln!(
            out,
            "{:>4}  {}  {}  {} <{}>  {}",
            i + 1,
            &commit.commit[..10],
            commit.git_time,
            correspond::text::escape(&commit.author),
            correspond::text::escape(&commit.email),
            correspond::text::shown(&commit.summary)
        )?;
        if let Some(violation) = &commit.violation {
            writeln!(out, "      VIOLATION: {}", violation.message)?;
        }
        for merge in &commit.merge_violations {
            writeln!(out, "      VIOLATION: {merge}")?;
        }
        let voided = &commit.voided;
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
        if !commit.added.is_empty() {
            writeln!(out, "      {}", added(&commit.added, &commit.records))?;
        }
    }
    for rewind in &report.rewinds {
        writeln!(out, "VIOLATION: {}", rewind.violation)?;
    }
    for other in &report.others {
        writeln!(out, "VIOLATION: {}", other.message)?;
    }
    for message in &report.incomplete {
        writeln!(out, "INCOMPLETE: {message}")?;
    }
    let seen = if report.complete {
        ""
    } else {
        " of the history this clone holds (not all of it)"
    };
    writeln!(
        out,
        "{} in {}{seen}; at {branch}: {}",
        count(report.violations, "violation"),
        count(report.commits.len(), "commit"),
        report.now
    )?;
    if !report.complete && report.violations == 0 {
        writeln!(
            out,
            "not passed: the history cannot be checked whole here; fetch all of it \
             (git fetch --unshallow; a graft is removed from .git/info/grafts) and audit again"
        )?;
    }
    Ok(())
}

/// A failure to read the history. An object missing from the clone (a partial clone made
/// with `--filter`, which libgit2 cannot fetch on demand) means the audit cannot see what it
/// must: it does not pass (exit code 3).
fn read_error(file: &Path, e: &correspond::git::GitError) -> CliError {
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

/// `records 3-4: alice move c2c3, bob move c6c5`, or `header, record 1: ...`.
fn added(range: &std::ops::Range<usize>, records: &[String]) -> String {
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

/// `1 commit`, `2 commits`.
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
