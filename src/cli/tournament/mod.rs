//! `correspond tournament`: a round-robin section or a Swiss event run from one folder. The
//! director announces it (`new`); players enter it with their own signatures (`enter`); the
//! director closes the entries (`close`); every party reveals their part of the lot (`reveal`),
//! which numbers the players and so gives a round robin's pairings (a Swiss round is paired by
//! an installed pairing program, `pair`); each player starts the games they play White in
//! (`start`); withdrawals and the director's decisions are signed records (`withdraw`,
//! `decide`); and anyone can check the crosstable (`standings`) or export the event for
//! other programs (`trf`). The event's rules are the library's
//! ([`correspond::tournament`]); these files read keys, the clock and files, and say what
//! happened. See docs/tournaments.md.

pub(crate) mod check;
mod decide;
mod engine;
mod enter;
mod new;
pub(crate) mod page;
mod pair;
mod standings;
mod start;
mod trf;

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::error::ExitStatus;
use crate::cli::shared::keys::KeyArgs;
use crate::cli::shared::record::WaitArgs;
use correspond::digest::Digest;
use correspond::sign::Signer;
use correspond::tournament::event::Event;
use correspond::tournament::file::{Action, Record, TOURNAMENT_FILE_NAME, record_unsigned};
use std::path::{Path, PathBuf};

/// Run a round-robin or Swiss tournament from one folder: a tournament file signed by its director and
/// entered by each player's own signature, pairings drawn by a lot no one party steers, games
/// proven to be their pairings, and a crosstable anyone can recompute. See
/// docs/tournaments.md.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    New(new::Args),
    Enter(enter::EnterArgs),
    Close(enter::CloseArgs),
    Reveal(enter::RevealArgs),
    Pair(pair::Args),
    Start(start::Args),
    Withdraw(enter::WithdrawArgs),
    Decide(decide::Args),
    Standings(standings::Args),
    Trf(trf::Args),
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    let done = match &args.command {
        Command::Standings(args) => return standings::run(args, out),
        Command::Pair(args) => return pair::run(args, out),
        Command::New(args) => new::run(args, out),
        Command::Enter(args) => enter::enter(args, out),
        Command::Close(args) => enter::close(args, out),
        Command::Reveal(args) => enter::reveal(args, out),
        Command::Withdraw(args) => enter::withdraw(args, out),
        Command::Decide(args) => decide::run(args, out),
        Command::Start(args) => start::run(args, out),
        Command::Trf(args) => trf::run(args, out),
    };
    done.map(|()| ExitStatus::Success)
}

/// What every command that signs a record of a tournament file takes.
#[derive(Clone, Debug, clap::Args)]
pub(crate) struct SignArgs {
    /// The tournament file, or the folder that holds it as tournament.yaml.
    #[arg(value_name = "TOURNAMENT")]
    pub(crate) file: PathBuf,
    #[command(flatten)]
    pub(crate) key: KeyArgs,
    /// Do not commit the file to git, even inside a git work tree.
    #[arg(long)]
    pub(crate) no_commit: bool,
    #[command(flatten)]
    pub(crate) wait: WaitArgs,
}

/// The tournament file a path names: the path itself, or a folder's tournament.yaml.
pub(crate) fn tournament_file(path: &Path) -> PathBuf {
    if path.is_dir() {
        path.join(TOURNAMENT_FILE_NAME)
    } else {
        path.to_owned()
    }
}

/// Reads and checks the tournament file at `path`.
pub(crate) fn read_event(path: &Path) -> Result<Event, CliError> {
    let bytes = crate::cli::shared::record::read(path)?;
    Event::check(&bytes).map_err(|e| invalid(path, &e))
}

/// A tournament file's defect as an error of this command.
pub(crate) fn invalid(path: &Path, e: &correspond::tournament::event::EventError) -> CliError {
    CliError::rejected(format!(
        "{}: {}",
        correspond::text::path(path),
        correspond::text::escape(&e.to_string())
    ))
    .hint("`correspond verify` the folder to see every file's state")
}

/// The nonce a key draws for the lot of `event`: derived from its own deterministic signature,
/// so that it is never stored and is the same on any machine holding the key.
pub(crate) fn lot_nonce(signer: &dyn Signer, event: &Digest) -> Result<Digest, CliError> {
    crate::cli::shared::record::derive_nonce(signer, correspond::flip::Part::Commit, event)
}

