//! A replayed game summed up the same way for every game: what `verify` reports of each file.

use super::{Clocks, Phase, Protocol, Replay, Seat, TOSS};
use crate::digest::Digest;
use crate::log::{Header, Timestamp};

/// A replayed game summed up, the same for every game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The game's name.
    pub game: String,
    /// The game id.
    pub game_id: Digest,
    /// (name, side) of the creator, then the opponent.
    pub players: [(String, String); 2],
    /// The players' key fingerprints, in the same order.
    pub fingerprints: [String; 2],
    /// How many records follow the header.
    pub records: usize,
    /// How many moves were played (a turn of several moves counts each).
    pub moves: usize,
    /// The winning side, if the game is over and decided.
    pub winner: Option<String>,
    /// The winner's seat, if the game is over and decided.
    pub winner_seat: Option<Seat>,
    /// `None` while the game goes on.
    pub result: Option<String>,
    /// What the game waits for, or how it ended.
    pub status: String,
    /// The same, as a value: whom the game waits for, and for what.
    pub phase: Phase,
    /// The time of the last document (the header's, before any record), when the summary was
    /// made from a file.
    pub last_time: Option<Timestamp>,
    /// Each player's stake in cents (creator, opponent), when the game is played for stakes.
    pub stakes: Option<[u32; 2]>,
    /// The clocks after the last record, when the header sets a time control.
    pub clocks: Option<Clocks>,
    /// The conditional lines that stand after the last record, in words, if any.
    pub conditional: Option<String>,
    /// The header, when the summary was made from a file: its terms and tags (a tournament's
    /// game is proven to be its pairing from them).
    pub header: Option<Box<Header>>,
}

impl Summary {
    /// Sums up a replay.
    #[must_use]
    pub fn of<G: Protocol>(replay: &Replay<G>) -> Summary {
        let last = replay.last();
        let players = replay.seats.clone().map(|s| {
            (
                s.name,
                s.side
                    .map_or_else(|| TOSS.to_owned(), |side| side.to_string()),
            )
        });
        let (winner_seat, result) = match &last.phase {
            Phase::Over(v) => (v.winner, Some(v.describe(&replay.seats))),
            _ => (None, None),
        };
        let winner = winner_seat.map(|w| players[w].1.clone());
        Summary {
            game: G::NAME.to_owned(),
            game_id: replay.game_id,
            players,
            fingerprints: replay.seats.clone().map(|s| s.fingerprint),
            records: replay.steps.len() - 1,
            moves: replay.line.as_ref().map_or(0, |line| line.moves().len()),
            winner,
            winner_seat,
            result,
            status: last.phase.describe(&replay.seats),
            phase: last.phase.clone(),
            last_time: None,
            header: None,
            clocks: replay.clocks.clone(),
            conditional: last
                .conditional
                .as_ref()
                .map(|standing| standing.describe(&replay.seats, &last.position)),
            stakes: replay
                .line
                .as_ref()
                .and_then(|line| G::stakes(&replay.options, line))
                .map(|by_side| {
                    replay.seats.clone().map(|seat| {
                        let i = G::SIDES
                            .iter()
                            .position(|s| Some(*s) == seat.side)
                            .expect("once play has begun, each seat has a side");
                        by_side[i]
                    })
                }),
        }
    }
}
