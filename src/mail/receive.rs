//! Receiving: every block found in the mail applied onto one game file, whatever order the
//! blocks came in. Its phases, in order: the blocks sorted into those to apply and those that
//! cannot be read; the blocks applied, again and again while any makes progress, crossings
//! settled by the crossing rule; two versions of a record that both arrived left out; blocks
//! still waiting for records that never came passed over (or a message refused); damage judged.

use super::crossing::{Void, unsettled, void_twice, voided};
use super::state::{Applied, State, start};
use super::{Found, MailError, Packet, ReceiveError, Received};
use crate::digest::Digest;
use crate::fork;
use crate::games::AnyReplayer;
use crate::log::GameFile;
use std::collections::BTreeMap;

/// The blocks for the file's game, each with what it was found in.
type Pending<'a> = Vec<(&'a Found, &'a Packet)>;
/// The blocks that cannot be read, each with what it was found in and why.
type Damaged<'a> = Vec<(&'a Found, ReceiveError)>;

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
        .map_err(|e| unplaced(MailError::Invalid(e)))?;
    let mut state = State {
        replayer: Some(replayer),
        file,
        known: 0,
        other_games: 0,
        passed_over: Vec::new(),
    };
    let game = state.file.game_id();
    let (pending, damaged) = sorted_blocks(found, game, &mut state.other_games);
    let waiting = apply_all(&mut state, pending, &damaged, initial)?;
    leave_out_undecided(&mut state, found, initial)?;
    pass_over_waiting(&mut state, waiting, &damaged)?;
    judge_damage(&state, found, &damaged)?;
    // Damage first: it may explain the gaps listed after it.
    let mut passed_over: Vec<ReceiveError> = damaged.into_iter().map(|(_, d)| d).collect();
    passed_over.append(&mut state.passed_over);
    Ok(Received {
        added: initial..state.file.documents(),
        file: state.file,
        known: state.known,
        other_games: state.other_games,
        passed_over,
        refused: Vec::new(),
    })
}

/// [`receive`], each message given on its own judged on its own: one that is refused is left
/// out, with its reason in [`Received::refused`], and the others are applied as if it had not
/// been given. A message is not left out where that could change what another brings: its
/// record and another version of it (a fork, two versions that both arrived), which are for
/// the player to settle; nor where it is the only message given.
///
/// # Errors
/// As [`receive`], once no other message is left to take: the refusal, with the messages left
/// out before it among what was passed over.
pub fn receive_each(local: Option<&GameFile>, found: &[Found]) -> Result<Received, ReceiveError> {
    let mut found = found.to_vec();
    let mut refused = Vec::new();
    loop {
        let mut error = match receive(local, &found) {
            Ok(received) => {
                return Ok(Received {
                    refused,
                    ..received
                });
            }
            Err(error) => error,
        };
        let message = (error.origin.as_ref())
            .and_then(|o| found.iter().find(|f| !f.in_mailbox && f.origin == *o))
            .map(|f| f.message);
        let alone = !matches!(
            *error.error,
            MailError::Fork { .. } | MailError::Undecided(_)
        );
        match message {
            Some(m) if alone && found.iter().any(|f| !f.in_mailbox && f.message != m) => {
                found.retain(|f| f.in_mailbox || f.message != m);
                refused.push(error);
            }
            _ => {
                error.passed_over.extend(refused);
                return Err(error);
            }
        }
    }
}

/// An error about no one block.
fn unplaced(error: MailError) -> ReceiveError {
    ReceiveError {
        origin: None,
        error: Box::new(error),
        passed_over: Vec::new(),
    }
}

/// `error` at `origin`, with the damaged blocks passed over on the way: a message refused.
fn refused(origin: &str, error: MailError, damaged: &Damaged<'_>) -> ReceiveError {
    ReceiveError {
        passed_over: damaged.iter().map(|(_, d)| d.clone()).collect(),
        ..ReceiveError::at(origin, error)
    }
}

/// The blocks of game `game` to apply, sorted by first record and then by content (so that one
/// pass applies a shuffled mailbox, and the outcome depends on the set of blocks, never on
/// their order), and the blocks that cannot be read. Blocks of other games in mailboxes are
/// counted in `other_games` and go no further.
fn sorted_blocks<'a>(
    found: &'a [Found],
    game: Digest,
    other_games: &mut usize,
) -> (Pending<'a>, Damaged<'a>) {
    let mut pending = Vec::new();
    let mut damaged = Vec::new();
    for f in found {
        match &f.packet {
            Ok(p) if p.game != game && f.in_mailbox => *other_games += 1,
            Err(MailError::Damaged { game: Some(g), .. }) if *g != game && f.in_mailbox => {
                *other_games += 1;
            }
            Ok(p) => pending.push((f, p)),
            Err(e) => damaged.push((f, ReceiveError::at(&f.origin, e.clone()))),
        }
    }
    pending.sort_by_cached_key(|(_, p)| (p.first, Digest::of(&p.bytes)));
    (pending, damaged)
}

/// What the blocks applied so far leave to judge crossings by.
#[derive(Default)]
struct Crossings {
    /// The void versions seen, by number: one player's two void records at one place are
    /// still two documents signed at one place.
    voids: Vec<Void>,
    /// Where the file's records that arrived in this run came from, by their first document:
    /// a void version that was the file's is named by the block that brought it.
    came_from: BTreeMap<usize, String>,
}

