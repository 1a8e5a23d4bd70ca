//! Game records through the mail: an armoured block that survives what mail clients do to text
//! (wrapping, quoting with `> `, line-ending changes, quoted-printable or base64 bodies, HTML
//! parts, forwarding), found again in a raw message or a mailbox, and merged onto a local file.
//!
//! The block carries exact bytes of the game file, so that signatures are checked over what was
//! signed. It is base64, which mail leaves alone, between two marker lines:
//!
//! ```text
//! -----BEGIN CORRESPOND RECORDS-----
//! Game: <the game id>
//! Documents: 4-5
//! Checksum: <SHA-256 of the bytes>
//! <the bytes of documents 4 and 5, in base64, 64 characters a line>
//! -----END CORRESPOND RECORDS-----
//! ```
//!
//! A block from document 0 (a challenge) starts with the file's comment lines, so it is a whole
//! game file. Nothing here does I/O: messages in, blocks and merged bytes out. The checksum only
//! tells a mangled block from a good one; trust comes from the signatures and the hash chain,
//! which [`receive`] checks on the merged file before it returns anything to write.

mod block;
mod crossing;
mod message;
mod receive;
mod state;

pub use block::{BEGIN, END, armor, find, game_file};
pub use message::{Envelope, Image, Mailbox, Parsed, compose, in_message, mailbox};
pub use receive::{receive, receive_each};

use crate::digest::Digest;
use crate::fork;
use crate::log::{Action, GameFile};
use crate::replay::ReplayError;
use std::ops::Range;

/// Documents of one game, as a block carries them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packet {
    /// The game id.
    pub game: Digest,
    /// The first document (0: the header, with the file's comment lines).
    pub first: usize,
    /// The last document.
    pub last: usize,
    /// Their exact bytes.
    pub bytes: Vec<u8>,
}

/// Why a block, or what it carries, cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MailError {
    /// No block at all.
    #[error("no correspond record block (a `{BEGIN}` line) was found")]
    NoBlock,
    /// A block whose lines do not make sense.
    #[error("a record block is damaged: {why}")]
    Damaged {
        /// The block's game, when its `Game:` line could be read.
        game: Option<Digest>,
        /// The documents it says it carries, when its `Documents:` line could be read.
        range: Option<(usize, usize)>,
        /// What is wrong.
        why: String,
        /// Whether the block was quoted (`> `) in a reply: a damaged quote of an older message
        /// does not stop the new block the reply brings.
        quoted: bool,
    },
    /// The records belong to another game.
    #[error("the records are from another game ({found}), not this file's ({expected})")]
    WrongGame {
        /// This file's game.
        expected: Digest,
        /// The block's.
        found: Digest,
    },
    /// Records after a gap: an earlier message is missing.
    #[error(
        "the records start at record {first}, but the file ends at record {last}: a message \
         with the records between has not been received yet"
    )]
    Gap {
        /// The block's first document.
        first: usize,
        /// The file's last document.
        last: usize,
    },
    /// The block's records differ from records the file holds (or that a block received with
    /// it added) at the same numbers, and both verify.
    #[error("{}", fork_words(fork))]
    Fork {
        /// Where and how they part: the file's version first.
        fork: Box<fork::Fork>,
        /// The file's version of the game (with what blocks received before added) and the
        /// block's, to the end of the block: with `fork`, a proof of equivocation.
        versions: Box<[Vec<u8>; 2]>,
    },
    /// Records received now that would withdraw a resignation the crossing rule voids (a
    /// [`fork::Shows::Withdrawn`] fork, reported beside them): not taken, so that the file stays
    /// as it was and an arbiter sees both versions.
    #[error("{}", withdrawing_words(*first, records, signer, *resigned))]
    Withdrawing {
        /// The first record not taken.
        first: usize,
        /// Each record not taken, from `first` on: its signer and what it does.
        records: Vec<(String, Action)>,
        /// Who resigned.
        signer: String,
        /// The void resignation's record.
        resigned: usize,
    },
    /// A record that crossed the file's record at its place, and is void by the crossing rule:
    /// the file's, signed by the player the game awaited there, stands. Nothing to do: its
    /// signer signs it again on top of the file's record, where it still applies.
    #[error("{}", void_words(.0))]
    Void(Box<fork::Fork>),
    /// The records, appended, do not verify: a bad signature, a broken chain, an illegal move.
    #[error("the records do not verify: record {}: {}", .0.document.unwrap_or(0), .0.kind)]
    Invalid(ReplayError),
    /// Records that follow another version of the file's last record: the copies forked
    /// earlier (that fork is reported by the block that carries it, if one arrived).
    #[error(
        "its record {0} follows another version of record {prev} than the file's: it continues \
         a copy of the game that forked from this one",
        prev = .0 - 1
    )]
    Elsewhere(usize),
    /// Two versions of a record arrived together (in a mailbox) and the file holds neither.
    #[error(
        "two versions of record {0} arrived and the file holds neither: nothing from record {0} \
         on was applied"
    )]
    Undecided(usize),
    /// `--new` without a block that starts a game.
    #[error("no block starts a game (a challenge carries records from 0)")]
    NoChallenge,
    /// `--new` with challenges of several games.
    #[error(
        "blocks start {} different games: {}",
        .0.len(),
        .0.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
    )]
    SeveralGames(Vec<Digest>),
}

