//! `correspond referee`: a shared repository that holds its games to the rules when records are
//! pushed, and witnesses their times. `install` writes the server-side hook; `hook` is what it
//! runs. The judgment is the library's ([`correspond::referee`]); this file reads git's lines,
//! the clock, and says what was refused.

use super::CliError;
use super::error::ExitStatus;
use crate::cli::Out;
use correspond::git::{Blob, FileUpdate, GitError, Oid, Receiving};
use correspond::log::Timestamp;
use correspond::referee::{
    Accepted, Refusal, Terms, Versions, judge_between, judge_branch, judge_file,
};
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// A referee for a shared repository: a server-side hook that refuses a push unless every game
/// file it changes only grows by records that verify (checked at the cost of the new records),
/// no game file is deleted or rewritten (not even in a commit that a later one undoes), new game
/// files verify, no branch holding games is deleted or force-pushed, and every document it adds
/// is dated within `--max-skew` minutes of the server's clock. A refused push changes nothing,
/// and git shows the player why (the file, the record and the rule) in its `remote:` lines.
/// Self-hosted git, Gitea, Forgejo and GitLab run such hooks; see docs/referee.md.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Install the referee as the `pre-receive` hook of a bare repository, after checking that
    /// every game file on its branches verifies. The hook runs this program where it is now:
    /// install again after moving it. Exit code 1 when a game file already there does not
    /// verify (nothing is installed), 2 when the repository cannot be used.
    Install {
        /// The bare repository (made with `git init --bare`).
        repo: PathBuf,
        /// How far, in minutes, a pushed record's time may be from the server's clock.
        #[arg(long, value_name = "MINUTES", default_value_t = 10, value_hint = clap::ValueHint::Other,
              value_parser = clap::value_parser!(u32).range(1..=1440))]
        max_skew: u32,
    },
    /// What the installed hook runs, in the repository, with git's `OLD NEW REFERENCE` lines on
    /// standard input. Exit code 0 takes the push, 1 refuses it, 2 when it cannot be read
    /// (which refuses it too). The clock is the system's; a test may pin it in the repository's
    /// own configuration (`git config correspond.refereeTime 2026-01-31T18:05:00Z`), which a
    /// player cannot set by pushing. Not for people to run.
    Hook {
        /// As `install` was given.
        #[arg(long, value_name = "MINUTES", default_value_t = 10, value_hint = clap::ValueHint::Other)]
        max_skew: u32,
    },
}

/// The first line of the hook, by which `install` knows a hook of its own.
const MARK: &str = "# correspond referee:";

/// The repository setting that pins the referee's clock, for tests.
const PINNED_CLOCK: &str = "correspond.refereeTime";

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    match &args.command {
        Command::Install { repo, max_skew } => install(repo, *max_skew, out),
        Command::Hook { max_skew } => hook(*max_skew, out),
    }
}

fn open(repo: &Path, quarantine: Option<&Path>) -> Result<Receiving, CliError> {
    Receiving::open(repo, quarantine).map_err(|e| {
        let message = match e {
            GitError::NoRepository(_) => {
                format!("{} is not a git repository", correspond::text::path(repo))
            }
            e => e.to_string(),
        };
        CliError::usage(message)
            .hint("the referee guards the repository players push to, made with `git init --bare`")
    })
}

fn install(repo: &Path, max_skew: u32, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    let receiving = open(repo, None)?;
    if let Some(elsewhere) = receiving.setting("core.hooksPath") {
        return Err(CliError::usage(format!(
            "git runs this repository's hooks from {} (core.hooksPath), not from its hooks \
             folder: nothing was installed",
            correspond::text::escape(&elsewhere)
        ))
        .hint("unset core.hooksPath, or run the referee from the pre-receive hook there"));
    }
    let (checked, invalid) = check_branches(&receiving)?;
    if !invalid.is_empty() {
        let (count, verb) = match invalid.len() {
            1 => ("a game file".to_owned(), "does"),
            n => (format!("{n} game files"), "do"),
        };
        let mut error = CliError::rejected(format!(
            "not installed: {count} on {} {verb} not verify, and no record appended could mend \
             it",
            correspond::text::path(repo)
        ));
        for line in invalid {
            error = error.hint(line);
        }
        return Err(error.hint("move those games out of the branches, then install again"));
    }
    let program = std::env::current_exe()
        .ok()
        .and_then(|p| p.to_str().map(sh_quote))
        .ok_or_else(|| {
            CliError::usage("cannot tell where this program is, to run it from the hook")
        })?;
    // A bare repository is its own git folder: the path as the user gave it.
    let hooks = repo.join("hooks");
    let path = hooks.join("pre-receive");
    // Anything there that is not the referee's own script (a program, a file that cannot be
    // read) is someone else's.
    let ours = |bytes: &[u8]| {
        std::str::from_utf8(bytes)
            .is_ok_and(|text| text.lines().nth(1).is_some_and(|l| l.starts_with(MARK)))
    };
    if std::fs::symlink_metadata(&path).is_ok() && !std::fs::read(&path).is_ok_and(|b| ours(&b)) {
        return Err(CliError::usage(format!(
            "{} is there already, and is not the referee's; it was left as it is",
            correspond::text::path(&path)
        ))
        .hint(format!(
            "run the referee from it: pass its standard input to `{program} referee hook \
             --max-skew {max_skew}` and refuse the push when that exits non-zero"
        )));
    }
    let script = format!(
        "#!/bin/sh\n{MARK} installed by `correspond referee install`; install again to change it.\n\
         # Refuses pushes that break a game's rules, or whose records are dated more than\n\
         # {max_skew} minutes from this server's clock (see docs/referee.md).\n\
         exec {program} referee hook --max-skew {max_skew}\n"
    );
    write_hook(&hooks, &path, &script)?;
    writeln!(
        out,
        "installed the referee as {}: pushes that break a game's rules are refused, and records \
         must be dated within {max_skew} minutes of this server's clock",
        correspond::text::path(&path)
    )?;
    writeln!(out, "{checked}")?;
    Ok(ExitStatus::Success)
}

