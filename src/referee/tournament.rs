//! The referee's judgment of an event's files: a tournament file, which only grows by records
//! of its event dated near the referee's clock, and a new game that names an event, which must
//! be the one game of its pairing, beside the event's tournament file.

use super::{Accepted, Refusal, Terms, check_times};
use crate::digest::Digest;
use crate::log::{GameFile, Header, MAX_FILE_SIZE, Refereed};
use crate::tournament::event::{Event, EventError};
use crate::tournament::file::{TOURNAMENT_FILE_NAME, TournamentFile};
use crate::tournament::pairing::claimed;
use crate::tournament::tags::{BOARD_TAG, ROUND_TAG};

/// Judges one tournament file's versions in a push, as [`judge_file`] judges a game's: it may
/// only grow by records appended to the branch's version (`before`), the pushed version
/// (`after`; `None`: deleted) must be a valid event, and each document it adds must be dated
/// within the skew of the referee's clock. A tournament file is a few dozen documents, so it is
/// checked whole.
///
/// # Errors
/// The first refusal.
pub fn judge_tournament(
    before: Option<&[u8]>,
    after: Option<&[u8]>,
    terms: Terms,
) -> Result<Accepted<Event>, Refusal> {
    let Some(after) = after else {
        return Err(Refusal::Deleted {
            file: Refereed::Tournament,
            commit: None,
        });
    };
    let size = after.len() as u64;
    if size > MAX_FILE_SIZE {
        return Err(Refusal::TooLarge { size, commit: None });
    }
    let mut held = 0;
    if let Some(before) = before {
        let file = TournamentFile::parse(before)
            .map_err(|e| Refusal::EventInvalidBefore(EventError::from(e)))?;
        file.extended_by(after)
            .map_err(|e| Refusal::Rewritten(Refereed::Tournament, e))?;
        held = file.documents();
    }
    let file = TournamentFile::parse(after).map_err(|e| Refusal::EventInvalid(e.into()))?;
    // A defect in what the branch held already cannot be mended by appending: said so apart.
    let event = Event::of(&file).map_err(|e| match e.document {
        Some(document) if document < held => Refusal::EventInvalidBefore(e),
        _ => Refusal::EventInvalid(e),
    })?;
    let times = (held..file.documents()).map(|d| match d {
        0 => (0, file.line(0), &file.header().created),
        d => (d, file.line(d), &file.records()[d - 1].time),
    });
    check_times(times, terms)?;
    let documents = 0..file.documents();
    Ok(Accepted {
        added: held..file.documents(),
        summary: event,
        kind: Refereed::Tournament,
        ends: documents.clone().map(|d| file.span(d).end).collect(),
        digests: documents.map(|d| file.digest(d)).collect(),
    })
}

/// Judges a new game whose header names an event (its `Tournament` tag: [`claimed`]; a game
/// that names none is not judged here), as the pushed tree holds its folder: `tournament` is
/// the tournament file beside it (`tournament.yaml`; `None`: there is none), which must be that
/// event, of which the game must be exactly the game of the pairing it names; and `beside`, the
/// other files of its folder (path, bytes), may hold no other game (another game id) for that
/// pairing. `game` is the game's id.
///
/// # Errors
/// [`Refusal::Pairing`], saying why and what to do.
pub fn judge_claim(
    header: &Header,
    game: Digest,
    tournament: Option<&[u8]>,
    beside: &[(Vec<u8>, Vec<u8>)],
) -> Result<(), Refusal> {
    let Some(id) = claimed(header) else {
        return Ok(());
    };
    let tag = |name: &str| header.tags.get(name).map(|v| crate::text::shown(v));
    let names = match (tag(ROUND_TAG), tag(BOARD_TAG)) {
        (Some(round), Some(board)) => {
            format!("it names round {round}, board {board} of the event {id}")
        }
        _ => format!("it names the event {id}"),
    };
    let beside_it = |why: String| {
        Refusal::Pairing(format!(
            "{names} (its `Tournament` tag), but {why}; a game of an event is kept beside the \
             event's {TOURNAMENT_FILE_NAME}, where `correspond tournament start` makes it"
        ))
    };
    let Some(tournament) = tournament else {
        return Err(beside_it(format!(
            "there is no {TOURNAMENT_FILE_NAME} beside it"
        )));
    };
    let event = Event::check(tournament).map_err(|e| {
        beside_it(format!(
            "the {TOURNAMENT_FILE_NAME} beside it is not a valid event ({e})"
        ))
    })?;
    if event.id != id {
        return Err(beside_it(format!(
            "the {TOURNAMENT_FILE_NAME} beside it is the event {}",
            event.id
        )));
    }
    let pairing = event.pairing_of(header).map_err(|why| {
        Refusal::Pairing(format!(
            "{why}; a game that names an event (its `Tournament` tag) must be exactly the game \
             of its pairing, as `correspond tournament start` makes it"
        ))
    })?;
    for (path, bytes) in beside {
        let Some((other, other_id)) = header_of(bytes) else {
            continue;
        };
        if other_id != game
            && claimed(&other) == Some(event.id)
            && event.pairing_of(&other) == Ok(pairing)
        {
            return Err(Refusal::Pairing(format!(
                "round {}, board {} of the event has another game (another game id) beside it, \
                 {}: one pairing is one game, so this one is refused; play the game there",
                pairing.round,
                pairing.board,
                crate::text::bytes(path)
            )));
        }
    }
    Ok(())
}

/// A game file's header and game id, read from its first document alone.
fn header_of(bytes: &[u8]) -> Option<(Header, Digest)> {
    let end = crate::log::raw_document(bytes, 0).ok()?.end;
    let file = GameFile::parse(&bytes[..end]).ok()?;
    Some((file.header().clone(), file.game_id()))
}