fn fork_words(fork: &fork::Fork) -> String {
    let (n, [(ours, _), (theirs, _)]) = (fork.document, &fork.records);
    if fork.equivocation {
        format!(
            "its record {n} differs from the record {n} already received, and {ours} signed both: \
             two different records with one number (equivocation)"
        )
    } else if let Some(seen) = &fork.seen {
        let (m, who) = (seen.record, &seen.signer);
        let place = match seen.copy {
            fork::Copy::A => "the file",
            fork::Copy::B => "it",
        };
        let why = match seen.shows {
            fork::Shows::BuiltOn => format!(
                "{who}'s record {m} in {place} follows the record {n} there, so {who} had seen \
                 it, and signed another record {n}, taking back what they had built on"
            ),
            fork::Shows::Withdrawn => format!(
                "{who}'s resignation is void by the crossing rule, but {who}'s next record in \
                 {place}, {m}, is not that resignation signed again: a resignation stays a \
                 resignation"
            ),
        };
        format!(
            "its record {n} (signed by {theirs}) differs from the record {n} already received \
             (signed by {ours}), and the crossing rule does not settle them: {why}"
        )
    } else if fork.stands == Some(fork::Copy::B) {
        format!(
            "its record {n} (signed by {theirs}, whom the game awaited) crossed the record {n} \
             already received (signed by {ours}), which is void by the crossing rule"
        )
    } else {
        format!(
            "its record {n} (signed by {theirs}) differs from the record {n} already received \
             (signed by {ours}): the two copies have forked, each player having signed a record \
             at once"
        )
    }
}

fn withdrawing_words(
    first: usize,
    records: &[(String, Action)],
    signer: &str,
    resigned: usize,
) -> String {
    let said: Vec<String> = records
        .iter()
        .map(|(who, action)| format!("{who}: {action}"))
        .collect();
    let (which, are) = match records.len() {
        1 => (format!("record {first}"), "is"),
        n => (format!("records {first} to {}", first + n - 1), "are"),
    };
    format!(
        "{which} ({}), received now, {are} not taken: {signer}'s resignation, record \
         {resigned}, is void by the crossing rule, and what was signed in its place would \
         withdraw it, which is for an arbiter",
        said.join("; ")
    )
}

fn void_words(fork: &fork::Fork) -> String {
    let (n, [(ours, _), (theirs, did)]) = (fork.document, &fork.records);
    // As `receive --settle` treats each (src/cli/by_mail/settle.rs): resignations, offers and leave
    // are signed again; a claim on time is answered by the record that stands; anything else
    // was chosen in a position that is gone.
    let then = match did {
        Action::Resign | Action::Offer(_) | Action::Leave(_) => {
            format!("{theirs} signs it again on top of it where it still applies")
        }
        Action::ClaimTimeout => {
            "a claim on time is not signed again: the record that stands answers it".to_owned()
        }
        Action::Applied(_) => {
            "a conditional reply is not signed again: the record that stands holds the same"
                .to_owned()
        }
        Action::Withdraw => "a withdrawal is not signed again: it comes too late, after the move \
             the lines answer"
            .to_owned(),
        _ => format!(
            "it was chosen in a position that is gone, and {theirs} signs afresh what they still \
             want"
        ),
    };
    format!(
        "its record {n} ({theirs}: {did}) crossed the record {n} already received (signed by \
         {ours}, whom the game awaited) and is void by the crossing rule: {then}"
    )
}

