//! What every command that signs a record shares: read and verify the file, find which player
//! the key belongs to, build and sign the record, check that the file with it still verifies,
//! append it under a lock, and commit it to git.

use super::CliError;
use super::game::CliGame;
use super::keys::{self, KeyArgs};
use crate::log::{
    self, Action, GameFile, Record, Settlement, append_locked, record_unsigned, signature_line,
};
use crate::replay::{self, Event, Protocol, Replay, Step};
use crate::sign::{self, Signer};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The arguments every signing command takes.
#[derive(Debug, clap::Args)]
pub(crate) struct SignArgs {
    /// The game file.
    pub file: PathBuf,
    #[command(flatten)]
    pub key: KeyArgs,
    /// Do not commit the file to git, even inside a git work tree.
    #[arg(long)]
    pub no_commit: bool,
}

/// What a command building a record may look at.
pub(crate) struct Context<'a, G: Protocol> {
    pub file: &'a GameFile,
    pub replay: &'a Replay<G>,
    /// The signer's seat: 0 for the creator, 1 for the opponent.
    pub seat: usize,
    pub signer: &'a dyn Signer,
}

/// Reads a game file whole.
pub(crate) fn read(path: &Path) -> Result<Vec<u8>, CliError> {
    log::read_limited(path).map_err(|e| {
        let error = CliError::io(path, &e);
        if e.kind() == std::io::ErrorKind::NotFound {
            error.hint("check the path; `correspond new` starts a game file")
        } else {
            error
        }
    })
}

/// Parses and replays a game file, as an error for the user if it does not verify.
pub(crate) fn verified<G: Protocol>(
    path: &Path,
    bytes: &[u8],
) -> Result<(GameFile, Replay<G>), CliError> {
    let invalid = |e: &dyn std::fmt::Display| {
        CliError::rejected(format!("{} does not verify: {e}", crate::text::path(path))).hint(
            format!(
                "`git log -p {}` shows who changed what, if the file is in git",
                crate::text::path(path)
            ),
        )
    };
    let file = GameFile::parse(bytes).map_err(|e| invalid(&e))?;
    let replay = replay::replay::<G>(&file).map_err(|e| invalid(&e))?;
    Ok((file, replay))
}

/// Reads, parses and replays a game file, for the commands that only read.
pub(crate) fn load<G: Protocol>(path: &Path) -> Result<(GameFile, Replay<G>), CliError> {
    let bytes = read(path)?;
    verified(path, &bytes)
}

/// Which seat a key belongs to.
fn seat_of(file: &GameFile, signer: &dyn Signer) -> Result<usize, CliError> {
    let key = signer.public_key().key_data();
    file.header()
        .players
        .iter()
        .position(|p| p.key.key_data() == key)
        .ok_or_else(|| {
            let players: Vec<String> = file
                .header()
                .players
                .iter()
                .map(|p| format!("{} {}", p.name, sign::fingerprint(&p.key)))
                .collect();
            CliError::usage(format!(
                "the key {} is not a player's key in this game ({})",
                sign::fingerprint(signer.public_key()),
                players.join(", ")
            ))
            .hint("choose your key with --key PATH")
        })
}

/// The text of a record: its unsigned bytes and signature line.
fn signed_record(record: &Record, signer: &dyn Signer) -> Result<String, CliError> {
    let unsigned = record_unsigned(record);
    let signature = signer
        .sign(unsigned.as_bytes())
        .map_err(|e| CliError::usage(format!("cannot sign: {e}")))?;
    Ok(unsigned + &signature_line(&signature))
}

