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

mod message;

pub use message::{Envelope, Mailbox, Parsed, compose, in_message, mailbox};

use crate::digest::Digest;
use crate::log::GameFile;
use crate::replay::{self, AnyReplayer, ReplayError};
use base64ct::{Base64, Encoding};
use std::ops::Range;

/// The line that opens a block.
pub const BEGIN: &str = "-----BEGIN CORRESPOND RECORDS-----";
/// The line that closes it.
pub const END: &str = "-----END CORRESPOND RECORDS-----";

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
        /// What is wrong.
        why: String,
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
    /// The block's records differ from the file's at the same numbers.
    #[error("its record {0} differs from the one the file holds: the two copies have forked")]
    Fork(usize),
    /// The records, appended, do not verify: a bad signature, a broken chain, an illegal move.
    #[error("the records do not verify: {0}")]
    Invalid(ReplayError),
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

/// The block carrying documents `first..` of `file`.
///
/// # Panics
/// If the file has no document `first`.
#[must_use]
pub fn armor(file: &GameFile, first: usize) -> String {
    let start = if first == 0 {
        0
    } else {
        file.span(first).start
    };
    let bytes = &file.text().as_bytes()[start..];
    let encoded = Base64::encode_string(bytes);
    let mut out = format!(
        "{BEGIN}\nGame: {}\nDocuments: {first}-{}\nChecksum: {}\n",
        file.game_id(),
        file.documents() - 1,
        Digest::of(bytes)
    );
    for chunk in encoded.as_bytes().chunks(64) {
        out.push_str(std::str::from_utf8(chunk).expect("base64 is ASCII"));
        out.push('\n');
    }
    out.push_str(END);
    out.push('\n');
    out
}

/// Every block in a text, in order, however quoted, indented or re-wrapped.
///
/// The text is read as words, not lines: mail clients re-wrap lines, quote them with `>` (no
/// word of a block starts with one), and HTML turned into text may run them together, but none
/// of them changes a word's letters. A word broken in two (by a client that re-wraps long
/// lines hard) is caught by the checksum.
#[must_use]
pub fn find(text: &str) -> Vec<Result<Packet, MailError>> {
    let begin: Vec<&str> = BEGIN.split(' ').collect();
    let end: Vec<&str> = END.split(' ').collect();
    // HTML turned into text may glue a marker to the text around it (`Here:-----BEGIN`); no
    // `-` is part of base64, so spacing the markers out changes nothing else.
    let spaced = text
        .replace("-----BEGIN ", " -----BEGIN ")
        .replace("-----END ", " -----END ")
        .replace(" RECORDS-----", " RECORDS----- ");
    let words: Vec<&str> = spaced
        .split_whitespace()
        .map(|w| w.trim_start_matches('>'))
        .filter(|w| !w.is_empty())
        .collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if !words[i..].starts_with(&begin) {
            i += 1;
            continue;
        }
        let body = i + begin.len();
        let next_begin = (body..words.len()).find(|&j| words[j..].starts_with(&begin));
        let close = (body..words.len()).find(|&j| words[j..].starts_with(&end));
        match close {
            Some(j) if next_begin.is_none_or(|b| j < b) => {
                found.push(read(&words[body..j]));
                i = j + end.len();
            }
            _ => {
                // A block cut short is reported, not passed over in silence.
                let stop = next_begin.unwrap_or(words.len());
                found.push(Err(damaged(&words[body..stop], "it has no end line")));
                i = stop;
            }
        }
    }
    found
}

/// The value of a field: the word after `name`.
fn field<'a>(words: &[&'a str], name: &str) -> Option<&'a str> {
    let at = words.iter().position(|w| *w == name)?;
    words.get(at + 1).copied()
}

fn damaged(words: &[&str], why: &str) -> MailError {
    MailError::Damaged {
        game: field(words, "Game:").and_then(Digest::parse),
        why: why.to_owned(),
    }
}

