//! `correspond merge-driver`: what git runs to merge two versions of a game file (see
//! `correspond setup-git`).

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::checking::compare;
use crate::cli::shared::error::ExitStatus;
use correspond::fork::{self, CompareError, Copy, Relation};
use std::path::{Path, PathBuf};

/// Merge two versions of a game file, as git's merge driver: when one version only extends the
/// other, the result is the longer one (it verifies, or nothing is written); when both appended
/// different records after the same point, refuse and say what happened and what each player
/// should do. Not meant to be run by hand: `correspond setup-git` tells git to run it.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The common ancestor's version (git's %O).
    base: PathBuf,
    /// Our version (git's %A); the result is written here.
    ours: PathBuf,
    /// Their version (git's %B).
    theirs: PathBuf,
    /// The file's path in the repository (git's %P), for messages and the proof's name.
    path: Option<PathBuf>,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    let read =
        |path: &Path| correspond::log::read_limited(path).map_err(|e| CliError::io(path, &e));
    let (ours, theirs) = (read(&args.ours)?, read(&args.theirs)?);
    // The attribute's pattern may match other files (`*.yaml`): merge those as git would.
    let game = |bytes: &[u8]| bytes.starts_with(b"# correspond game file");
    if !game(&ours) && !game(&theirs) {
        return text_merge(args);
    }
    let name = args
        .path
        .clone()
        .unwrap_or_else(|| PathBuf::from("game.yaml"));
    let shown = correspond::text::path(&name);
    let relation = fork::compare(&ours, &theirs).map_err(|e| match e {
        // In a rebase git gives the shared version as "ours", the local commit as "theirs".
        CompareError::Invalid { which, error } => CliError::rejected(format!(
            "{shown}: the {} version does not verify: {error}",
            match (which == Copy::A, rebasing()) {
                (true, false) | (false, true) => "local",
                (true, true) | (false, false) => "shared",
            }
        ))
        .hint("nothing was merged; `correspond audit` shows where the history went wrong"),
    })?;
    match relation {
        Relation::Same => Ok(ExitStatus::Success),
        Relation::Extends {
            longer: Copy::A, ..
        } => {
            writeln!(out, "{shown}: ours extends theirs; keeping ours")?;
            Ok(ExitStatus::Success)
        }
        Relation::Extends {
            longer: Copy::B,
            added,
        } => {
            // `compare` has replayed the longer version: it verifies.
            correspond::log::replace(&args.ours, &theirs)
                .map_err(|e| CliError::io(&args.ours, &e))?;
            writeln!(
                out,
                "{shown}: theirs extends ours by {}; taking theirs",
                span(&added)
            )?;
            Ok(ExitStatus::Success)
        }
        Relation::Unrelated => Err(CliError::rejected(format!(
            "{shown}: the two versions are different games (their headers differ)"
        ))
        .hint("nothing was merged; keep one game per file")),
        Relation::Fork(f) => Err(fork_refused(&f, &ours, &theirs, &name)),
    }
}

/// The refusal of a fork, saying who did what and what to do. During a rebase git swaps the
/// sides: "ours" is then the shared version being rebased onto, and "theirs" the local commit.
fn fork_refused(f: &fork::Fork, ours: &[u8], theirs: &[u8], name: &Path) -> CliError {
    let shown = correspond::text::path(name);
    let n = f.document;
    let rebasing = rebasing();
    // Indices into the fork's two copies: ours (0) and theirs (1), swapped in a rebase.
    let (shared_at, local_at) = if rebasing { (0, 1) } else { (1, 0) };
    let (shared, local) = (&f.records[shared_at], &f.records[local_at]);
    let (shared_defect, local_defect) = (&f.defects[shared_at], &f.defects[local_at]);
    let abort = if rebasing {
        "git rebase --abort"
    } else {
        "git merge --abort"
    };
    if f.equivocation {
        return equivocation_refused(
            f,
            ours,
            theirs,
            name,
            [shared, local],
            [shared_defect, local_defect],
        );
    }
    let (shared_by, shared_did) = shared;
    let (local_by, local_did) = local;
    let what = format!(
        "{shown}: both sides appended record {n} ({shared_by} signed {shared_did} in the shared \
         version, {local_by} signed {local_did} in the local one)"
    );
    let keep_yours = format!(
        "keep your version (`{abort}`) and show the shared history to an arbiter (`correspond \
         audit {shown}` after fetching)"
    );
    match (shared_defect, local_defect) {
        (Some(shared_bad), None) => {
            return CliError::rejected(format!(
                "{what}: the shared version does not verify ({shared_bad}), so it is no game to \
                 take; {keep_yours}"
            ))
            .hint("nothing was merged; your version is left as it was");
        }
        (Some(shared_bad), Some(local_bad)) => {
            return CliError::rejected(format!(
                "{what}: neither version verifies (shared: {shared_bad}; local: {local_bad}); \
                 {keep_yours}"
            ))
            .hint("nothing was merged; your version is left as it was");
        }
        _ => {}
    }
    let take = take_the_shared(name, rebasing);
    let advice = if let Some(local_bad) = local_defect {
        format!("your version does not verify ({local_bad}): the shared version stands, so {take}")
    } else if *shared_did == correspond::log::Action::Resign {
        format!(
            "{shared_by} resigned at record {n} while {local_by} signed {local_did}: the game is \
             over; {take}, and there is nothing left to do"
        )
    } else {
        format!(
            "{shared_by} signed {shared_did} as record {n} while {local_by} signed {local_did} \
             here: the shared version stands, so {take}, then append again on top of it if there \
             is still something to do"
        )
    };
    CliError::rejected(format!("{shown}: both sides appended record {n}: {advice}"))
        .hint("nothing was merged; your version is left as it was")
}

