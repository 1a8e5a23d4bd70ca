//! `correspond merge-driver`: what git runs to merge two versions of a game file (see
//! `correspond setup-git`).

use super::CliError;
use super::error::ExitStatus;
use crate::fork::{self, CompareError, Copy, Relation};
use std::io::Write;
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

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> Result<ExitStatus, CliError> {
    let read = |path: &Path| crate::log::read_limited(path).map_err(|e| CliError::io(path, &e));
    let (ours, theirs) = (read(&args.ours)?, read(&args.theirs)?);
    // The attribute's pattern may match other files (`*.yaml`): merge those as git would.
    let game = |bytes: &[u8]| bytes.starts_with(b"# correspond game file");
    if !game(&ours) && !game(&theirs) {
        return text_merge(args);
    }
    let name = args
        .path
        .clone()
        .unwrap_or_else(|| PathBuf::from("the game file"));
    let shown = name.display();
    let relation = fork::compare(&ours, &theirs).map_err(|e| match e {
        CompareError::Invalid { which, error } => CliError::rejected(format!(
            "{shown}: {} version does not verify: {error}",
            if which == Copy::A { "our" } else { "their" }
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
            crate::log::replace(&args.ours, &theirs).map_err(|e| CliError::io(&args.ours, &e))?;
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
        Relation::Fork(f) => {
            let [(ours_by, ours_did), (theirs_by, theirs_did)] = &f.records;
            let n = f.document;
            if f.equivocation {
                let proof_path = proof_path(args, n);
                let written = crate::log::create_new(&proof_path, &fork::proof(&ours, &theirs, &f))
                    .map(|()| format!("the proof is in {}", proof_path.display()))
                    .unwrap_or_else(|e| {
                        format!("no proof written to {}: {e}", proof_path.display())
                    });
                return Err(CliError::rejected(format!(
                    "{shown}: both sides claim record {n}, and {ours_by} signed both ({ours_did} \
                     here, {theirs_did} in theirs): that is equivocation; {written}"
                ))
                .hint(
                    "nothing was merged; `correspond check-proof` checks the proof, for an arbiter",
                ));
            }
            // Resolving the merge in favour of theirs would commit a version that drops our
            // record; dropping our unshared commit keeps the shared history clean.
            let take = "abort the merge and take the shared branch as it is (`git merge --abort && \
                        git reset --hard @{upstream}`: your record was never shared)";
            let advice = if theirs_did == "resign" {
                format!(
                    "{theirs_by} resigned at record {n} while {ours_by} signed {ours_did}: the game \
                     is over; {take}, and there is nothing left to do"
                )
            } else {
                format!(
                    "{theirs_by} signed {theirs_did} as record {n} while {ours_by} signed \
                     {ours_did} here: theirs is already shared, so {take}, then append again on \
                     top of it if there is still something to do"
                )
            };
            Err(
                CliError::rejected(format!("{shown}: both sides appended record {n}: {advice}"))
                    .hint("nothing was merged; your version is left as it was"),
            )
        }
    }
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

/// Next to the file in the work tree: `games/x.yaml` -> `games/x.equivocation-7.yaml`. Git runs
/// merge drivers at the top of the work tree, where %P is relative.
fn proof_path(args: &Args, record: usize) -> PathBuf {
    let path = args
        .path
        .clone()
        .unwrap_or_else(|| PathBuf::from("game.yaml"));
    let stem = path
        .file_stem()
        .map_or_else(|| "game".into(), |s| s.to_string_lossy());
    path.with_file_name(format!("{stem}.equivocation-{record}.yaml"))
}