fn read(words: &[&str]) -> Result<Packet, MailError> {
    let fail = |why: &str| damaged(words, why);
    let game = field(words, "Game:")
        .and_then(Digest::parse)
        .ok_or_else(|| fail("its `Game:` line is missing or is not a game id"))?;
    let (first, last) = field(words, "Documents:")
        .and_then(|range| range.split_once('-'))
        .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
        .filter(|(a, b): &(usize, usize)| a <= b)
        .ok_or_else(|| fail("its `Documents:` line is missing or is not a range such as `4-5`"))?;
    let checksum = field(words, "Checksum:")
        .and_then(Digest::parse)
        .ok_or_else(|| fail("its `Checksum:` line is missing or is not a SHA-256 digest"))?;
    // The payload is every word after the three fields' names and values.
    let payload: String = words
        .split(|w| matches!(*w, "Game:" | "Documents:" | "Checksum:"))
        .skip(1)
        .flat_map(|fields| fields.iter().skip(1))
        .copied()
        .collect();
    let bytes = Base64::decode_vec(&payload)
        .map_err(|_| fail("its base64 lines do not decode (was a line lost or changed?)"))?;
    if Digest::of(&bytes) != checksum {
        return Err(fail(
            "its content does not match its checksum (was a line lost or changed?)",
        ));
    }
    Ok(Packet {
        game,
        first,
        last,
        bytes,
    })
}

/// What a packet adds to a local file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Merge {
    /// Everything in it is already in the file.
    Known,
    /// These bytes follow the file's last byte (not yet verified).
    Grows(Vec<u8>),
}

/// Merges a packet onto a local file, by bytes alone: [`receive`] verifies the result. The cost
/// is the packet's size, not the file's.
///
/// # Errors
/// A packet from another game, after a gap, or disagreeing with the file.
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
    let overlap = (local.len() - start).min(packet.bytes.len());
    if let Some(differs) = local[start..start + overlap]
        .iter()
        .zip(&packet.bytes)
        .position(|(a, b)| a != b)
    {
        let at = start + differs;
        let document = (0..have).find(|&d| file.span(d).end > at).unwrap_or(0);
        return Err(MailError::Fork(document));
    }
    if packet.bytes.len() <= local.len() - start {
        return Ok(Merge::Known);
    }
    Ok(Merge::Grows(packet.bytes[local.len() - start..].to_vec()))
}

/// A block found in the mail, and where: `reply.eml`, `games.mbox, message 3`.
#[derive(Clone, Debug)]
pub struct Found {
    /// Where it was found, for messages.
    pub origin: String,
    /// The block, or why it cannot be read.
    pub packet: Result<Packet, MailError>,
    /// Whether it came from a mailbox, where other games' blocks are passed over; a message
    /// given on its own is meant for this game.
    pub in_mailbox: bool,
}

/// A local file after what arrived.
#[derive(Clone, Debug)]
pub struct Received {
    /// The whole file, verified.
    pub bytes: Vec<u8>,
    /// The documents that arrived (empty when nothing new did).
    pub added: Range<usize>,
    /// Blocks whose records the file already held.
    pub known: usize,
    /// Blocks of other games passed over.
    pub other_games: usize,
    /// Damaged blocks passed over in mailboxes, and where.
    pub damaged: Vec<ReceiveError>,
}

/// A refusal, with the block it concerns.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{error}", origin.as_ref().map(|o| format!("{o}: ")).unwrap_or_default())]
pub struct ReceiveError {
    /// Where the block was found, if the error concerns one.
    pub origin: Option<String>,
    /// What is wrong.
    pub error: MailError,
}

