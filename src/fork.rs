//! Two copies of one game, and what they say about each other: one extends the other (someone
//! is behind), or they fork after a common record. At a fork, two records with one number
//! signed by the same player is **equivocation**, which this module turns into a proof anyone
//! can check; two records by different players is a race (both appended at once).
//!
//! Pure: bytes in, findings out. A proof is the common part of the two copies (a valid game
//! file up to the fork) followed by the two conflicting records, each exactly as signed.

use crate::games::AnyReplayer;
use crate::log::{Action, GameFile};
use crate::replay::{ReplayError, Seat, Signatory, check_record};

/// Which copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Copy {
    /// The first copy given.
    A,
    /// The second.
    B,
}

/// How two copies of a game relate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Relation {
    /// The same bytes.
    Same,
    /// One copy is the other with records appended.
    Extends {
        /// The longer copy.
        longer: Copy,
        /// The documents it adds.
        added: std::ops::Range<usize>,
    },
    /// Both add different documents after a common part.
    Fork(Box<Fork>),
    /// The headers differ: two different games.
    Unrelated,
}

/// Where and how two copies part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fork {
    /// The first document that differs (both copies have one).
    pub document: usize,
    /// The conflicting record in each copy: its signer and what it does.
    pub records: [(String, Action); 2],
    /// Its line in each copy.
    pub lines: [usize; 2],
    /// Whether one player signed both.
    pub equivocation: bool,
    /// Where both records do the very same thing: what else they differ in (see [`differing`]).
    pub alike_but: Option<&'static str>,
    /// Each whole copy replayed, by the rules: `None` when it verifies, else its first defect. A
    /// rival record can be well signed and chained and still break the rules (signed out of
    /// turn, an illegal move), and a copy that does not verify is never the one to keep.
    pub defects: [Option<String>; 2],
    /// For a race where both copies verify, the copy that stands by the crossing rule: the one
    /// whose record at the fork is signed by the player the game awaited there (the other
    /// player's record, a resignation or an offer that crossed it, is void). Where a shared
    /// branch orders the records (git), the branch decides instead. Never when [`Fork::seen`]
    /// shows the records did not cross.
    pub stands: Option<Copy>,
    /// A record that shows the two did not cross by the crossing rule's terms (see [`Seen`]).
    pub seen: Option<Seen>,
}

/// A record, in one copy after the fork, that shows the records at the fork did not simply
/// cross, so that the crossing rule does not settle them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    /// The copy that holds it.
    pub copy: Copy,
    /// Its number.
    pub record: usize,
    /// Its signer.
    pub signer: String,
    /// What it shows.
    pub shows: Shows,
}

/// What a [`Seen`] record shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shows {
    /// The player the game awaited at the fork signed it on top of the other player's record
    /// there, so had seen that record, and then signed another record at the fork: taking back
    /// what they built on.
    BuiltOn,
    /// The other player's record at the fork (in the other copy) is a resignation, void by the
    /// crossing rule, and their next record after the one that stands is not that resignation
    /// signed again: a resignation withdrawn.
    Withdrawn,
}

impl Fork {
    /// The same fork seen from the other copy.
    #[must_use]
    pub fn swapped(&self) -> Fork {
        let flip = |copy: Copy| match copy {
            Copy::A => Copy::B,
            Copy::B => Copy::A,
        };
        let [a, b] = self.records.clone();
        let [da, db] = self.defects.clone();
        Fork {
            document: self.document,
            records: [b, a],
            lines: [self.lines[1], self.lines[0]],
            equivocation: self.equivocation,
            alike_but: self.alike_but,
            defects: [db, da],
            stands: self.stands.map(flip),
            seen: self.seen.clone().map(|seen| Seen {
                copy: flip(seen.copy),
                ..seen
            }),
        }
    }
}

/// Why two copies cannot be compared.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompareError {
    /// A copy is not a well-formed game file, or its common part does not verify.
    #[error("{which:?}: {error}")]
    Invalid {
        /// Which copy.
        which: Copy,
        /// What is wrong.
        error: String,
    },
}

