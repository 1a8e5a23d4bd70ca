//! `correspond receive`: records that arrived by mail, checked and appended to a game file.

mod gather;
mod refusals;

use refusals::{crossed, invalid, passed_over, refused};

use crate::cli::CliError;
use crate::cli::ExitStatus;
use crate::cli::Out;
use crate::cli::shared::commit;
use crate::cli::shared::game::{CliGame, with_game};
use correspond::git::Tracked;
use correspond::log::{self, GameFile};
use correspond::mail::{self, Found, MailError, ReceiveError, Received};
use correspond::replay;
use std::path::{Path, PathBuf};

/// Take in records that arrived by mail: find the record block in each message (whatever the
/// mail client did to it: quoted-printable or base64, an HTML part, CRLF line endings, quoted
/// with `> ` in a reply, forwarded), check that its records chain onto the game file and
/// verify (signatures, turns, moves), append them, and commit the file when it is in git.
///
/// A message already received changes nothing and says so (exit code 0). A message from
/// another game, with a bad signature, that disagrees with the file, or whose records come
/// after a gap (an earlier message not yet received) is refused with the reason, and nothing
/// is written (exit code 1); when the other player signed two different records with one
/// number, a proof of it is written for an arbiter. Several messages are each judged on their
/// own: one refused is listed with the reason, the others are taken as if it had not been
/// given, and the exit code is 1 (a fork between two of them stops them all, for the player
/// to settle).
///
/// A mailbox (--mbox, `-` for standard input) holds whatever arrived: what verifies is applied,
/// and each block passed over is listed with the reason; the exit code is 1 when one was forged
/// or disagrees with the game. Two versions of one record that arrive together, when the file
/// holds neither and the crossing rule does not settle them, are both left out.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The game file.
    file: PathBuf,
    /// Messages as saved by a mail client (`.eml`), text holding a record block, or a game
    /// file sent as it is. `-` or none: standard input.
    #[arg(value_name = "MESSAGE")]
    messages: Vec<PathBuf>,
    /// Also read every message of an mbox mailbox, in whatever order they lie there, passing
    /// over other games' messages and mail without records; repeat for several.
    #[arg(long, value_name = "MBOX")]
    mbox: Vec<PathBuf>,
    /// Also read every message of a Maildir folder (its `cur` and `new` subfolders), as a
    /// mailbox; repeat for several.
    #[arg(long, value_name = "DIR")]
    maildir: Vec<PathBuf>,
    /// Start FILE (which must not exist) from a mailed challenge.
    #[arg(long)]
    new: bool,
    /// Take only this game's records (its id, or the id's first 8 characters or more), and pass
    /// over every other game's: to start one game of several in a mailbox.
    #[arg(long, value_name = "ID", value_hint = clap::ValueHint::Other)]
    game: Option<String>,
    /// Where to write the proof when a message shows that a player signed two different
    /// records with one number. Default: next to FILE, `FILE-STEM.equivocation-N.proof`. When
    /// it shows a player signed in two versions of the game, the other version goes here
    /// instead (default `FILE-STEM.rival-N.copy`).
    #[arg(long, value_name = "PATH")]
    proof: Option<PathBuf>,
    /// Do not commit the file to git, even inside a git work tree.
    #[arg(long)]
    no_commit: bool,
    #[command(flatten)]
    wait: crate::cli::shared::record::WaitArgs,
    /// When a record of yours crossed one of the other player's and is void by the crossing
    /// rule (the game awaited them): drop yours, take theirs, and sign yours again on top
    /// where it still applies, with --key.
    #[arg(long)]
    settle: bool,
    #[command(flatten)]
    key: crate::cli::shared::keys::KeyArgs,
}

pub(crate) fn run(args: &Args, out: &mut Out<'_>) -> Result<ExitStatus, CliError> {
    let path = &args.file;
    if args.new && path.exists() {
        return Err(
            CliError::usage(format!("{} already exists", correspond::text::path(path)))
                .hint("without --new, receive adds the records to it"),
        );
    }
    if !args.new && !path.exists() {
        return Err(
            CliError::usage(format!("{} does not exist", correspond::text::path(path))).hint(
                format!(
                    "to start it from a mailed challenge: correspond receive --new {} MESSAGE",
                    correspond::text::path(path)
                ),
            ),
        );
    }
    let game = args.game.as_deref().map(game_prefix).transpose()?;
    let mut found = gather::gather(args)?;
    let other_games = match game {
        Some(id) => only_game(args, &id, &mut found)?,
        None => 0,
    };
    let mut write = Writing {
        path,
        commit: !args.no_commit,
        wait: &args.wait,
        settle: args.settle.then_some(&args.key),
        tracked: None,
        locked: None,
        said: Vec::new(),
    };
    let mut received = if args.new {
        write.start(&found)
    } else {
        write.grow(&found)
    }
    .map_err(|stop| match stop {
        Stop::Cli(e) => e,
        Stop::Refused(e) => refused(&e, args),
    })?;
    received.other_games += other_games;
    // Received files verify, so the registry knows their game; said plainly all the same.
    let name = crate::cli::shared::record::kind_of(&received.file, path)?;
    // Said once the commit is made: printing cannot stop it.
    let mut report_text = Vec::new();
    let message = with_game!(name, G => report::<G>(path, &received, args, &mut Out::new(&mut report_text, out.styled()))?);
    let committed = write.commit(message)?;
    let done = if committed.is_some() {
        "what arrived was written and committed"
    } else {
        "what arrived was written, if anything"
    };
    let mut text = write.said.join("\n");
    if !text.is_empty() {
        text.push('\n');
    }
    text.push_str(&String::from_utf8_lossy(&report_text));
    if let Some(line) = committed {
        text.push_str(&line);
        text.push('\n');
    }
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| CliError::from(e).hint(done))?;
    Ok(if alarming(&received) || !received.refused.is_empty() {
        ExitStatus::Rejected
    } else {
        ExitStatus::Success
    })
}