/// What a packet adds to a local file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Merge {
    /// Everything in it is already in the file.
    Known,
    /// These bytes follow the file's last byte (not yet verified).
    Grows(Vec<u8>),
    /// It differs from the file at this document (not yet verified: it may be a forgery).
    Differs(usize),
}

/// Merges a packet onto a local file, by bytes alone: [`receive`] verifies the result. The cost
/// is the packet's size, not the file's.
///
/// # Errors
/// A packet from another game, after a gap, or whose `Documents:` line does not match the
/// documents it overlaps.
pub fn merge(file: &GameFile, packet: &Packet) -> Result<Merge, MailError> {
    if packet.game != file.game_id() {
        return Err(MailError::WrongGame {
            expected: file.game_id(),
            found: packet.game,
        });
    }
    let have = file.documents();
    if packet.first > have {
        return Err(MailError::Gap {
            first: packet.first,
            last: have - 1,
        });
    }
    let local = file.text().as_bytes();
    let start = match packet.first {
        0 => 0,
        n if n == have => local.len(),
        n => file.span(n).start,
    };
    // The part of the packet the file already holds must be the file's, byte for byte.
    let held = local.len() - start;
    let overlap = held.min(packet.bytes.len());
    if let Some(differs) = local[start..start + overlap]
        .iter()
        .zip(&packet.bytes)
        .position(|(a, b)| a != b)
    {
        let at = start + differs;
        let document = (0..have).find(|&d| file.span(d).end > at).unwrap_or(0);
        return Ok(Merge::Differs(document));
    }
    if packet.bytes.len() > held {
        return Ok(Merge::Grows(packet.bytes[held..].to_vec()));
    }
    // Within the file: it must end where its last document does.
    let end = start + packet.bytes.len();
    if packet.last >= have || file.span(packet.last).end != end {
        return Err(MailError::Damaged {
            game: Some(packet.game),
            range: Some((packet.first, packet.last)),
            quoted: false,
            why: format!(
                "its `Documents:` line says {}-{}, which is not what it carries",
                packet.first, packet.last
            ),
        });
    }
    Ok(Merge::Known)
}

/// A block found in the mail, and where: `reply.eml`, `games.mbox, message 3 (subject)`.
#[derive(Clone, Debug)]
pub struct Found {
    /// Where it was found, for messages.
    pub origin: String,
    /// The block, or why it cannot be read.
    pub packet: Result<Packet, MailError>,
    /// Whether it came from a mailbox. A mailbox holds whatever arrived: its blocks are
    /// applied where they can be and the others passed over, with the reason. A message given
    /// on its own is meant for this game and is refused whole if any block in it is wrong (and,
    /// with [`receive_each`], left out while the other messages are taken).
    pub in_mailbox: bool,
    /// The message it came from, by number: the blocks of one message share it.
    pub message: usize,
}

/// A local file after what arrived.
#[derive(Clone, Debug)]
pub struct Received {
    /// The whole file, verified.
    pub file: GameFile,
    /// The documents that arrived (empty when nothing new did).
    pub added: Range<usize>,
    /// Blocks whose records the file already held.
    pub known: usize,
    /// Blocks of other games passed over.
    pub other_games: usize,
    /// Blocks passed over, and why: damaged copies of what a good block carried, and in
    /// mailboxes whatever could not be applied.
    pub passed_over: Vec<ReceiveError>,
    /// Messages given on their own that were refused while the others were taken
    /// ([`receive_each`]), each with why.
    pub refused: Vec<ReceiveError>,
}

/// A block that cannot be applied, and where it was found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{error}", origin.as_ref().map(|o| format!("{o}: ")).unwrap_or_default())]
pub struct ReceiveError {
    /// Where the block was found, if the error concerns one.
    pub origin: Option<String>,
    /// What is wrong.
    pub error: Box<MailError>,
    /// Other blocks passed over on the way, which may explain it (a damaged copy of the
    /// missing records, say).
    pub passed_over: Vec<ReceiveError>,
}

impl ReceiveError {
    fn at(origin: &str, error: MailError) -> ReceiveError {
        ReceiveError {
            origin: Some(origin.to_owned()),
            error: Box::new(error),
            passed_over: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests;
