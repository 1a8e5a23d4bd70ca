//! Reading what `receive` is given: saved messages, standard input, mbox mailboxes and
//! Maildir folders, each block found with where it came from.

use super::Args;
use crate::cli::CliError;
use correspond::log;
use correspond::mail::{self, Found, MailError};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// Every block in the messages and mailboxes, with where it was found.
pub(super) fn gather(args: &Args) -> Result<Vec<Found>, CliError> {
    let mut found = Vec::new();
    let stdin = PathBuf::from("-");
    let mailboxes = args.mbox.len() + args.maildir.len();
    let messages = if args.messages.is_empty() && mailboxes == 0 {
        if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
            return Err(CliError::usage("no message given").hint(
                "name the saved message (`correspond receive FILE MESSAGE.eml`), pipe it in, \
                 or give a mailbox with --mbox",
            ));
        }
        std::slice::from_ref(&stdin)
    } else {
        &args.messages[..]
    };
    // Before anything is read: a second read of standard input finds it empty, and would be
    // reported as a message without a block.
    let stdin_uses = messages
        .iter()
        .chain(&args.mbox)
        .filter(|m| m.as_os_str() == "-");
    if stdin_uses.count() > 1 {
        return Err(CliError::usage("standard input (`-`) is given twice"));
    }
    saved_messages(messages, mailboxes > 0, &mut found)?;
    for path in &args.mbox {
        mbox(path, &mut found)?;
    }
    for dir in &args.maildir {
        maildir(dir, &mut found)?;
    }
    Ok(found)
}

/// The blocks of saved messages (`-` for standard input), each message given on its own. Of
/// several, one without a block is other mail; one alone, or all of them with no mailbox
/// given, is a mistake.
fn saved_messages(
    messages: &[PathBuf],
    any_mailbox: bool,
    found: &mut Vec<Found>,
) -> Result<(), CliError> {
    let mut blockless = 0;
    for path in messages {
        let (origin, bytes) = if path.as_os_str() == "-" {
            ("standard input".to_owned(), read_stdin()?)
        } else {
            (
                correspond::text::path(path).to_string(),
                read_message(path)?,
            )
        };
        let parsed = mail::in_message(&bytes);
        if parsed.blocks.is_empty() && messages.len() == 1 {
            return Err(
                CliError::rejected(format!("{origin}: {}", MailError::NoBlock)).hint(
                    "give the whole message as your mail client saves it (`.eml`, \"save as\", \
                     \"show original\"); nothing was written",
                ),
            );
        }
        if parsed.blocks.is_empty() {
            blockless += 1;
            if blockless == messages.len() && !any_mailbox {
                return Err(CliError::rejected(format!(
                    "no correspond record block was found in any of the {} messages",
                    messages.len()
                ))
                .hint("nothing was written"));
            }
            found.push(Found {
                origin,
                packet: Err(MailError::NoBlock),
                in_mailbox: true,
                message: found.len(),
            });
            continue;
        }
        add(found, &origin, parsed.blocks, false);
    }
    Ok(())
}

/// The blocks of an mbox mailbox (`-` for standard input), each message named by its number
/// and subject. An empty file is a mailbox with no mail yet.
fn mbox(path: &Path, found: &mut Vec<Found>) -> Result<(), CliError> {
    let file: Box<dyn Read> = if path.as_os_str() == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(correspond::files::open_stream(path).map_err(|e| CliError::io(path, &e))?)
    };
    let mut messages = 0;
    let mut oversized = Vec::new();
    let limit = usize::try_from(log::MAX_FILE_SIZE).unwrap_or(usize::MAX);
    let mut reader = BufReader::new(file);
    if reader
        .fill_buf()
        .map_err(|e| CliError::io(path, &e))?
        .is_empty()
    {
        return Ok(());
    }
    mail::mailbox(reader, limit, |number, message| {
        messages += 1;
        let Ok(message) = message else {
            oversized.push(number);
            return;
        };
        let parsed = mail::in_message(message);
        let origin = match &parsed.subject {
            Some(subject) => format!(
                "{}, message {number} ({})",
                correspond::text::path(path),
                correspond::text::shown(subject)
            ),
            None => format!("{}, message {number}", correspond::text::path(path)),
        };
        add(found, &origin, parsed.blocks, true);
    })
    .map_err(|e| CliError::io(path, &e))?;
    if messages == 0 {
        return Err(CliError::usage(format!(
            "{}: no messages (an mbox mailbox starts with a `From ` line)",
            correspond::text::path(path)
        ))
        .hint("is it a mailbox? A single saved message is given without --mbox"));
    }
    for number in oversized {
        found.push(Found {
            origin: format!("{}, message {number}", correspond::text::path(path)),
            packet: Err(MailError::Damaged {
                game: None,
                range: None,
                why: "its message is larger than 64 MiB, which no game's message is".into(),
                quoted: false,
            }),
            in_mailbox: true,
            message: found.len(),
        });
    }
    Ok(())
}

