//! The tournament files among the files a command checks (`verify`, `tournament standings`,
//! `site`): each checked, and its games held to their pairings. A valid game that names an
//! event whose file is here, and is not the game of the pairing it claims (or is a second game
//! for one pairing), is refused.

use crate::cli::shared::checked::Checked;
use crate::cli::shared::copies::Forked;
use crate::cli::shared::error::ExitStatus;
use correspond::replay::Summary;
use correspond::tournament::event::Event;
use correspond::tournament::table::{State, Table, table};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// A tournament file checked.
pub(crate) struct CheckedEvent {
    pub(crate) path: PathBuf,
    pub(crate) state: EventState,
    /// A Swiss round whose signed input is not the report file the games here give, in words.
    /// Said, not held against the event: a result that arrives after a round is paired (a
    /// cancelled game finished after all, copies that fork) changes the input too.
    pub(crate) unfounded: Option<String>,
}

/// What a tournament file holds.
pub(crate) enum EventState {
    /// A valid event and its standing from the games found.
    Valid(Box<Event>, Box<Table>),
    /// The first defect of the file.
    Invalid(correspond::tournament::event::EventError),
    /// Why it cannot be read.
    Unreadable(String),
}

impl CheckedEvent {
    /// Whether the event is valid, its games' decisions included.
    pub(crate) fn valid(&self) -> bool {
        matches!(&self.state, EventState::Valid(..))
    }

    /// The event and its standing, or the command's error: the file's defect, or why it cannot
    /// be read.
    pub(crate) fn event(&self) -> Result<(&Event, &Table), crate::cli::CliError> {
        match &self.state {
            EventState::Valid(event, table) => Ok((event, table)),
            EventState::Invalid(e) => Err(super::invalid(&self.path, e)),
            EventState::Unreadable(e) => Err(crate::cli::CliError::usage(format!(
                "{}: cannot read: {e}",
                correspond::text::path(&self.path)
            ))),
        }
    }
}

/// The valid games among `checked`, by index.
pub(crate) fn valid_games(checked: &[Checked]) -> Vec<(usize, &Summary)> {
    checked
        .iter()
        .enumerate()
        .filter_map(|(i, c)| match c {
            Checked::Valid(s) => Some((i, &**s)),
            _ => None,
        })
        .collect()
}

/// Checks the tournament files `tournaments`, and each one's games among `checked` (the game
/// files of the same command, `forks` among them): a game not its pairing's becomes
/// [`Checked::Refused`], saying why and naming the tournament file.
pub(crate) fn events(
    tournaments: &[PathBuf],
    checked: &mut [Checked],
    forks: &[Forked],
) -> Vec<CheckedEvent> {
    let forked: BTreeSet<_> = forks.iter().map(|f| f.game).collect();
    let mut refused: Vec<(usize, String)> = Vec::new();
    let events: Vec<CheckedEvent> = {
        let games = valid_games(checked);
        tournaments
            .iter()
            .map(|path| {
                let mut said = None;
                let state = match correspond::log::read_limited(path) {
                    Err(e) => EventState::Unreadable(e.to_string()),
                    Ok(bytes) => match Event::check(&bytes) {
                        Err(e) => EventState::Invalid(e),
                        Ok(event) => {
                            said = unfounded(&event, &games, &forked);
                            let standing = table(&event, &games, &forked);
                            let at = correspond::text::path(path).to_string();
                            refused.extend(
                                standing
                                    .refused
                                    .iter()
                                    .map(|(i, why)| (*i, format!("{why} ({at})"))),
                            );
                            EventState::Valid(Box::new(event), Box::new(standing))
                        }
                    },
                };
                CheckedEvent {
                    path: path.clone(),
                    state,
                    unfounded: said,
                }
            })
            .collect()
    };
    for (i, why) in refused {
        let taken = std::mem::replace(&mut checked[i], Checked::Unreadable(String::new()));
        checked[i] = match taken {
            Checked::Valid(summary) => Checked::Refused(summary, why),
            other => other,
        };
    }
    events
}

