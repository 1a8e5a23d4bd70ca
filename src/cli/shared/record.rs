//! What every command that signs a record shares: read and verify the file, find which player
//! the key belongs to, build and sign the record, check that the file with it still verifies,
//! append it under a lock, and commit it to git.

use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::shared::game::CliGame;
use crate::cli::shared::keys::{self, KeyArgs};
use correspond::journal::GameJournal;
use correspond::log::{self, Action, GameFile, Record, Settlement};
use correspond::replay::{self, Protocol, Replay, ReplayError, Seat, Signatory};
use correspond::sign::{self, Signer};
use correspond::writer::{WriteError, Writer};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The arguments every signing command takes.
#[derive(Clone, Debug, clap::Args)]
pub(crate) struct SignArgs {
    /// The game file.
    pub file: PathBuf,
    #[command(flatten)]
    pub key: KeyArgs,
    /// Do not commit the file to git, even inside a git work tree.
    #[arg(long)]
    pub no_commit: bool,
    /// A comment signed with the record: up to 280 characters on one line, with no control
    /// character, `"`, `\`, `{` or `}` (shown by `log`, `status`, `mail` and in PGN).
    #[arg(short = 'm', long = "comment", value_name = "TEXT", value_hint = clap::ValueHint::Other)]
    pub comment: Option<String>,
    #[command(flatten)]
    pub wait: WaitArgs,
    /// Whether the record is signed by the player the game does not wait for (a claim on
    /// time), whose key is then looked for first.
    #[arg(skip)]
    pub by_the_other: bool,
}

/// How long to wait for another command that is writing the same game file.
#[derive(Clone, Debug, clap::Args)]
pub(crate) struct WaitArgs {
    /// While another command writes this game file, wait up to SECONDS for it to finish, then
    /// give up with nothing written.
    #[arg(long = "wait", value_name = "SECONDS", default_value_t = 60, value_hint = clap::ValueHint::Other)]
    pub seconds: u64,
}

impl WaitArgs {
    /// Takes the game file's lock: says once on standard error that it waits, and gives up
    /// after the limit with an error saying what to do.
    pub(crate) fn lock(&self, path: &Path) -> Result<log::Locked, CliError> {
        let start = std::time::Instant::now();
        let limit = std::time::Duration::from_secs(self.seconds);
        let mut told = false;
        let mut wait = |_attempt: u32| {
            // Said once, and only for a wait a person would notice.
            if !told && start.elapsed() >= std::time::Duration::from_millis(500) {
                told = true;
                let mut err = anstream::stderr().lock();
                let _ = writeln!(
                    err,
                    "waiting for another command to finish with {} (up to {} s; --wait to change)",
                    correspond::text::path(path),
                    self.seconds
                );
            }
            if start.elapsed() >= limit {
                return false;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
            true
        };
        log::Locked::open(path, &mut wait).map_err(|e| {
            if e.kind() == std::io::ErrorKind::TimedOut {
                CliError::usage(format!(
                    "{}: another command still holds it after {} s; nothing was written",
                    correspond::text::path(path),
                    self.seconds
                ))
                .hint("try again when it has finished, or wait longer with --wait SECONDS")
            } else if e.kind() == std::io::ErrorKind::NotFound {
                missing(path, &e)
            } else {
                CliError::io(path, &e).hint("nothing was written")
            }
        })
    }
}

/// What a command building a record may look at.
pub(crate) struct Context<'a, G: Protocol> {
    pub file: &'a GameFile,
    /// The file replayed: the state after its last record.
    pub replay: &'a replay::Replayer<G>,
    /// Who signs: a player, by seat, or the arbiter.
    pub signatory: Signatory,
    /// The time the record will carry.
    pub time: &'a log::Timestamp,
    /// The signing key: its signer is loaded, and its passphrase asked for, when first used.
    pub key: &'a keys::Key<'a>,
}

impl<G: Protocol> Context<'_, G> {
    /// The signer's seat: the key is a player's, since the arbiter's signs only adjudications.
    pub(crate) fn seat(&self) -> Result<Seat, CliError> {
        match self.signatory {
            Signatory::Player(seat) => Ok(seat),
            Signatory::Arbiter => Err(arbiters_key()),
        }
    }
}

/// The arbiter's key, given to a command that only a player may sign.
fn arbiters_key() -> CliError {
    CliError::usage("this is the arbiter's key: an arbiter signs only `correspond adjudicate`")
        .hint("a player signs with their own key (--key PATH)")
}