/// Relates two copies of a game. Both must be well-formed game files; the common part must
/// verify, and at a fork each conflicting record must be signed by its player and chained to
/// the common part (otherwise it is no evidence of anything but tampering). At a fork each
/// copy is then replayed in full, and its first defect, if any, is reported with it.
///
/// # Errors
/// [`CompareError::Invalid`] naming the copy at fault.
pub fn compare(a: &[u8], b: &[u8]) -> Result<Relation, CompareError> {
    let parse = |which, bytes: &[u8]| {
        GameFile::parse(bytes).map_err(|e| CompareError::Invalid {
            which,
            error: e.to_string(),
        })
    };
    let (fa, fb) = (parse(Copy::A, a)?, parse(Copy::B, b)?);
    let Some(first) = a.iter().zip(b).position(|(x, y)| x != y) else {
        return one_extends([&fa, &fb]);
    };
    // The preamble comes from the header: a difference there is a difference of headers.
    let document = (0..fa.documents())
        .find(|&d| fa.span(d).end > first)
        .expect("a copy's bytes end with its last document");
    if document == 0 {
        return Ok(Relation::Unrelated);
    }
    let common = &a[..fa.span(document).start];
    let base = parse(Copy::A, common)?;
    let awaited = replayed(Copy::A, &base)?.awaited();
    let conflicting = [
        conflicting(&base, (Copy::A, &fa), document)?,
        conflicting(&base, (Copy::B, &fb), document)?,
    ];
    let signers = conflicting.each_ref().map(|c| c.signer);
    let lines = conflicting.each_ref().map(|c| c.line);
    let alike_but = differing(&conflicting[0].record, &conflicting[1].record);
    // The name each gives its signer, and its action.
    let records = conflicting.map(|c| (c.record.signer, c.record.action));
    let defects = [&fa, &fb].map(|file| {
        AnyReplayer::start(file)
            .and_then(|r| r.advance(file))
            .err()
            .map(|e| e.to_string())
    });
    let equivocation = signers[0] == signers[1];
    // The crossing rule is the players'; a record of the arbiter's crossing a player's is a
    // race that neither wins by it.
    let seats = signers.map(Signatory::seat);
    let seen = match seats {
        [Some(a), Some(b)] if !equivocation => not_crossed([&fa, &fb], document, [a, b], awaited),
        _ => None,
    };
    let awaits = |seat: Option<Seat>| seat.is_some() && seat == awaited;
    let stands = if equivocation || seen.is_some() || defects.iter().any(Option::is_some) {
        None
    } else if awaits(seats[0]) {
        Some(Copy::A)
    } else if awaits(seats[1]) {
        Some(Copy::B)
    } else {
        None
    };
    Ok(Relation::Fork(Box::new(Fork {
        document,
        records,
        lines,
        equivocation,
        alike_but,
        defects,
        stands,
        seen,
    })))
}

/// Two copies alike as far as the shorter goes: the same, or the longer extending the
/// shorter, when the longer verifies.
fn one_extends([fa, fb]: [&GameFile; 2]) -> Result<Relation, CompareError> {
    Ok(match fa.text().len().cmp(&fb.text().len()) {
        std::cmp::Ordering::Equal => Relation::Same,
        std::cmp::Ordering::Less => {
            verify(Copy::B, fb)?;
            Relation::Extends {
                longer: Copy::B,
                added: fa.documents()..fb.documents(),
            }
        }
        std::cmp::Ordering::Greater => {
            verify(Copy::A, fa)?;
            Relation::Extends {
                longer: Copy::A,
                added: fb.documents()..fa.documents(),
            }
        }
    })
}

/// A copy's record at a fork.
struct Conflicting {
    signer: Signatory,
    record: crate::log::Record,
    line: usize,
}

