//! `correspond mail`: a game's latest records as a mail message, ready to send.

use super::CliError;
use super::game::{CliGame, with_game};
use super::keys;
use super::record;
use super::render::Charset;
use super::status::next_step;
use crate::log::GameFile;
use crate::mail::{self, Envelope, Mailbox};
use crate::replay::{Event, Phase, Replay};
use crate::rules::Line;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Write a message that carries a game's latest records to the other player, on standard
/// output: pipe it into `sendmail -t`, or save it and send it with any mail client.
///
/// The subject names the game and the last record (`[correspond] campaign: heads plays c2c3
/// (record 7)`); the body says what happened, draws the board, says who is to act next, and
/// carries the records in a block between `-----BEGIN CORRESPOND RECORDS-----` and `-----END
/// CORRESPOND RECORDS-----` lines, which survives quoting and re-wrapping. The other player
/// takes them in with `correspond receive`. A new game (a challenge) is mailed the same way:
/// its block carries the whole file.
///
/// Run it after your own record: without --since, the message carries the records made since
/// the other player's last one, which the other player cannot have yet.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The game file.
    file: PathBuf,
    /// The recipient's address; repeat for several. Without it the message has no `To:` line,
    /// for a mail client to fill in.
    #[arg(long, value_name = "ADDRESS")]
    to: Vec<String>,
    /// The sender's address. Default: git's `user.email`.
    #[arg(long, value_name = "ADDRESS")]
    from: Option<String>,
    /// Carry the records from record N to the end (0: the whole file, header included).
    #[arg(long, value_name = "N")]
    since: Option<usize>,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    with_game!(record::game_of(&args.file)?, G => mail::<G>(args, out))
}

fn mail<G: CliGame>(args: &Args, out: &mut dyn Write) -> Result<(), CliError> {
    let path = &args.file;
    let from = match &args.from {
        Some(from) => address(from, "--from")?,
        None => match git_email(path) {
            Some(email) => address(&email, "git's user.email")?,
            None => {
                return Err(CliError::usage("no sender address").hint(
                    "pass --from ADDRESS, or set one with `git config --global user.email \
                     ADDRESS`",
                ));
            }
        },
    };
    let to = args
        .to
        .iter()
        .map(|a| address(a, "--to"))
        .collect::<Result<Vec<_>, _>>()?;
    let (file, replay) = record::load::<G>(path)?;
    let last = file.documents() - 1;
    let since = match args.since {
        Some(n) if n > last => {
            return Err(CliError::usage(format!(
                "--since {n}: {} has records 0 to {last}",
                crate::text::path(path)
            )));
        }
        Some(n) => n,
        None => {
            let sender = replay.last().signer;
            replay
                .steps
                .iter()
                .rposition(|s| s.signer != sender)
                .map_or(0, |i| i + 1)
        }
    };
    // The name the other player is told to receive into: this file's, when it is a plain one
    // (the message must not carry text a terminal would obey, nor words a shell would split).
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| {
            !n.starts_with('-')
                && n.chars()
                    .all(|c| c.is_alphanumeric() && !crate::text::is_unsafe(c) || "._-".contains(c))
        })
        .unwrap_or_else(|| "GAME.yaml".to_owned());
    // Addresses only: which player runs `mail` is not known for sure, so no names are put to
    // them.
    let mailbox = |address| Mailbox {
        name: None,
        address,
    };
    let envelope = Envelope {
        from: mailbox(from),
        to: to.into_iter().map(mailbox).collect(),
        subject: format!("[correspond] {}", title(&file, &replay, last)),
        date: keys::now()?.to_unix(),
        // Unique per block sent and the same each time it is sent again, so that a resent
        // message is recognised, and threaded under the game (an id no message has: clients
        // thread on it all the same).
        message_id: format!(
            "{}.{since}-{last}@correspond.invalid",
            file.digest(last).short()
        ),
        references: vec![format!(
            "{}@correspond.invalid",
            &file.game_id().to_string()[..32]
        )],
    };
    let message = mail::compose(&envelope, &body(&file, &replay, since, &name)?);
    out.write_all(&message)?;
    Ok(())
}

/// What a document did, in a line: `campaign: heads plays c2c3 (record 7)`.
fn title<G: CliGame>(file: &GameFile, replay: &Replay<G>, document: usize) -> String {
    match document {
        0 => format!("{}: new game, {} (record 0)", G::NAME, replay.matchup()),
        n => {
            let step = &replay.steps[n];
            // A move as players write it (SAN in chess), with what it did: `white plays Rd8#`.
            let what = match step.events.iter().find(|e| matches!(e, Event::Moved(..))) {
                Some(Event::Moved(mv, _)) => {
                    format!("{} plays {mv}", record::who(&replay.seats[step.signer]))
                }
                _ => record::document_headline(file, replay, n),
            };
            format!("{}: {what} (record {n})", G::NAME)
        }
    }
}

/// The message's text: what happened, the board, what comes next, and the block.
fn body<G: CliGame>(
    file: &GameFile,
    replay: &Replay<G>,
    since: usize,
    name: &str,
) -> Result<String, CliError> {
    let mut text = format!("{}: {}\n\n", G::NAME, replay.matchup());
    for step in &replay.steps[since..] {
        text += &record::step_line(replay, step);
        text.push('\n');
    }
    let line = replay
        .line
        .clone()
        .unwrap_or_else(|| Line::new(replay.last().position.clone()));
    let mut board = Vec::new();
    G::render(&line, Charset::Ascii, &mut board)?;
    // The pictures carry terminal colours; mail gets the letters alone.
    text += "\n";
    text += &anstream::adapter::strip_str(&String::from_utf8_lossy(&board)).to_string();
    text += "\n";
    let phase = &replay.last().phase;
    match phase {
        Phase::Over(verdict) => text += &format!("result: {}\n", verdict.describe(&replay.seats)),
        phase => text += &format!("now: {}\n", phase.describe(&replay.seats)),
    }
    let receive = if since == 0 {
        format!("correspond receive --new {name} MESSAGE")
    } else {
        format!("correspond receive {name} MESSAGE")
    };
    text += &format!(
        "\nTo take these records into your copy of the game, save this message and run\n    \
         {receive}\n(or pipe the message into it).\n"
    );
    if let Some(next) = next_step(phase, &replay.seats, name) {
        text += &format!("Then: {next}\n");
    }
    text += &format!(
        "\nThe signed records of {name}:\n\n{}",
        mail::armor(file, since)
    );
    Ok(text)
}

/// An address as given: `local@domain`, in plain ASCII, with nothing that could break the
/// message's headers.
fn address(text: &str, option: &str) -> Result<String, CliError> {
    let valid = text.split_once('@').is_some_and(|(local, domain)| {
        !local.is_empty()
            && !domain.is_empty()
            && !local.starts_with('.')
            && !local.ends_with('.')
            && !local.contains("..")
            && local
                .bytes()
                .all(|b| b.is_ascii_graphic() && !b"()<>[]:;@\\,\"".contains(&b))
            && domain.split('.').all(|label| {
                !label.is_empty()
                    && label
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-')
            })
    });
    if valid {
        Ok(text.to_owned())
    } else {
        Err(CliError::usage(format!(
            "{option} `{}` is not a mail address such as alice@example.org",
            crate::text::shown(text)
        )))
    }
}

/// git's `user.email`, as git would find it for the file's repository.
fn git_email(path: &Path) -> Option<String> {
    let config = crate::git::config_near(path)?;
    let email = config.get_string("user.email").ok()?;
    Some(email.trim().to_owned())
}
