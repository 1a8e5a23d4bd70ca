//! What `receive` says of what it could not take: a block passed over or a message refused,
//! with what to do about it (settle a crossing, hand an arbiter the proof of an equivocation,
//! receive an earlier message first), and the evidence it writes for an arbiter.

use super::Args;
use crate::cli::CliError;
use crate::cli::Out;
use crate::cli::checking::compare::proof_name;
use correspond::fork;
use correspond::log::{self, GameFile};
use correspond::mail::{MailError, ReceiveError, Received};
use std::path::Path;

/// The fork at which a record which arrived voids the file's by the crossing rule, if it is
/// that.
pub(super) fn crossed(error: &MailError) -> Option<&fork::Fork> {
    match error {
        MailError::Fork { fork, .. } if fork.stands == Some(fork::Copy::B) => Some(fork),
        _ => None,
    }
}

/// How to settle a crossing in which the file's record is void: by its signer, named, since a
/// copy of the other player's may hold it too (a second machine that received it).
fn settle_hint(fork: &fork::Fork, path: &Path) -> String {
    let [(void, _), (stands, _)] = &fork.records;
    let shown = correspond::text::path(path).to_string();
    format!(
        "record {} of {shown} is {void}'s, void by the crossing rule since the game awaited \
         {stands}: {void} settles it with `correspond receive --settle {} MESSAGE`, which drops \
         it, takes {stands}'s, and signs it again where it still applies",
        fork.document,
        correspond::text::shell_word(&shown)
    )
}

pub(super) fn invalid(path: &Path, e: &dyn std::fmt::Display) -> CliError {
    CliError::rejected(format!(
        "{} does not verify: {e}",
        correspond::text::path(path)
    ))
    .hint("nothing was written; `correspond audit` shows who changed it, if it is in git")
}

/// The refusal of what arrived, with advice; for equivocation, the proof written.
pub(super) fn refused(e: &ReceiveError, args: &Args) -> CliError {
    let mut error = CliError::rejected(e);
    for other in &e.passed_over {
        error = error.hint(format!("also passed over: {other}"));
    }
    let error = match &*e.error {
        MailError::Fork { fork, .. } if fork.equivocation => match write_evidence(&e.error, args) {
            Some(said) => error.hint(said),
            None => error,
        },
        MailError::Fork { fork, .. } if fork.seen.is_some() => {
            let error = match write_evidence(&e.error, args) {
                Some(said) => error.hint(said),
                None => error,
            };
            error.hint(
                "this is for an arbiter, not for the crossing rule: keep both versions, and \
                 the message",
            )
        }
        MailError::Fork { fork, .. } if fork.stands == Some(correspond::fork::Copy::B) => {
            error.hint(settle_hint(fork, &args.file))
        }
        MailError::Fork { .. } => error
            .hint(
                "both players signed a record at the same place, each before seeing the \
                     other's: agree which stands; the other player then plays again on top of it",
            )
            .hint(
                "if the message only quotes the other version (a reply), receive the message \
                     it answers, or the new block alone",
            ),
        other => match advice(other) {
            Some(advice) => error.hint(advice),
            None => error,
        },
    };
    error.hint("nothing was written to the game file")
}

/// What to do about a message refused for `error`, where that does not depend on the game.
fn advice(error: &MailError) -> Option<&'static str> {
    match error {
        MailError::Gap { .. } => {
            Some("receive the earlier message first (or all of them at once, in any order)")
        }
        MailError::Damaged { .. } => {
            Some("ask for the message again, or for the game file itself as an attachment")
        }
        MailError::WrongGame { .. } => Some("is it the right game file?"),
        MailError::SeveralGames(_) => {
            Some("choose one with --game ID (its id's first 8 characters or more)")
        }
        _ => None,
    }
}

