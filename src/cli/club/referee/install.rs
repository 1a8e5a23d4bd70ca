//! `correspond referee install` and `repair`: the hooks go only where every game already there
//! verifies and keeps one line of records, never over someone else's hook; the index is built
//! from the branches, under the referee's lock so that no push is judged meanwhile.

use super::lock::{self, Push};
use super::{CliError, counted, open, shown, shown_ref};
use crate::cli::Out;
use crate::cli::shared::error::ExitStatus;
use correspond::git::{GitError, Receiving};
use correspond::log::Refereed;
use correspond::referee::{Conflict, Index, shown_place};
use correspond::tournament::event::Event;
use std::path::Path;
use std::time::Duration;

/// The second line of each hook, by which `install` knows a hook of its own.
const MARK: &str = "# correspond referee:";

/// The hooks, with the `correspond referee` command each runs.
const HOOKS: [(&str, &str); 2] = [
    ("pre-receive", "hook --max-skew {max_skew} --wait {wait}"),
    ("reference-transaction", "transaction \"$1\""),
];

pub(super) fn install(
    repo: &Path,
    max_skew: u32,
    wait: u32,
    out: &mut Out<'_>,
) -> Result<ExitStatus, CliError> {
    let receiving = open(repo, None)?;
    if let Some(elsewhere) = receiving.setting("core.hooksPath") {
        return Err(CliError::usage(format!(
            "git runs this repository's hooks from {} (core.hooksPath), not from its hooks \
             folder: nothing was installed",
            correspond::text::escape(&elsewhere)
        ))
        .hint("unset core.hooksPath, or run the referee from the hooks there"));
    }
    let program = std::env::current_exe()
        .ok()
        .and_then(|p| p.to_str().map(sh_quote))
        .ok_or_else(|| {
            CliError::usage("cannot tell where this program is, to run it from the hook")
        })?;
    // A bare repository is its own git folder: the path as the user gave it.
    let hooks = repo.join("hooks");
    for (name, command) in HOOKS {
        let path = hooks.join(name);
        if std::fs::symlink_metadata(&path).is_ok() && !std::fs::read(&path).is_ok_and(|b| ours(&b))
        {
            let command = command
                .replace("{max_skew}", &max_skew.to_string())
                .replace("{wait}", &wait.to_string());
            return Err(CliError::usage(format!(
                "{} is there already, and is not the referee's; nothing was installed",
                correspond::text::path(&path)
            ))
            .hint(format!(
                "run the referee from it: pass its arguments and standard input to `{program} \
                 referee {command}` and exit non-zero when that does"
            )));
        }
    }
    let checked = check(&receiving, repo, out)?;
    for (name, command) in HOOKS {
        let command = command
            .replace("{max_skew}", &max_skew.to_string())
            .replace("{wait}", &wait.to_string());
        let script = format!(
            "#!/bin/sh\n{MARK} installed by `correspond referee install`; install again to \
             change it.\n# Refuses pushes that break a game's rules, or whose records are dated \
             more than\n# {max_skew} minutes from this server's clock, and judges pushes one at \
             a time (see docs/referee.md).\nexec {program} referee {command}\n"
        );
        write_hook(&hooks, &hooks.join(name), &script)?;
    }
    writeln!(
        out,
        "installed the referee as the pre-receive and reference-transaction hooks of {}: pushes \
         that break a game's rules are refused, one at a time, and records must be dated within \
         {max_skew} minutes of this server's clock",
        correspond::text::path(repo)
    )?;
    writeln!(out, "{checked}")?;
    Ok(ExitStatus::Success)
}

pub(super) fn repair(repo: &Path, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    let receiving = open(repo, None)?;
    let checked = check(&receiving, repo, out)?;
    writeln!(out, "{checked}")?;
    Ok(ExitStatus::Success)
}