/// For two different records at one place that do the very same thing (the same action, a
/// nonce included): what else they differ in, `their time`, `their comment` or both. `None`
/// when their actions differ.
#[must_use]
pub fn differing(a: &crate::log::Record, b: &crate::log::Record) -> Option<&'static str> {
    if a.action != b.action {
        return None;
    }
    Some(match (a.time != b.time, a.comment != b.comment) {
        (true, true) => "their time and comment",
        (false, true) => "their comment",
        _ => "their time",
    })
}

/// A copy's record at the fork, checked on the common part `base` alone.
fn conflicting(
    base: &GameFile,
    (which, file): (Copy, &GameFile),
    document: usize,
) -> Result<Conflicting, CompareError> {
    let invalid = |error: String| CompareError::Invalid { which, error };
    let mut own = base.clone();
    let upto = &file.text().as_bytes()[..file.span(document).end];
    own.extend(upto).map_err(|e| invalid(e.to_string()))?;
    let signer = check_record(&own, document).map_err(|e: ReplayError| invalid(e.to_string()))?;
    Ok(Conflicting {
        signer,
        record: own.records()[document - 1].clone(),
        line: own.line(document),
    })
}

/// The record that shows two records at a fork, by different players, did not simply cross,
/// if one does. Records cross when each is signed before the other is seen; the crossing rule
/// then lets the awaited player's stand and voids the other's, whose signer signs it again on
/// top where it still applies. So the awaited player has no record on top of the void one,
/// and the other player's next record on top of the one that stands, if any, is their void
/// resignation signed again, after any offers and leave signed again. (Records of theirs on
/// top of it are their settlement.)
fn not_crossed(
    files: [&GameFile; 2],
    document: usize,
    signers: [Seat; 2],
    awaited: Option<Seat>,
) -> Option<Seen> {
    let stands = signers.iter().position(|&s| Some(s) == awaited)?;
    let void = 1 - stands;
    let copies = [Copy::A, Copy::B];
    let name = |seat: Seat| files[0].header().players[seat.index()].name.clone();
    let by = |file: &GameFile, seat: Seat| {
        let name = name(seat);
        (document + 1..file.documents()).find(move |&d| file.records()[d - 1].signer == name)
    };
    if let Some(record) = by(files[void], signers[stands]) {
        return Some(Seen {
            copy: copies[void],
            record,
            signer: name(signers[stands]),
            shows: Shows::BuiltOn,
        });
    }
    let resigned = (document..files[void].documents())
        .any(|d| files[void].records()[d - 1].action == Action::Resign);
    // Offers and leave signed again come first, in the order they were made (see `correspond
    // settle`, which may leave an offer out); then the resignation. Only the void ones are
    // passed over: a fresh offer or leave is the game going on.
    let mover = name(signers[void]);
    let mut again: Vec<&Action> = (document..files[void].documents())
        .map(|d| &files[void].records()[d - 1])
        .filter(|r| r.signer == mover && matches!(r.action, Action::Offer(_) | Action::Leave(_)))
        .map(|r| &r.action)
        .collect();
    let standing = files[stands];
    let next = (document + 1..standing.documents())
        .find(|&d| {
            let record = &standing.records()[d - 1];
            if record.signer != mover {
                return false;
            }
            match again.iter().position(|a| **a == record.action) {
                Some(k) => {
                    again.drain(..=k);
                    false
                }
                None => true,
            }
        })
        .filter(|&d| standing.records()[d - 1].action != Action::Resign);
    match next {
        Some(record) if resigned => Some(Seen {
            copy: copies[stands],
            record,
            signer: name(signers[void]),
            shows: Shows::Withdrawn,
        }),
        _ => None,
    }
}

/// The proof of an equivocation at `fork`: the common part, then the record of each copy.
#[must_use]
pub fn proof(a: &[u8], b: &[u8], fork: &Fork) -> Vec<u8> {
    let fa = GameFile::parse(a).expect("compared copies are well-formed");
    let fb = GameFile::parse(b).expect("compared copies are well-formed");
    let d = fork.document;
    let mut out = a[..fa.span(d).start].to_vec();
    out.extend_from_slice(fa.document(d).as_bytes());
    out.extend_from_slice(fb.document(d).as_bytes());
    out
}