/// The time to date a record with: `now`, or under a time control, where the times of a file
/// never go backwards, the last document's time when this machine's clock is behind it (the
/// players' clocks disagree), which is said.
pub(crate) fn not_before_the_last(
    file: &GameFile,
    now: log::Timestamp,
    said: &mut Vec<String>,
) -> log::Timestamp {
    let last = match file.records().last() {
        Some(record) => &record.time,
        None => &file.header().created,
    };
    if file.header().time_control.is_none() || now >= *last {
        return now;
    }
    said.push(format!(
        "this machine's clock ({}) is behind the last record's time ({}): the record is dated \
         {}, since under a time control the times of a game never go backwards",
        now.as_str(),
        last.as_str(),
        last.as_str()
    ));
    last.clone()
}

/// A game file that is not there, as the user hears it: with the names in its folder that are
/// nearly its name (`c.yml` for `c.yaml`), else how to start one.
fn missing(path: &Path, e: &std::io::Error) -> CliError {
    let error = CliError::io(path, e);
    let near = crate::cli::shared::places::near_names(path);
    if near.is_empty() {
        return error.hint("check the path; `correspond new` starts a game file");
    }
    error.hint(crate::cli::shared::places::did_you_mean(&near))
}

/// Reads a game file whole.
pub(crate) fn read(path: &Path) -> Result<Vec<u8>, CliError> {
    log::read_limited(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => missing(path, &e),
        std::io::ErrorKind::InvalidInput if path.is_dir() => CliError::io(path, &e).hint(format!(
            "this command takes one game file; `correspond games {}` lists the games in a \
                 folder",
            correspond::text::path(path)
        )),
        _ => CliError::io(path, &e),
    })
}

/// Parses and replays a game file, as an error for the user if it does not verify.
pub(crate) fn verified<G: Protocol>(
    path: &Path,
    bytes: &[u8],
) -> Result<(GameFile, Replay<G>), CliError> {
    let file = GameFile::parse(bytes).map_err(|e| invalid(path, &e))?;
    let replay = replay::Replayer::<G>::start(&file)
        .and_then(|r| r.advance_with(&file, crate::cli::cores()))
        .map_err(|e| invalid(path, &e))?
        .finish();
    Ok((file, replay))
}

/// A game file that does not verify, as the user hears it.
fn invalid(path: &Path, e: &dyn std::fmt::Display) -> CliError {
    CliError::rejected(format!(
        "{} does not verify: {e}",
        correspond::text::path(path)
    ))
    .hint(format!(
        "`git log -p {}` shows who changed what, if the file is in git",
        correspond::text::path(path)
    ))
}

/// Which seat a key belongs to.
pub(in crate::cli) fn seat_of(file: &GameFile, key: &ssh_key::PublicKey) -> Result<Seat, CliError> {
    replay::seat_of_key(file, key).ok_or_else(|| not_in_the_game(file, key))
}

/// Whose key this is: a player's, or the arbiter's.
fn signatory_of(file: &GameFile, key: &ssh_key::PublicKey) -> Result<Signatory, CliError> {
    replay::signatory_of_key(file, key).ok_or_else(|| not_in_the_game(file, key))
}

fn not_in_the_game(file: &GameFile, key: &ssh_key::PublicKey) -> CliError {
    let header = file.header();
    let mut named: Vec<String> = header
        .players
        .iter()
        .map(|p| format!("{} {}", p.name, sign::fingerprint(&p.key)))
        .collect();
    if let Some(arbiter) = &header.arbiter {
        named.push(format!(
            "the arbiter {} {}",
            arbiter.name,
            sign::fingerprint(&arbiter.key)
        ));
    }
    CliError::usage(format!(
        "the key {} is not a player's key in this game ({})",
        sign::fingerprint(key),
        named.join(", ")
    ))
    .hint("choose your key with --key PATH")
}

/// A game file under its lock, read once, tidied, its game known: the first half of a signing
/// command, before the game's type is.
pub(crate) struct Held {
    tracked: Option<correspond::git::Tracked>,
    time: log::Timestamp,
    locked: log::Locked,
    /// What tidying did, said with whatever follows, a refusal included.
    tidied: Vec<String>,
}