/// `--game`: only the blocks of game `id` (an id's first characters) are kept in `found`, and
/// the file, if there is one already, must be that game. Returns how many blocks of other games
/// were left out.
///
/// # Errors
/// The file cannot be read, is not a game file, or is another game; or (with `--new`) no block
/// is of this one.
fn only_game(args: &Args, id: &str, found: &mut Vec<Found>) -> Result<usize, CliError> {
    let path = &args.file;
    if !args.new {
        let file = GameFile::parse(&crate::cli::shared::record::read(path)?)
            .map_err(|e| invalid(path, &e))?;
        if !file.game_id().to_string().starts_with(id) {
            return Err(CliError::usage(format!(
                "{} is game {}, not --game {id}",
                correspond::text::path(path),
                file.game_id()
            )));
        }
    }
    let before = found.len();
    found.retain(|f| match &f.packet {
        Ok(p) => p.game.to_string().starts_with(id),
        Err(MailError::Damaged { game: Some(g), .. }) => g.to_string().starts_with(id),
        Err(_) => true,
    });
    let other_games = before - found.len();
    if found.is_empty() && args.new {
        return Err(CliError::rejected(format!(
            "no block of game {id} was found ({other_games} of other games)"
        ))
        .hint("`correspond status FILE` shows a game's id"));
    }
    Ok(other_games)
}

/// Whether `receive` exits as refused although what it wrote verifies: a forgery, a fork, a
/// block meant for elsewhere or an undecided record passed over still needs the player's
/// attention.
fn alarming(received: &Received) -> bool {
    received.passed_over.iter().any(|p| {
        matches!(
            *p.error,
            MailError::Invalid(_)
                | MailError::Fork { .. }
                | MailError::Elsewhere(_)
                | MailError::Undecided(_)
        )
    })
}

/// The `--game` option: a game id or its first 8 characters or more, in lower case.
fn game_prefix(id: &str) -> Result<String, CliError> {
    let id = id.to_ascii_lowercase();
    if (8..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(id)
    } else {
        Err(CliError::usage(format!(
            "--game `{}` is not a game id or its first 8 characters or more",
            correspond::text::shown(&id)
        ))
        .hint("`correspond status FILE` shows a game's id"))
    }
}

/// Why receiving stopped: an error for the user, or what arrived refused.
enum Stop {
    Cli(CliError),
    Refused(ReceiveError),
}

impl From<CliError> for Stop {
    fn from(e: CliError) -> Stop {
        Stop::Cli(e)
    }
}

/// Writing what arrived, and the repository to commit it to (looked up only when there is
/// something to write, before it is written); the file's lock is kept until the commit is made.
struct Writing<'a> {
    path: &'a Path,
    commit: bool,
    wait: &'a crate::cli::shared::record::WaitArgs,
    /// The key to sign again with, when the player settles a crossing (`--settle`).
    settle: Option<&'a crate::cli::shared::keys::KeyArgs>,
    tracked: Option<Tracked>,
    locked: Option<log::Locked>,
    /// What was done on the way (a leftover removed, earlier records committed).
    said: Vec<String>,
}

