//! `status --json`: where a game stands as fields, for scripts (schemas/status.schema.json).
//! Seats are 0 for the creator and 1 for the opponent; times are RFC 3339, in UTC.

use crate::cli::shared::clocks::ClockReport;
use crate::cli::shared::game::CliGame;
use correspond::log::GameFile;
use correspond::replay::{Phase, Player, Replay, Seat};
use serde::Serialize;

#[derive(Serialize)]
pub(crate) struct Status {
    game: &'static str,
    game_id: String,
    variants: Vec<&'static str>,
    players: Vec<PlayerJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    arbiter: Option<ArbiterJson>,
    records: usize,
    last_time: String,
    position: String,
    phase: PhaseJson,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<ResultJson>,
    in_check: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    offer: Option<OfferJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    conditional: Option<ConditionalJson>,
    claimable: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next: Option<NextJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    clocks: Option<ClockReport>,
}

#[derive(Serialize)]
struct PlayerJson {
    seat: usize,
    name: String,
    /// `None` until a coin flip gives out the sides.
    side: Option<String>,
    fingerprint: String,
}

#[derive(Serialize)]
struct ArbiterJson {
    name: String,
    fingerprint: String,
}

#[derive(Serialize)]
struct PhaseJson {
    /// `accept`, `commit`, `nonce`, `reveal`, `choose`, `play` or `over`.
    kind: &'static str,
    /// The seat the game waits for; `None` once over.
    awaited_seat: Option<usize>,
    /// In words.
    words: String,
}

#[derive(Serialize)]
struct ResultJson {
    /// `None` for a draw.
    winner_seat: Option<usize>,
    winner_name: Option<String>,
    winner_side: Option<String>,
    winner_fingerprint: Option<String>,
    /// `resignation`, `rules`, `timeout`, `run-off` or `adjudication`.
    ending: &'static str,
    /// The outcome's code (`checkmate`, `fact-check`, ...) or the arbiter's reason.
    code: Option<&'static str>,
    words: String,
}

#[derive(Serialize)]
struct OfferJson {
    by_seat: usize,
    /// `draw` or `runoff`.
    settlement: &'static str,
    /// The command the other player runs to accept it.
    accept_command: String,
}

#[derive(Serialize)]
struct ConditionalJson {
    /// The author of the lines, whose replies they are.
    author_seat: usize,
    /// What is left of each line, in the file's notation: the opponent's expected move, the
    /// reply, and so on.
    lines: Vec<String>,
    /// The reply due now, in the file's notation, once the opponent's move has met a line.
    due: Option<String>,
    /// Where the lines are hidden: their commitment, and whether the author's answer is owed.
    hidden: Option<HiddenJson>,
    /// In words, in the game's own notation.
    words: String,
}

#[derive(Serialize)]
struct HiddenJson {
    /// The root of the lines' tree.
    commitment: String,
    /// Whether the opponent has moved, so that the author's reveal or disclosure is next.
    owed: bool,
}

#[derive(Serialize)]
struct NextJson {
    seat: usize,
    command: String,
}

fn player<S: std::fmt::Display>(seat: Seat, p: &Player<S>) -> PlayerJson {
    PlayerJson {
        seat: seat.index(),
        name: p.name.clone(),
        side: p.side.as_ref().map(ToString::to_string),
        fingerprint: p.fingerprint.clone(),
    }
}

/// The status of a replayed game as fields; `file` as the commands shown should name it.
pub(crate) fn status<G: CliGame>(file: &GameFile, replay: &Replay<G>, path: &str) -> Status {
    let last = replay.last();
    let (kind, awaited) = match &last.phase {
        Phase::AwaitingAccept(s) => ("accept", Some(*s)),
        Phase::AwaitingCommit(s) => ("commit", Some(*s)),
        Phase::AwaitingNonce(s) => ("nonce", Some(*s)),
        Phase::AwaitingReveal(s) => ("reveal", Some(*s)),
        Phase::Choosing(s) => ("choose", Some(*s)),
        Phase::Playing(s) => ("play", Some(*s)),
        Phase::Over(_) => ("over", None),
    };
    let result = match &last.phase {
        Phase::Over(verdict) => {
            let (ending, code) = verdict.codes();
            let winner = verdict.winner.map(|w| &replay.seats[w]);
            Some(ResultJson {
                winner_seat: verdict.winner.map(Seat::index),
                winner_name: winner.map(|p| p.name.clone()),
                winner_side: winner.and_then(|p| p.side.as_ref().map(ToString::to_string)),
                winner_fingerprint: winner.map(|p| p.fingerprint.clone()),
                ending,
                code,
                words: verdict.describe(&replay.seats),
            })
        }
        _ => None,
    };
    let playing = matches!(last.phase, Phase::Playing(_));
    let command = match crate::cli::shared::next::reply_command(replay, path) {
        Some((_, command)) => Some(command),
        None => crate::cli::shared::next::next_command(&last.phase, path),
    };
    Status {
        game: G::NAME,
        game_id: replay.game_id.to_string(),
        variants: G::OPTIONS
            .iter()
            .filter(|switch| (switch.get)(&replay.options))
            .map(|switch| switch.name)
            .collect(),
        players: Seat::BOTH
            .iter()
            .map(|s| player(*s, &replay.seats[*s]))
            .collect(),
        arbiter: replay.arbiter.as_ref().map(|a| ArbiterJson {
            name: a.name.clone(),
            fingerprint: a.fingerprint.clone(),
        }),
        records: replay.steps.len() - 1,
        last_time: file
            .records()
            .last()
            .map_or(file.header().created.as_str(), |r| r.time.as_str())
            .to_owned(),
        position: last.position.to_string(),
        phase: PhaseJson {
            kind,
            awaited_seat: awaited.map(Seat::index),
            words: last.phase.describe(&replay.seats),
        },
        result,
        in_check: playing && last.position.in_check(),
        offer: last.offer.map(|o| OfferJson {
            by_seat: o.by.index(),
            settlement: o.settlement.name(),
            accept_command: crate::cli::shared::next::accept_command(o.settlement, path),
        }),
        conditional: last.conditional.as_ref().map(|s| ConditionalJson {
            author_seat: s.author.index(),
            lines: s.lines.iter().map(|line| line.join(" ")).collect(),
            due: s.due.clone(),
            hidden: s.hidden.as_ref().map(|h| HiddenJson {
                commitment: h.commitment.to_string(),
                owed: h.owed,
            }),
            words: s.describe(&replay.seats, &last.position),
        }),
        claimable: match (&replay.line, playing) {
            (Some(line), true) => line.claimable().iter().map(ToString::to_string).collect(),
            _ => Vec::new(),
        },
        next: awaited.zip(command).map(|(seat, command)| NextJson {
            seat: seat.index(),
            command,
        }),
        clocks: replay.clocks.as_ref().map(ClockReport::of),
    }
}
