//! `correspond journal`: the signing journal, which keeps every command from signing two
//! different documents at one place; where it lives, and moving it between machines.

use super::error::ExitStatus;
use super::{CliError, commit};
use crate::cli::Out;
use correspond::digest::Digest;
use correspond::journal::{Entry, Export, GameJournal, Journal, JournalError};
use correspond::log::{self, Document, GameFile};
use correspond::replay::AnyReplayer;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The environment variable naming the journal's folder, instead of
/// `$XDG_STATE_HOME/correspond/journal` (or `~/.local/state/correspond/journal`).
pub(crate) const JOURNAL_VARIABLE: &str = "CORRESPOND_JOURNAL";

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
        file: PathBuf,
    },
    /// Append to a game file the records your keys signed for it that it lacks (a command cut
    /// short after signing, or a copy left behind), when they follow on from its last record.
    Restore {
        /// The game file.
        file: PathBuf,
        /// Do not commit the file to git, even inside a git work tree.
        #[arg(long)]
        no_commit: bool,
        #[command(flatten)]
        wait: super::record::WaitArgs,
    },
    /// Print where the journal is.
    Path,
}

/// The journal this user's signing commands use.
pub(crate) fn open() -> Result<Journal, CliError> {
    if let Some(dir) = std::env::var_os(JOURNAL_VARIABLE).filter(|d| !d.is_empty()) {
        let dir = PathBuf::from(dir);
        // A relative folder would be another journal in every folder a command runs in.
        if !dir.is_absolute() {
            return Err(CliError::usage(format!(
                "{JOURNAL_VARIABLE} is `{}`, a relative path; nothing was signed",
                correspond::text::path(&dir)
            ))
            .hint("give the journal's folder as an absolute path"));
        }
        return Ok(Journal::at(dir));
    }
    // The XDG Base Directory rules: a relative XDG_STATE_HOME is ignored.
    let state = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .map(|home| PathBuf::from(home).join(".local").join("state"))
        })
        .ok_or_else(|| {
            CliError::usage("no place for the signing journal: HOME is not set").hint(format!(
                "set {JOURNAL_VARIABLE} to a folder that is kept between runs"
            ))
        })?;
    Ok(Journal::at(state.join("correspond").join("journal")))
}

/// The journal's part for one game, locked, as an error for the user when it cannot be read.
pub(crate) fn game(game: Digest) -> Result<GameJournal, CliError> {
    open()?.game(game).map_err(journal_error)
}

/// A journal failure, for the user. The hints never suggest going around the journal.
pub(crate) fn journal_error(e: JournalError) -> CliError {
    let hint = match &e {
        JournalError::Damaged { .. } => {
            "the journal keeps you from signing twice at one place: repair the line, or restore \
             the journal from a backup; never delete it to get past this"
                .to_owned()
        }
        JournalError::Io { path, .. } => format!(
            "check that {} can be read and written",
            correspond::text::path(path)
        ),
        _ => "nothing was changed".to_owned(),
    };
    CliError::usage(format!("{e}; nothing was signed")).hint(hint)
}

/// A journal failure while signing `file`, for the user.
pub(crate) fn refusal(e: JournalError, file: &Path) -> CliError {
    match e {
        JournalError::Conflict(earlier) => conflict(&earlier, file),
        other => journal_error(other),
    }
}

/// Records a document just signed as document `document` of `game`, before it is written
/// anywhere.
pub(crate) fn record(
    journal: &mut GameJournal,
    key: &ssh_key::PublicKey,
    game: Digest,
    document: u64,
    text: &str,
    file: &Path,
) -> Result<(), CliError> {
    let entry = Entry::new(key.clone(), game, document, text.to_owned()).map_err(|e| {
        CliError::usage(format!(
            "the document just signed cannot be journaled: {e}; nothing was written"
        ))
    })?;
    journal.record(entry).map_err(|e| refusal(e, file))
}

/// The refusal to sign a second document at a place: names the one signed there before (which
/// follows the same record as the one refused, so the file's last), and how to go on with it.
fn conflict(earlier: &Entry, file: &Path) -> CliError {
    let n = earlier.document;
    let what = match &earlier.content {
        Document::Record(r) => format!("record {n} ({}, signed {})", r.action, r.time.as_str()),
        Document::Header(_) => "its header".to_owned(),
    };
    CliError::rejected(format!(
        "your key {} already signed {what} of this game, and a different record {n} would be two \
         documents at one place: proof of equivocation against you; nothing was signed",
        earlier.fingerprint()
    ))
    .hint(
        "if that record is in another copy of this game (another clone, another machine, a \
         message not yet received), bring that copy here: git pull, or correspond receive",
    )
    .hint(format!(
        "otherwise `correspond journal restore {}` appends it to this file",
        correspond::text::path(file)
    ))
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    match &args.command {
        Command::Path => {
            writeln!(out, "{}", correspond::text::path(open()?.dir()))?;
            Ok(ExitStatus::Success)
        }
        Command::Export { output } => {
            let json = open()?.export().map_err(journal_error)?.to_json();
            match output {
                None => out.write_all(json.as_bytes())?,
                Some(path) => log::create_new(path, json.as_bytes()).map_err(|e| {
                    CliError::io(path, &e).hint("choose a new file: export never overwrites one")
                })?,
            }
            Ok(ExitStatus::Success)
        }
        Command::Import { file } => import(file, out),
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
    let report = open()?.import(entries).map_err(journal_error)?;
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
    wait: &super::record::WaitArgs,
    out: &mut Out<'_>,
) -> Result<ExitStatus, CliError> {
    super::record::read(path)?;
    let tracked = if no_commit { None } else { commit::find(path)? };
    let mut locked = wait.lock(path)?;
    let mut said = Vec::new();
    super::record::tidy(&locked, tracked.as_ref(), &mut said)?;
    let mut file = GameFile::parse(locked.bytes()).map_err(|e| invalid(path, &e))?;
    let replayer = AnyReplayer::start(&file)
        .and_then(|r| r.advance(&file))
        .map_err(|e| invalid(path, &e))?;
    let journal = game(file.game_id())?;
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
        let candidates: Vec<&Entry> = players
            .iter()
            .filter_map(|key| journal.at(key, next, Some(last)))
            .collect();
        let [entry] = candidates[..] else { break };
        file.append(entry.text.as_bytes())
            .map_err(|e| invalid(path, &e))?;
        restored.push(next);
    }
    let what = match restored[..] {
        [] => {
            return Err(CliError::rejected(format!(
                "the signing journal holds no record of yours that follows on from the last \
                 record of {} (record {})",
                correspond::text::path(path),
                file.documents() - 1
            ))
            .hint("nothing was written"));
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
        .map_err(|e| CliError::io(path, &e).hint("nothing was written"))?;
    said.push(format!(
        "restored {what} from the signing journal to {}",
        correspond::text::path(path)
    ));
    if let Some(tracked) = &tracked {
        let message = format!(
            "{}: {what} restored from the signing journal",
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
    super::record::report(out, &said, done)?;
    Ok(ExitStatus::Success)
}

fn invalid(path: &Path, e: &dyn std::fmt::Display) -> CliError {
    CliError::rejected(format!(
        "{} does not verify: {e}",
        correspond::text::path(path)
    ))
    .hint("nothing was written")
}