/// For a fork where one player signed both records, writes the proof (to --proof, or next to
/// the game file) and says where; where one player signed in both versions (a record of theirs
/// follows the other version's record at the fork), writes the other version, for an arbiter
/// to compare; `None` for any other error.
fn write_evidence(error: &MailError, args: &Args) -> Option<String> {
    let MailError::Fork { fork: f, versions } = error else {
        return None;
    };
    if f.seen.is_some() {
        return Some(write_rival(&versions[1], f, args));
    }
    if !f.equivocation {
        return None;
    }
    let [ours, rival] = &**versions;
    let path = args
        .proof
        .clone()
        .unwrap_or_else(|| proof_name(&args.file, f.document));
    let proof = fork::proof(ours, rival, f);
    let written = match log::create_new(&path, &proof) {
        // Received again: a proof of the same equivocation, written the first time (its two
        // records perhaps the other way round).
        Err(_) if proves(&path, f, ours) => Ok(()),
        done => done,
    };
    Some(match written {
        Ok(()) => format!(
            "a proof of it is in {}, for an arbiter: `correspond check-proof {}` checks it",
            correspond::text::path(&path),
            correspond::text::path(&path)
        ),
        Err(e) => format!(
            "no proof written: {}: {e} (give another path with --proof)",
            correspond::text::path(&path)
        ),
    })
}

/// Writes the other version of the game (to --proof, or next to the game file, not as `.yaml`
/// so that `verify` does not count it as a game) and says where.
fn write_rival(rival: &[u8], f: &fork::Fork, args: &Args) -> String {
    let path = args.proof.clone().unwrap_or_else(|| {
        let stem = args
            .file
            .file_stem()
            .map_or_else(|| "game".into(), |s| s.to_string_lossy());
        args.file
            .with_file_name(format!("{stem}.rival-{}.copy", f.document))
    });
    let written = match log::create_new(&path, rival) {
        Err(_) if log::read_limited(&path).is_ok_and(|held| held == rival) => Ok(()),
        done => done,
    };
    let shown = correspond::text::path(&path);
    match written {
        Ok(()) => format!(
            "the other version is in {shown}: `correspond compare {} {}` sets the two side by \
             side",
            correspond::text::shell_word(&correspond::text::path(&args.file).to_string()),
            correspond::text::shell_word(&shown.to_string())
        ),
        Err(e) => format!(
            "the other version was not written: {shown}: {e} (give another path with --proof)"
        ),
    }
}

/// Whether the file at `path` is already a proof that the fork's signer signed two records at
/// its place in this game.
fn proves(path: &Path, f: &fork::Fork, ours: &[u8]) -> bool {
    let (Ok(bytes), Ok(file)) = (log::read_limited(path), GameFile::parse(ours)) else {
        return false;
    };
    fork::check_proof(&bytes).is_ok_and(|proof| {
        proof.game_id == file.game_id()
            && proof.record == f.document
            && proof.signer == f.records[0].0
    })
}

/// What was received and passed over: blocks of other games, and records that cannot be taken,
/// each with what to do (settle a crossing, hand an arbiter the proof of an equivocation).
pub(super) fn passed_over(
    path: &Path,
    received: &Received,
    args: &Args,
    out: &mut Out<'_>,
) -> Result<(), CliError> {
    if received.other_games > 0 {
        let n = received.other_games;
        let blocks = if n == 1 { "block" } else { "blocks" };
        writeln!(out, "passed over {n} {blocks} of other games")?;
    }
    let mut proved = Vec::new();
    for passed in &received.passed_over {
        let shown = correspond::text::escape(&passed.to_string()).into_owned();
        writeln!(out, "passed over {shown}")?;
        if let Some(fork) = crossed(&passed.error) {
            writeln!(out, "  {}", settle_hint(fork, path))?;
        }
        if let MailError::Fork { fork, .. } = &*passed.error {
            // One proof a record is enough for an arbiter.
            if fork.equivocation && proved.contains(&fork.document) {
                continue;
            }
            proved.push(fork.document);
        }
        if let Some(said) = write_evidence(&passed.error, args) {
            writeln!(out, "  {said}")?;
        }
    }
    // A message given on its own that was refused while the others were taken (exit code 1).
    for refused in &received.refused {
        let shown = correspond::text::escape(&refused.to_string()).into_owned();
        writeln!(out, "refused {shown}")?;
        for passed in &refused.passed_over {
            let shown = correspond::text::escape(&passed.to_string()).into_owned();
            writeln!(out, "  also passed over: {shown}")?;
        }
        if let Some(advice) = advice(&refused.error) {
            writeln!(out, "  {advice}")?;
        }
    }
    Ok(())
}
