//! The record writer: the one way a record is made, by every command that signs one, by
//! `import-pgn`, by the crossing rule's settlement, and by the tests and benchmarks that build
//! games. It sets the record's number and `prev`, asks the signing journal whether the key
//! signed something else at that place (or this very record before, which is then reused), signs,
//! and checks the grown file with [`Replayer::advance`], so a record is checked once, not the
//! whole game again. Nothing is written to disk here: the caller writes the text it returns.

use crate::digest::Digest;
use crate::journal::{Entry, GameJournal, JournalError};
use crate::log::{
    self, Action, Document, GameFile, Kind, LogError, Record, Timestamp, record_unsigned,
    signature_line,
};
use crate::replay::{ErrorKind, Protocol, Replay, ReplayError, Replayer, Seat, Signatory};
use crate::sign::{SignError, Signer};
use ssh_key::PublicKey;

/// Why a record was not made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The file the record would follow does not verify.
    #[error("{0}")]
    Invalid(#[from] ReplayError),
    /// The key could not sign.
    #[error("cannot sign: {0}")]
    Sign(#[from] SignError),
    /// The journal refused (the key signed another document at this place) or failed.
    #[error("{0}")]
    Journal(#[from] JournalError),
    /// The signed record could not be journaled.
    #[error("the document just signed cannot be journaled: {0}")]
    Unjournaled(String),
    /// The record, signed, is not a well-formed document of the file.
    #[error("the record would not be well-formed: {0}")]
    Malformed(#[from] LogError),
    /// The rules or the protocol refuse the record where it would go.
    #[error("{kind}: {error}")]
    Refused {
        /// The record's kind.
        kind: Kind,
        /// Why.
        error: ErrorKind,
    },
}

/// A verified game file, ready for its next record.
#[derive(Clone)]
pub struct Writer<G: Protocol> {
    file: GameFile,
    replayer: Replayer<G>,
    /// Signatures taken on a player's word (see [`Writer::of_vouched`]), until checked.
    vouched: Option<Vouch>,
}

/// The documents before `document` were not checked for their signatures: `seat`'s player
/// signed `document` with this program, which had checked them.
#[derive(Clone, Copy, Debug)]
struct Vouch {
    document: usize,
    seat: Seat,
}

/// A record made: its text, and the file and replay with it.
pub struct Written<G: Protocol> {
    /// The record.
    pub record: Record,
    /// Its text, signature line included: what is appended to the file.
    pub text: String,
    /// When the journal held this record, signed before at this place (by a command cut short,
    /// or into a copy since lost): the time it was signed then. That document is the one
    /// returned, not a second one.
    pub signed_before: Option<Timestamp>,
    /// The writer of the grown file, for the record after.
    pub writer: Writer<G>,
}

impl<G: Protocol> Writer<G> {
    /// Parses and replays a game file of game `G`.
    ///
    /// # Errors
    /// The file's first defect.
    pub fn open(bytes: &[u8]) -> Result<Self, ReplayError> {
        Writer::open_with(bytes, 1)
    }

    /// [`Writer::open`], with up to `threads` threads checking signatures (see
    /// [`Replayer::advance_with`]).
    ///
    /// # Errors
    /// The file's first defect.
    pub fn open_with(bytes: &[u8], threads: usize) -> Result<Self, ReplayError> {
        Writer::of_with(GameFile::parse_with(bytes, threads)?, threads)
    }

    /// Replays a parsed game file of game `G`.
    ///
    /// # Errors
    /// The file's first defect.
    pub fn of(file: GameFile) -> Result<Self, ReplayError> {
        Writer::of_with(file, 1)
    }

    /// [`Writer::of`], with up to `threads` threads checking signatures (see
    /// [`Replayer::advance_with`]).
    ///
    /// # Errors
    /// The file's first defect.
    pub fn of_with(file: GameFile, threads: usize) -> Result<Self, ReplayError> {
        let replayer = Replayer::start(&file)?.advance_with(&file, threads)?;
        Ok(Writer {
            file,
            replayer,
            vouched: None,
        })
    }

    /// [`Writer::of_with`] for the user whose signing journal is `journal`: the signatures
    /// before the last record they signed with this program are not checked again, since this
    /// program checked them before signing it, and that record's `prev` binds them byte for
    /// byte (see [`Replayer::advance_vouched`]). A player's next move on a long game then costs
    /// the records since their last, not the whole game. Everything else is checked, and the
    /// signatures too before another player signs with this writer (see [`Writer::write`]).
    ///
    /// # Errors
    /// The file's first defect ([`WriteError::Invalid`]; a signature left unchecked is not
    /// one); a damaged line of the journal where the user's last record in the file was looked
    /// for ([`WriteError::Journal`]).
    pub fn of_vouched(
        file: GameFile,
        threads: usize,
        journal: &GameJournal,
    ) -> Result<Self, WriteError> {
        let vouched = journal.last_signed_in(&file)?.and_then(|document| {
            crate::replay::seat_named(&file, &file.records()[document - 1].signer)
                .map(|seat| Vouch { document, seat })
        });
        let replayer = Replayer::start(&file)?.advance_vouched(
            &file,
            threads,
            vouched.map_or(0, |v| v.document),
        )?;
        Ok(Writer {
            file,
            replayer,
            vouched,
        })
    }

    /// The file so far.
    #[must_use]
    pub fn file(&self) -> &GameFile {
        &self.file
    }

    /// The replayer that has followed the file so far: the state after its last record.
    #[must_use]
    pub fn replayer(&self) -> &Replayer<G> {
        &self.replayer
    }

    /// The replay of the file so far.
    #[must_use]
    pub fn replay(&self) -> Replay<G> {
        self.replayer.clone().finish()
    }

    /// The replay of the file so far, without copying it.
    #[must_use]
    pub fn into_replay(self) -> Replay<G> {
        self.replayer.finish()
    }

    /// The next record: numbered, chained to the last document, and naming its signer (a
    /// player by seat, or the arbiter).
    #[must_use]
    pub fn next(&self, signer: impl Into<Signatory>, action: Action, time: Timestamp) -> Record {
        next_record(&self.file, signer, action, time)
    }

    /// Signs `record` (the one [`Writer::next`] made) with `signer`, and checks the file with it.
    /// With a journal, the key must not have signed another document at this place (the same
    /// record signed before is reused, an acceptance excepted), and the record is journaled
    /// before it is returned.
    ///
    /// # Errors
    /// What stops it: the journal, the key, or the rules.
    pub fn write(
        self,
        record: Record,
        signer: &dyn Signer,
        journal: Option<&mut GameJournal>,
    ) -> Result<Written<G>, WriteError> {
        let Writer {
            mut file,
            replayer,
            vouched,
        } = self;
        let vouched = match vouched {
            Some(v) if crate::replay::seat_named(&file, &record.signer) != Some(v.seat) => {
                // Another player's word is not this one's: they check for themselves.
                replayer.check_signatures(&file, 1..v.document)?;
                None
            }
            v => v,
        };
        let key = signer.public_key();
        let (text, signed_before) = match &journal {
            Some(journal) => sign_once(journal, &file, &record, signer)?,
            None => (sign_record(&record, signer)?, None),
        };
        // The record signed before is the one returned, with the time it was signed then.
        let record = match &signed_before {
            Some(time) => Record {
                time: time.clone(),
                ..record
            },
            None => record,
        };
        file.append(text.as_bytes())?;
        let replayer = replayer.advance(&file).map_err(|e| WriteError::Refused {
            kind: record.action.kind(),
            error: e.kind,
        })?;
        if let Some(journal) = journal {
            journal_record(journal, key, file.game_id(), record.seq, &text)?;
        }
        Ok(Written {
            record,
            text,
            signed_before,
            writer: Writer {
                file,
                replayer,
                vouched,
            },
        })
    }
}

/// The record after the last document of `file`: numbered, chained, naming its signer (a
/// player by seat, or the arbiter).
#[must_use]
pub fn next_record(
    file: &GameFile,
    signer: impl Into<Signatory>,
    action: Action,
    time: Timestamp,
) -> Record {
    let last = file.documents() - 1;
    let header = file.header();
    let signer = match signer.into() {
        Signatory::Player(seat) => header.players[seat.index()].name.clone(),
        // No name when the header has no arbiter: the record is then refused as malformed.
        Signatory::Arbiter => header
            .arbiter
            .as_ref()
            .map_or_else(String::new, |a| a.name.clone()),
    };
    // A conditional reply carries the time of the move it answers, so that its author is
    // charged none and its bytes are the file's whoever appends it.
    let time = match (&action, file.records().last()) {
        (Action::Applied(_), Some(answered)) => answered.time.clone(),
        _ => time,
    };
    Record {
        seq: file.documents() as u64,
        prev: file.digest(last),
        signer,
        action,
        time,
        comment: None,
    }
}

/// The text of a record: its unsigned bytes and signature line.
///
/// # Errors
/// When the key cannot sign.
pub fn sign_record(record: &Record, signer: &dyn Signer) -> Result<String, SignError> {
    let unsigned = record_unsigned(record);
    let signature = signer.sign(unsigned.as_bytes())?;
    Ok(unsigned + &signature_line(&signature))
}

/// Signs `record`, the next record of `file`, unless the journal says its key signed it before
/// (then that text, with the time it was signed); refused when the key signed another document
/// at its place, or a record on top of a document by another that `file` does not hold (see
/// [`GameJournal::departure`]).
///
/// # Errors
/// [`WriteError::Journal`] for a document signed before at this place, or a record `file` is
/// behind; [`WriteError::Sign`].
pub fn sign_once(
    journal: &GameJournal,
    file: &GameFile,
    record: &Record,
    signer: &dyn Signer,
) -> Result<(String, Option<Timestamp>), WriteError> {
    let key = signer.public_key();
    if let Some((text, time)) = signed_before(journal, key, record)? {
        return Ok((text, Some(time)));
    }
    if let Some((signed, missing)) = journal.departure(key, file)? {
        // Another version of the other signer's record; the key's own record there is one
        // the other's displaced (void by the crossing rule), in a copy from before that.
        let differs = usize::try_from(missing).is_ok_and(|k| {
            k >= 1
                && k < file.documents()
                && crate::replay::seat_named(file, &file.records()[k - 1].signer).is_none_or(
                    |seat| file.header().players[seat.index()].key.key_data() != key.key_data(),
                )
        });
        return Err(WriteError::Journal(JournalError::Departs {
            signed: Box::new(signed.clone()),
            missing,
            differs,
        }));
    }
    journal.check(
        key,
        record.seq,
        Some(record.prev),
        record_unsigned(record).as_bytes(),
    )?;
    Ok((sign_record(record, signer)?, None))
}

/// Journals a document just signed and checked, as document `seq` of `game`.
///
/// # Errors
/// When the journal refuses or cannot be written.
pub fn journal_record(
    journal: &mut GameJournal,
    key: &PublicKey,
    game: Digest,
    seq: u64,
    text: &str,
) -> Result<(), WriteError> {
    let entry =
        Entry::new(key.clone(), game, seq, text.to_owned()).map_err(WriteError::Unjournaled)?;
    Ok(journal.record(entry)?)
}

/// The document `key` signed before at `record`'s place, when it is `record` but for its time (the
/// same place, the same action and comment): with its time. Never an acceptance: accepting a game
/// twice is refused, so that a challenge sent twice is noticed.
///
/// # Errors
/// When the journal's entry at that place is damaged.
pub fn signed_before(
    journal: &GameJournal,
    key: &PublicKey,
    record: &Record,
) -> Result<Option<(String, log::Timestamp)>, JournalError> {
    let Some(earlier) = journal.at(key, record.seq, Some(record.prev))? else {
        return Ok(None);
    };
    let Document::Record(r) = &earlier.content else {
        return Ok(None);
    };
    // A comment is part of the document: another comment is another document, which the
    // journal then refuses.
    let same = r.prev == record.prev
        && r.signer == record.signer
        && r.action == record.action
        && r.comment == record.comment
        && !matches!(r.action, Action::Accept { .. });
    Ok(same.then(|| (earlier.text.clone(), r.time.clone())))
}
