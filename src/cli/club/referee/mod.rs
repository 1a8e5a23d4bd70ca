//! `correspond referee`: a shared repository that holds its games to the rules when records are
//! pushed, and witnesses their times. `install` writes the server-side hooks; `hook` and
//! `transaction` are what they run; `repair` builds the referee's index again. The judgment is
//! the library's ([`correspond::referee`]); these files read git's lines, the clock and the
//! processes, keep pushes one at a time ([`lock`]), and say what was refused.

mod hook;
mod install;
mod lock;

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::error::ExitStatus;
use correspond::git::{GitError, Oid, Receiving};
use correspond::referee::{Index, Place};
use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// A referee for a shared repository: server-side hooks that refuse a push unless every game
/// file it changes only grows by records that verify (checked at the cost of the new records),
/// every game keeps one line of records across all its copies on every branch, no game file is
/// deleted or rewritten (not even in a commit that a later one undoes), new game files verify
/// (a game is known by its content, whatever its name), no branch holding games is deleted or
/// force-pushed, no `.gitattributes` line would change the bytes of files on checkout, and every
/// document it adds is dated within `--max-skew` minutes of the server's clock. Pushes are
/// judged one at a time. A refused push changes nothing, and git shows the player why (the
/// file, the record and the rule) in its `remote:` lines. See docs/referee.md.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Install the referee as the `pre-receive` and `reference-transaction` hooks of a bare
    /// repository, after checking that every game file on its branches verifies and that each
    /// game has one line of records, and build its index. The hooks run this program where it
    /// is now: install again after moving it. Exit code 1 when a game already there does not
    /// verify, or has two lines (nothing is installed), 2 when the repository cannot be used.
    Install {
        /// The bare repository (made with `git init --bare`).
        repo: PathBuf,
        /// How far, in minutes, a pushed record's time may be from the server's clock.
        #[arg(long, value_name = "MINUTES", default_value_t = 10, value_hint = clap::ValueHint::Other,
              value_parser = clap::value_parser!(u32).range(1..=1440))]
        max_skew: u32,
        /// How long, in seconds, a push waits for another that is being judged or landing
        /// before it is refused.
        #[arg(long, value_name = "SECONDS", default_value_t = 60, value_hint = clap::ValueHint::Other,
              value_parser = clap::value_parser!(u32).range(1..=3600))]
        wait: u32,
        #[command(flatten)]
        progress: crate::cli::shared::progress::ProgressArgs,
    },
    /// Build the referee's index of a repository again from its branches (the hooks do so by
    /// themselves when they find it lost, damaged or out of step with the branches). Exit code
    /// 1 when copies of a game hold different lines of it (they are named), 2 when the
    /// repository cannot be used.
    Repair {
        /// The bare repository.
        repo: PathBuf,
    },
    /// What the installed `pre-receive` hook runs, in the repository, with git's `OLD NEW
    /// REFERENCE` lines on standard input. Exit code 0 takes the push, 1 refuses it, 2 when it
    /// cannot be read (which refuses it too). The clock is the system's; a test may pin it in
    /// the repository's own configuration (`git config correspond.refereeTime
    /// 2026-01-31T18:05:00Z`), which a player cannot set by pushing. Not for people to run.
    Hook {
        /// As `install` was given.
        #[arg(long, value_name = "MINUTES", default_value_t = 10, value_hint = clap::ValueHint::Other)]
        max_skew: u32,
        /// As `install` was given.
        #[arg(long, value_name = "SECONDS", default_value_t = 60, value_hint = clap::ValueHint::Other)]
        wait: u32,
    },
    /// What the installed `reference-transaction` hook runs as git updates references: a
    /// judged push's index updates are taken once git has made them, and its lock released. Not
    /// for people to run.
    Transaction {
        /// The stage git names: `prepared`, `committed` or `aborted`.
        stage: String,
    },
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    match &args.command {
        Command::Install {
            repo,
            max_skew,
            wait,
            progress,
        } => {
            progress.choose();
            install::install(repo, *max_skew, *wait, out)
        }
        Command::Repair { repo } => install::repair(repo, out),
        Command::Hook { max_skew, wait } => hook::run(*max_skew, *wait, out),
        Command::Transaction { stage } => transaction(stage),
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

/// One line git gives a hook: the old and new values of a reference (`None`: all zeros, the
/// reference made or deleted; otherwise as git spells them) and its name, as bytes.
type UpdateLine = (Option<String>, Option<String>, Vec<u8>);

/// git's `OLD NEW REFERENCE` lines. A reference's name is bytes (git allows names that are not
/// UTF-8), and is kept as such.
fn read_lines(input: &mut dyn BufRead) -> Result<Vec<UpdateLine>, CliError> {
    let mut updates = Vec::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = input
            .read_until(b'\n', &mut line)
            .map_err(|e| CliError::usage(format!("cannot read git's lines: {e}")))?;
        if read == 0 {
            return Ok(updates);
        }
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        let bad = || {
            CliError::usage(format!(
                "git gave the hook `{}`, not `OLD NEW REFERENCE`",
                correspond::text::bytes(text)
            ))
        };
        let mut parts = text.splitn(3, |&b| b == b' ');
        let mut value = || -> Result<Option<String>, CliError> {
            let word = std::str::from_utf8(parts.next().ok_or_else(bad)?).map_err(|_| bad())?;
            Ok((!word.is_empty() && !word.bytes().all(|b| b == b'0')).then(|| word.to_owned()))
        };
        let (old, new) = (value()?, value()?);
        let name = parts.next().ok_or_else(bad)?.to_vec();
        updates.push((old, new, name));
    }
}