impl Writing<'_> {
    fn find_repository(&mut self) -> Result<(), CliError> {
        if self.commit {
            self.tracked = commit::find(self.path)?;
        }
        Ok(())
    }

    /// A new file from a challenge.
    fn start(&mut self, found: &[Found]) -> Result<Received, Stop> {
        let received = mail::receive_each(None, found).map_err(Stop::Refused)?;
        if self.commit {
            self.tracked = commit::find_for_new(self.path)?;
        }
        log::create_new(self.path, received.file.text().as_bytes())
            .map_err(|e| CliError::io(self.path, &e))?;
        if self.tracked.is_some() {
            self.locked = Some(self.wait.lock(self.path)?);
        }
        Ok(received)
    }

    /// The file with what arrived appended, under the file's lock.
    fn grow(&mut self, found: &[Found]) -> Result<Received, Stop> {
        let path = self.path;
        let mut locked = self.wait.lock(path)?;
        let file = GameFile::parse(locked.bytes()).map_err(|e| invalid(path, &e))?;
        // The file is replayed once, by `receive`; a defect of its own is not the mail's.
        let outcome = mail::receive_each(Some(&file), found);
        // A record of the file's that is void by the crossing rule: refused in a message given
        // alone, passed over in a mailbox.
        let void = match &outcome {
            Err(e) => crossed(&e.error).map(|f| f.document),
            Ok(received) => received
                .passed_over
                .iter()
                .filter_map(|p| crossed(&p.error).map(|f| f.document))
                .min(),
        };
        if let (Some(document), Some(key)) = (void, self.settle) {
            let settled =
                crate::cli::by_mail::settle::settle(path, &locked, &file, document, found, key)?;
            self.find_repository()?;
            crate::cli::shared::record::tidy(&locked, self.tracked.as_ref(), &mut self.said)?;
            self.said.extend(settled.said);
            locked
                .rewrite(settled.received.file.text().as_bytes().to_vec())
                .map_err(|e| {
                    crate::cli::shared::places::not_written(path, &e, "nothing was written")
                })?;
            self.locked = Some(locked);
            return Ok(settled.received);
        }
        let received = match outcome {
            Ok(received) => received,
            Err(e) => match &*e.error {
                MailError::Invalid(defect) if e.origin.is_none() => {
                    return Err(Stop::Cli(invalid(path, defect)));
                }
                _ => return Err(Stop::Refused(e)),
            },
        };
        let before = locked.bytes().len();
        if received.file.text().len() == before {
            // Nothing new: the file is left alone, its time stamp too.
            return Ok(received);
        }
        self.find_repository()?;
        crate::cli::shared::record::tidy(&locked, self.tracked.as_ref(), &mut self.said)?;
        locked
            .append(&received.file.text().as_bytes()[before..])
            .map_err(|e| {
                crate::cli::shared::places::not_written(path, &e, "nothing was written")
            })?;
        self.locked = Some(locked);
        Ok(received)
    }

    /// Commits what was written, under the lock, and returns the line that says so.
    fn commit(&mut self, message: Option<String>) -> Result<Option<String>, CliError> {
        let (Some(tracked), Some(locked), Some(message)) =
            (&self.tracked, self.locked.take(), message)
        else {
            return Ok(None);
        };
        commit::commit(tracked, &message, locked.bytes()).map(Some)
    }
}

/// Says what arrived; returns the commit message, if anything did.
fn report<G: CliGame>(
    path: &Path,
    received: &Received,
    args: &Args,
    out: &mut Out<'_>,
) -> Result<Option<String>, CliError> {
    let file = &received.file;
    // Received files verify; were this one not to, that is said, not panicked on.
    let replay = replay::replay::<G>(file)?;
    let skipped = |out: &mut Out<'_>| passed_over(path, received, args, out);
    if received.added.is_empty() {
        let shown = correspond::text::path(path);
        let last = file.documents() - 1;
        if received.passed_over.is_empty() && received.refused.is_empty() {
            writeln!(
                out,
                "nothing new: {shown} already holds every record received (records 0 to {last})"
            )?;
        } else {
            // Passed over is received too: not "every record received".
            writeln!(
                out,
                "nothing taken: {shown} holds records 0 to {last}; what was received and not \
                 taken:"
            )?;
        }
        skipped(out)?;
        return Ok(None);
    }
    for step in &replay.steps[received.added.clone()] {
        writeln!(
            out,
            "{}",
            crate::cli::shared::recap::step_line(&replay, step)
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
            .map(|(p, seat)| format!("{seat} {}", correspond::sign::fingerprint(&p.key)))
            .collect();
        writeln!(out, "players: {}", players.join(", "))?;
    }
    let phase = &replay.last().phase;
    match replay.verdict() {
        Some(verdict) => writeln!(out, "result: {}", verdict.describe(&replay.seats))?,
        None => writeln!(out, "now: {}", phase.describe(&replay.seats))?,
    }
    if let Some(next) =
        crate::cli::shared::next::next_after(&replay, &correspond::text::path(path).to_string())
    {
        writeln!(out, "next: {next}")?;
    }
    let (first, last) = (received.added.start, received.added.end - 1);
    let what = if first == 0 {
        format!("new game, {}", replay.matchup())
    } else {
        crate::cli::shared::recap::document_headline(file, &replay, last)
    };
    let records = if first == last {
        format!("record {last}")
    } else {
        format!("records {first}-{last}")
    };
    Ok(Some(format!(
        "{}, {what} ({records}, received by mail)",
        G::NAME
    )))
}
