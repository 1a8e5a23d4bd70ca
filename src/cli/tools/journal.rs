//! `correspond journal`: the signing journal, which keeps every command from signing two
//! different documents at one place; where it lives, and moving it between machines.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::commit;
use crate::cli::shared::error::ExitStatus;
use crate::cli::shared::signing_journal::{failed, open};
use correspond::games::AnyReplayer;
use correspond::journal::{Entry, Export};
use correspond::log::{self, GameFile};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The signing journal: every document your keys signed, by game and number. Each signing
/// command checks it before signing, and refuses to sign a document different from one already
/// signed at the same place (key, game, number): two such documents prove equivocation, even
/// when they come from a second machine, a restored backup or a challenge sent twice. The
/// journal is `$CORRESPOND_JOURNAL`, else `$XDG_STATE_HOME/correspond/journal`, else
/// `~/.local/state/correspond/journal`. Carry it to each machine you play from with `export`
/// and `import`; it cannot protect a machine it was not carried to.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Write the whole journal as one JSON document (format `correspond-journal/1`), to carry
    /// it to another machine.
    Export {
        /// The file to write [default: standard output]. An existing file is not overwritten.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Add an exported journal to this machine's. Every entry must be a document signed by
    /// its key at its place. Exit code 1 when the two journals hold different documents at
    /// one place: those keys signed both, and the conflicts are listed.
    Import {
        /// The exported journal (`-`: standard input).
        #[arg(value_name = "FILE")]
        journal: PathBuf,
    },
    /// Append to a game file the records your keys signed for it that it lacks (a command cut
    /// short after signing, or a copy left behind), when they follow on from its last record.
    /// With none to append, it says so and exits 0: the file is as it should be.
    Restore {
        /// The game file.
        file: PathBuf,
        /// Do not commit the file to git, even inside a git work tree.
        #[arg(long)]
        no_commit: bool,
        #[command(flatten)]
        wait: crate::cli::shared::record::WaitArgs,
    },
    /// Print where the journal is.
    Path,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    match &args.command {
        Command::Path => {
            writeln!(out, "{}", correspond::text::path(open()?.dir()))?;
            Ok(ExitStatus::Success)
        }
        Command::Export { output } => {
            let json = open()?
                .export()
                .map_err(|e| failed(e, "nothing was exported"))?
                .to_json();
            match output {
                None => out.write_all(json.as_bytes())?,
                Some(path) => log::create_new(path, json.as_bytes()).map_err(|e| {
                    CliError::io(path, &e).hint("choose a new file: export never overwrites one")
                })?,
            }
            Ok(ExitStatus::Success)
        }
        Command::Import { journal } => import(journal, out),
        Command::Restore {
            file,
            no_commit,
            wait,
        } => restore(file, *no_commit, wait, out),
    }
}

fn import(file: &Path, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    let mut text = String::new();
    let read = if file == Path::new("-") {
        std::io::stdin().read_to_string(&mut text).map(|_| ())
    } else {
        log::read_limited(file).and_then(|bytes| {
            text = String::from_utf8(bytes).map_err(|_| std::io::Error::other("not UTF-8 text"))?;
            Ok(())
        })
    };
    read.map_err(|e| CliError::io(file, &e))?;
    let entries = Export::parse(&text).map_err(|e| {
        CliError::rejected(format!(
            "{}: not an exported journal: {e}",
            correspond::text::path(file)
        ))
        .hint("nothing was imported; `correspond journal export` writes one")
    })?;
    let report = open()?.import(entries).map_err(|e| {
        failed(
            e,
            "the games whose ids come before this one were imported, the others not; once \
                 this is mended, import the file again: only what is missing is added",
        )
    })?;
    writeln!(
        out,
        "imported {}: {} new, {} already here",
        correspond::text::path(file),
        report.added,
        report.known
    )?;
    for (ours, theirs) in &report.conflicts {
        writeln!(
            out,
            "CONFLICT: key {} signed two different documents numbered {} in game {}: this \
             journal keeps {}, the import holds {}",
            ours.fingerprint(),
            ours.document,
            ours.game,
            ours.digest().short(),
            theirs.digest().short()
        )?;
    }
    if report.conflicts.is_empty() {
        Ok(ExitStatus::Success)
    } else {
        writeln!(
            out,
            "each conflict is a place where both machines signed: if both documents reached \
             your opponent, `correspond compare` of the two copies proves it; sign nothing \
             more there"
        )?;
        Ok(ExitStatus::Rejected)
    }
}

/// Appends the journal's records that continue the file, and commits, under its lock.
fn restore(
    path: &Path,
    no_commit: bool,
    wait: &crate::cli::shared::record::WaitArgs,
    out: &mut Out<'_>,
) -> Result<ExitStatus, CliError> {
    crate::cli::shared::record::read(path)?;
    let tracked = if no_commit { None } else { commit::find(path)? };
    let mut locked = wait.lock(path)?;
    let mut said = Vec::new();
    crate::cli::shared::record::tidy(&locked, tracked.as_ref(), &mut said)?;
    let mut file = GameFile::parse(locked.bytes()).map_err(|e| invalid(path, &e))?;
    let replayer = AnyReplayer::start(&file)
        .and_then(|r| r.advance(&file))
        .map_err(|e| invalid(path, &e))?;
    let not_restored = |e| failed(e, "nothing was written");
    let journal = open()?.game(file.game_id()).map_err(not_restored)?;
    let players: Vec<_> = file
        .header()
        .players
        .iter()
        .map(|p| p.key.clone())
        .collect();
    let before = file.text().len();
    let mut restored = Vec::new();
    loop {
        let next = file.documents() as u64;
        let last = file.digest(file.documents() - 1);
        let mut candidates: Vec<&Entry> = Vec::new();
        for key in &players {
            candidates.extend(journal.at(key, next, Some(last)).map_err(not_restored)?);
        }
        let [entry] = candidates[..] else { break };
        file.append(entry.text.as_bytes())
            .map_err(|e| invalid(path, &e))?;
        restored.push(next);
    }
    let what = match restored[..] {
        // Nothing to restore is no failure: a script that restores after every interruption
        // sees the file as it should be, as `receive` of a message seen before says.
        [] => {
            writeln!(
                out,
                "nothing to restore: the signing journal holds no record of yours that follows \
                 on from the last record of {} (record {}); nothing was written",
                correspond::text::path(path),
                file.documents() - 1
            )?;
            return Ok(ExitStatus::Success);
        }
        [one] => format!("record {one}"),
        [first, .., last] => format!("records {first}-{last}"),
    };
    replayer.advance(&file).map_err(|e| {
        CliError::rejected(format!("the journal's records do not verify here: {e}"))
            .hint("nothing was written")
    })?;
    locked
        .append(&file.text().as_bytes()[before..])
        .map_err(|e| crate::cli::shared::places::not_written(path, &e, "nothing was written"))?;
    said.push(format!(
        "restored {what} from the signing journal to {}",
        correspond::text::path(path)
    ));
    if let Some(tracked) = &tracked {
        let message = format!(
            "{}, {what} restored from the signing journal",
            file.header().game
        );
        said.push(commit::commit(tracked, &message, locked.bytes())?);
    }
    drop(locked);
    let done = if tracked.is_some() {
        "the records were restored and committed"
    } else {
        "the records were restored"
    };
    crate::cli::shared::record::report(out, &said, done)?;
    Ok(ExitStatus::Success)
}

fn invalid(path: &Path, e: &dyn std::fmt::Display) -> CliError {
    CliError::rejected(format!(
        "{} does not verify: {e}",
        correspond::text::path(path)
    ))
    .hint("nothing was written")
}