/// A branch update a push asks for: its commits before and after (`None`: made, or deleted),
/// and its name, as bytes.
pub(in crate::cli) type BranchUpdate = (Option<Oid>, Option<Oid>, Vec<u8>);

/// A game's copy (its branch and path) and its documents' digests.
type Copy = (Place, Vec<correspond::digest::Digest>);

/// git's lines for a `pre-receive` hook, each value a commit.
fn read_updates(input: &mut dyn BufRead) -> Result<Vec<BranchUpdate>, CliError> {
    let mut updates = Vec::new();
    for (old, new, name) in read_lines(input)? {
        let id = |value: Option<String>| -> Result<Option<Oid>, CliError> {
            value
                .map(|v| {
                    Oid::from_str(&v).map_err(|_| {
                        CliError::usage(format!(
                            "git gave the hook `{}` for {}, not a commit id",
                            correspond::text::shown(&v),
                            shown_ref(&name)
                        ))
                    })
                })
                .transpose()
        };
        updates.push((id(old)?, id(new)?, name.clone()));
    }
    Ok(updates)
}

/// The `reference-transaction` hook: see [`lock::settle`].
fn transaction(stage: &str) -> Result<ExitStatus, CliError> {
    let stage = match stage {
        "prepared" => lock::Stage::Prepared,
        "committed" => lock::Stage::Committed,
        "aborted" => lock::Stage::Aborted,
        // A stage a later git may add is none of the referee's business.
        _ => return Ok(ExitStatus::Success),
    };
    // This hook never stops an update, even one it cannot read: git ends a push whose
    // reference-transaction hook fails by dying. What it could not do is said, and the index,
    // out of step, is built again at the next push.
    let settled = read_lines(&mut std::io::stdin().lock()).and_then(|lines| {
        // Only a push's updates are the referee's: another git command's go through.
        let Some(push) = lock::Push::this() else {
            return Ok(());
        };
        let git_dir = std::env::var_os("GIT_DIR").map_or_else(|| PathBuf::from("."), PathBuf::from);
        lock::settle(&Index::of(&git_dir), push, &stage, &lines)
    });
    if let Err(error) = settled {
        let _ = error.report(&mut std::io::stderr());
    }
    Ok(ExitStatus::Success)
}

/// Brings the index up to the branches: built again when it is lost, damaged, or does not
/// stand where the branches stand (one was moved by something other than a push).
fn bring_up_to_date(
    receiving: &Receiving,
    index: &Index,
    branches: &[(Vec<u8>, Oid)],
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    let why = match index.branches() {
        Ok(Some(known)) if known == stands(branches) => return Ok(()),
        Ok(Some(_)) => "out of step with the branches",
        Ok(None) => "missing",
        Err(_) => "damaged",
    };
    rebuild(receiving, index, branches, why, out)
}

/// Where the branches stand, as the index keeps it.
fn stands(branches: &[(Vec<u8>, Oid)]) -> BTreeMap<Vec<u8>, String> {
    branches
        .iter()
        .map(|(name, tip)| (name.clone(), tip.to_string()))
        .collect()
}

/// Builds the index again from the branches, saying why and what it found.
fn rebuild(
    receiving: &Receiving,
    index: &Index,
    branches: &[(Vec<u8>, Oid)],
    why: &str,
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    let (copies, invalid) = copies(receiving, branches)?;
    let conflicts = index
        .rebuild(&copies, &stands(branches))
        .map_err(|e| CliError::usage(format!("cannot build the referee's index: {e}")))?;
    writeln!(
        out,
        "correspond referee: the referee's index was {why}; built again from {} on {}",
        counted(copies.len() + invalid.len(), "game file"),
        counted(branches.len(), "branch")
    )?;
    for conflict in conflicts {
        writeln!(
            out,
            "correspond referee: warning: {} and {} hold different lines of one game, parting at \
             document {}",
            correspond::referee::shown_place(&conflict.kept),
            correspond::referee::shown_place(&conflict.other),
            conflict.document
        )?;
    }
    Ok(())
}

/// Every game copy on the branches, with its documents' digests, and those that do not read
/// as games (their places, and why).
fn copies(
    receiving: &Receiving,
    branches: &[(Vec<u8>, Oid)],
) -> Result<(Vec<Copy>, Vec<Place>), CliError> {
    let unreadable = |e: GitError| CliError::usage(format!("cannot read the repository: {e}"));
    let (mut copies, mut invalid) = (Vec::new(), Vec::new());
    for (branch, tip) in branches {
        for (path, bytes, kind) in receiving.refereed_files(*tip).map_err(unreadable)? {
            // The index is of games; a tournament file is judged whole at each push.
            if kind == correspond::log::Refereed::Tournament {
                continue;
            }
            let place = (branch.clone(), path);
            match correspond::referee::digests(&bytes) {
                Some(digests) => copies.push((place, digests)),
                None => invalid.push(place),
            }
        }
    }
    Ok((copies, invalid))
}

fn counted(n: usize, what: &str) -> String {
    match (n, what) {
        (1, _) => format!("1 {what}"),
        (_, "branch") => format!("{n} branches"),
        _ => format!("{n} {what}s"),
    }
}

/// A path in a tree, as a message shows it.
fn shown(path: &[u8]) -> String {
    correspond::text::bytes(path)
}

/// A reference's name, as a message shows it.
fn shown_ref(name: &[u8]) -> String {
    correspond::text::bytes(name)
}

fn short(commit: Oid) -> String {
    commit.to_string()[..12].to_owned()
}
