//! The crossing rule's settlement, for `receive --settle`: when a record of yours crossed in the
//! mail with one of the other player's, and the game awaited the other player, yours is void.
//! This drops it from your copy, takes theirs, and signs yours again on top, where it still
//! applies (a resignation stays a resignation; an offer is made again if the game goes on).
//!
//! Only resignations and offers are signed again: they are what a player can sign while the
//! game awaits the other. Anything else a void record did is left for the player to decide
//! afresh, since the position it was chosen in is gone.

use crate::cli::CliError;
use crate::cli::shared::game::with_game;
use crate::cli::shared::keys::{self, KeyArgs};
use crate::cli::shared::record;
use correspond::log::{Action, GameFile, Record, Timestamp};
use correspond::mail::{self, Found, Received};
use correspond::replay::{Protocol, Seat};
use correspond::sign::Signer;
use correspond::writer::{WriteError, Writer};
use std::path::Path;

/// What the settlement did, for the report.
pub(crate) struct Settled {
    /// The file with theirs received and yours signed again.
    pub received: Received,
    /// One line each: the records dropped as void, and those not signed again.
    pub said: Vec<String>,
}

/// Settles the crossing at record `document` of `file` (as `locked` read it): yours (from
/// `document` on) are void.
pub(crate) fn settle(
    path: &Path,
    locked: &correspond::log::Locked,
    file: &GameFile,
    document: usize,
    found: &[Found],
    key: &KeyArgs,
) -> Result<Settled, CliError> {
    let void: Vec<Record> = file.records()[document - 1..].to_vec();
    // The void records' signer is looked for first: only they settle.
    let mut wanted: Vec<&ssh_key::PublicKey> =
        file.header().players.iter().map(|p| &p.key).collect();
    if void
        .first()
        .is_some_and(|r| r.signer == file.header().players[1].name)
    {
        wanted.reverse();
    }
    let key = crate::cli::shared::keys::Key::new(key, path, &wanted)?;
    let signer = key.signer()?;
    crate::cli::shared::places::still_as_read(locked, path)?;
    let seat =
        crate::cli::shared::record::seat_of(file, signer.public_key()).map_err(|e| key.noted(e))?;
    let yours = &file.header().players[seat].name;
    // The void records are all one player's (a copy holding the other's after the fork shows
    // no crossing); only that player's key settles them.
    if let Some(other) = void.iter().find(|r| &r.signer != yours) {
        return Err(CliError::usage(format!(
            "the void records are {}'s, and --key is {yours}'s: only {} settles them",
            other.signer, other.signer
        ))
        .hint("give your own key with --key PATH; nothing was written"));
    }
    let mut base = file.clone();
    base.truncate(document);
    let mut received = mail::receive_each(Some(&base), found).map_err(|e| {
        CliError::rejected(format!(
            "the settlement does not hold: with your record {document} dropped, what arrived \
             still cannot be taken: {e}"
        ))
        .hint("nothing was written")
    })?;
    let theirs = document..received.file.documents();
    let mut said = vec![format!(
        "{} void by the crossing rule (the game awaited the other player): dropped",
        match void.len() {
            1 => format!("your record {document}"),
            n => format!("your records {document}-{}", document + n - 1),
        }
    )];
    let time = keys::now()?;
    let kind = record::kind_of(&received.file, path)?;

    let again = Again {
        path,
        seat,
        signer,
        time,
        theirs,
    };
    with_game!(kind, G => again.sign::<G>(&void, &mut received, &mut said))?;
    received.added = document..received.file.documents();
    Ok(Settled { received, said })
}

/// The void records signed again, by their player, on top of what stands.
struct Again<'a> {
    path: &'a Path,
    seat: Seat,
    signer: &'a dyn Signer,
    time: Timestamp,
    /// The records received from the fork on, which stand: the other player's, and on a copy
    /// settled already elsewhere and played on, the void records signed again there.
    theirs: std::ops::Range<usize>,
}