/// Appends the record `make` builds, signed by the chosen key; prints what happened.
pub(crate) fn append<G: CliGame + Protocol>(
    args: &SignArgs,
    out: &mut dyn Write,
    make: impl FnOnce(&Context<'_, G>) -> Result<Action, CliError>,
) -> Result<(), CliError> {
    let path = &args.file;
    read(path)?;
    let tracked = if args.no_commit {
        None
    } else {
        super::commit::find(path)?
    };
    let signer = args.key.signer(path)?;
    let time = keys::now()?;
    let mut done = None;
    append_locked(path, |bytes| {
        let (file, replay) =
            verified::<G>(path, bytes).map_err(|e| e.hint("nothing was written"))?;
        let seat = seat_of(&file, &*signer)?;
        let action = make(&Context {
            file: &file,
            replay: &replay,
            seat,
            signer: &*signer,
        })?;
        let record = Record {
            seq: file.documents() as u64,
            prev: file.digest(file.documents() - 1),
            signer: replay.seats[seat].name.clone(),
            action,
            time: time.clone(),
        };
        // The journal is held from the check before signing until the record is in it, so
        // that no other command signs at this place meanwhile.
        let mut journal = super::journal::game(file.game_id())?;
        let key = signer.public_key();
        journal
            .check(key, record.seq, record_unsigned(&record).as_bytes())
            .map_err(|e| super::journal::refusal(e, path, Some(record.prev)))?;
        let text = signed_record(&record, &*signer)?;
        // Nothing is written unless the file, with the record, verifies.
        let grown = [bytes, text.as_bytes()].concat();
        let grown = GameFile::parse(&grown)
            .map_err(|e| CliError::rejected(format!("the record would not be well-formed: {e}")))?;
        let after = replay::replay::<G>(&grown).map_err(|e| {
            CliError::rejected(format!("{}: {}", record.action.kind(), e.kind)).hint(format!(
                "`correspond status {}` says what the game waits for",
                crate::text::path(path)
            ))
        })?;
        super::journal::record(&mut journal, key, file.game_id(), record.seq, &text, path)?;
        done = Some((
            record,
            step_line(&after, after.last()),
            after.last().phase.describe(&after.seats),
            after.seats[seat].clone(),
        ));
        Ok::<_, CliError>(text.into_bytes())
    })
    .map_err(|e| match e {
        log::AppendError::Io(e) => CliError::io(path, &e),
        log::AppendError::Rejected(e) => e,
    })?;
    let (record, line, next, seat) = done.expect("a successful append built its record");
    writeln!(out, "{line}")?;
    writeln!(out, "now: {next}")?;
    if let Some(tracked) = tracked {
        let message = format!(
            "{}: {} (record {})",
            G::NAME,
            headline(&seat, &record.action),
            record.seq
        );
        super::commit::commit(&tracked, &message, out)?;
    }
    Ok(())
}

/// A record in a few words, for commit messages and mail subjects: `heads plays c2c3`.
pub(crate) fn headline<S: std::fmt::Display>(seat: &replay::Seat<S>, action: &Action) -> String {
    format!("{} {}", who(seat), summary(action))
}

/// Who signed, in a headline: the side, the role a reader of a game's history follows; before
/// a coin flip has assigned the sides, the player.
pub(crate) fn who<S: std::fmt::Display>(seat: &replay::Seat<S>) -> String {
    seat.side
        .as_ref()
        .map_or_else(|| seat.name.clone(), ToString::to_string)
}

/// The headline of record `n` (from 1) of a replayed file.
pub(crate) fn document_headline<G: Protocol>(
    file: &GameFile,
    replay: &Replay<G>,
    n: usize,
) -> String {
    headline(
        &replay.seats[replay.steps[n].signer],
        &file.records()[n - 1].action,
    )
}

/// What a document did, as the signing commands and `receive` print it:
/// `record 4: alice (heads) c2c3`.
pub(crate) fn step_line<G: Protocol>(replay: &Replay<G>, step: &Step<G>) -> String {
    let events: Vec<String> = step.events.iter().map(Event::to_string).collect();
    format!(
        "record {}: {} {}",
        step.document,
        replay.seats[step.signer],
        events.join("; ")
    )
}

/// What a record does, in a few words.
fn summary(action: &Action) -> String {
    match action {
        Action::Accept { .. } => "accepts the game".into(),
        Action::Move(m) => format!("plays {m}"),
        Action::Defer => "defers the first move".into(),
        Action::FlipCommit(_) => "commits to the coin flip".into(),
        Action::FlipNonce(_) => "answers the coin flip".into(),
        Action::FlipReveal(_) => "reveals the coin flip".into(),
        Action::Resign => "resigns".into(),
        Action::Offer(Settlement::RunOff) => "offers a run-off".into(),
        Action::Offer(Settlement::Draw) => "offers a draw".into(),
        Action::AcceptOffer(Settlement::RunOff) => "accepts the run-off".into(),
        Action::AcceptOffer(Settlement::Draw) => "accepts the draw".into(),
        Action::Claim(Settlement::RunOff, reason) => format!("claims a run-off ({reason})"),
        Action::Claim(Settlement::Draw, reason) => format!("claims a draw ({reason})"),
    }
}

/// The game's settlement for offers and claims, or an error for games that have none.
pub(crate) fn settlement<G: Protocol>() -> Result<Settlement, CliError> {
    G::SETTLEMENT.ok_or_else(|| CliError::rejected(format!("{} has no offers or claims", G::NAME)))
}

/// A nonce for a coin flip, derived from the signer's key (see [`crate::flip`]).
pub(crate) fn derive_nonce(
    signer: &dyn Signer,
    part: crate::flip::Part,
    binding: &crate::digest::Digest,
) -> Result<crate::digest::Digest, CliError> {
    let message = crate::flip::nonce_message(part, binding);
    let signature = signer
        .sign_raw(crate::flip::NONCE_NAMESPACE, &message)
        .map_err(|e| CliError::usage(format!("cannot derive the coin-flip nonce: {e}")))?;
    Ok(crate::flip::nonce_from_signature(
        signature.signature_bytes(),
    ))
}

/// The game a file's header names, read without verifying anything else.
pub(crate) fn game_of(path: &Path) -> Result<super::game::GameName, CliError> {
    let bytes = read(path)?;
    let file = GameFile::parse(&bytes).map_err(|e| {
        CliError::rejected(format!("{} does not verify: {e}", crate::text::path(path)))
    })?;
    super::game::GameName::of_file(&file.header().game).ok_or_else(|| {
        CliError::rejected(format!(
            "{}: unknown game `{}` (this program plays campaign, guerrilla, insurrection and chess)",
            crate::text::path(path),
            file.header().game
        ))
    })
}