/// What a checked proof shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Equivocation {
    /// The game.
    pub game_id: crate::digest::Digest,
    /// The player who signed both records.
    pub signer: String,
    /// Their key's fingerprint, as the proof's header gives it: compare it with the key you
    /// know to be theirs.
    pub fingerprint: String,
    /// Their number.
    pub record: usize,
    /// What each does.
    pub actions: [String; 2],
    /// Where both do the very same thing: what else they differ in (see [`differing`]).
    pub alike_but: Option<&'static str>,
}

/// Checks a proof: its common part verifies, and its last two documents are different records
/// with the same number, both chained to the common part and signed by the same player.
///
/// # Errors
/// What does not hold, in words.
pub fn check_proof(bytes: &[u8]) -> Result<Equivocation, String> {
    let text = crate::log::as_text(bytes).map_err(|e| format!("the proof: {e}"))?;
    if text.contains('\r') {
        return Err(
            "the proof has CR LF line endings; proofs, like game files, use LF, and the \
                    signatures cover the exact bytes"
                .into(),
        );
    }
    let starts: Vec<usize> = text
        .match_indices("\n---\n")
        .map(|(at, _)| at + 1)
        .collect();
    let [_, .., first, second] = starts[..] else {
        return Err(
            "a proof holds the game's header, its records up to the fork, and two \
                    conflicting records; this holds fewer documents"
                .into(),
        );
    };
    let common = GameFile::parse(&bytes[..first])
        .map_err(|e| format!("the common part of the proof is not a game file: {e}"))?;
    verify(Copy::A, &common).map_err(|e| match e {
        CompareError::Invalid { error, .. } => format!("the common part of the proof: {error}"),
    })?;
    let document = common.documents();
    numbered_alike(&bytes[first..second], &bytes[second..], document)?;
    let rivals = rival_files(&common, &bytes[first..second], &bytes[second..])?;
    let mut signers = Vec::new();
    let mut actions = Vec::new();
    for file in &rivals {
        check_record(file, document).map_err(|e| format!("a conflicting record: {e}"))?;
        signers.push(file.records()[document - 1].signer.clone());
        actions.push(file.records()[document - 1].action.to_string());
    }
    let alike_but = differing(
        &rivals[0].records()[document - 1],
        &rivals[1].records()[document - 1],
    );
    if signers[0] != signers[1] {
        return Err(format!(
            "record {document} is signed by {} in one and by {} in the other: two players \
             appending at once is a race, not equivocation",
            signers[0], signers[1]
        ));
    }
    let signer = signers.swap_remove(0);
    let header = common.header();
    let key = header
        .players
        .iter()
        .map(|p| (&p.name, &p.key))
        .chain(header.arbiter.iter().map(|a| (&a.name, &a.key)))
        .find(|(name, _)| **name == signer)
        .map(|(_, key)| key)
        .ok_or_else(|| format!("record {document} names {signer}, who is not in the header"))?;
    Ok(Equivocation {
        game_id: common.game_id(),
        fingerprint: crate::sign::fingerprint(key),
        signer,
        record: document,
        actions: [actions[0].clone(), actions[1].clone()],
        alike_but,
    })
}

/// The rivals, `one` and `other`, both claim record `document`'s number, the next after the
/// common part: otherwise this is a game, not a proof.
fn numbered_alike(one: &[u8], other: &[u8], document: usize) -> Result<(), String> {
    let number = |doc: &[u8]| {
        std::str::from_utf8(doc)
            .ok()
            .and_then(|d| d.lines().find_map(|l| l.strip_prefix("seq: ")))
            .map(str::to_owned)
    };
    let (n1, n2) = (number(one), number(other));
    let expected = document.to_string();
    if n1 != n2 || n1.as_deref() != Some(expected.as_str()) {
        let shown = |n: &Option<String>| n.clone().unwrap_or_else(|| "?".into());
        let why = if n1 == n2 {
            format!(
                "its last two records are both numbered {}, but the records before them end at \
                 {}: more than two rivals, or a record missing",
                shown(&n1),
                document - 1
            )
        } else {
            format!(
                "its last two records are numbered {} and {}: it reads as a game file, not a \
                 proof",
                shown(&n1),
                shown(&n2)
            )
        };
        return Err(format!(
            "{why}; a proof ends with two rival records numbered alike"
        ));
    }
    Ok(())
}