impl Again<'_> {
    /// Signs again, with the record writer, each void record that is a resignation or an offer
    /// and still applies; says why each other one is not.
    fn sign<G: Protocol + 'static>(
        &self,
        void: &[Record],
        received: &mut Received,
        said: &mut Vec<String>,
    ) -> Result<(), CliError> {
        let mut writer = Writer::<G>::of(received.file.clone())?;
        let mut journal = crate::cli::shared::signing_journal::game(received.file.game_id())?;
        for record in void {
            if let Some(why) = not_again(record, writer.file(), self.theirs.clone(), self.path) {
                said.push(why);
                continue;
            }
            // Settled before (on another copy, or by a run cut short): the journal gives the
            // same record again.
            let time = record::not_before_the_last(writer.file(), self.time.clone(), said);
            let again = writer.next(self.seat, record.action.clone(), time);
            match writer.clone().write(again, self.signer, Some(&mut journal)) {
                Ok(written) => writer = written.writer,
                // Signed again only where it still applies: after their record the game may be
                // over, or the offer may no longer be allowed.
                Err(WriteError::Refused { .. }) => said.push(format!(
                    "your {} does not apply after their record, and is not signed again",
                    words(record)
                )),
                Err(e) => return Err(record::write_error(e, self.path)),
            }
        }
        received.file = writer.file().clone();
        Ok(())
    }
}

/// Why a void record is not signed again, if it is not: what was received holds it signed
/// again already (the crossing was settled on another copy, and play went on), it is no
/// resignation, leave or offer, or the other player made the same offer in the records that
/// stand (yours again would decline it).
fn not_again(
    record: &Record,
    file: &GameFile,
    theirs: std::ops::Range<usize>,
    path: &Path,
) -> Option<String> {
    // Settled already on another copy, and played on since: what was received holds it.
    if let Some(d) = theirs.clone().find(|&d| {
        let r = &file.records()[d - 1];
        r.signer == record.signer && r.action == record.action
    }) {
        return Some(format!(
            "your {} was signed again already, as record {d}, and is not signed a second time",
            words(record)
        ));
    }
    match &record.action {
        Action::Resign | Action::Leave(_) => None,
        Action::Offer(offered) => {
            let same = theirs
                .map(|d| &file.records()[d - 1])
                .any(|r| r.signer != record.signer && r.action == Action::Offer(*offered));
            same.then(|| {
                let accept = correspond::log::Kind::AcceptOffer(*offered);
                format!(
                    "your {} is not signed again: the other player offered the same, and yours \
                     would let their offer lapse; `correspond {accept} {}` accepts it",
                    words(record),
                    correspond::text::path(path)
                )
            })
        }
        Action::Applied(_) => Some(
            "your record (applied) is not signed again: the record that stands holds the same \
             conditional reply"
                .to_owned(),
        ),
        // The lines withdrawn are the signer's last: visible ones, met by the move that
        // stands, or hidden ones, which that move now awaits the answer of.
        Action::Withdraw => Some(
            if file.records().iter().rev().find_map(|r| match &r.action {
                Action::Conditional(_) if r.signer == record.signer => Some(false),
                Action::HiddenConditional(_) if r.signer == record.signer => Some(true),
                _ => None,
            }) == Some(true)
            {
                format!(
                    "your withdrawal is not signed again: it comes too late, after your \
                     opponent's move, which your hidden lines answer first; `correspond play \
                     {} MOVE` reveals the reply a line gives, or discloses the lines",
                    correspond::text::path(path)
                )
            } else {
                "your withdrawal is not signed again: the move that met your conditional line \
                 stands, and so does its reply"
                    .to_owned()
            },
        ),
        other => Some(format!(
            "your record ({}) is not signed again: it was chosen in a position that is gone; \
             sign it afresh if you still want it",
            other.kind()
        )),
    }
}

fn words(record: &Record) -> String {
    match &record.action {
        Action::Resign => "resignation".to_owned(),
        Action::Offer(settlement) => format!("{} offer", settlement.words()),
        other => format!("record ({})", other.kind()),
    }
}
