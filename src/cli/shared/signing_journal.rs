//! The signing journal of the user running a command: where it is (`CORRESPOND_JOURNAL`, else
//! the XDG state folder), opened for a game, and its refusals said with what to do. Every
//! command that signs uses it; `correspond journal` manages it.

use crate::cli::CliError;
use correspond::digest::Digest;
use correspond::journal::{Entry, GameJournal, Journal, JournalError};
use correspond::log::Document;
use correspond::writer::WriteError;
use std::path::{Path, PathBuf};

/// The environment variable naming the journal's folder, instead of
/// `$XDG_STATE_HOME/correspond/journal` (or `~/.local/state/correspond/journal`).
pub(crate) const JOURNAL_VARIABLE: &str = "CORRESPOND_JOURNAL";

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
        return Ok(Journal::at(dir).threads(crate::cli::cores()));
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
    Ok(Journal::at(state.join("correspond").join("journal")).threads(crate::cli::cores()))
}

/// The journal's part for one game, locked, as an error for the user when it cannot be read.
pub(crate) fn game(game: Digest) -> Result<GameJournal, CliError> {
    open()?.game(game).map_err(journal_error)
}

/// A journal failure while signing, for the user.
pub(crate) fn journal_error(e: JournalError) -> CliError {
    failed(e, "nothing was signed")
}

/// A journal failure, for the user, with what was not done (`nothing was exported`). The hints
/// never suggest going around the journal.
pub(crate) fn failed(e: JournalError, nothing: &str) -> CliError {
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
    CliError::usage(format!("{e}; {nothing}")).hint(hint)
}

/// A journal failure while signing `file`, for the user.
pub(crate) fn refusal(e: JournalError, file: &Path) -> CliError {
    match e {
        JournalError::Conflict(earlier) => conflict(&earlier, file),
        JournalError::Departs {
            signed,
            missing,
            differs,
        } => departs(&signed, missing, differs, file),
        other => journal_error(other),
    }
}

/// The refusal to sign on a copy that lacks a record by another that the user's key built on:
/// names the user's record and what the copy lacks, and how to go on.
fn departs(signed: &Entry, missing: u64, differs: bool, file: &Path) -> CliError {
    let n = signed.document;
    let what = match &signed.content {
        Document::Record(r) => format!("record {n} ({}, signed {})", r.action, r.time.as_str()),
        Document::Header(_) => "its header".to_owned(),
    };
    let shown = correspond::text::path(file);
    let (copy, hint) = if differs {
        (
            format!("{shown} holds another record {missing}"),
            format!(
                "the other player signed two records {missing}: set the copy you played on \
                 beside this one with `correspond compare`, which proves it, and take both to the \
                 game's arbiter"
            ),
        )
    } else {
        (
            format!("{shown} does not have that record {missing}"),
            "bring the copy you played on here (git pull, or correspond receive the other \
             player's mail), and sign there"
                .to_owned(),
        )
    };
    CliError::rejected(format!(
        "your key {} already signed {what} of this game, on top of a record {missing} by another, \
         and {copy}: a record signed here would take back what you built on, evidence against \
         you; nothing was signed",
        signed.fingerprint()
    ))
    .hint(hint)
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
    correspond::writer::journal_record(journal, key, game, document, text).map_err(|e| match e {
        WriteError::Journal(e) => refusal(e, file),
        // The entry cannot be made: said as the record writer says it.
        other => CliError::usage(format!("{other}; nothing was written")),
    })
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