/// Verifies every game file on every branch: what was checked, and a line for each that fails.
fn check_branches(receiving: &Receiving) -> Result<(String, Vec<String>), CliError> {
    let read =
        |e: correspond::git::GitError| CliError::usage(format!("cannot read the repository: {e}"));
    let branches = receiving.branches().map_err(read)?;
    let (mut files, mut invalid) = (0, Vec::new());
    for (branch, commit) in &branches {
        for (path, bytes) in receiving.game_files(*commit).map_err(read)? {
            files += 1;
            if let Err(e) = correspond::replay::verify(&bytes) {
                invalid.push(format!(
                    "{}: {}: {e}",
                    correspond::text::shown(branch),
                    shown_path(&path)
                ));
            }
        }
    }
    let checked = format!(
        "checked {files} game {} on {} {}: all valid",
        if files == 1 { "file" } else { "files" },
        branches.len(),
        if branches.len() == 1 {
            "branch"
        } else {
            "branches"
        }
    );
    Ok((checked, invalid))
}

/// Writes the hook whole or not at all, executable.
fn write_hook(hooks: &Path, path: &Path, script: &str) -> Result<(), CliError> {
    use std::io::Write as _;
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::create_dir_all(hooks).map_err(|e| CliError::io(hooks, &e))?;
    let mut file = tempfile::NamedTempFile::new_in(hooks).map_err(|e| CliError::io(hooks, &e))?;
    file.write_all(script.as_bytes())
        .and_then(|()| {
            file.as_file()
                .set_permissions(std::fs::Permissions::from_mode(0o755))
        })
        .map_err(|e| CliError::io(path, &e))?;
    file.persist(path)
        .map_err(|e| CliError::io(path, &e.error))?;
    Ok(())
}

/// A text as one word for `sh`: in single quotes, each quote in it closed, escaped and opened.
fn sh_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

fn shown_path(path: &[u8]) -> String {
    correspond::text::escape(&String::from_utf8_lossy(path)).into_owned()
}

fn hook(max_skew: u32, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    // git runs the hook in the repository, and names it (and the push's quarantined objects).
    let git_dir = std::env::var_os("GIT_DIR").map_or_else(|| PathBuf::from("."), PathBuf::from);
    let quarantine = std::env::var_os("GIT_QUARANTINE_PATH").map(PathBuf::from);
    let receiving = open(&git_dir, quarantine.as_deref())?;
    let now = match receiving.local_setting(PINNED_CLOCK) {
        Some(pinned) => {
            let time = Timestamp::parse(&pinned).ok_or_else(|| {
                CliError::usage(format!(
                    "{PINNED_CLOCK} is `{}`, not a time like 2026-01-31T18:05:00Z",
                    correspond::text::shown(&pinned)
                ))
            })?;
            writeln!(
                out,
                "correspond referee: the clock is pinned to {} by {PINNED_CLOCK}, which is for \
                 tests only",
                time.as_str()
            )?;
            time.to_unix()
        }
        None => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
    };
    let terms = Terms {
        now,
        max_skew: u64::from(max_skew) * 60,
    };
    let mut refused = 0;
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| CliError::usage(format!("cannot read git's lines: {e}")))?;
        let (old, new, reference) = parse_update(&line)?;
        if !reference.starts_with("refs/heads/") {
            continue;
        }
        refused += judge_update(&receiving, (old, new), &reference, terms, out)?;
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