/// Applies `pending` onto the file while any block makes progress, then settles the
/// crossings the void versions leave. Returns the blocks still waiting for records that never
/// came.
///
/// # Errors
/// The first block of a message that cannot be applied (a mailbox's are passed over).
fn apply_all<'a>(
    state: &mut State,
    mut pending: Pending<'a>,
    damaged: &Damaged<'_>,
    initial: usize,
) -> Result<Pending<'a>, ReceiveError> {
    let mut crossings = Crossings::default();
    loop {
        let mut progress = false;
        let mut waiting = Vec::new();
        for (f, packet) in pending {
            match state.apply(packet) {
                Ok(Applied::Known) => {}
                Ok(Applied::Grew) => {
                    crossings.came_from.insert(packet.first, f.origin.clone());
                    progress = true;
                }
                Err(MailError::Gap { .. }) => waiting.push((f, packet)),
                // Crossed the file's record, which the game awaited: void, and settled.
                Err(MailError::Fork { fork, versions }) if fork.stands == Some(fork::Copy::A) => {
                    let [_, rival] = *versions;
                    let void = (fork.document, rival, Some(f.origin.clone()));
                    if let Some(proof) = void_twice(&mut crossings.voids, void) {
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
                    progress |= replace_void(state, &mut crossings, (f, packet), *fork, held);
                }
                Err(e) if f.in_mailbox => state.passed_over.push(ReceiveError::at(&f.origin, e)),
                Err(e) => return Err(refused(&f.origin, e, damaged)),
            }
        }
        pending = waiting;
        if pending.is_empty() || !progress {
            break;
        }
    }
    unsettled(state, &crossings.voids, initial);
    Ok(pending)
}

/// The file's record at `fork`, which arrived in this run (as `held`), is void: the file goes
/// back to before it and takes the block's (`packet`'s) version instead. Whether that made
/// progress: when the block's version does not apply either, the file stays cut back and the
/// block is passed over with its reason.
fn replace_void(
    state: &mut State,
    crossings: &mut Crossings,
    (f, packet): (&Found, &Packet),
    fork: fork::Fork,
    held: Vec<u8>,
) -> bool {
    // The block that brought the file's record here: the last applied that starts at or
    // before it.
    let held_from = crossings
        .came_from
        .range(..=fork.document)
        .next_back()
        .map(|(_, origin)| origin.clone());
    let void = (fork.document, held, held_from.clone());
    if let Some(proof) = void_twice(&mut crossings.voids, void) {
        state.passed_over.push(ReceiveError::at(&f.origin, proof));
    }
    state.truncate(fork.document);
    match state.apply(packet) {
        Ok(_) => {
            crossings.came_from.insert(packet.first, f.origin.clone());
            state.passed_over.push(ReceiveError {
                origin: held_from,
                error: Box::new(MailError::Void(Box::new(fork.swapped()))),
                passed_over: Vec::new(),
            });
            true
        }
        Err(e) => {
            state.passed_over.push(ReceiveError::at(&f.origin, e));
            false
        }
    }
}

/// Two versions of a record that both arrived now: the mailbox cannot say which stands, so
/// neither does, and the file is cut before the record. Not so for two records of one player
/// that the crossing rule voids alike: the record that stands is a third's.
///
/// # Errors
/// A message given alone is refused whole rather than cut short, with the mailbox's version
/// named.
fn leave_out_undecided(
    state: &mut State,
    found: &[Found],
    initial: usize,
) -> Result<(), ReceiveError> {
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
    let Some(document) = undecided else {
        return Ok(());
    };
    let game = state.file.game_id();
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
    state
        .passed_over
        .push(unplaced(MailError::Undecided(document)));
    Ok(())
}

/// The blocks still waiting for records that never came, passed over with the gap.
///
/// # Errors
/// A message's block that waits: the message is refused.
fn pass_over_waiting(
    state: &mut State,
    waiting: Pending<'_>,
    damaged: &Damaged<'_>,
) -> Result<(), ReceiveError> {
    let last = state.file.documents() - 1;
    for (f, packet) in waiting {
        let gap = MailError::Gap {
            first: packet.first,
            last,
        };
        if !f.in_mailbox {
            return Err(refused(&f.origin, gap, damaged));
        }
        state.passed_over.push(ReceiveError::at(&f.origin, gap));
    }
    Ok(())
}

/// A damaged block is harmless beside a good copy of what it carried, or in a mailbox, or
/// quoted in a reply that brings a good block of this game (what its writer trimmed is an
/// older message's).
///
/// # Errors
/// A message with damage in what it brings is refused.
fn judge_damage(state: &State, found: &[Found], damaged: &Damaged<'_>) -> Result<(), ReceiveError> {
    let game = state.file.game_id();
    let have = state.file.documents();
    let brings_good = |message: usize| {
        found.iter().any(|f| {
            !f.in_mailbox && f.message == message && f.packet.as_ref().is_ok_and(|p| p.game == game)
        })
    };
    let refusal = damaged.iter().find(|(f, d)| {
        let held = matches!(*d.error, MailError::Damaged { game: Some(g), range: Some((_, last)), .. }
                if g == game && last < have);
        let quote =
            matches!(*d.error, MailError::Damaged { quoted: true, .. }) && brings_good(f.message);
        !f.in_mailbox && !held && !quote
    });
    match refusal {
        Some((_, refusal)) => Err(refusal.clone()),
        None => Ok(()),
    }
}