/// Verifies every game on every branch and builds the index, under the referee's lock: what
/// was checked. Refused (exit code 1) when games do not verify, or copies of a game hold
/// different lines: no record appended could mend them.
fn check(receiving: &Receiving, repo: &Path, out: &mut Out<'_>) -> Result<String, CliError> {
    let index = Index::of(receiving.path());
    let none = |_: &[u8], _: Option<&str>| false;
    let _lock = lock::take(&index, Push::me(), Duration::from_secs(60), &none, out)?;
    let unreadable = |e: GitError| CliError::usage(format!("cannot read the repository: {e}"));
    let branches = receiving.branches().map_err(unreadable)?;
    let (mut invalid, mut copies) = (Vec::new(), Vec::new());
    let (mut files, mut tournaments) = (0, 0);
    let progress = crate::cli::shared::progress::start(branches.len(), "Checking", "branches");
    for (branch, commit) in &branches {
        for (path, bytes, kind) in receiving.refereed_files(*commit).map_err(unreadable)? {
            let place = format!("{}: {}", shown_ref(branch), shown(&path));
            if kind == Refereed::Tournament {
                tournaments += 1;
                if let Err(e) = Event::check(&bytes) {
                    invalid.push(format!("{place}: {e}"));
                }
                continue;
            }
            files += 1;
            match correspond::games::verify(&bytes) {
                Err(e) => invalid.push(format!("{place}: {e}")),
                Ok(_) => {
                    if let Some(digests) = correspond::referee::digests(&bytes) {
                        copies.push(((branch.clone(), path), digests));
                    }
                }
            }
        }
        progress.inc();
    }
    drop(progress);
    let conflicts = index
        .rebuild(&copies, &super::stands(&branches))
        .map_err(|e| CliError::usage(format!("cannot build the referee's index: {e}")))?;
    if invalid.is_empty() && conflicts.is_empty() {
        let tournaments = match tournaments {
            0 => String::new(),
            n => format!(" and {}", counted(n, "tournament file")),
        };
        return Ok(format!(
            "checked {}{tournaments} on {}: all valid, each game one line; the index holds {}",
            counted(files, "game file"),
            counted(branches.len(), "branch"),
            counted(games(&copies), "game")
        ));
    }
    // Nothing is judged against an index of games that cannot be mended: it is left unmarked.
    index
        .clear()
        .map_err(|e| CliError::usage(format!("cannot clear the referee's index: {e}")))?;
    let mut error = if invalid.is_empty() {
        CliError::rejected(format!(
            "{} on {} {} another line of a game that a copy holds, and no record appended could \
             mend {}",
            counted(conflicts.len(), "game file"),
            correspond::text::path(repo),
            if conflicts.len() == 1 {
                "holds"
            } else {
                "hold"
            },
            if conflicts.len() == 1 { "it" } else { "them" }
        ))
    } else {
        CliError::rejected(format!(
            "{} on {} {} not verify, and no record appended could mend {}",
            counted(invalid.len(), "game file"),
            correspond::text::path(repo),
            if invalid.len() == 1 { "does" } else { "do" },
            if invalid.len() == 1 { "it" } else { "them" }
        ))
    };
    for line in invalid {
        error = error.hint(line);
    }
    for Conflict {
        kept,
        other,
        document,
    } in conflicts
    {
        error = error.hint(format!(
            "{} parts at document {document} from the line of its game that {} holds",
            shown_place(&other),
            shown_place(&kept)
        ));
    }
    Err(error.hint("move those games out of the branches, then try again"))
}

/// How many games the copies hold.
fn games(copies: &[(correspond::referee::Place, Vec<correspond::digest::Digest>)]) -> usize {
    let mut ids: Vec<_> = copies.iter().filter_map(|(_, d)| d.first()).collect();
    ids.sort();
    ids.dedup();
    ids.len()
}

/// Whether a hook's bytes are the referee's own script: anything else (a program, a file that
/// cannot be read) is someone else's.
fn ours(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes)
        .is_ok_and(|text| text.lines().nth(1).is_some_and(|l| l.starts_with(MARK)))
}

/// Writes a hook whole or not at all, executable.
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