/// The common part with each rival appended (their signatures not checked yet); refused when a
/// rival is not a record that follows the common part, or the two sign the same bytes.
fn rival_files(common: &GameFile, one: &[u8], other: &[u8]) -> Result<Vec<GameFile>, String> {
    let document = common.documents();
    let mut rivals = Vec::new();
    for record in [one, other] {
        let mut file = common.clone();
        file.append(record)
            .map_err(|e| format!("a conflicting record: {e}"))?;
        rivals.push(file);
    }
    // One player's signature over one document, spelled two ways, is one record signed once:
    // compared before any signature is checked, so that the reason is named whatever the
    // second spelling is.
    if rivals[0].signed_bytes(document) == rivals[1].signed_bytes(document) {
        // Named at the first rival's place, which is its place in the proof too.
        return Err(format!(
            "{}: the two records sign the same bytes (one record, its signature spelled twice): \
             that is no conflict",
            crate::log::place(Some(document), rivals[0].line(document))
        ));
    }
    Ok(rivals)
}

/// Replays a whole file, as the game its header names.
fn verify(which: Copy, file: &GameFile) -> Result<(), CompareError> {
    replayed(which, file).map(|_| ())
}

fn replayed(which: Copy, file: &GameFile) -> Result<AnyReplayer, CompareError> {
    AnyReplayer::start(file)
        .and_then(|r| r.advance(file))
        .map_err(|e| CompareError::Invalid {
            which,
            error: e.to_string(),
        })
}

/// Whether `new` settles a crossing that `old` was on the losing side of, by the crossing rule:
/// both verify and share their documents up to `document`, where `old` holds records signed
/// only by the player the game did not await there, all void, and `new` continues with a
/// record of the awaited player. Returns that document: what `old` had from it on is void, not
/// taken back.
#[must_use]
pub fn settles(old: &GameFile, new: &[u8]) -> Option<usize> {
    let new = GameFile::parse(new).ok()?;
    let document =
        (1..old.documents().min(new.documents())).find(|&d| old.document(d) != new.document(d))?;
    if old.document(0) != new.document(0) {
        return None;
    }
    let awaited = awaited_at(&new, document)?;
    // Void records are the other player's only: never the arbiter's, whose adjudication no
    // crossing undoes.
    let void_by_other =
        (document..old.documents()).all(|d| signer_seat(old, d) == Some(awaited.other()));
    let verified = |file: &GameFile| {
        AnyReplayer::start(file)
            .and_then(|r| r.advance(file))
            .is_ok()
    };
    (signer_seat(&new, document) == Some(awaited)
        && void_by_other
        && verified(old)
        && verified(&new))
    .then_some(document)
}

/// The seat the game awaited at document `document` of `file`, after the documents before it
/// (`None` when those do not verify, or the game was over).
#[must_use]
pub fn awaited_at(file: &GameFile, document: usize) -> Option<Seat> {
    let mut base = file.clone();
    base.truncate(document);
    AnyReplayer::start(&base)
        .and_then(|r| r.advance(&base))
        .ok()?
        .awaited()
}

/// The seat of the player who signed record `document` of `file`, by the name it gives.
#[must_use]
pub fn signer_seat(file: &GameFile, document: usize) -> Option<Seat> {
    crate::replay::seat_named(file, &file.records()[document - 1].signer)
}

#[cfg(test)]
mod tests;
