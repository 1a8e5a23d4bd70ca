//! `correspond audit`: check a game file's git history, commit by commit; or every game file a
//! folder's history holds or held.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::count;
use crate::cli::shared::error::ExitStatus;
use correspond::audit::{HistoryError, Report, audit_history};
use correspond::git::{Held, Histories, History};
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
///
/// A folder stands for every game file that the branch's history holds or ever held under it
/// (found as `verify FOLDER` finds them, in every commit of the line), so that a game deleted
/// since is audited too: `correspond audit .` in CI checks a whole club's history. The files
/// are audited in turn, and the exit code is the worst of theirs.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Game files or folders, inside a git work tree (a file need not exist any more).
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Print JSON: one object for one file named, an array of them otherwise.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    progress: crate::cli::shared::progress::ProgressArgs,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    args.progress.choose();
    // A folder's files are read in one walk of its branch, before any is audited; a file named
    // alone is read alone.
    let mut folders: Vec<Histories> = Vec::new();
    let mut files: Vec<(PathBuf, Option<(usize, usize)>)> = Vec::new();
    for path in &args.paths {
        if path.is_dir() {
            let histories = Histories::of_folder(path).map_err(|e| {
                CliError::usage(e.to_string())
                    .hint("audit reads the history of the git repository that holds the folder")
            })?;
            if histories.held().is_empty() {
                // Nothing audited is not a clean history: a CI check must not pass on it.
                return Err(CliError::usage(format!(
                    "no game file has ever been in {} on this branch: nothing to audit",
                    correspond::text::path(path)
                ))
                .hint("audit looks for *.yaml and *.yml game files, passing over hidden ones"));
            }
            let f = folders.len();
            let held = histories.held().iter().enumerate();
            files.extend(held.map(|(i, h)| (h.path.clone(), Some((f, i)))));
            folders.push(histories);
        } else {
            files.push((path.clone(), None));
        }
    }
    let one = args.paths.len() == 1 && !args.paths[0].is_dir();
    let mut reports = Vec::with_capacity(files.len());
    let progress = crate::cli::shared::progress::start(files.len(), "Auditing", "files");
    for (file, from) in &files {
        let held = from.and_then(|(f, i)| {
            let histories = folders.get(f)?;
            Some((histories, histories.held().get(i)?))
        });
        reports.push((file, audit(file, held)?));
        progress.inc();
    }
    drop(progress);
    if args.json {
        /// A report, after the file it is about.
        #[derive(serde::Serialize)]
        struct Json<'a> {
            file: String,
            #[serde(flatten)]
            report: &'a Report,
        }
        let json: Vec<Json<'_>> = reports
            .iter()
            .map(|(file, report)| Json {
                file: file.to_string_lossy().into_owned(),
                report,
            })
            .collect();
        let text = if one {
            serde_json::to_string_pretty(&json[0])
        } else {
            serde_json::to_string_pretty(&json)
        }
        .map_err(|e| CliError::usage(e.to_string()))?;
        writeln!(out, "{}", correspond::text::json(text))?;
    } else {
        for (i, (file, report)) in reports.iter().enumerate() {
            if i > 0 {
                writeln!(out)?;
            }
            render(file, report, out)?;
        }
        if !one {
            summary(&reports, out)?;
        }
    }
    let status = |report: &Report| {
        if report.violations > 0 {
            ExitStatus::Rejected
        } else if !report.complete {
            ExitStatus::Incomplete
        } else {
            ExitStatus::Success
        }
    };
    let statuses: Vec<ExitStatus> = reports.iter().map(|(_, r)| status(r)).collect();
    Ok([ExitStatus::Rejected, ExitStatus::Incomplete]
        .into_iter()
        .find(|worst| statuses.contains(worst))
        .unwrap_or(ExitStatus::Success))
}

/// The last line of an audit of several files.
fn summary(reports: &[(&PathBuf, Report)], out: &mut Out<'_>) -> Result<(), CliError> {
    let violated = reports.iter().filter(|(_, r)| r.violations > 0).count();
    let incomplete = reports
        .iter()
        .filter(|(_, r)| r.violations == 0 && !r.complete)
        .count();
    if !reports.is_empty() {
        writeln!(out)?;
    }
    let audited = count(reports.len(), "game file");
    match (violated, incomplete) {
        (0, 0) => writeln!(out, "{audited} audited: every history clean")?,
        _ => writeln!(
            out,
            "{audited} audited: {} with violations, {} not seen whole",
            violated, incomplete
        )?,
    }
    Ok(())
}

/// Audits one file's history: from its folder's, when it is one of a folder's files.
fn audit(file: &Path, held: Option<(&Histories, &Held)>) -> Result<Report, CliError> {
    let from_folder = match held {
        Some((histories, held)) => histories.history(held).transpose(),
        None => None,
    };
    let history = from_folder
        .unwrap_or_else(|| History::of(file))
        .map_err(|e| {
            // That error names the file itself.
            let message = if matches!(e, correspond::git::GitError::NoRepository(_)) {
                e.to_string()
            } else {
                format!("{}: {e}", correspond::text::path(file))
            };
            CliError::usage(message)
                .hint("audit reads the file's history from the git repository that holds it")
        })?;
    // The working copy, when the file is there, is checked against the last commit's.
    let work = correspond::log::read_limited(file).ok();
    let report = audit_history(&history, work.as_deref()).map_err(|e| match e {
        HistoryError::Git(e) => read_error(file, &e),
        never @ HistoryError::NeverHeld { .. } => {
            CliError::usage(format!("{}: {never}", correspond::text::path(file)))
        }
    })?;
    Ok(report)
}

/// The report as text, a line per commit. Its messages quote what the versions held (a
/// defect's own words), so they are escaped as they are printed.
fn render(file: &Path, report: &Report, out: &mut Out<'_>) -> Result<(), CliError> {
    use correspond::text::escape;
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
            writeln!(out, "      VIOLATION: {}", escape(&violation.message))?;
        }
        for merge in &commit.merge_violations {
            writeln!(out, "      VIOLATION: {}", escape(merge))?;
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
        writeln!(out, "VIOLATION: {}", escape(&rewind.violation))?;
    }
    for other in &report.others {
        writeln!(out, "VIOLATION: {}", escape(&other.message))?;
    }
    for message in &report.incomplete {
        writeln!(out, "INCOMPLETE: {}", escape(message))?;
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
