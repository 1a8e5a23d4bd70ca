//! `correspond tournament enter`, `close`, `reveal` and `withdraw`: the records that take a
//! tournament from its announcement to its lot, and a player out of it. Each is signed by the
//! one it names; the lot's nonces are derived from the signer's key, never stored.

use super::{SignArgs, append, director_signing, entrant_signing, lot_nonce};
use crate::cli::CliError;
use crate::cli::Out;
use correspond::tournament::event::Event;
use correspond::tournament::file::Action;

/// Enter a tournament: sign your acceptance of its terms with your key, under the name its
/// games will use, with your commitment to the lot that numbers the players. Nobody can enter
/// you without your key.
#[derive(Debug, clap::Args)]
pub(crate) struct EnterArgs {
    #[command(flatten)]
    sign: SignArgs,
    /// Your name, as the event's games will name you.
    #[arg(long, value_hint = clap::ValueHint::Other)]
    name: String,
}

/// Close the entries (the director): sign the director's commitment to the lot. Nobody enters
/// after; then every entrant and the director reveal.
#[derive(Debug, clap::Args)]
pub(crate) struct CloseArgs {
    #[command(flatten)]
    sign: SignArgs,
}

/// Reveal your part of the lot, once the entries are closed (each entrant, and the director).
/// When the last part is revealed, the players are numbered and the pairings are known.
#[derive(Debug, clap::Args)]
pub(crate) struct RevealArgs {
    #[command(flatten)]
    sign: SignArgs,
}

/// Withdraw from a tournament: before the entries close, your entry is taken back; after the
/// lot, the director decides what becomes of your games, as the event's rule for withdrawals
/// says (`correspond tournament decide`).
#[derive(Debug, clap::Args)]
pub(crate) struct WithdrawArgs {
    #[command(flatten)]
    sign: SignArgs,
}

pub(crate) fn enter(args: &EnterArgs, out: &mut Out<'_>) -> Result<(), CliError> {
    if !correspond::log::valid_name(&args.name) {
        return Err(CliError::usage(format!(
            "`{}` is not a valid player name: 1 to 40 letters, digits, spaces and . _ - ' @",
            correspond::text::shown(&args.name)
        )));
    }
    let (event, committed) = append(
        &args.sign,
        &format!("{} enters", args.name),
        |event, signer| {
            let nonce = lot_nonce(signer, &event.id)?;
            Ok((
                args.name.clone(),
                Action::Enter {
                    key: signer.public_key().clone(),
                    commitment: correspond::flip::commitment(&event.id, &nonce),
                },
            ))
        },
    )?;
    let said = format!(
        "entered {} in {} ({} entrant{})",
        args.name,
        event.header.event,
        event.entrants.len(),
        if event.entrants.len() == 1 { "" } else { "s" }
    );
    report(out, &event, said, committed)
}

pub(crate) fn close(args: &CloseArgs, out: &mut Out<'_>) -> Result<(), CliError> {
    let (event, committed) = append(&args.sign, "entries closed", |event, signer| {
        director_signing(event, signer)?;
        let nonce = lot_nonce(signer, &event.id)?;
        Ok((
            event.header.director.name.clone(),
            Action::Close {
                commitment: correspond::flip::commitment(&event.id, &nonce),
            },
        ))
    })?;
    let said = format!(
        "closed the entries of {}: {} players",
        event.header.event,
        event.entrants.len()
    );
    report(out, &event, said, committed)
}

pub(crate) fn reveal(args: &RevealArgs, out: &mut Out<'_>) -> Result<(), CliError> {
    reveal_once(args)?;
    let mut who = String::new();
    let (event, committed) = append(&args.sign, "a reveal", |event, signer| {
        let name = if director_signing(event, signer).is_ok() {
            event.header.director.name.clone()
        } else {
            event.entrants[entrant_signing(event, signer)?].name.clone()
        };
        who.clone_from(&name);
        Ok((
            name,
            Action::Reveal {
                nonce: lot_nonce(signer, &event.id)?,
            },
        ))
    })?;
    let said = format!(
        "{who} revealed their part of the lot of {}",
        event.header.event
    );
    report(out, &event, said, committed)
}

pub(crate) fn withdraw(args: &WithdrawArgs, out: &mut Out<'_>) -> Result<(), CliError> {
    let mut who = String::new();
    let (event, committed) = append(&args.sign, "a withdrawal", |event, signer| {
        let name = event.entrants[entrant_signing(event, signer)?].name.clone();
        who.clone_from(&name);
        Ok((name, Action::Withdraw))
    })?;
    let said = format!("{who} withdrew from {}", event.header.event);
    report(out, &event, said, committed)
}

/// Says what was signed, what the event waits for now, and the commit.
fn report(
    out: &mut Out<'_>,
    event: &Event,
    said: String,
    committed: Option<String>,
) -> Result<(), CliError> {
    let mut lines = vec![said, format!("now: {}", event.stage())];
    if let Some(numbers) = &event.numbers {
        let drawn: Vec<String> = numbers
            .iter()
            .enumerate()
            .map(|(k, &e)| format!("{} {}", k + 1, event.entrants[e].name))
            .collect();
        lines.push(format!("numbers: {}", drawn.join(", ")));
    }
    lines.extend(committed);
    crate::cli::shared::record::report(out, &lines, "the tournament file was written")
}

/// Refuses to reveal a key's nonce for an event after a close record other than the one it
/// was revealed after before, and notes the close it is revealed after now, in the signing
/// journal's folder. A nonce once revealed is public: a director who closed the entries twice
/// (two versions of the file) could otherwise see every entrant's nonce after one close and
/// choose their own for the other, so as to choose the lot.
fn reveal_once(args: &RevealArgs) -> Result<(), CliError> {
    let path = super::tournament_file(&args.sign.file);
    let bytes = crate::cli::shared::record::read(&path)?;
    let file = correspond::tournament::file::TournamentFile::parse(&bytes)
        .map_err(|e| CliError::rejected(e.to_string()))?;
    let Some(close) = file
        .records()
        .iter()
        .position(|r| matches!(r.action, Action::Close { .. }))
    else {
        // The file's own rules refuse a reveal before the close, and say so.
        return Ok(());
    };
    let close = file.digest(close + 1);
    let key = args.sign.key.public_key(&path)?;
    let key = correspond::digest::Digest::of(&correspond::tournament::event::key_bytes(&key));
    let journal = crate::cli::shared::signing_journal::open()?;
    let dir = journal
        .dir()
        .join("tournaments")
        .join(file.event_id().to_string());
    let noted = dir.join(key.to_string());
    match std::fs::read_to_string(&noted) {
        Ok(before) if before.trim() == close.to_string() => Ok(()),
        Ok(before) => Err(CliError::rejected(format!(
            "this key revealed its nonce for {} already, after another close of its entries \
             (the document {}): the director closed them twice, and a second reveal would let \
             them choose the lot; nothing was signed",
            file.header().event,
            correspond::text::shown(before.trim())
        ))
        .hint("keep the two versions of the tournament file: together they prove it")),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => std::fs::create_dir_all(&dir)
            .and_then(|()| std::fs::write(&noted, format!("{close}\n")))
            .map_err(|e| CliError::io(&noted, &e).hint("nothing was signed")),
        Err(e) => Err(CliError::io(&noted, &e).hint("nothing was signed")),
    }
}
