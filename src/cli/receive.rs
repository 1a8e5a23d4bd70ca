//! `correspond receive`: records that arrived by mail, checked and appended to a game file.

use super::CliError;
use super::commit;
use super::game::{CliGame, GameName, with_game};
use super::record;
use crate::log::{self, GameFile};
use crate::mail::{self, Found, MailError, Received};
use crate::replay::{self, Event};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Take in records that arrived by mail: find the record block in each message (whatever the
/// mail client did to it: quoted-printable or base64, an HTML part, CRLF line endings, quoted
/// with `> ` in a reply, forwarded), check that its records chain onto the game file and
/// verify (signatures, turns, moves), append them, and commit the file when it is in git.
///
/// Nothing is written unless every record for this game verifies. A message already received
/// changes nothing and says so (exit code 0). A message from another game, with a bad signature,
/// that disagrees with the file, or whose records come after a gap (an earlier message not yet
/// received) is refused with the reason (exit code 1).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The game file.
    file: PathBuf,
    /// Messages as saved by a mail client (`.eml`), or any text holding a record block. `-` or
    /// none: standard input.
    #[arg(value_name = "MESSAGE")]
    messages: Vec<PathBuf>,
    /// Also read every message of an mbox mailbox, in whatever order they come, passing over
    /// other games' messages and mail without records; repeat for several.
    #[arg(long, value_name = "MBOX")]
    mbox: Vec<PathBuf>,
    /// Start FILE (which must not exist) from a mailed challenge.
    #[arg(long)]
    new: bool,
    /// Take only this game's records (its id, or the id's first 8 characters or more), and pass
    /// over every other game's: to start one game of several in a mailbox.
    #[arg(long, value_name = "ID")]
    game: Option<String>,
    /// Do not commit the file to git, even inside a git work tree.
    #[arg(long)]
    no_commit: bool,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let path = &args.file;
    if args.new && path.exists() {
        return Err(
            CliError::usage(format!("{} already exists", path.display()))
                .hint("without --new, receive adds the records to it"),
        );
    }
    if !args.new && !path.exists() {
        return Err(
            CliError::usage(format!("{} does not exist", path.display())).hint(format!(
                "to start it from a mailed challenge: correspond receive --new {} MESSAGE",
                path.display()
            )),
        );
    }
    let game = args.game.as_deref().map(game_prefix).transpose()?;
    let mut found = gather(args)?;
    let mut other_games = 0;
    if let Some(id) = game {
        let before = found.len();
        found.retain(|f| match &f.packet {
            Ok(p) => p.game.to_string().starts_with(&id),
            Err(MailError::Damaged { game: Some(g), .. }) => g.to_string().starts_with(&id),
            Err(_) => true,
        });
        other_games = before - found.len();
    }
    let tracked = if args.no_commit {
        None
    } else {
        commit::find(path)?
    };
    let mut received = if args.new {
        start(path, &found)?
    } else {
        grow(path, &found)?
    };
    received.other_games += other_games;
    let game = GameFile::parse(&received.bytes).expect("received files verify");
    let name = GameName::of_file(&game.header().game).expect("received files verify");
    let message = with_game!(name, G => report::<G>(path, &game, &received, out)?);
    if let (Some(tracked), Some(message)) = (tracked, message) {
        commit::commit(&tracked, &message, out)?;
    }
    Ok(())
}

/// The `--game` option: a game id or its first 8 characters or more, in lower case.
fn game_prefix(id: &str) -> Result<String, CliError> {
    let id = id.to_ascii_lowercase();
    if (8..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(id)
    } else {
        Err(CliError::usage(format!(
            "--game `{}` is not a game id or its first 8 characters or more",
            log::shown(&id)
        ))
        .hint("`correspond status FILE` shows a game's id"))
    }
}

/// Every block in the messages and mailboxes, with where it was found.
fn gather(args: &Args) -> Result<Vec<Found>, CliError> {
    let mut found = Vec::new();
    let stdin = args.messages.is_empty() && args.mbox.is_empty();
    if stdin && std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        return Err(CliError::usage("no message given").hint(
            "name the saved message (`correspond receive FILE MESSAGE.eml`), pipe it in, or \
             give a mailbox with --mbox",
        ));
    }
    let stdin_path = PathBuf::from("-");
    let messages = if stdin {
        std::slice::from_ref(&stdin_path)
    } else {
        &args.messages[..]
    };
    for path in messages {
        let (origin, bytes) = if path.as_os_str() == "-" {
            ("standard input".to_owned(), read_stdin()?)
        } else {
            (path.display().to_string(), read_message(path)?)
        };
        let parsed = mail::in_message(&bytes);
        if parsed.blocks.is_empty() {
            return Err(
                CliError::rejected(format!("{origin}: {}", MailError::NoBlock)).hint(
                    "give the whole message as your mail client saves it (`.eml`, \"save as\", \
                 \"show original\"); nothing was written",
                ),
            );
        }
        found.extend(parsed.blocks.into_iter().map(|packet| Found {
            origin: origin.clone(),
            packet,
            in_mailbox: false,
        }));
    }
    for path in &args.mbox {
        let bytes = read_message(path)?;
        for (i, message) in mail::mailbox(&bytes).iter().enumerate() {
            let parsed = mail::in_message(message);
            let origin = match &parsed.subject {
                Some(subject) => format!(
                    "{}, message {} ({})",
                    path.display(),
                    i + 1,
                    log::shown(subject)
                ),
                None => format!("{}, message {}", path.display(), i + 1),
            };
            found.extend(parsed.blocks.into_iter().map(|packet| Found {
                origin: origin.clone(),
                packet,
                in_mailbox: true,
            }));
        }
    }
    Ok(found)
}