/// `OLD NEW REFERENCE`, with git's all-zero id for a reference made or deleted.
fn parse_update(line: &str) -> Result<(Option<Oid>, Option<Oid>, String), CliError> {
    let bad = || {
        CliError::usage(format!(
            "git gave the hook `{}`, not `OLD NEW REFERENCE`",
            correspond::text::shown(line)
        ))
    };
    let mut parts = line.split(' ');
    let mut id = || -> Result<Option<Oid>, CliError> {
        let oid = Oid::from_str(parts.next().ok_or_else(bad)?).map_err(|_| bad())?;
        Ok((!oid.is_zero()).then_some(oid))
    };
    let (old, new) = (id()?, id()?);
    let reference = parts.next().ok_or_else(bad)?.to_owned();
    Ok((old, new, reference))
}

/// Judges one reference's update, saying what was taken and what refused; the number refused.
fn judge_update(
    receiving: &Receiving,
    (old, new): (Option<Oid>, Option<Oid>),
    reference: &str,
    terms: Terms,
    out: &mut Out<'_>,
) -> Result<usize, CliError> {
    let name = correspond::text::escape(reference).into_owned();
    let unreadable = |e: GitError| CliError::usage(format!("cannot read the push to {name}: {e}"));
    let update = receiving.update(reference, old, new).map_err(unreadable)?;
    if let Err(refusal) = judge_branch(new.is_none(), update.fast_forward, update.held) {
        writeln!(out, "correspond referee: refused {name}: {refusal}")?;
        return Ok(1);
    }
    let mut refused = 0;
    for file in &update.files {
        let path = shown_path(&file.path);
        match judge_one(receiving, file, terms).map_err(unreadable)? {
            Ok(accepted) => writeln!(
                out,
                "correspond referee: {name}: {path}: {}; {}",
                taken(&accepted.added),
                correspond::text::escape(&accepted.summary.status)
            )?,
            Err(refusal) => {
                refused += 1;
                writeln!(
                    out,
                    "correspond referee: refused {name}: {path}: {}",
                    said(&refusal)
                )?;
            }
        }
    }
    Ok(refused)
}

/// Reads one file's versions and judges them: the new version against what the branches held,
/// then each pushed commit's version against it, one at a time.
fn judge_one(
    receiving: &Receiving,
    file: &FileUpdate,
    terms: Terms,
) -> Result<Result<Accepted, Refusal>, GitError> {
    let read = |blob: Option<Oid>| -> Result<Option<Blob>, GitError> {
        blob.map(|b| receiving.read(b)).transpose()
    };
    let bytes = |blob: Option<Blob>| match blob {
        Some(Blob::Bytes(bytes)) => Some(bytes),
        _ => None,
    };
    let after = match read(file.after)? {
        Some(Blob::TooLarge(size)) => return Ok(Err(Refusal::TooLarge { size, commit: None })),
        after => bytes(after),
    };
    let before = bytes(read(file.before)?);
    let mut elsewhere = Vec::new();
    for (branch, blob) in &file.elsewhere {
        if let Some(b) = bytes(read(Some(*blob))?) {
            elsewhere.push((branch.clone(), b));
        }
    }
    let elsewhere: Vec<(String, &[u8])> = elsewhere
        .iter()
        .map(|(n, b)| (n.clone(), b.as_slice()))
        .collect();
    let versions = Versions {
        before: before.as_deref(),
        elsewhere: &elsewhere,
        after: after.as_deref(),
    };
    let accepted = match judge_file(&versions, terms) {
        Ok(accepted) => accepted,
        Err(refusal) => return Ok(Err(refusal)),
    };
    let after = after.unwrap_or_default();
    for between in &file.between {
        let commit = short(between.commit);
        let version = match read(between.blob)? {
            Some(Blob::TooLarge(size)) => {
                return Ok(Err(Refusal::TooLarge {
                    size,
                    commit: Some(commit),
                }));
            }
            version => bytes(version),
        };
        if let Err(refusal) = judge_between(
            &accepted,
            &after,
            &commit,
            version.as_deref(),
            between.parent_held,
        ) {
            return Ok(Err(refusal));
        }
    }
    Ok(Ok(accepted))
}

fn taken(added: &std::ops::Range<usize>) -> String {
    match (added.start, added.len()) {
        (_, 0) => "nothing added".to_owned(),
        (0, _) => "a new game, verified".to_owned(),
        (first, 1) => format!("record {first} taken"),
        (first, _) => format!("records {first} to {} taken", added.end - 1),
    }
}

/// A refusal's words, escaped: they quote files' contents.
fn said(refusal: &Refusal) -> String {
    correspond::text::escape(&refusal.to_string()).into_owned()
}

fn short(commit: Oid) -> String {
    commit.to_string()[..12].to_owned()
}