/// Signs the record `make` returns (its signer's name and action, given the event and the
/// signing key) as the next of the tournament file, checks the file with it, and appends it
/// under the file's lock (committing it when the file is in a git work tree). Returns the
/// event as it stands after, and the line the commit printed, if any.
pub(crate) fn append(
    args: &SignArgs,
    what: &str,
    make: impl FnOnce(&Event, &dyn Signer) -> Result<(String, Action), CliError>,
) -> Result<(Event, Option<String>), CliError> {
    append_vetted(args, what, make, |_, _| Ok(()))
}

/// [`append`], the file with the new record also held to `vet` (given the tournament file's
/// path and its new bytes) before anything is written.
pub(crate) fn append_vetted(
    args: &SignArgs,
    what: &str,
    make: impl FnOnce(&Event, &dyn Signer) -> Result<(String, Action), CliError>,
    vet: impl FnOnce(&Path, &[u8]) -> Result<(), CliError>,
) -> Result<(Event, Option<String>), CliError> {
    let path = tournament_file(&args.file);
    let tracked = if args.no_commit {
        None
    } else {
        crate::cli::shared::commit::find(&path)?
    };
    let mut locked = args.wait.lock(&path)?;
    let event = Event::check(locked.bytes()).map_err(|e| invalid(&path, &e))?;
    let signer = args.key.signer(&path)?;
    let (name, action) = make(&event, &*signer)?;
    let file = correspond::tournament::file::TournamentFile::parse(locked.bytes())
        .map_err(|e| CliError::rejected(e.to_string()))?;
    let last = file.documents() - 1;
    let time = crate::cli::shared::keys::now()?;
    let before = file
        .records()
        .last()
        .map_or(&file.header().created, |r| &r.time);
    if time < *before {
        return Err(CliError::usage(format!(
            "the clock says {}, before the tournament file's last document ({}): nothing was \
             signed",
            time.as_str(),
            before.as_str()
        ))
        .hint("set the computer's clock"));
    }
    let record = Record {
        seq: file.documents() as u64,
        prev: file.digest(last),
        signer: name,
        action,
        time,
    };
    let unsigned = record_unsigned(&record);
    let signature = signer
        .sign(unsigned.as_bytes())
        .map_err(|e| CliError::usage(format!("cannot sign: {e}")))?;
    let text = unsigned + &correspond::log::signature_line(&signature);
    let mut bytes = locked.bytes().to_vec();
    bytes.extend_from_slice(text.as_bytes());
    // The rules of the file decide, not this command's reading of them: a record they refuse
    // is never written.
    let after = Event::check(&bytes).map_err(|e| {
        CliError::rejected(correspond::text::escape(&e.kind.to_string()).into_owned())
            .hint("nothing was written")
    })?;
    vet(&path, &bytes)?;
    crate::cli::shared::places::still_as_read(&locked, &path)?;
    locked
        .append(text.as_bytes())
        .map_err(|e| crate::cli::shared::places::not_written(&path, &e, "nothing was written"))?;
    let committed = match &tracked {
        Some(tracked) => Some(crate::cli::shared::commit::commit(
            tracked,
            &format!("tournament {}, {what}", after.header.event),
            locked.bytes(),
        )?),
        None => None,
    };
    Ok((after, committed))
}

/// The name of the entrant whose key signs, or an error saying whose key it is not.
pub(crate) fn entrant_signing(event: &Event, signer: &dyn Signer) -> Result<usize, CliError> {
    let key = signer.public_key();
    event
        .entrants
        .iter()
        .position(|e| e.key.key_data() == key.key_data())
        .ok_or_else(|| {
            CliError::usage(format!(
                "the key {} is not an entrant's in {}",
                correspond::sign::fingerprint(key),
                event.header.event
            ))
            .hint("choose your key with --key PATH; `correspond tournament standings` lists the entrants")
        })
}

/// Whether the signing key is the director's, or an error saying it is not.
pub(crate) fn director_signing(event: &Event, signer: &dyn Signer) -> Result<(), CliError> {
    if signer.public_key().key_data() == event.header.director.key.key_data() {
        Ok(())
    } else {
        Err(CliError::usage(format!(
            "only the director, {}, signs this; the key {} is not theirs",
            event.header.director.name,
            correspond::sign::fingerprint(signer.public_key())
        ))
        .hint("choose the director's key with --key PATH"))
    }
}