/// The first Swiss round whose signed input is not the report file the games give, in words.
fn unfounded(
    event: &Event,
    games: &[(usize, &Summary)],
    forked: &BTreeSet<correspond::digest::Digest>,
) -> Option<String> {
    let (round, found) = correspond::tournament::swiss::unfounded(event, games, forked)?;
    Some(format!(
        "record {} (line {}): round {} was paired from a report file whose digest is {}, but \
         the games here give {found}: a result it was paired from is missing here, or differs \
         (`correspond tournament trf --round {}` writes the report file the games give; \
         `correspond tournament pair --check` runs each round's program again)",
        round.document, round.line, round.pairing.round, round.pairing.input, round.pairing.round
    ))
}

/// The exit status `status` of the games, made worse by the events: 2 if one cannot be read,
/// else 1 if one is invalid.
pub(crate) fn status(events: &[CheckedEvent], status: ExitStatus) -> ExitStatus {
    if status == ExitStatus::Usage
        || events
            .iter()
            .any(|e| matches!(e.state, EventState::Unreadable(_)))
    {
        ExitStatus::Usage
    } else if events.iter().all(CheckedEvent::valid) {
        status
    } else {
        ExitStatus::Rejected
    }
}

/// An event in one line: `Club 2026: chess, round-robin, 5 players, directed by dora: 10
/// games: 4 finished, ...`.
pub(crate) fn describe(event: &Event, table: &Table) -> String {
    let h = &event.header;
    let mut text = format!(
        "tournament {}: {}, {}, {}, directed by {}",
        h.event,
        h.game,
        h.system,
        crate::cli::count(event.entrants.len(), "player"),
        h.director.name
    );
    if event.numbers.is_none() {
        text.push_str(&format!(": {}", event.stage()));
        return text;
    }
    // Always in this order, each said where there is one.
    let words = [
        "finished",
        "defaulted",
        "cancelled",
        "annulled",
        "in play",
        "not started",
        "disputed",
    ];
    let word = |state: &State| match state {
        State::Finished { .. } => 0,
        State::Defaulted(_) => 1,
        State::Cancelled => 2,
        State::Annulled => 3,
        State::Playing(_) => 4,
        State::NotStarted => 5,
        State::Disputed(_) => 6,
    };
    let mut counts = [0usize; 7];
    for board in &table.boards {
        counts[word(&board.state)] += 1;
    }
    if table.boards.iter().all(|b| b.files.is_empty()) {
        text.push_str(&format!(
            ": {}, none of whose games is among the files checked",
            crate::cli::count(table.boards.len(), "pairing")
        ));
        return text;
    }
    let parts: Vec<String> = counts
        .iter()
        .zip(words)
        .filter(|(n, _)| **n > 0)
        .map(|(n, w)| format!("{n} {w}"))
        .collect();
    text.push_str(&format!(
        ": {}: {}",
        crate::cli::count(table.boards.len(), "game"),
        parts.join(", ")
    ));
    if table.finished {
        text.push_str("; final");
    }
    text
}

/// An event as `verify --json` reports it.
#[derive(serde::Serialize)]
pub(crate) struct Report {
    event: String,
    event_id: String,
    game: String,
    system: &'static str,
    director: String,
    players: usize,
    stage: String,
    games: usize,
    settled: usize,
    finished: bool,
    /// A Swiss round whose signed input the games here do not give, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    unfounded: Option<String>,
}

/// The report of a valid event, with what `unfounded` says.
pub(crate) fn report(event: &Event, table: &Table, unfounded: Option<&String>) -> Report {
    Report {
        event: event.header.event.clone(),
        event_id: event.id.to_string(),
        game: event.header.game.clone(),
        system: event.header.system.name(),
        director: event.header.director.name.clone(),
        players: event.entrants.len(),
        stage: event.stage(),
        games: table.boards.len(),
        settled: table.boards.iter().filter(|b| b.state.settled()).count(),
        finished: table.finished,
        unfounded: unfounded.cloned(),
    }
}