/// Applies every block for the file's game onto `local` (or, with `None`, starts from the one
/// block that begins a game), in whatever order they come: blocks are tried again while any of
/// them makes progress, so a reordered or duplicated mailbox ends as the in-order one does.
/// Every new version is verified in full (signatures, chain, turns, moves) before it is kept.
///
/// # Errors
/// The first block that cannot be applied, and why; then nothing is to be written.
pub fn receive(local: Option<&GameFile>, found: &[Found]) -> Result<Received, ReceiveError> {
    let refuse = |origin: &str, error: MailError| ReceiveError {
        origin: Some(origin.to_owned()),
        error,
    };
    if found.is_empty() {
        return Err(ReceiveError {
            origin: None,
            error: MailError::NoBlock,
        });
    }
    let mut file = match local {
        Some(file) => file.clone(),
        None => start(found)?,
    };
    let initial = if local.is_some() { file.documents() } else { 0 };
    // Replayed once; each block that grows the file then costs only its own records.
    let mut replayer = AnyReplayer::start(&file)
        .and_then(|r| r.advance(&file))
        .map_err(|e| ReceiveError {
            origin: None,
            error: MailError::Invalid(e),
        })?;
    let game = file.game_id();
    let mut pending = Vec::new();
    let mut other_games = 0;
    let mut damaged = Vec::new();
    for f in found {
        match &f.packet {
            Ok(p) if p.game != game && f.in_mailbox => other_games += 1,
            Err(MailError::Damaged { game: Some(g), .. }) if *g != game && f.in_mailbox => {
                other_games += 1;
            }
            // One mangled message must not make a whole mailbox unusable: it is passed over
            // and reported, and a gap it leaves is refused in its turn.
            Err(e @ MailError::Damaged { .. }) if f.in_mailbox => damaged.push(ReceiveError {
                origin: Some(f.origin.clone()),
                error: e.clone(),
            }),
            Ok(p) => pending.push((f.origin.as_str(), p)),
            Err(e) => return Err(refuse(&f.origin, e.clone())),
        }
    }
    // In order of their first record, one pass applies a mailbox however it was shuffled.
    pending.sort_by_key(|(_, p)| p.first);
    let mut known = 0;
    loop {
        let mut progress = false;
        let mut waiting = Vec::new();
        for (origin, packet) in pending {
            match merge(&file, packet) {
                Ok(Merge::Known) => known += 1,
                Ok(Merge::Grows(tail)) => {
                    let invalid = |e: ReplayError| refuse(origin, MailError::Invalid(e));
                    file.append(&tail).map_err(|e| invalid(e.into()))?;
                    replayer = replayer.advance(&file).map_err(invalid)?;
                    as_claimed(&file, packet).map_err(|e| refuse(origin, e))?;
                    progress = true;
                }
                Err(MailError::Gap { .. }) => waiting.push((origin, packet)),
                Err(e) => return Err(refuse(origin, e)),
            }
        }
        pending = waiting;
        if pending.is_empty() || !progress {
            break;
        }
    }
    if let Some((origin, packet)) = pending.iter().min_by_key(|(_, p)| p.first) {
        return Err(refuse(
            origin,
            MailError::Gap {
                first: packet.first,
                last: file.documents() - 1,
            },
        ));
    }
    Ok(Received {
        added: initial..file.documents(),
        bytes: file.text().as_bytes().to_vec(),
        known: known - usize::from(local.is_none()),
        other_games,
        damaged,
    })
}

/// The game file a challenge block starts, for `receive` without a local file.
fn start(found: &[Found]) -> Result<GameFile, ReceiveError> {
    let challenges: Vec<(&str, &Packet)> = found
        .iter()
        .filter_map(|f| f.packet.as_ref().ok().map(|p| (f.origin.as_str(), p)))
        .filter(|(_, p)| p.first == 0)
        .collect();
    let mut games: Vec<Digest> = challenges.iter().map(|(_, p)| p.game).collect();
    games.sort();
    games.dedup();
    let Some((origin, packet)) = challenges.first() else {
        let error = found
            .iter()
            .find_map(|f| f.packet.as_ref().err())
            .cloned()
            .unwrap_or(MailError::NoChallenge);
        return Err(ReceiveError {
            origin: found.first().map(|f| f.origin.clone()),
            error,
        });
    };
    if games.len() > 1 {
        return Err(ReceiveError {
            origin: None,
            error: MailError::SeveralGames(games),
        });
    }
    verified(&packet.bytes, packet).map_err(|error| ReceiveError {
        origin: Some((*origin).to_owned()),
        error,
    })
}

/// The file a challenge's bytes make, once they verify and agree with what the packet says.
fn verified(bytes: &[u8], packet: &Packet) -> Result<GameFile, MailError> {
    replay::verify(bytes).map_err(MailError::Invalid)?;
    let file = GameFile::parse(bytes).expect("a file that verifies parses");
    as_claimed(&file, packet)?;
    Ok(file)
}

/// Whether the file that a packet made holds what the packet's lines say it carries.
fn as_claimed(file: &GameFile, packet: &Packet) -> Result<(), MailError> {
    let says = |why: String| MailError::Damaged {
        game: Some(packet.game),
        why,
    };
    if file.game_id() != packet.game {
        return Err(says(format!(
            "its `Game:` line says {}, but its records are of game {}",
            packet.game,
            file.game_id()
        )));
    }
    if file.documents() != packet.last + 1 {
        return Err(says(format!(
            "its `Documents:` line says {}-{}, but it ends at record {}",
            packet.first,
            packet.last,
            file.documents() - 1
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