/// The messages of a Maildir folder: each file of its `new` and `cur` subfolders, in the order
/// of their names (which begin with the time they arrived), read as a mailbox's messages.
fn maildir(dir: &Path, found: &mut Vec<Found>) -> Result<(), CliError> {
    let mut files = Vec::new();
    for sub in ["cur", "new"] {
        let folder = dir.join(sub);
        let listing = std::fs::read_dir(&folder).map_err(|e| {
            CliError::io(&folder, &e).hint(format!(
                "is {} a Maildir folder? It holds cur/, new/ and tmp/",
                correspond::text::path(dir)
            ))
        })?;
        for entry in listing {
            let entry = entry.map_err(|e| CliError::io(&folder, &e))?;
            if entry.file_type().is_ok_and(|t| t.is_file()) {
                files.push(entry.path());
            }
        }
    }
    files.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    for path in files {
        let origin = correspond::text::path(&path).to_string();
        let bytes = match log::read_limited(&path) {
            Ok(bytes) => bytes,
            Err(e) => {
                found.push(Found {
                    origin,
                    packet: Err(MailError::Damaged {
                        game: None,
                        range: None,
                        why: format!("the message cannot be read: {e}"),
                        quoted: false,
                    }),
                    in_mailbox: true,
                    message: found.len(),
                });
                continue;
            }
        };
        let parsed = mail::in_message(&bytes);
        let origin = match &parsed.subject {
            Some(subject) => format!("{origin} ({})", correspond::text::shown(subject)),
            None => origin,
        };
        add(found, &origin, parsed.blocks, true);
    }
    Ok(())
}

/// Adds a message's blocks, numbered when it holds several.
fn add(
    found: &mut Vec<Found>,
    origin: &str,
    blocks: Vec<Result<mail::Packet, MailError>>,
    in_mailbox: bool,
) {
    let several = blocks.len() > 1;
    // The blocks of one message share a number: the place of its first among all found.
    let message = found.len();
    for (i, packet) in blocks.into_iter().enumerate() {
        let origin = if several {
            format!("{origin}, block {}", i + 1)
        } else {
            origin.to_owned()
        };
        found.push(Found {
            origin,
            packet,
            in_mailbox,
            message,
        });
    }
}

/// A message from a file, a pipe (`<(...)`) or `/dev/stdin`.
fn read_message(path: &Path) -> Result<Vec<u8>, CliError> {
    let file = correspond::files::open_stream(path).map_err(|e| CliError::io(path, &e))?;
    limited(file, &correspond::text::path(path).to_string())
}

fn read_stdin() -> Result<Vec<u8>, CliError> {
    limited(std::io::stdin(), "standard input")
}

fn limited(reader: impl Read, name: &str) -> Result<Vec<u8>, CliError> {
    let mut bytes = Vec::new();
    reader
        .take(log::MAX_FILE_SIZE + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::usage(format!("{name}: {e}")))?;
    if bytes.len() as u64 > log::MAX_FILE_SIZE {
        return Err(CliError::usage(format!(
            "{name}: larger than {} MiB, which no message of a game is",
            log::MAX_FILE_SIZE >> 20
        )));
    }
    Ok(bytes)
}