/// Takes the lock of the file a signing command names, reads it (once: the command goes on with
/// these bytes), tidies what a command cut short left, and learns the game from the header.
pub(crate) fn hold(
    args: &SignArgs,
) -> Result<(crate::cli::shared::game::GameKind, Held), CliError> {
    let path = &args.file;
    let tracked = if args.no_commit {
        None
    } else {
        crate::cli::shared::commit::find(path)?
    };
    let time = keys::now()?;
    let locked = args.wait.lock(path)?;
    let mut tidied = Vec::new();
    tidy(&locked, tracked.as_ref(), &mut tidied)?;
    let kind = game_in(path, locked.bytes())
        .map_err(|e| with_tidied(&tidied, e.hint("nothing was written")))?;
    Ok((
        kind,
        Held {
            tracked,
            time,
            locked,
            tidied,
        },
    ))
}

/// `e`, with what tidying did before it.
fn with_tidied(tidied: &[String], e: CliError) -> CliError {
    tidied
        .iter()
        .fold(e, |e, line| e.hint(format!("before that: {line}")))
}

/// Appends the record `make` builds to the file `held`, signed by the chosen key, and commits
/// it, all under the file's lock; then prints what happened.
pub(crate) fn append<G: CliGame + Protocol>(
    args: &SignArgs,
    held: Held,
    out: &mut Out<'_>,
    make: impl FnOnce(&Context<'_, G>) -> Result<Action, CliError>,
) -> Result<(), CliError> {
    append_seen(args, held, out, make).map(|_| ())
}

/// [`append`], returning the conditional lines that stand after the record, whose reply may be
/// due: the command that moved appends it next.
pub(crate) fn append_seen<G: CliGame + Protocol>(
    args: &SignArgs,
    held: Held,
    out: &mut Out<'_>,
    make: impl FnOnce(&Context<'_, G>) -> Result<Action, CliError>,
) -> Result<Option<replay::StandingLines>, CliError> {
    let path = &args.file;
    if let Some(comment) = args.comment.as_deref().filter(|c| !log::valid_comment(c)) {
        return Err(CliError::usage(format!(
            "`{}` cannot be a comment: a comment is 1 to {} characters on one line, with no \
             control character, `\"`, `\\`, `{{` or `}}`, and no space at either end; nothing \
             was written",
            correspond::text::shown(comment),
            log::MAX_COMMENT
        )));
    }
    let Held {
        tracked,
        time,
        mut locked,
        tidied,
    } = held;
    // What tidying did stands even when the record is refused: said with the refusal.
    let mut said = tidied.clone();
    let with_tidied = |e: CliError| with_tidied(&tidied, e);
    // The file is read, parsed and replayed once, here, and before any key is loaded: a file
    // that does not verify is said before a passphrase is asked for.
    let rejected = |e: ReplayError| with_tidied(invalid(path, &e).hint("nothing was written"));
    let file = GameFile::parse_with(locked.bytes(), crate::cli::cores())
        .map_err(|e| rejected(e.into()))?;
    let time = not_before_the_last(&file, time, &mut said);
    // The journal is held from here until the record is in it, so that no other command signs
    // at this place meanwhile. What the user signed here before vouches for what they checked
    // then; a journal that cannot be read vouches for nothing, and is reported when signing.
    let journal = crate::cli::shared::signing_journal::game(file.game_id());
    let writer = match &journal {
        Ok(journal) => {
            Writer::<G>::of_vouched(file, crate::cli::cores(), journal).map_err(|e| match e {
                WriteError::Invalid(e) => rejected(e),
                other => with_tidied(write_error(other, path)),
            })
        }
        Err(_) => Writer::<G>::of_with(file, crate::cli::cores()).map_err(rejected),
    }?;
    let key = keys::Key::new(&args.key, path, &keys::signers(&writer, args.by_the_other))
        .map_err(with_tidied)?;
    let opened = Opened { writer, journal };
    let signing = Signing {
        key: &key,
        time,
        comment: args.comment.clone(),
    };
    let places = Places {
        path,
        tracked: tracked.as_ref(),
    };
    let (record, after) =
        sign_and_write::<G>(places, &mut locked, opened, signing, make, &mut said)
            .map_err(with_tidied)?;
    if let Some(tracked) = &tracked {
        let message = format!(
            "{}, {} (record {})",
            G::NAME,
            crate::cli::shared::recap::headline(&after, after.last(), &record.action),
            record.seq
        );
        said.push(crate::cli::shared::commit::commit(
            tracked,
            &message,
            locked.bytes(),
        )?);
    }
    drop(locked);
    let done = if tracked.is_some() {
        "the record was written and committed"
    } else {
        "the record was written"
    };
    report(out, &said, done)?;
    Ok(after.last().conditional.clone())
}

/// Where a record is written: the game file, and the repository that commits it, if any.
struct Places<'a> {
    path: &'a Path,
    tracked: Option<&'a correspond::git::Tracked>,
}

/// Who signs the next record, when, and what they say with it.
struct Signing<'a> {
    key: &'a keys::Key<'a>,
    time: log::Timestamp,
    comment: Option<String>,
}

