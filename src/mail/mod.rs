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
mod state;

pub use block::{BEGIN, END, armor, find, game_file};
pub use message::{Envelope, Mailbox, Parsed, compose, in_message, mailbox};

use crate::digest::Digest;
use crate::fork;
use crate::log::GameFile;
use crate::replay::{AnyReplayer, ReplayError};
use crossing::{unsettled, void_twice, voided};
use state::{Applied, State, start};
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

fn void_words(fork: &fork::Fork) -> String {
    let (n, [(ours, _), (theirs, did)]) = (fork.document, &fork.records);
    format!(
        "its record {n} ({theirs}: {did}) crossed the record {n} already received (signed by \
         {ours}, whom the game awaited) and is void by the crossing rule: {theirs} signs it \
         again on top of it where it still applies"
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
    /// on its own is meant for this game and is refused whole if any block in it is wrong.
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

/// Applies every block for the file's game onto `local` (or, with `None`, onto the header
/// that the challenge blocks carry), in whatever order they come: blocks are taken by first
/// record and content and tried again while any makes progress, so a reordered or duplicated
/// mailbox ends as the in-order one does. Every record added is verified (signatures, chain,
/// turns, moves) before it is kept, each once. Two versions of a record that both arrived now
/// are both left out ([`MailError::Undecided`]).
///
/// # Errors
/// The first block of a message that cannot be applied, and why; then nothing is to be
/// written. Blocks from mailboxes are passed over instead (see [`Found::in_mailbox`]).
pub fn receive(local: Option<&GameFile>, found: &[Found]) -> Result<Received, ReceiveError> {
    let file = match local {
        Some(file) => file.clone(),
        None => start(found)?,
    };
    // With no local file, the header counts as arrived.
    let initial = if local.is_some() { file.documents() } else { 0 };
    // Replayed once; each block that grows the file then costs only its own records.
    let replayer = AnyReplayer::start(&file)
        .and_then(|r| r.advance(&file))
        .map_err(|e| ReceiveError {
            origin: None,
            error: Box::new(MailError::Invalid(e)),
            passed_over: Vec::new(),
        })?;
    let mut state = State {
        replayer: Some(replayer),
        file,
        known: 0,
        other_games: 0,
        passed_over: Vec::new(),
    };
    let game = state.file.game_id();
    let mut pending = Vec::new();
    let mut damaged = Vec::new();
    for f in found {
        match &f.packet {
            Ok(p) if p.game != game && f.in_mailbox => state.other_games += 1,
            Err(MailError::Damaged { game: Some(g), .. }) if *g != game && f.in_mailbox => {
                state.other_games += 1;
            }
            Ok(p) => pending.push((f, p)),
            Err(e) => damaged.push((f, ReceiveError::at(&f.origin, e.clone()))),
        }
    }
    // By first record, then by content: one pass applies a shuffled mailbox, and the outcome
    // depends on the set of blocks, never on their order.
    pending.sort_by_cached_key(|(_, p)| (p.first, Digest::of(&p.bytes)));
    // The void versions seen, by number: one player's two void records at one place are still
    // two documents signed at one place.
    let mut voids = Vec::new();
    // Where the file's records that arrived in this run came from, by their first document:
    // a void version that was the file's is named by the block that brought it.
    let mut came_from: std::collections::BTreeMap<usize, String> =
        std::collections::BTreeMap::new();
    loop {
        let mut progress = false;
        let mut waiting = Vec::new();
        for (f, packet) in pending {
            match state.apply(packet) {
                Ok(Applied::Known) => {}
                Ok(Applied::Grew) => {
                    came_from.insert(packet.first, f.origin.clone());
                    progress = true;
                }
                Err(MailError::Gap { .. }) => waiting.push((f, packet)),
                // Crossed the file's record, which the game awaited: void, and settled.
                Err(MailError::Fork { fork, versions }) if fork.stands == Some(fork::Copy::A) => {
                    let [_, rival] = *versions;
                    let void = (fork.document, rival, Some(f.origin.clone()));
                    if let Some(proof) = void_twice(&mut voids, void) {
                        state.passed_over.push(ReceiveError::at(&f.origin, proof));
                    }
                    state
                        .passed_over
                        .push(ReceiveError::at(&f.origin, MailError::Void(fork)));
                }
                // The file's record here arrived in this same run and is the void one: the
                // awaited player's takes its place, whatever order the blocks came in.
                Err(MailError::Fork { fork, versions })
                    if fork.stands == Some(fork::Copy::B) && fork.document >= initial.max(1) =>
                {
                    let [held, _] = *versions;
                    // The block that brought the file's record here: the last applied that
                    // starts at or before it.
                    let held_from = came_from
                        .range(..=fork.document)
                        .next_back()
                        .map(|(_, origin)| origin.clone());
                    let void = (fork.document, held, held_from.clone());
                    if let Some(proof) = void_twice(&mut voids, void) {
                        state.passed_over.push(ReceiveError::at(&f.origin, proof));
                    }
                    state.truncate(fork.document);
                    match state.apply(packet) {
                        Ok(_) => {
                            came_from.insert(packet.first, f.origin.clone());
                            progress = true;
                            state.passed_over.push(ReceiveError {
                                origin: held_from,
                                error: Box::new(MailError::Void(Box::new(fork.swapped()))),
                                passed_over: Vec::new(),
                            });
                        }
                        Err(e) => state.passed_over.push(ReceiveError::at(&f.origin, e)),
                    }
                }
                Err(e) if f.in_mailbox => state.passed_over.push(ReceiveError::at(&f.origin, e)),
                Err(e) => {
                    return Err(ReceiveError {
                        passed_over: damaged.into_iter().map(|(_, d)| d).collect(),
                        ..ReceiveError::at(&f.origin, e)
                    });
                }
            }
        }
        pending = waiting;
        if pending.is_empty() || !progress {
            break;
        }
    }
    unsettled(&mut state, &voids, initial);
    // Two versions of a record that both arrived now: the mailbox cannot say which stands, so
    // neither does (a message given alone can). Not so for two records of one player that the
    // crossing rule voids alike: the record that stands is a third's.
    let undecided = state
        .passed_over
        .iter()
        .filter_map(|p| match *p.error {
            MailError::Fork { ref fork, .. }
                if fork.document >= initial.max(1)
                    && !voided(&state.file, fork)
                    && fork
                        .seen
                        .as_ref()
                        .is_none_or(|s| s.shows != fork::Shows::Withdrawn) =>
            {
                Some(fork.document)
            }
            _ => None,
        })
        .min();
    if let Some(document) = undecided {
        // A message given alone is refused whole rather than cut short, with the mailbox's
        // version named.
        let message = found.iter().find(|f| {
            !f.in_mailbox
                && f.packet
                    .as_ref()
                    .is_ok_and(|p| p.game == game && p.last >= document)
        });
        if let Some(message) = message {
            let rivals = state.passed_over.iter().filter(
                |p| matches!(&*p.error, MailError::Fork { fork, .. } if fork.document == document),
            );
            return Err(ReceiveError {
                passed_over: rivals.cloned().collect(),
                ..ReceiveError::at(&message.origin, MailError::Undecided(document))
            });
        }
        state.truncate(document);
        state.passed_over.push(ReceiveError {
            origin: None,
            error: Box::new(MailError::Undecided(document)),
            passed_over: Vec::new(),
        });
    }
    let last = state.file.documents() - 1;
    for (f, packet) in pending {
        let gap = MailError::Gap {
            first: packet.first,
            last,
        };
        if !f.in_mailbox {
            return Err(ReceiveError {
                passed_over: damaged.into_iter().map(|(_, d)| d).collect(),
                ..ReceiveError::at(&f.origin, gap)
            });
        }
        state.passed_over.push(ReceiveError::at(&f.origin, gap));
    }
    // A damaged block is harmless beside a good copy of what it carried, or in a mailbox, or
    // quoted in a reply that brings a good block of this game (what its writer trimmed is an
    // older message's); a message with damage in what it brings is refused.
    let have = state.file.documents();
    let brings_good = |message: usize| {
        found.iter().any(|f| {
            !f.in_mailbox && f.message == message && f.packet.as_ref().is_ok_and(|p| p.game == game)
        })
    };
    if let Some((_, refused)) = damaged.iter().find(|(f, d)| {
        let held = matches!(*d.error, MailError::Damaged { game: Some(g), range: Some((_, last)), .. }
                if g == game && last < have);
        let quote =
            matches!(*d.error, MailError::Damaged { quoted: true, .. }) && brings_good(f.message);
        !f.in_mailbox && !held && !quote
    }) {
        return Err(refused.clone());
    }
    // Damage first: it may explain the gaps listed after it.
    let mut passed_over: Vec<ReceiveError> = damaged.into_iter().map(|(_, d)| d).collect();
    passed_over.append(&mut state.passed_over);
    state.passed_over = passed_over;
    Ok(Received {
        added: initial..state.file.documents(),
        file: state.file,
        known: state.known,
        other_games: state.other_games,
        passed_over: state.passed_over,
    })
}

#[cfg(test)]
mod tests;