fn read_message(path: &Path) -> Result<Vec<u8>, CliError> {
    log::read_limited(path).map_err(|e| CliError::io(path, &e))
}

fn read_stdin() -> Result<Vec<u8>, CliError> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(log::MAX_FILE_SIZE + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::usage(format!("standard input: {e}")))?;
    if bytes.len() as u64 > log::MAX_FILE_SIZE {
        return Err(CliError::usage(format!(
            "standard input: larger than {} MiB, which no message of a game needs",
            log::MAX_FILE_SIZE >> 20
        )));
    }
    Ok(bytes)
}

/// The refusal of what arrived, with advice.
fn refused(e: &mail::ReceiveError) -> CliError {
    let error = CliError::rejected(e);
    let error = match &e.error {
        MailError::Gap { .. } => {
            error.hint("receive the earlier message first (or all of them at once, in any order)")
        }
        MailError::Fork(_) => error.hint(
            "the sender's copy and yours disagree: ask for their file and run `correspond \
             compare` on the two",
        ),
        MailError::Damaged { .. } => {
            error.hint("ask for the message again, or for the game file as an attachment")
        }
        MailError::WrongGame { .. } => error.hint("is it the right game file?"),
        MailError::SeveralGames(_) => {
            error.hint("choose one with --game ID (its id's first 8 characters or more)")
        }
        _ => error,
    };
    error.hint("nothing was written")
}

/// A new file from a challenge.
fn start(path: &Path, found: &[Found]) -> Result<Received, CliError> {
    let received = mail::receive(None, found).map_err(|e| refused(&e))?;
    log::create_new(path, &received.bytes).map_err(|e| CliError::io(path, &e))?;
    Ok(received)
}

/// The file with what arrived appended, under the file's lock.
fn grow(path: &Path, found: &[Found]) -> Result<Received, CliError> {
    let mut received = None;
    let appended = log::append_locked(path, |bytes| {
        let file = GameFile::parse(bytes).map_err(|e| invalid(path, &e))?;
        replay::verify(bytes).map_err(|e| invalid(path, &e))?;
        let done = mail::receive(Some(&file), found).map_err(|e| refused(&e))?;
        let addition = done.bytes[bytes.len()..].to_vec();
        let nothing = addition.is_empty();
        received = Some(done);
        if nothing {
            // Leave the file alone, its time stamp too.
            return Err(None);
        }
        Ok(addition)
    });
    match appended {
        Ok(_) | Err(log::AppendError::Rejected(None)) => {
            Ok(received.expect("the file was read and what arrived checked"))
        }
        Err(log::AppendError::Rejected(Some(e))) => Err(e),
        Err(log::AppendError::Io(e)) => Err(CliError::io(path, &e)),
    }
}

fn invalid(path: &Path, e: &dyn std::fmt::Display) -> Option<CliError> {
    Some(
        CliError::rejected(format!("{} does not verify: {e}", path.display()))
            .hint("nothing was written; `correspond audit` shows who changed it, if it is in git"),
    )
}

/// Says what arrived; returns the commit message, if anything did.
fn report<G: CliGame>(
    path: &Path,
    file: &GameFile,
    received: &Received,
    out: &mut dyn Write,
) -> Result<Option<String>, CliError> {
    let replay = replay::replay::<G>(file).expect("received files verify");
    let skipped = |out: &mut dyn Write| -> std::io::Result<()> {
        if received.other_games > 0 {
            let n = received.other_games;
            let blocks = if n == 1 { "block" } else { "blocks" };
            writeln!(out, "passed over {n} {blocks} of other games")?;
        }
        for damaged in &received.damaged {
            writeln!(out, "passed over: {damaged}")?;
        }
        Ok(())
    };
    if received.added.is_empty() {
        writeln!(
            out,
            "nothing new: {} already holds every record received (records 0 to {})",
            path.display(),
            file.documents() - 1
        )?;
        skipped(out)?;
        return Ok(None);
    }
    for step in &replay.steps[received.added.clone()] {
        let events: Vec<String> = step.events.iter().map(Event::to_string).collect();
        writeln!(
            out,
            "record {}: {} {}",
            step.document,
            replay.seats[step.signer],
            events.join("; ")
        )?;
    }
    skipped(out)?;
    if received.added.start == 0 {
        // A new game's keys come from the challenge itself: the fingerprints are for checking
        // them with the other player by another channel.
        let players: Vec<String> = file
            .header()
            .players
            .iter()
            .zip(&replay.seats)
            .map(|(p, seat)| format!("{seat} {}", crate::sign::fingerprint(&p.key)))
            .collect();
        writeln!(out, "players: {}", players.join(", "))?;
    }
    let phase = &replay.last().phase;
    match replay.verdict() {
        Some(verdict) => writeln!(out, "result: {}", verdict.describe(&replay.seats))?,
        None => writeln!(out, "now: {}", phase.describe(&replay.seats))?,
    }
    if let Some(next) = super::status::next_step(phase, &replay.seats, &path.display().to_string())
    {
        writeln!(out, "next: {next}")?;
    }
    let (first, last) = (received.added.start, received.added.end - 1);
    let what = if first == 0 {
        format!("new game, {}", replay.matchup())
    } else {
        record::headline(
            &replay.seats[replay.steps[last].signer],
            &file.records()[last - 1].action,
        )
    };
    let records = if first == last {
        format!("record {last}")
    } else {
        format!("records {first}-{last}")
    };
    Ok(Some(format!(
        "{}: {what} ({records}, received by mail)",
        G::NAME
    )))
}