/// A game file verified for its next record, and the signing journal of its game (or why it
/// cannot be read), both held until the record is written.
struct Opened<G: Protocol> {
    writer: Writer<G>,
    journal: Result<GameJournal, CliError>,
}

/// Under the file's lock, with the file verified and the journal held (`opened`): builds the record
/// `make` asks for, signs it (or takes the same record signed before, from the journal), checks
/// that the file with it still verifies, journals it, and writes it. Says what happened in `said`.
fn sign_and_write<G: CliGame + Protocol>(
    Places { path, tracked }: Places<'_>,
    locked: &mut log::Locked,
    Opened { writer, journal }: Opened<G>,
    Signing { key, time, comment }: Signing<'_>,
    make: impl FnOnce(&Context<'_, G>) -> Result<Action, CliError>,
    said: &mut Vec<String>,
) -> Result<(Record, Replay<G>), CliError> {
    let signatory = signatory_of(writer.file(), key.public()).map_err(|e| key.noted(e))?;
    let action = make(&Context {
        file: writer.file(),
        replay: writer.replayer(),
        signatory,
        time: &time,
        key,
    })
    .map_err(|e| e.of_file(path))?;
    if signatory == Signatory::Arbiter && !matches!(action, Action::Adjudicate(_)) {
        return Err(arbiters_key());
    }
    // Everything is checked: now the private key is needed.
    let signer = key.signer()?;
    crate::cli::shared::places::still_as_read(locked, path)?;
    if let Some(tracked) = tracked {
        crate::cli::shared::commit::ready(tracked)?;
    }
    // A conditional reply carries no comment: its bytes are the file's, whoever appends it. A
    // disclosure is signed before the move, which carries the player's words.
    let comment = comment.filter(|_| !matches!(action, Action::Applied(_) | Action::Disclose(_)));
    let record = Record {
        comment,
        ..writer.next(signatory, action, time)
    };
    let mut journal = journal?;
    let written = writer
        .write(record, signer, Some(&mut journal))
        .map_err(|e| write_error(e, path))?;
    drop(journal);
    if let Some(earlier) = &written.signed_before {
        said.push(format!(
            "record {} was signed already, at {}, and this copy of the game lacks it: \
             appending that record",
            written.record.seq,
            earlier.as_str()
        ));
    }
    locked
        .append(written.text.as_bytes())
        .map_err(|e| crate::cli::shared::places::not_written(path, &e, "nothing was written"))?;
    let after = written.writer.into_replay();
    let mut line = crate::cli::shared::recap::step_line(&after, after.last());
    if let Some(comment) = &written.record.comment {
        line.push_str(&format!("; says \"{}\"", correspond::text::prose(comment)));
    }
    said.push(line);
    said.push(format!(
        "now: {}",
        after.last().phase.describe(&after.seats)
    ));
    Ok((written.record, after))
}

/// A record the writer did not make, as the user hears it.
pub(crate) fn write_error(e: WriteError, path: &Path) -> CliError {
    match e {
        WriteError::Invalid(e) => invalid(path, &e),
        WriteError::Sign(e) => CliError::usage(format!("cannot sign: {e}")),
        WriteError::Journal(e) => crate::cli::shared::signing_journal::refusal(e, path),
        WriteError::Unjournaled(e) => CliError::usage(format!(
            "the document just signed cannot be journaled: {e}; nothing was written"
        )),
        WriteError::Malformed(e) => {
            CliError::rejected(format!("the record would not be well-formed: {e}"))
        }
        WriteError::Refused { kind, error } => {
            CliError::rejected(format!("{kind}: {error}")).hint(format!(
                "`correspond status {}` says what the game waits for",
                correspond::text::path(path)
            ))
        }
        other => CliError::rejected(other.to_string()),
    }
}

/// Under a game file's lock, before anything is written: removes the temporary copies killed
/// commands left, and commits the records a command wrote but did not commit. Says what it did.
pub(crate) fn tidy(
    locked: &log::Locked,
    tracked: Option<&correspond::git::Tracked>,
    said: &mut Vec<String>,
) -> Result<(), CliError> {
    let removed = locked
        .remove_leftovers()
        .map_err(|e| CliError::io(locked.path(), &e).hint("nothing was written"))?;
    if !removed.is_empty() {
        said.push(format!(
            "removed {} left by a command that was cut short: {}",
            if removed.len() == 1 {
                "a temporary copy"
            } else {
                "temporary copies"
            },
            removed
                .iter()
                .map(|n| correspond::text::escape(n).into_owned())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if let Some(tracked) = tracked
        && let Some(line) = crate::cli::shared::commit::recover(tracked, locked.bytes())?
    {
        said.push(line);
    }
    Ok(())
}

/// Prints what a command that wrote has to say, once the write (and the commit) are done: a
/// failure to print says that `done` all the same.
pub(crate) fn report(out: &mut Out<'_>, lines: &[String], done: &str) -> Result<(), CliError> {
    let mut text = lines.join("\n");
    text.push('\n');
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| CliError::from(e).hint(done))
}

/// The game's settlement for offers and claims, or an error for games that have none.
pub(crate) fn settlement<G: Protocol>() -> Result<Settlement, CliError> {
    G::SETTLEMENT.ok_or_else(|| CliError::rejected(format!("{} has no offers or claims", G::NAME)))
}

/// A nonce for a coin flip, derived from the signer's key (see [`correspond::flip`]).
pub(crate) fn derive_nonce(
    signer: &dyn Signer,
    part: correspond::flip::Part,
    binding: &correspond::digest::Digest,
) -> Result<correspond::digest::Digest, CliError> {
    derive_secret(
        signer,
        &correspond::flip::nonce_message(part, binding),
        correspond::flip::nonce_from_signature,
        "the coin-flip nonce",
    )
}

/// A secret only the signer's key makes, and makes again on any machine: `from_signature` of
/// its deterministic signature over `message`, in the namespace no published signature uses
/// (a coin flip's nonce, the seed of hidden conditional lines); `what` names it in an error.
pub(crate) fn derive_secret(
    signer: &dyn Signer,
    message: &[u8],
    from_signature: fn(&[u8]) -> correspond::digest::Digest,
    what: &str,
) -> Result<correspond::digest::Digest, CliError> {
    let signature = signer
        .sign_raw(correspond::flip::NONCE_NAMESPACE, message)
        .map_err(|e| CliError::usage(format!("cannot derive {what}: {e}")))?;
    Ok(from_signature(signature.signature_bytes()))
}

/// Reads a game file whole, and the game its header names.
pub(crate) fn read_game(
    path: &Path,
) -> Result<(crate::cli::shared::game::GameKind, Vec<u8>), CliError> {
    let bytes = read(path)?;
    Ok((game_in(path, &bytes)?, bytes))
}

/// The game the header of `bytes` (the file at `path`) names, read without verifying anything
/// else: only the header is parsed here, since the command parses and replays the whole file
/// once it knows the game.
pub(crate) fn game_in(
    path: &Path,
    bytes: &[u8],
) -> Result<crate::cli::shared::game::GameKind, CliError> {
    if correspond::tournament::file::starts_as_a_tournament(bytes) {
        let shown = correspond::text::path(path);
        return Err(CliError::usage(format!(
            "{shown} is a tournament file, not a game file"
        ))
        .hint(format!(
            "`correspond tournament standings {shown}` shows the event; `correspond verify` checks it"
        )));
    }
    let header = log::raw_document(bytes, 0).map(|header| &bytes[..header.end]);
    let file = header.and_then(GameFile::parse).map_err(|e| {
        CliError::rejected(format!(
            "{} does not verify: {e}",
            correspond::text::path(path)
        ))
    })?;
    kind_of(&file, path)
}

/// The game a parsed file's header names, as an error for the user if this program does not
/// play it.
pub(crate) fn kind_of(
    file: &GameFile,
    path: &Path,
) -> Result<crate::cli::shared::game::GameKind, CliError> {
    crate::cli::shared::game::GameKind::named(&file.header().game).ok_or_else(|| {
        CliError::rejected(format!(
            "{}: unknown game `{}` (this program plays {})",
            correspond::text::path(path),
            correspond::text::escape(&file.header().game),
            crate::cli::shared::game::GameKind::names_in_words()
        ))
    })
}
