//! The crossing rule's settlement, for `receive --settle`: when a record of yours crossed in the
//! mail with one of the other player's, and the game awaited the other player, yours is void.
//! This drops it from your copy, takes theirs, and signs yours again on top, where it still
//! applies (a resignation stays a resignation; an offer is made again if the game goes on).

use super::CliError;
use super::keys::{self, KeyArgs};
use crate::journal::Entry;
use crate::log::{GameFile, Record, Settlement, record_unsigned, signature_line};
use crate::mail::{self, Found, Received};
use crate::replay::AnyReplayer;
use std::path::Path;

/// What the settlement did, for the report.
pub(crate) struct Settled {
    /// The file with theirs received and yours signed again.
    pub received: Received,
    /// One line each: the records dropped as void, and those not signed again.
    pub said: Vec<String>,
}

/// Settles the crossing at record `document` of `file`: yours (from `document` on) are void.
pub(crate) fn settle(
    path: &Path,
    file: &GameFile,
    document: usize,
    found: &[Found],
    key: &KeyArgs,
) -> Result<Settled, CliError> {
    let void: Vec<Record> = file.records()[document - 1..].to_vec();
    let mut base = file.clone();
    base.truncate(document);
    let mut received = mail::receive(Some(&base), found).map_err(|e| {
        CliError::rejected(format!(
            "the settlement does not hold: with your record {document} dropped, what arrived \
             still cannot be taken: {e}"
        ))
        .hint("nothing was written")
    })?;
    let mut said = vec![format!(
        "{} void by the crossing rule (the game awaited the other player): dropped",
        match void.len() {
            1 => format!("your record {document}"),
            n => format!("your records {document}-{}", document + n - 1),
        }
    )];
    let signer = key.signer(path)?;
    let time = keys::now()?;
    let mut journal = super::journal::game(received.file.game_id())?;
    for record in &void {
        let grown = &mut received.file;
        let again = Record {
            seq: grown.documents() as u64,
            prev: grown.digest(grown.documents() - 1),
            signer: record.signer.clone(),
            action: record.action.clone(),
            time: time.clone(),
        };
        let unsigned = record_unsigned(&again);
        let key = signer.public_key();
        journal
            .check(key, again.seq, Some(again.prev), unsigned.as_bytes())
            .map_err(|e| super::journal::refusal(e, path))?;
        let signature = signer
            .sign(unsigned.as_bytes())
            .map_err(|e| CliError::usage(format!("cannot sign: {e}")))?;
        let text = unsigned + &signature_line(&signature);
        let mut candidate = grown.clone();
        candidate
            .append(text.as_bytes())
            .map_err(|e| CliError::rejected(format!("record {}: {e}", again.seq)))?;
        // Signed again only where it still applies: after their record the game may be over,
        // or the offer may no longer stand.
        let applies = AnyReplayer::start(&candidate)
            .and_then(|r| r.advance(&candidate))
            .is_ok();
        if !applies {
            said.push(format!(
                "your {} does not apply after their record, and is not signed again",
                words(&again)
            ));
            continue;
        }
        let entry = Entry::new(key.clone(), candidate.game_id(), again.seq, text)
            .map_err(|e| CliError::usage(format!("cannot journal the record: {e}")))?;
        journal
            .record(entry)
            .map_err(|e| super::journal::refusal(e, path))?;
        *grown = candidate;
    }
    received.added = document..received.file.documents();
    Ok(Settled { received, said })
}

fn words(record: &Record) -> String {
    use crate::log::Action;
    match &record.action {
        Action::Resign => "resignation".to_owned(),
        Action::Offer(Settlement::Draw) => "draw offer".to_owned(),
        Action::Offer(Settlement::RunOff) => "run-off offer".to_owned(),
        other => format!("record ({})", other.kind()),
    }
}
