//! The crossing rule as `receive` applies it to many blocks at once: void versions kept and
//! judged again against the file as it ends (so that the order the blocks came in does not
//! matter), and one player's two void records at one place caught as equivocation.

use super::state::State;
use super::{MailError, ReceiveError};
use crate::fork::{self, Relation};
use crate::log::GameFile;

/// A void version of a record: its number, the file it makes, and where it came from (the
/// message or mailbox block), when known.
pub(super) type Void = (usize, Vec<u8>, Option<String>);

/// When a second, different void version of record `document` arrives from the player who
/// signed the first: their equivocation, as a fork of the two void versions (a proof).
pub(super) fn void_twice(voids: &mut Vec<Void>, void: Void) -> Option<MailError> {
    let (document, rival, _) = &void;
    let (document, rival) = (*document, rival.clone());
    let earlier = voids
        .iter()
        .find(|(d, bytes, _)| *d == document && *bytes != rival)
        .map(|(_, bytes, _)| bytes.clone());
    let proof = earlier.and_then(|earlier| match fork::compare(&earlier, &rival) {
        Ok(fork::Relation::Fork(f)) if f.equivocation && f.document == document => {
            Some(MailError::Fork {
                fork: f,
                versions: Box::new([earlier, rival.clone()]),
            })
        }
        _ => None,
    });
    if !voids
        .iter()
        .any(|(d, bytes, _)| *d == document && *bytes == rival)
    {
        voids.push(void);
    }
    proof
}

/// The void versions judged again against the file as it ends, whatever order the blocks came
/// in: one whose signer's records in the file show it was not simply crossed (a resignation
/// withdrawn) is no longer void but a fork for an arbiter, and the records that withdraw it,
/// if they arrived now, are not applied.
pub(super) fn unsettled(state: &mut State, voids: &[Void], initial: usize) {
    for (_, version, origin) in voids {
        let Ok(Relation::Fork(f)) = fork::compare(state.file.text().as_bytes(), version) else {
            continue;
        };
        let Some(seen) = f.seen.clone() else {
            continue;
        };
        let versions = Box::new([state.file.text().as_bytes().to_vec(), version.clone()]);
        let withdrawing = (seen.shows == fork::Shows::Withdrawn
            && seen.copy == fork::Copy::A
            && seen.record >= initial.max(1))
        .then(|| MailError::Withdrawing {
            first: seen.record,
            records: state.file.records()[seen.record - 1..]
                .iter()
                .map(|r| (r.signer.clone(), r.action.clone()))
                .collect(),
            signer: f.records[1].0.clone(),
            resigned: f.document,
        });
        if withdrawing.is_some() {
            state.truncate(seen.record);
        }
        state.passed_over.push(ReceiveError {
            origin: origin.clone(),
            error: Box::new(MailError::Fork { fork: f, versions }),
            passed_over: Vec::new(),
        });
        if let Some(withdrawing) = withdrawing {
            state.passed_over.push(ReceiveError {
                origin: None,
                error: Box::new(withdrawing),
                passed_over: Vec::new(),
            });
        }
    }
    // A record the crossing rule does not settle is not said to be void as well.
    let unsettled: Vec<(usize, [String; 2])> = state
        .passed_over
        .iter()
        .filter_map(|p| match &*p.error {
            MailError::Fork { fork, .. } if fork.seen.is_some() => Some((
                fork.document,
                [fork.records[0].0.clone(), fork.records[1].0.clone()],
            )),
            _ => None,
        })
        .collect();
    state.passed_over.retain(|p| {
        !matches!(&*p.error, MailError::Void(v) if unsettled.iter().any(|(d, signers)| {
            *d == v.document && signers.contains(&v.records[0].0) && signers.contains(&v.records[1].0)
        }))
    });
}

/// Whether both records of an equivocation at a fork are void by the crossing rule: the file
/// holds a record there by the player the game awaited, who is not their signer.
pub(super) fn voided(file: &GameFile, fork: &fork::Fork) -> bool {
    if !fork.equivocation || file.documents() <= fork.document {
        return false;
    }
    let held = &file.records()[fork.document - 1].signer;
    let seat = fork::signer_seat(file, fork.document);
    held != &fork.records[0].0 && seat.is_some() && seat == fork::awaited_at(file, fork.document)
}