/// How to drop the local record and take the shared version, keeping every other change and
/// commit. A merge commit would keep the dropped record on the first-parent line, where
/// `audit` reads it as a rewrite; so the local commits are rebased onto the shared ones, and
/// the commit that signed the record keeps everything but this file's change (git drops it
/// when nothing else is left). No step discards work: `git merge --abort` and
/// `git rebase --autostash` keep what is not committed.
fn take_the_shared(name: &Path, rebasing: bool) -> String {
    // From the top of the work tree, the name taken literally (no glob).
    let top = correspond::text::shell_word(&format!(":(top,literal){}", name.to_string_lossy()));
    let resolve = format!("git checkout --ours -- {top} && git add {top} && git rebase --continue");
    let kept = "your other commits and changes are kept; your record was never shared";
    if rebasing {
        return format!("drop your local record and take the shared version (`{resolve}`: {kept})");
    }
    // git names the commit being merged in GITHEAD_<id> while the driver runs; MERGE_HEAD is
    // written only after it.
    let merged = std::env::vars_os()
        .filter_map(|(k, _)| k.into_string().ok())
        .filter_map(|k| k.strip_prefix("GITHEAD_").map(str::to_owned))
        .filter(|id| id.len() >= 40 && id.bytes().all(|b| b.is_ascii_hexdigit()))
        .min()
        .map_or_else(|| "@{upstream}".to_owned(), |id| id[..12].to_owned());
    format!(
        "drop your local record and take the shared version (`git merge --abort && git rebase \
         --autostash {merged}`, then, where the rebase stops at your record, `{resolve}`: {kept})"
    )
}

/// The refusal of a fork where one player signed both records: the proof is written, and
/// each version that does not verify is named.
fn equivocation_refused(
    f: &fork::Fork,
    ours: &[u8],
    theirs: &[u8],
    name: &Path,
    [shared, local]: [&(String, correspond::log::Action); 2],
    [shared_defect, local_defect]: [&Option<String>; 2],
) -> CliError {
    let (shown, n) = (correspond::text::path(name), f.document);
    let path = compare::proof_name(name, n);
    let written = correspond::log::create_new(&path, &fork::proof(ours, theirs, f))
        .map(|()| format!("the proof is in {}", correspond::text::path(&path)))
        .unwrap_or_else(|e| format!("no proof written to {}: {e}", correspond::text::path(&path)));
    let mut error = CliError::rejected(format!(
        "{shown}: both sides claim record {n}, and {} signed both ({} in the shared version, {} \
         in the local one): that is equivocation; {written}",
        shared.0, shared.1, local.1
    ));
    for (which, defect) in [("shared", shared_defect), ("local", local_defect)] {
        if let Some(defect) = defect {
            error = error.hint(format!("the {which} version does not verify: {defect}"));
        }
    }
    error.hint("nothing was merged; `correspond check-proof` checks the proof, for an arbiter")
}

/// Whether git is rebasing (and so has swapped the sides: "ours" is the shared version).
fn rebasing() -> bool {
    // git names its repository to the driver in GIT_DIR when it is not found from the folder
    // the driver runs in.
    let git_dir = std::env::var_os("GIT_DIR")
        .map_or_else(|| std::path::PathBuf::from("."), std::path::PathBuf::from);
    correspond::git::rebase_onto(&git_dir).is_some()
}

/// git's own line-by-line merge, for files that are not game files: the result (with conflict
/// markers, if any) in ours, and failure when there are conflicts.
fn text_merge(args: &Args) -> Result<ExitStatus, CliError> {
    let status = std::process::Command::new("git")
        .args(["merge-file", "-L", "ours", "-L", "base", "-L", "theirs"])
        .arg(&args.ours)
        .arg(&args.base)
        .arg(&args.theirs)
        .status()
        .map_err(|e| CliError::usage(format!("cannot run git merge-file: {e}")))?;
    match status.code() {
        Some(0) => Ok(ExitStatus::Success),
        Some(n) if n > 0 => Ok(ExitStatus::Rejected),
        _ => Err(CliError::usage("git merge-file failed")),
    }
}

fn span(added: &std::ops::Range<usize>) -> String {
    if added.len() == 1 {
        format!("record {}", added.start)
    } else {
        format!("records {}-{}", added.start, added.end - 1)
    }
}
